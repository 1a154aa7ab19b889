// add1 compiled for every Highway target and called through HWY_DYNAMIC_DISPATCH: the
// comparison point for coheriq::call in dispatch_bench. Benchmark-only (links libhwy).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "dispatch_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// Must come after foreach_target.h.
#include <hwy/highway.h>

#include "dispatch_loop.hpp"

HWY_BEFORE_NAMESPACE();
namespace coheriq_bench {
namespace HWY_NAMESPACE {

// noipa: the compiler may not look into the callee (as for every mechanism measured).
__attribute__((noipa)) int Add1(int x) { return x + 1; }

}  // namespace HWY_NAMESPACE
}  // namespace coheriq_bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace coheriq_bench {

HWY_EXPORT(Add1);

void hwy_dynamic_dispatch(benchmark::State& state) {
  // The first call goes through Highway's initialization thunk; time only the steady state.
  benchmark::DoNotOptimize(HWY_DYNAMIC_DISPATCH(Add1)(0));
  dispatch_loop(state, [](int x) { return HWY_DYNAMIC_DISPATCH(Add1)(x); });
}

}  // namespace coheriq_bench
#endif  // HWY_ONCE

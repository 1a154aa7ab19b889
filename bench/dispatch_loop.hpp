// The one timed loop every dispatch mechanism of dispatch_bench runs: a chain of dependent
// calls of a tiny function (x = add1(x)), with a compiler memory barrier before each call so
// whatever the mechanism loads (a function pointer, a vtable, a dispatch table) is loaded
// again on every call, as it would be at a call site in real code.
#pragma once

#include <benchmark/benchmark.h>

namespace coheriq_bench {

inline constexpr int kCallsPerIteration = 16;

template <class Call>
inline void dispatch_loop(benchmark::State& state, Call&& call) {
  int x = 0;
  for (auto _ : state) {
    for (int i = 0; i < kCallsPerIteration; ++i) {
      benchmark::ClobberMemory();
      x = call(x);
    }
  }
  benchmark::DoNotOptimize(x);
  state.SetItemsProcessed(state.iterations() * kCallsPerIteration);
}

// HWY_DYNAMIC_DISPATCH of a per-target add1 (dispatch_hwy.cpp: it needs Highway's dispatch
// table, which lives in the translation unit that exports the function).
void hwy_dynamic_dispatch(benchmark::State& state);

}  // namespace coheriq_bench

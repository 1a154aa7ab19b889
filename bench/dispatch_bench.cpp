// dispatch_bench: what coheriq::call costs once its domain is locked, next to the other ways of
// calling a function chosen at run time. Every mechanism calls the same tiny function through
// the same loop (dispatch_loop.hpp); the report ends with the ratios the design sets
// as targets: coheriq::call within 5% of a raw function pointer, and at least 1.5x faster than
// Highway's HWY_DYNAMIC_DISPATCH.
#include <coheriq/domain.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch_loop.hpp"

namespace coheriq_bench {
namespace {

// ------------------------------ The implementations

// noipa: the compiler may neither inline nor look into the callee, whichever way it is called.
__attribute__((noipa)) int add1(int x) { return x + 1; }

// A one-candidate domain, defined here the way a library would define its own.
struct add1_candidate : coheriq::candidate<int(int)> {
  static constexpr std::string_view name = "add1";
};

constexpr coheriq::Override kReferenceTable[] = {coheriq::implement<add1_candidate, &add1>()};
constexpr coheriq::OverrideTable kReference = coheriq::table_of(kReferenceTable);

struct DispatchDomain {
  static constexpr std::string_view name = "coheriq.bench.dispatch";
  static constexpr std::string_view env_var = "";
  static constexpr std::string_view abi = "coheriq.bench.dispatch/1";
  using classes = coheriq::list<>;
  using candidates = coheriq::list<add1_candidate>;
  static const coheriq::OverrideTable& reference() { return kReference; }
  static std::vector<coheriq::EngineSpec> builtin_engines() { return {}; }
};

}  // namespace

// The raw pointer and the object of the virtual call have external linkage on purpose: in the
// anonymous namespace the compiler proves the pointer constant (and the class hierarchy closed)
// and turns both into direct calls, which is not what a run-time choice costs.
int (*raw_pointer)(int) = &add1;  // reloaded before each call by the loop's barrier

struct Adder {
  virtual ~Adder() = default;
  virtual int add(int x) const = 0;
};
struct Add1 final : Adder {
  __attribute__((noipa)) int add(int x) const override { return x + 1; }
};
const Add1 add1_object;
const Adder* adder = &add1_object;  // reloaded before each call, like the function pointer

namespace {

// ------------------------------ The benchmarks

void direct_call(benchmark::State& state) {
  dispatch_loop(state, [](int x) { return add1(x); });
}

void function_pointer(benchmark::State& state) {
  dispatch_loop(state, [](int x) { return raw_pointer(x); });
}

void virtual_call(benchmark::State& state) {
  dispatch_loop(state, [](int x) { return adder->add(x); });
}

void coheriq_call(benchmark::State& state) {
  // The first call settles and locks the domain; time the locked state only.
  benchmark::DoNotOptimize(coheriq::call<DispatchDomain, add1_candidate>(0));
  dispatch_loop(state, [](int x) { return coheriq::call<DispatchDomain, add1_candidate>(x); });
}

// ------------------------------ The ratios

// Keeps the console report and remembers each benchmark's time per call (the median over
// repetitions when there are several).
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const double ns_per_call = run.GetAdjustedCPUTime() /
                                 benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9 /
                                 kCallsPerIteration;
      const std::string family = run.run_name.function_name;
      if (run.run_type == Run::RT_Aggregate) {
        if (run.aggregate_name == "median") medians_[family] = ns_per_call;
      } else {
        singles_[family].push_back(ns_per_call);
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  // ns per call, or a negative value when the benchmark did not run (filtered out).
  double ns_per_call(const std::string& family) const {
    if (auto m = medians_.find(family); m != medians_.end()) return m->second;
    auto s = singles_.find(family);
    if (s == singles_.end() || s->second.empty()) return -1;
    std::vector<double> v = s->second;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }

 private:
  std::map<std::string, double> medians_;
  std::map<std::string, std::vector<double>> singles_;
};

void report_ratios(const RatioReporter& r) {
  const struct {
    const char* name;
    const char* label;
  } mechanisms[] = {{"direct_call", "direct call (noinline)"},
                    {"function_pointer", "raw function pointer"},
                    {"coheriq_call", "coheriq::call (locked)"},
                    {"virtual_call", "virtual call"},
                    {"hwy_dynamic_dispatch", "HWY_DYNAMIC_DISPATCH"}};
  std::printf("\ndispatch cost per call (cpu time, %s):\n",
              "median of repetitions where there are several");
  for (const auto& m : mechanisms) {
    const double ns = r.ns_per_call(m.name);
    if (ns > 0) std::printf("  %-26s %7.3f ns\n", m.label, ns);
  }
  const double call = r.ns_per_call("coheriq_call");
  const double raw = r.ns_per_call("function_pointer");
  const double hwy = r.ns_per_call("hwy_dynamic_dispatch");
  if (call > 0 && raw > 0) {
    const double ratio = call / raw;
    std::printf("  coheriq::call / raw function pointer  = %.3f  (target <= 1.05: %s)\n", ratio,
                ratio <= 1.05 ? "met" : "NOT met");
  }
  if (call > 0 && hwy > 0) {
    const double ratio = hwy / call;
    std::printf("  HWY_DYNAMIC_DISPATCH / coheriq::call  = %.3f  (target >= 1.5: %s)\n", ratio,
                ratio >= 1.5 ? "met" : "NOT met");
  }
}

}  // namespace
}  // namespace coheriq_bench

int main(int argc, char** argv) {
  using namespace coheriq_bench;
  // A nanosecond apart is within the noise of one run: by default, medians of 15 repetitions
  // shuffled together. Flags given on the command line come later and win.
  std::vector<char*> args = {argv[0]};
  std::string defaults[] = {"--benchmark_repetitions=15",
                            "--benchmark_enable_random_interleaving=true",
                            "--benchmark_report_aggregates_only=true"};
  for (std::string& d : defaults) args.push_back(d.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 2;
  benchmark::RegisterBenchmark("direct_call", direct_call);
  benchmark::RegisterBenchmark("function_pointer", function_pointer);
  benchmark::RegisterBenchmark("coheriq_call", coheriq_call);
  benchmark::RegisterBenchmark("virtual_call", virtual_call);
#ifdef COHERIQ_BENCH_WITH_HWY
  benchmark::RegisterBenchmark("hwy_dynamic_dispatch", hwy_dynamic_dispatch);
#else
  std::fprintf(stderr, "dispatch_bench: HWY_DYNAMIC_DISPATCH skipped (built without libhwy)\n");
#endif
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  report_ratios(reporter);
  benchmark::Shutdown();
  return 0;
}

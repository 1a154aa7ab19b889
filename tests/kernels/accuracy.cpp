// coheriq_accuracy: the largest error of each vector math function of the engine in effect
// (COHERIQ_ENGINE), in ulps against an oracle one precision up (math_catalog.hpp), and where it
// occurs. A table on stdout; exit 1 when a function exceeds its bound.
//
//   coheriq_accuracy [--function F]... [--type f32|f64] [--exhaustive] [--count N] [--stride S]
//                    [--threads N]
//
// Inputs: f32, every 1021st bit pattern (every S-th with --stride), or with --exhaustive all 2^32
// of them; f64 (and the
// binary functions of either type), N random bit patterns and N random draws from each of the
// function's ranges (N = 1M, or 100M with --exhaustive, or --count); and the special values.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "math_catalog.hpp"

namespace {

using namespace coheriq::kernels::testing;

struct Options {
  std::vector<std::string> functions;
  std::vector<std::string> types = {"f32", "f64"};
  bool exhaustive = false;
  std::size_t count = 0;      // 0: the default for the mode
  std::size_t stride = 1021;  // f32 bit patterns sampled
  unsigned threads = 1;
};

struct Result {
  double max_ulps = 0;
  std::string worst;
  std::uint64_t inputs = 0;
  std::uint64_t beyond_bound = 0;

  void offer(double ulps, const std::string& input) {
    if (ulps > max_ulps || worst.empty()) {
      max_ulps = ulps;
      worst = input;
    }
  }
  void merge(const Result& other) {
    if (!other.worst.empty()) offer(other.max_ulps, other.worst);
    inputs += other.inputs;
    beyond_bound += other.beyond_bound;
  }
};

template <class T>
std::string where(const MathFunction& f, T x, T y) {
  std::string s = show_value(x);
  if (f.arity == 2) s += ", " + show_value(y);
  return s;
}

template <class T>
void measure(const MathFunction& f, const T* x, const T* y, std::size_t n, Result& r) {
  std::vector<T> got(n);
  if (f.arity == 1) {
    f.kernels<T>().run(n, x, got.data());
  } else {
    f.kernels<T>().run2(n, x, y, got.data());
  }
  const double bound = f.bound<T>();
  for (std::size_t i = 0; i < n; ++i) {
    const T yi = f.arity == 2 ? y[i] : T(0);
    const double ulps = ulp_error(got[i], exact_value<T>(f, x[i], yi));
    if (ulps > r.max_ulps || r.worst.empty()) r.offer(ulps, where(f, x[i], yi));
    if (ulps > bound) ++r.beyond_bound;
  }
  r.inputs += n;
}

// Every f32 bit pattern, in blocks shared out to the threads.
Result exhaustive_f32(const MathFunction& f, unsigned threads) {
  constexpr std::uint64_t kBlock = 1 << 16;
  constexpr std::uint64_t kBlocks = (std::uint64_t{1} << 32) / kBlock;
  std::atomic<std::uint64_t> next{0};
  std::vector<Result> results(threads);
  std::vector<std::thread> team;
  for (unsigned t = 0; t < threads; ++t) {
    team.emplace_back([&, t] {
      std::vector<float> x(kBlock);
      for (std::uint64_t b; (b = next.fetch_add(1)) < kBlocks;) {
        for (std::uint64_t i = 0; i < kBlock; ++i) {
          const auto bits = static_cast<std::uint32_t>(b * kBlock + i);
          std::memcpy(&x[i], &bits, sizeof bits);
        }
        measure(f, x.data(), static_cast<const float*>(nullptr), kBlock, results[t]);
      }
    });
  }
  for (std::thread& th : team) th.join();
  Result total;
  for (const Result& r : results) total.merge(r);
  return total;
}

template <class T>
Result sampled(const MathFunction& f, std::size_t count, std::size_t stride, unsigned threads) {
  std::vector<T> x, y;
  if (f.arity == 1) {
    x = sweep_inputs<T>(f, stride, count, 29);
  } else {
    sweep_pairs<T>(f, count, 29, x, y);
  }
  const std::size_t n = x.size();
  std::vector<Result> results(threads);
  std::vector<std::thread> team;
  for (unsigned t = 0; t < threads; ++t) {
    team.emplace_back([&, t] {
      const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
      constexpr std::size_t kBlock = 1 << 16;
      for (std::size_t i = begin; i < end; i += kBlock) {
        const std::size_t m = std::min(kBlock, end - i);
        measure(f, x.data() + i, f.arity == 2 ? y.data() + i : nullptr, m, results[t]);
      }
    });
  }
  for (std::thread& th : team) th.join();
  Result total;
  for (const Result& r : results) total.merge(r);
  return total;
}

[[noreturn]] void usage(const std::string& problem) {
  std::string names;
  for (const MathFunction& f : math_functions())
    names += std::string(names.empty() ? "" : ", ") + f.name;
  std::fprintf(stderr,
               "coheriq_accuracy: %s\n"
               "usage: coheriq_accuracy [--function F]... [--type f32|f64] [--exhaustive] "
               "[--count N] [--stride S] [--threads N]\n"
               "functions: %s\n",
               problem.c_str(), names.c_str());
  std::exit(2);
}

std::size_t parse_count(std::string_view flag, const char* value) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(value, &end, 10);
  if (end == value || *end != '\0' || v == 0) {
    usage(std::string(flag) + " needs a positive integer, not '" + value + "'");
  }
  return static_cast<std::size_t>(v);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--function") {
      const char* name = value();
      if (find_math_function(name) == nullptr)
        usage(std::string("unknown function '") + name + "'");
      o.functions.emplace_back(name);
    } else if (arg == "--type") {
      const std::string type = value();
      if (type != "f32" && type != "f64") usage("--type is f32 or f64, not '" + type + "'");
      o.types = {type};
    } else if (arg == "--exhaustive") {
      o.exhaustive = true;
    } else if (arg == "--count") {
      o.count = parse_count(arg, value());
    } else if (arg == "--stride") {
      o.stride = parse_count(arg, value());
    } else if (arg == "--threads") {
      o.threads = static_cast<unsigned>(std::min<std::size_t>(parse_count(arg, value()), 256));
    } else if (arg == "--help" || arg == "-h") {
      usage(
          "the largest ulp error of each vector math function of the engine COHERIQ_ENGINE "
          "selects");
    } else {
      usage("unknown argument '" + std::string(arg) + "'");
    }
  }
  return o;
}

template <class T>
bool run_type(const Options& o, const std::string& type) {
  bool ok = true;
  for (const MathFunction& f : math_functions()) {
    if (!o.functions.empty() &&
        std::find(o.functions.begin(), o.functions.end(), f.name) == o.functions.end()) {
      continue;
    }
    if (!f.kernels<T>().present()) continue;
    const std::size_t count = o.count != 0 ? o.count : o.exhaustive ? 100000000 : 1000000;
    const bool all_floats = sizeof(T) == 4 && f.arity == 1 && o.exhaustive;
    Result r;
    if constexpr (sizeof(T) == 4) {
      r = all_floats ? exhaustive_f32(f, o.threads) : sampled<T>(f, count, o.stride, o.threads);
    } else {
      r = sampled<T>(f, count, o.stride, o.threads);
    }
    const bool within = r.beyond_bound == 0;
    ok = ok && within;
    std::printf(
        "%-12s %-4s %-12s %12llu  %-10s %-10s %s\n", f.name, type.c_str(),
        all_floats ? "all" : "sampled", static_cast<unsigned long long>(r.inputs),
        show_ulps(r.max_ulps).c_str(), show_ulps(f.bound<T>()).c_str(),
        (within ? "at " + r.worst
                : std::to_string(r.beyond_bound) + " inputs beyond the bound, worst at " + r.worst)
            .c_str());
    std::fflush(stdout);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::string engine;
  try {
    engine = coheriq::kernels::active_engine();
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "coheriq_accuracy: %s\n", e.what());
    return 1;
  }
  std::printf("engine %s; ulps of the result type against %s\n", engine.c_str(),
              "double (f32) and long double (f64) oracles");
  std::printf("%-12s %-4s %-12s %12s  %-10s %-10s %s\n", "function", "type", "inputs", "count",
              "max", "bound", "worst input");
  bool ok = true;
  for (const std::string& type : o.types) {
    ok = (type == "f32" ? run_type<float>(o, type) : run_type<double>(o, type)) && ok;
  }
  return ok ? 0 : 1;
}

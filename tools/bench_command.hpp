// `coheriq bench`: runs kernels_bench once per engine, each in its own process with
// COHERIQ_ENGINE set (activation is one-way), and prints one side-by-side table.
#pragma once

#include <string>
#include <vector>

namespace coheriq::tool {

struct BenchOptions {
  std::vector<std::string> engines;  // names, "auto" or "all"; empty means all
  std::vector<std::string> kernels;  // "dot" (every type) or "dot.f32"; empty means all
  std::vector<std::string> sizes;    // "1K", "64K", "16M", "256"; empty means the default set
  bool quick = false;                // warm sizes, gemm 256, short runs: under a minute
  std::string json;                  // output file, "-" for stdout, "" for none
  std::string chart;                 // SVG output file, "" for none
  bool quiet = false;                // no progress; with --json -, no table either
  int repetitions = 0;               // 0: the default (3)
  double min_time = 0;               // seconds per repetition; 0: the default
  int threads = 0;                   // 0: one thread, cpu time; N: coheriq and peers on N threads
  std::string command_line;          // recorded in the JSON
};

// Returns the exit code: 0 ok, 1 error (message on stderr), 2 usage.
int run_bench(const BenchOptions& options);

}  // namespace coheriq::tool

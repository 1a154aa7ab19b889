// The `coheriq` command: `coheriq info [--json]` and `coheriq bench [...]`.
// Exit codes: 0 ok, 1 error (message on stderr; a write error on stdout is one), 2 usage (the
// message names the flag or value).
#include <coheriq/coheriq.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "bench_command.hpp"
#include "info.hpp"
#include "output.hpp"

namespace {

// cpu_features prints a debug line to stdout on some aarch64 kernels while it detects the
// host; detection runs once per process, so running it here with stdout pointed at /dev/null
// keeps `--json` output machine-readable.
void detect_host_quietly() {
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  const int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved < 0 || devnull < 0) {
    if (saved >= 0) close(saved);
    if (devnull >= 0) close(devnull);
    return;
  }
  dup2(devnull, STDOUT_FILENO);
  try {
    (void)coheriq::host();
  } catch (const coheriq::Error&) {
    // A malformed COHERIQ_DISABLE_CPU_FEATURES: the subcommand reports it.
  }
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  close(devnull);
}

// A value that parses as a finite number: "nan" and "inf" are numbers to strtod, not durations.
const CLI::Validator finite_number(
    [](std::string& text) -> std::string {
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) {
        return "'" + coheriq::tool::shown(text) + "' is not a finite number";
      }
      return "";
    },
    "FINITE");

std::string command_line(int argc, char** argv) {
  std::string s = "coheriq";
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"coheriq: the engines of this host, and how fast each one runs the kernels",
               "coheriq"};
  // At most one command; none is checked after parsing, so that an unknown word is reported
  // by name ("not expected: frobnicate") rather than as a missing command.
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", COHERIQ_VERSION);

  bool info_json = false;
  CLI::App* info = app.add_subcommand(
      "info",
      "The host CPU, each domain and engine (supported or missing features, MRO, "
      "providers) and what COHERIQ_ENGINE selects now");
  info->add_flag("--json", info_json, "Print JSON instead of text");

  coheriq::tool::BenchOptions bench;
  CLI::App* bench_app = app.add_subcommand(
      "bench",
      "Run the kernel benchmarks once per engine (each in its own process) and print "
      "one table: time per call and speedup over reference, next to peer libraries");
  bench_app
      ->add_option("--engines", bench.engines,
                   "Engines to compare, comma-separated: names, auto (what COHERIQ_ENGINE=auto "
                   "picks) or all (every engine this host supports; the default). reference "
                   "always runs: speedups are against it")
      ->delimiter(',');
  bench_app
      ->add_option("--kernels", bench.kernels,
                   "Kernels, comma-separated: a kernel (e.g. dot, gemm), one type of one "
                   "(dot.f32), or a group (blas1, math, gemm, blas, small); an unknown name is "
                   "an error listing the kernels kernels_bench has")
      ->delimiter(',');
  bench_app
      ->add_option("--sizes", bench.sizes,
                   "Sizes, comma-separated: vector lengths 1K, 64K, 16M (math 4K, 64K), gemm "
                   "orders 256 to 4096 (gemv 256 to 8192, the level 3 1024, 2048, the "
                   "small group's batched products 4 to 128)")
      ->delimiter(',');
  bench_app->add_flag("--quick", bench.quick,
                      "Warm sizes, products of order 256 and small products of orders 8, 32, "
                      "128 only, short repetitions: a minute or two");
  bench_app
      ->add_option("--json", bench.json,
                   "Write JSON to FILE (- for stdout; the table then goes to stderr): "
                   "Google Benchmark's output of each run plus a summary")
      ->type_name("FILE");
  bench_app->add_option("--chart", bench.chart, "Write a bar chart of the speedups (SVG)")
      ->type_name("FILE.svg");
  bench_app->add_flag("--quiet", bench.quiet,
                      "No progress on stderr (and no table there with --json -)");
  bench_app
      ->add_option("--repetitions", bench.repetitions,
                   "Repetitions per benchmark; each cell is their median (default 3)")
      ->check(CLI::Range(1, 1000));
  bench_app
      ->add_option("--min-time", bench.min_time,
                   "Seconds per repetition (default 0.05, 0.01 with --quick)")
      ->check(finite_number)  // before the range, which NaN would pass (no comparison is true)
      ->check(CLI::Range(0.0, 1000.0));
  bench_app
      ->add_option(
          "--threads", bench.threads,
          "Run coheriq and the peers that can (OpenBLAS, BLIS, MKL) on N threads, timed in "
          "wall-clock time (default: one thread each, so the columns compare like "
          "with like)")
      ->type_name("N")
      ->check(CLI::Range(1, 1024));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "coheriq: " << e.what()
              << "\nRun 'coheriq --help' (or 'coheriq <command> "
                 "--help') for usage.\n";
    return 2;
  }

  if (app.get_subcommands().empty()) {
    std::cerr << "coheriq: a command is required: info or bench\n"
                 "Run 'coheriq --help' for usage.\n";
    return 2;
  }

  detect_host_quietly();
  if (info->parsed()) return coheriq::tool::finish_stdout(coheriq::tool::run_info(info_json));
  bench.command_line = command_line(argc, argv);
  return coheriq::tool::finish_stdout(coheriq::tool::run_bench(bench));
}

#include "bench_command.hpp"

#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_results.hpp"
#include "core/text.hpp"
#include "output.hpp"
#include "subprocess.hpp"
#include "svg_chart.hpp"

namespace coheriq::tool {
namespace {

using coheriq::detail::join;
using nlohmann::json;

// An error with its exit code: 1 for a failure, 2 for a malformed command line.
struct BenchError : std::runtime_error {
  BenchError(int code_, const std::string& message) : std::runtime_error(message), code(code_) {}
  int code;
};

constexpr int kDefaultRepetitions = 3;
constexpr double kQuickMinTime = 0.01;  // seconds per repetition
constexpr double kFullMinTime = 0.05;

// ------------------------------ Engines

HostSummary describe_host(const std::vector<EngineInfo>& engines) {
  const HostInfo h = coheriq::host();
  HostSummary s{h.brand, h.arch, h.features, h.disabled, std::string(REFERENCE), {}};
  // engines() lists the highest priority first: the first supported one is what auto picks.
  for (const EngineInfo& e : engines) {
    if (e.supported) {
      s.auto_engine = e.name;
      break;
    }
  }
  for (auto e = engines.rbegin(); e != engines.rend(); ++e) {
    for (const std::string& f : e->required_features) {
      if (std::find(s.key_features.begin(), s.key_features.end(), f) == s.key_features.end()) {
        s.key_features.push_back(f);
      }
    }
  }
  return s;
}

// The engines to run, reference first (every speedup is against it), then lowest priority
// first for "all", or in the order given.
std::vector<std::string> select_engines(const std::vector<std::string>& tokens,
                                        const std::vector<EngineInfo>& engines,
                                        const HostSummary& host) {
  std::vector<std::string> known, supported;
  for (const EngineInfo& e : engines) {
    known.push_back(e.name);
    if (e.supported) supported.push_back(e.name);
  }
  std::vector<std::string> chosen = {std::string(REFERENCE)};
  const auto add = [&](const std::string& name) {
    if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
  };
  if (tokens.empty() || std::find(tokens.begin(), tokens.end(), "all") != tokens.end()) {
    for (auto e = supported.rbegin(); e != supported.rend(); ++e) add(*e);
  }
  for (const std::string& token : tokens) {
    if (token == "all") continue;
    const std::string name = token == "auto" ? host.auto_engine : token;
    const auto info = std::find_if(engines.begin(), engines.end(),
                                   [&](const EngineInfo& e) { return e.name == name; });
    if (info == engines.end()) {
      throw BenchError(2, "--engines: unknown engine '" + shown(name, 200) +
                              "'; known engines: " + join(known) + " (or all, auto)");
    }
    if (!info->error.empty()) {
      throw BenchError(1, "engine " + shown(name) + " cannot be used: " + shown(info->error));
    }
    if (!info->supported) {
      std::vector<std::string> missing = info->missing_features;
      missing.insert(missing.end(), info->missing_host.begin(), info->missing_host.end());
      throw BenchError(1, "engine " + shown(name) + " is not supported on this host: missing " +
                              join(missing) + "; engines this host supports: " + join(supported));
    }
    add(name);
  }
  return chosen;
}

// ------------------------------ kernels_bench

std::string find_kernels_bench() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("COHERIQ_KERNELS_BENCH"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  const std::string self = executable_dir();
  if (!self.empty()) {
    for (const char* relative :
         {".", COHERIQ_BENCH_BUILD_RELATIVE, COHERIQ_BENCH_INSTALL_RELATIVE}) {
      candidates.push_back(self + "/" + relative + "/kernels_bench");
    }
  }
  for (const std::string& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return std::filesystem::weakly_canonical(c).string();
  }
  throw BenchError(1, "kernels_bench not found (looked in: " + join(candidates) +
                          "); build with -DCOHERIQ_BUILD_BENCH=ON (needs libbenchmark-dev), or "
                          "point COHERIQ_KERNELS_BENCH at it");
}

// COHERIQ_BENCH_LAUNCHER: words put before every kernels_bench command line (split at blanks,
// no quoting), e.g. "qemu-x86_64 -cpu Nehalem" to emulate the benchmark processes too.
std::vector<std::string> launcher() {
  std::vector<std::string> words;
  if (const char* env = std::getenv("COHERIQ_BENCH_LAUNCHER"); env != nullptr) {
    std::istringstream in(env);
    for (std::string w; in >> w;) words.push_back(w);
  }
  return words;
}

std::vector<std::string> launched(const std::vector<std::string>& argv) {
  std::vector<std::string> out = launcher();
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

struct Listing {
  std::vector<BenchName> names;  // in the order kernels_bench runs them
  std::map<std::string, KernelTraits> traits;
};

// Every benchmark kernels_bench has, as Google Benchmark lists them, and the traits of each
// kernel as kernels_bench describes them (--describe).
Listing list_benchmarks(const std::string& binary, bool quick) {
  std::vector<std::string> argv = {binary, "--benchmark_list_tests=true", "--describe"};
  if (quick) argv.emplace_back("--quick");
  Listing listing;
  const ChildResult r = run_child(launched(argv), {{"COHERIQ_ENGINE", std::string(REFERENCE)}},
                                  [&](const std::string& line) {
                                    BenchName name;
                                    std::string kernel;
                                    KernelTraits traits;
                                    if (parse_kernel_line(line, kernel, traits)) {
                                      listing.traits[kernel] = traits;
                                    } else if (parse_bench_name(line, name)) {
                                      listing.names.push_back(name);
                                    }
                                  });
  if (r.exit_code != 0 || listing.names.empty()) {
    throw BenchError(1, "cannot list the benchmarks of " + shown(binary) + " (exit " +
                            std::to_string(r.exit_code) + "):\n" + shown_tail(r.stderr_text));
  }
  return listing;
}

// "1K" -> 1024, "16M" -> 16777216, "256" -> 256.
std::size_t parse_size(const std::string& token) {
  std::size_t digits = 0;
  while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) {
    ++digits;
  }
  const std::string suffix = token.substr(digits);
  std::size_t scale = 0;
  if (suffix.empty()) scale = 1;
  if (suffix == "K" || suffix == "k") scale = std::size_t{1} << 10;
  if (suffix == "M" || suffix == "m") scale = std::size_t{1} << 20;
  if (digits == 0 || digits > 12 || scale == 0) {
    throw BenchError(2, "--sizes: '" + token + "' is not a size (examples: 1K, 64K, 16M, 256)");
  }
  return std::stoull(token.substr(0, digits)) * scale;
}

// The names the options select, in run order, with the STREAM-style references when a row
// they serve (a streaming size) is in.
std::vector<BenchName> select_benchmarks(const std::vector<BenchName>& all,
                                         const std::map<std::string, KernelTraits>& traits,
                                         const BenchOptions& options) {
  std::set<std::string> kernels, bases, groups;
  std::set<std::size_t> sizes_available;
  const auto group_of = [&](const BenchName& n) {
    const auto t = traits.find(n.kernel);
    return t == traits.end() ? std::string() : t->second.group;
  };
  for (const BenchName& n : all) {
    if (n.impl == "stream" || n.impl == "peak") continue;
    kernels.insert(n.kernel);
    bases.insert(n.base());
    if (!group_of(n).empty()) groups.insert(group_of(n));
    sizes_available.insert(n.size);
  }
  for (const std::string& k : options.kernels) {
    if (!kernels.count(k) && !bases.count(k) && !groups.count(k)) {
      throw BenchError(2, "--kernels: unknown kernel '" + shown(k, 200) + "'; kernels: " +
                              join(std::vector<std::string>(bases.begin(), bases.end())) +
                              " (or one type of one, e.g. dot.f32; or a group: " +
                              join(std::vector<std::string>(groups.begin(), groups.end())) + ")");
    }
  }
  std::set<std::size_t> sizes;
  for (const std::string& s : options.sizes) {
    const std::size_t n = parse_size(s);
    if (!sizes_available.count(n)) {
      std::vector<std::string> labels;
      for (std::size_t a : sizes_available) labels.push_back(std::to_string(a));
      throw BenchError(2, "--sizes: no benchmark has size " + s + " (" + std::to_string(n) +
                              "); sizes: " + join(labels));
    }
    sizes.insert(n);
  }
  const auto kernel_selected = [&](const BenchName& n) {
    if (options.kernels.empty()) return true;
    return std::any_of(options.kernels.begin(), options.kernels.end(), [&](const std::string& k) {
      return k == n.kernel || k == n.base() || k == group_of(n);
    });
  };
  std::vector<BenchName> chosen;
  std::size_t largest = 0;  // elements: an order n counts n·n
  for (const BenchName& n : all) {
    if (n.impl == "stream" || n.impl == "peak" || !kernel_selected(n)) continue;
    if (!sizes.empty() && !sizes.count(n.size)) continue;
    chosen.push_back(n);
    const auto t = traits.find(n.kernel);
    largest = std::max(largest, t == traits.end() ? n.size : elements(t->second, n.size));
  }
  if (chosen.empty()) {
    throw BenchError(2, "no benchmark matches --kernels " + shown(join(options.kernels, ","), 200) +
                            " --sizes " + shown(join(options.sizes, ","), 200) +
                            ": drop one of them, or pick a size each kernel has");
  }
  // The FMA peak, when a product (cubic work) is in: what its GFLOP/s are compared with.
  const bool product = std::any_of(chosen.begin(), chosen.end(), [&](const BenchName& n) {
    const auto t = traits.find(n.kernel);
    return t != traits.end() && t->second.work == "cubic";
  });
  for (const BenchName& n : all) {
    if (n.impl == "stream" && n.size <= largest) chosen.push_back(n);
    if (n.impl == "peak" && product) chosen.push_back(n);
  }
  return chosen;
}

// A Google Benchmark filter matching exactly these names ('.' escaped as [.]).
std::string exact_filter(const std::vector<BenchName>& names) {
  std::string regex = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) regex += '|';
    for (char c : names[i].str()) regex += c == '.' ? std::string("[.]") : std::string(1, c);
  }
  return regex + ")$";
}

// ------------------------------ Runs

struct Run {
  std::string engine;
  std::size_t engine_index = 0;  // 1-based, for the progress line
  std::vector<BenchName> names;
  int repetitions = 0;
  json output;  // Google Benchmark's JSON
  std::vector<std::string> argv;
};

// The reference's scalar kernels of cubic cost (gemm) take seconds per call from n = 1024 on:
// one repetition is enough to compare with engines a hundred times faster, and keeps the full
// run in minutes.
bool expensive_for_reference(const BenchName& n,
                             const std::map<std::string, KernelTraits>& traits) {
  const auto t = traits.find(n.kernel);
  return n.impl == "coheriq" && t != traits.end() && t->second.work == "cubic" && n.size >= 1024;
}
// From n = 4096 on a call would take minutes (f64: 137 G multiply-adds at about 0.5 GFLOP/s):
// the reference's cell stays empty, and the speedup column with it.
bool beyond_reference(const BenchName& n, const std::map<std::string, KernelTraits>& traits) {
  return expensive_for_reference(n, traits) && n.size >= 4096;
}

// The engine in whose process the peers run: the one `auto` selects here when it is among those
// benchmarked, else the last one named (the reference when it runs alone). The last column of
// the table sets the best engine against the fastest peer, usually auto's engine: sharing its
// process, they run on the same buffers (the same physical pages, which decide how an L2-sized
// operand falls on the cache's sets) in the same minutes, repetitions interleaved.
std::string peer_engine(const std::vector<std::string>& engines, const HostSummary& host) {
  if (std::find(engines.begin(), engines.end(), host.auto_engine) != engines.end()) {
    return host.auto_engine;
  }
  return engines.back();
}

std::vector<Run> plan_runs(const std::vector<std::string>& engines, const std::string& peer_run,
                           const std::vector<BenchName>& names,
                           const std::map<std::string, KernelTraits>& traits, int repetitions) {
  std::vector<Run> runs;
  for (std::size_t i = 0; i < engines.size(); ++i) {
    const std::string& engine = engines[i];
    Run main{engine, i + 1, {}, repetitions, {}, {}};
    Run slow{engine, i + 1, {}, 1, {}, {}};
    for (const BenchName& n : names) {
      // Peers run once, in the run of `peer_run`; the STREAM-style references and the FMA peak
      // in every run, so each engine is compared with what the machine delivered in its own run.
      const bool mine =
          n.impl == "coheriq" || n.impl == "stream" || n.impl == "peak" || engine == peer_run;
      if (!mine || (engine == REFERENCE && beyond_reference(n, traits))) continue;
      (engine == REFERENCE && expensive_for_reference(n, traits) ? slow : main).names.push_back(n);
    }
    if (!main.names.empty()) runs.push_back(std::move(main));
    if (!slow.names.empty()) runs.push_back(std::move(slow));
  }
  return runs;
}

// The progress line: engine i of n, the benchmark running now (kernels_bench --progress
// announces each one), how many have finished, and the time elapsed. On a terminal it is one
// line rewritten in place; in a log, one line every 10 seconds.
class Progress {
 public:
  Progress(bool enabled, std::size_t engines)
      : enabled_(enabled),
        tty_(isatty(STDERR_FILENO) != 0),
        engines_(engines),
        start_(Clock::now()) {}

  void start(const Run& run) {
    run_ = &run;
    done_.clear();
    running_ = run.names.empty() ? std::string() : run.names.front().str();
    show(true);
  }
  // A line kernels_bench wrote to stdout: an announcement, or a finished benchmark's report.
  void line(const std::string& text) {
    static const std::string announcement = "@progress ";
    if (text.compare(0, announcement.size(), announcement) == 0) {
      running_ = text.substr(announcement.size());
      show(false);
      return;
    }
    std::string first = text.substr(0, text.find(' '));
    for (const std::string suffix : {"_mean", "_median", "_stddev", "_cv"}) {
      if (first.size() > suffix.size() &&
          first.compare(first.size() - suffix.size(), suffix.size(), suffix) == 0) {
        first.resize(first.size() - suffix.size());
      }
    }
    BenchName name;
    if (parse_bench_name(first, name) && done_.insert(first).second) show(false);
  }
  void finish() {
    if (enabled_ && tty_) std::cerr << "\r\033[K" << std::flush;
  }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;

  void show(bool force) {
    if (!enabled_ || run_ == nullptr) return;
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last_shown_).count();
    if (!force && since < (tty_ ? 0.1 : 10.0)) return;
    last_shown_ = now;
    char elapsed_text[32];
    std::snprintf(elapsed_text, sizeof elapsed_text, "%.1fs", elapsed());
    std::ostringstream line;
    line << "coheriq bench: engine " << run_->engine_index << " of " << engines_ << " ("
         << run_->engine << "): " << running_ << " [" << done_.size() << "/" << run_->names.size()
         << " done], " << elapsed_text << " elapsed";
    if (tty_) {
      std::cerr << "\r\033[K" << line.str() << std::flush;
    } else {
      std::cerr << line.str() << "\n";
    }
  }

  bool enabled_, tty_;
  std::size_t engines_;
  Clock::time_point start_, last_shown_;
  const Run* run_ = nullptr;
  std::set<std::string> done_;
  std::string running_;
};

void execute(Run& run, const std::string& binary, const std::string& workdir, bool quick_sizes,
             double min_time, int threads, Progress& progress) {
  const std::string out =
      workdir + "/" + run.engine + "-" + std::to_string(run.repetitions) + ".json";
  char min_time_text[32];
  std::snprintf(min_time_text, sizeof min_time_text, "%g", min_time);
  run.argv = {binary, "--benchmark_filter=" + exact_filter(run.names),
              "--benchmark_repetitions=" + std::to_string(run.repetitions),
              // Repetitions of all benchmarks shuffled together: on a shared machine, every
              // cell (and the STREAM-style references) samples the same spells of contention.
              "--benchmark_enable_random_interleaving=true",
              std::string("--benchmark_min_time=") + min_time_text, "--benchmark_out=" + out,
              "--benchmark_out_format=json", "--benchmark_format=console",
              "--benchmark_color=false", "--progress"};
  if (quick_sizes) run.argv.emplace_back("--quick");
  if (threads > 0) run.argv.push_back("--threads=" + std::to_string(threads));
  run.argv = launched(run.argv);
  progress.start(run);
  std::vector<std::pair<std::string, std::string>> env = {{"COHERIQ_ENGINE", run.engine}};
  // OpenBLAS's workers spin for about 2^28 cycles after each of its calls (its default thread
  // timeout), and with repetitions interleaved they took the second core from whichever
  // benchmark ran next: dgemm at n = 2048 on 2 threads measured 135-238 GFLOP/s in the process
  // that ran OpenBLAS, 240-244 in one without. 2^4 cycles (the shortest it takes) puts them to
  // sleep at once, as coheriq's pool does; a value the user set is kept. The peers line says it.
  if (threads > 1 && std::getenv("OPENBLAS_THREAD_TIMEOUT") == nullptr) {
    env.emplace_back("OPENBLAS_THREAD_TIMEOUT", "4");
  }
  const ChildResult r =
      run_child(run.argv, env, [&](const std::string& line) { progress.line(line); });
  progress.finish();
  if (r.exit_code != 0) {
    // 132 = 128 + SIGILL: the usual way a binary built for a newer CPU ends.
    const std::string why =
        r.exit_code == 128 + SIGILL
            ? " (killed by SIGILL: it executed an instruction this CPU does not have; report it)"
            : "";
    throw BenchError(1, "kernels_bench failed under engine " + run.engine + " (exit " +
                            std::to_string(r.exit_code) + why + "):\n" + shown_tail(r.stderr_text));
  }
  std::ifstream in(out);
  try {
    run.output = json::parse(in);
  } catch (const json::exception& e) {
    throw BenchError(1, "kernels_bench under engine " + run.engine + " wrote unreadable JSON to " +
                            out + ": " + e.what());
  }
  const std::string reported = run.output.at("context").value("coheriq_engine", "");
  if (reported != run.engine) {
    throw BenchError(
        1, "kernels_bench ran engine '" + reported + "' when " + run.engine + " was asked for");
  }
}

// ------------------------------ Output

// Google Benchmark's benchmarks of every run in one list, coheriq's renamed after their engine
// ("dot.f32/1024/avx2"), so tools such as compare.py can compare columns of one file.
json merged_benchmarks(const std::vector<Run>& runs) {
  json merged = json::array();
  for (const Run& run : runs) {
    for (json b : run.output.at("benchmarks")) {
      const std::string run_name = b.value("run_name", "");
      const std::string suffix = "/coheriq";
      if (run_name.size() > suffix.size() &&
          run_name.compare(run_name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        const std::string renamed =
            run_name.substr(0, run_name.size() - suffix.size() + 1) + run.engine;
        b["name"] = renamed + b.value("name", run_name).substr(run_name.size());
        b["run_name"] = renamed;
      }
      merged.push_back(std::move(b));
    }
  }
  return merged;
}

// Writes `text` to `path` whole or not at all: through a temporary file in the same directory,
// renamed over `path` once complete, so a failure leaves no empty or truncated file behind.
// Special files (/dev/stdout, a FIFO) are written in place.
void write_file(const std::string& path, const std::string& text) {
  struct stat st {};
  const bool special = stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
  const std::string target = special ? path : path + ".coheriq-" + std::to_string(getpid());
  const int fd = special ? open(target.c_str(), O_WRONLY | O_CLOEXEC)
                         : open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  const auto fail = [&](int error) {
    if (!special && fd >= 0) unlink(target.c_str());  // only the temporary file made here
    throw BenchError(1, "cannot write " + shown(path) + ": " + std::strerror(error));
  };
  if (fd < 0) fail(errno);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      close(fd);
      fail(error);
    }
    done += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0) fail(errno);
  if (!special && std::rename(target.c_str(), path.c_str()) != 0) fail(errno);
}

// Fails before a long run, rather than after it, when an output file cannot be written. Creates
// nothing: a run that fails later leaves no file.
void check_writable(const std::string& path, const char* flag) {
  if (path.empty() || path == "-") return;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      throw BenchError(2, std::string(flag) + ": " + shown(path) + " is a directory; name a file");
    }
    if (access(path.c_str(), W_OK) != 0) {
      throw BenchError(
          1, std::string(flag) + ": cannot write " + shown(path) + ": " + std::strerror(errno));
    }
    return;
  }
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    throw BenchError(1, std::string(flag) + ": cannot create " + shown(path) + " (directory " +
                            shown(dir) + ": " + std::strerror(errno) + ")");
  }
}

// The syntax of --kernels tokens: "dot" or "dot.f32". Which kernels exist is known only from
// kernels_bench; this catches what can be caught before it is looked for.
void check_kernel_tokens(const std::vector<std::string>& tokens) {
  for (const std::string& k : tokens) {
    const bool ok =
        !k.empty() && k.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") == std::string::npos;
    if (!ok) {
      throw BenchError(2, "--kernels: '" + shown(k, 200) +
                              "' is not a kernel name (examples: dot, dot.f32, gemm)");
    }
  }
}

int bench(const BenchOptions& options) {
  // Usage first (exit 2), before anything is looked up or run: sizes, kernel names, engines.
  for (const std::string& s : options.sizes) (void)parse_size(s);
  check_kernel_tokens(options.kernels);
  for (const std::string& e : options.engines) {
    if (e.empty()) throw BenchError(2, "--engines: an empty engine name (a stray comma?)");
  }

  // Materializes the kernels domain in this process (never locks); a bad COHERIQ_ENGINE in the
  // caller's environment does not matter here: every run sets its own.
  try {
    (void)coheriq::kernels::active_engine();
  } catch (const coheriq::Error&) {
  }
  const std::vector<EngineInfo> infos = coheriq::engines(coheriq::kernels::domain_name);
  const HostSummary host = describe_host(infos);
  const std::vector<std::string> engines = select_engines(options.engines, infos, host);
  check_writable(options.json, "--json");
  check_writable(options.chart, "--chart");

  // From here on an interrupt (Ctrl-C) ends the children, and the temporary directory is
  // removed as the stack unwinds, before this process ends by the same signal.
  catch_interrupts();
  const std::string binary = find_kernels_bench();
  // The quick subset is kernels_bench's own (--quick), unless sizes are named explicitly.
  const bool quick_sizes = options.quick && options.sizes.empty();
  const Listing listing = list_benchmarks(binary, quick_sizes);
  const std::vector<BenchName> names = select_benchmarks(listing.names, listing.traits, options);

  RunSettings settings;
  settings.quick = options.quick;
  settings.repetitions = options.repetitions > 0 ? options.repetitions : kDefaultRepetitions;
  settings.min_time =
      options.min_time > 0 ? options.min_time : (options.quick ? kQuickMinTime : kFullMinTime);
  settings.command = options.command_line;
  settings.threads = options.threads;

  const std::string peers_run = peer_engine(engines, host);
  std::vector<Run> runs =
      plan_runs(engines, peers_run, names, listing.traits, settings.repetitions);
  const bool stdout_json = options.json == "-";
  Progress progress(!options.quiet, engines.size());
  const TempDir workdir;
  for (Run& run : runs)
    execute(run, binary, workdir.path(), quick_sizes, settings.min_time, options.threads, progress);

  throw_if_interrupted();

  Table table;
  table.engines = engines;
  table.peer_engine = peers_run;
  table.threads = options.threads > 0 ? static_cast<std::size_t>(options.threads) : 1;
  table.traits = listing.traits;
  for (const Run& run : runs) table.add_run(run.output, run.engine);
  std::vector<std::string> row_order;  // kernels_bench's own order
  for (const BenchName& n : names) row_order.push_back(n.kernel + "/" + std::to_string(n.size));
  table.sort_rows(row_order);
  // Peer columns in kernels_bench's order (interleaved runs report in a shuffled order).
  std::vector<std::string> peer_order;
  for (const BenchName& n : names) {
    if (std::find(table.peers.begin(), table.peers.end(), n.impl) != table.peers.end() &&
        std::find(peer_order.begin(), peer_order.end(), n.impl) == peer_order.end()) {
      peer_order.push_back(n.impl);
    }
  }
  table.peers = peer_order;
  std::map<std::string, std::string> peer_details;
  std::string peers_skipped;
  for (const Run& run : runs) {
    if (run.engine != peers_run) continue;
    for (const auto& [key, value] : run.output.at("context").items()) {
      if (key.rfind("peer_", 0) == 0 && value.is_string()) peer_details[key.substr(5)] = value;
      if (key == "peers_skipped" && value.is_string()) peers_skipped = value;
    }
  }

  const std::string text = render_table(table, host, settings, peer_details, peers_skipped);
  if (!stdout_json) {
    std::cout << text << std::flush;
  } else if (!options.quiet) {
    std::cerr << text << std::flush;
  }
  if (!options.quiet) {
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.1f", progress.elapsed());
    std::cerr << "coheriq bench: " << runs.size() << " kernels_bench runs in " << elapsed << " s\n";
  }

  if (!options.json.empty()) {
    json out;
    out["context"] = runs.front().output.at("context");
    out["context"]["coheriq_engines"] = engines;
    out["benchmarks"] = merged_benchmarks(runs);
    out["coheriq_bench"] = summary_json(table, host, settings, peer_details, peers_skipped);
    out["runs"] = json::array();
    for (const Run& run : runs) {
      out["runs"].push_back({{"engine", run.engine},
                             {"repetitions", run.repetitions},
                             {"arguments", run.argv},
                             {"output", run.output}});
    }
    if (stdout_json) {
      std::cout << dump_json(out) << "\n" << std::flush;
    } else {
      write_file(options.json, dump_json(out) + "\n");
    }
  }
  if (!options.chart.empty()) {
    const std::string subtitle =
        (host.brand.empty() ? host.arch : host.brand) +
        (settings.threads > 0 ? "; " + std::to_string(settings.threads) + " threads, wall"
                              : std::string("; cpu")) +
        " time per call, median of " + std::to_string(settings.repetitions) +
        " repetitions; engines: " + join(engines) +
        (table.peers.empty() ? std::string() : "; peers: " + join(table.peers));
    write_file(options.chart, render_svg_chart(table, subtitle));
  }
  return 0;
}

}  // namespace

int run_bench(const BenchOptions& options) {
  try {
    return bench(options);
  } catch (const Interrupted& e) {
    // The temporary directory is gone (unwound); outputs not yet written are not written.
    std::cerr << "\ncoheriq: bench: " << e.what() << "; no output written\n";
    die_by(e.signal);
  } catch (const BenchError& e) {
    std::cerr << "coheriq: bench: " << e.what() << "\n";
    return e.code;
  } catch (const std::exception& e) {
    std::cerr << "coheriq: bench: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace coheriq::tool

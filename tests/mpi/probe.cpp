// The MPI tests' program (tests/mpi/mpi.sh runs it under mpirun). Each rank writes one line to
// OUTDIR/rank.<rank>, so the script checks every rank, not only what reaches mpirun's output.
//
// usage: probe best
//          the highest-priority kernels engine this host supports (no MPI): the oracle of auto
//        probe best-reproducible
//          the same among the engines that honour the reproducible mode (no MPI)
//        probe offers-reproducible
//          exit 0 when the kernels domain offers the reproducible mode, 1 with the reason on
//          stderr when it does not (no MPI)
//        probe common OUTDIR [--lock RANK]
//          enable_common_engine on the kernels; RANK first uses the kernels (locking them).
//          "ok <returned> <active after a dot>", or "error <class> state=<state> <message>";
//          after "ok", OUTDIR/digest.<rank> holds a digest of the bits of a few kernels' results
//        probe threads OUTDIR [--set N]
//          share_node_threads after set_num_threads(N): "threads <n> cpus <mask> node <ranks>",
//          or "error <class> state=<state> <message>"
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <sched.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace ck = coheriq::kernels;

namespace {

std::string class_of(const std::exception& e) {
  if (dynamic_cast<const coheriq::UnsupportedEngineError*>(&e)) return "UnsupportedEngineError";
  if (dynamic_cast<const coheriq::UnknownEngineError*>(&e)) return "UnknownEngineError";
  if (dynamic_cast<const coheriq::EngineLockedError*>(&e)) return "EngineLockedError";
  if (dynamic_cast<const coheriq::Error*>(&e)) return "Error";
  return "other";
}

// OUTDIR/<file>.<rank>: one line.
void write_line(const std::string& dir, int rank, const std::string& line,
                const std::string& file = "rank") {
  const std::string path = dir + "/" + file + "." + std::to_string(rank);
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr || std::fprintf(f, "%s\n", line.c_str()) < 0 || std::fclose(f) != 0) {
    std::fprintf(stderr, "coheriq: probe: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

double one_dot() {
  std::vector<double> x(100, 0.5), y(100, 2.0);
  return ck::dot(x.size(), x.data(), y.data());
}

// FNV-1a over the bytes of results whose bits depend on the order of operations, which differs
// between engines unless the reproducible mode fixes it: long reductions, and a GEMM whose k
// exceeds one block.
std::string digest() {
  std::uint64_t h = 14695981039346656037ull;
  const auto add = [&](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  const std::size_t n = 10007;
  std::vector<double> x(n), y(n);
  std::vector<float> xf(n), yf(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = std::sin(0.37 * static_cast<double>(i)) * 1e3;
    y[i] = std::cos(1.13 * static_cast<double>(i)) / 7.0;
    xf[i] = static_cast<float>(x[i]);
    yf[i] = static_cast<float>(y[i]);
  }
  const double d = ck::dot(n, x.data(), y.data());
  const float f = ck::dot(n, xf.data(), yf.data());
  add(&d, sizeof(d));
  add(&f, sizeof(f));
  const std::size_t m = 37, cols = 29, k = 601;
  std::vector<double> a(m * k), b(k * cols), c(m * cols, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = x[i % n] / 3.0;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = y[(7 * i) % n];
  ck::gemm(ck::Trans::N, ck::Trans::N, m, cols, k, 1.0, a.data(), k, b.data(), cols, 0.0, c.data(),
           cols);
  add(c.data(), c.size() * sizeof(double));
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h));
  return text;
}

// The domain's state after the call. status() throws only for an open domain (its variable
// decides there, and may name an engine this rank lacks).
std::string state() {
  try {
    return coheriq::status(ck::domain_name).state;
  } catch (const coheriq::Error&) {
    return "open";
  }
}

int common(const std::string& dir, int rank, int lock) {
  if (rank == lock) (void)one_dot();
  try {
    const std::string engine = coheriq::mpi::enable_common_engine(MPI_COMM_WORLD, ck::domain_name);
    const bool right = one_dot() == 100.0;
    write_line(dir, rank, "ok " + engine + " " + ck::active_engine() + (right ? "" : " WRONG"));
    write_line(dir, rank, digest(), "digest");
    const auto report = coheriq::mpi::gather_report(MPI_COMM_WORLD, ck::domain_name);
    if (rank == 0) std::fputs(coheriq::mpi::format_report(report, ck::domain_name).c_str(), stdout);
    return right ? 0 : 1;
  } catch (const std::exception& e) {
    write_line(dir, rank, "error " + class_of(e) + " state=" + state() + " " + e.what());
    return 1;
  }
}

int threads(const std::string& dir, int rank, long set) {
  if (set > 0) ck::set_num_threads(static_cast<std::size_t>(set));
  std::size_t n = 0;
  try {
    n = coheriq::mpi::share_node_threads(MPI_COMM_WORLD);
  } catch (const std::exception& e) {
    write_line(dir, rank, "error " + class_of(e) + " state=" + state() + " " + e.what());
    return 1;
  }
  cpu_set_t mask;
  CPU_ZERO(&mask);
  sched_getaffinity(0, sizeof(mask), &mask);
  const auto report = coheriq::mpi::gather_report(MPI_COMM_WORLD, ck::domain_name);
  write_line(dir, rank,
             "threads " + std::to_string(n) + " cpus " + std::to_string(CPU_COUNT(&mask)) +
                 " node " + std::to_string(report[static_cast<std::size_t>(rank)].node_ranks) +
                 (n == ck::num_threads() ? "" : " MISMATCH"));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "best" && argc == 2) {
    (void)ck::active_engine();  // registers the domain (the variables are unset here)
    for (const auto& e : coheriq::engines(ck::domain_name)) {
      if (e.supported) {
        std::printf("%s\n", e.name.c_str());
        return 0;
      }
    }
    return 1;
  }
  if (mode == "best-reproducible" && argc == 2) {
    (void)ck::active_engine();
    for (const auto& e : coheriq::engines(ck::domain_name)) {
      if (e.supported && e.reproducible) {
        std::printf("%s\n", e.name.c_str());
        return 0;
      }
    }
    return 1;
  }
  if (mode == "offers-reproducible" && argc == 2) {
    // The kernels domain offers the mode (the reference engine's table for it): the tests of
    // the mode fail, never skip, when it does not.
    (void)ck::active_engine();
    const std::string var = coheriq::status(ck::domain_name).reproducible_env_var;
    try {
      ck::enable_reproducible();
    } catch (const coheriq::Error& e) {
      std::fprintf(stderr, "coheriq: probe: enabling the reproducible mode failed: %s\n", e.what());
      return 1;
    }
    if (var.empty()) {
      std::fprintf(stderr,
                   "coheriq: probe: the reproducible mode is on, but status()."
                   "reproducible_env_var is empty\n");
      return 1;
    }
    return 0;
  }
  if (mode == "supports" && argc == 3) {  // exit 0 when this host supports engine argv[2]
    (void)ck::active_engine();
    for (const auto& e : coheriq::engines(ck::domain_name)) {
      if (e.name == argv[2]) return e.supported ? 0 : 1;
    }
    return 1;
  }
  if ((mode != "common" && mode != "threads") || (argc != 3 && argc != 5)) {
    std::fprintf(stderr,
                 "coheriq: probe: usage: probe best | probe best-reproducible | probe "
                 "offers-reproducible | probe supports ENGINE | probe common OUTDIR [--lock RANK] "
                 "| probe threads OUTDIR [--set N]\n");
    return 2;
  }
  const long option = argc == 5 ? std::strtol(argv[4], nullptr, 10) : -1;
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int code = 1;
  try {
    code = mode == "common" ? common(argv[2], rank, static_cast<int>(option))
                            : threads(argv[2], rank, option);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "coheriq: probe: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}

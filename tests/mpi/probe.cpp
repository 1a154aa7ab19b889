// The MPI tests' program (tests/mpi/mpi.sh runs it under mpirun). Each rank writes one line to
// OUTDIR/rank.<rank>, so the script checks every rank, not only what reaches mpirun's output.
//
// usage: probe best
//          the highest-priority kernels engine this host supports (no MPI): the oracle of auto
//        probe common OUTDIR [--lock RANK]
//          enable_common_engine on the kernels; RANK first uses the kernels (locking them).
//          "ok <returned> <active after a dot>", or "error <class> state=<state> <message>"
//        probe threads OUTDIR [--set N]
//          share_node_threads after set_num_threads(N): "threads <n> cpus <mask> node <ranks>",
//          or "error <class> state=<state> <message>"
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <sched.h>

#include <cstdio>
#include <cstdlib>
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

void write_line(const std::string& dir, int rank, const std::string& line) {
  const std::string path = dir + "/rank." + std::to_string(rank);
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
  if (mode == "supports" && argc == 3) {  // exit 0 when this host supports engine argv[2]
    (void)ck::active_engine();
    for (const auto& e : coheriq::engines(ck::domain_name)) {
      if (e.name == argv[2]) return e.supported ? 0 : 1;
    }
    return 1;
  }
  if ((mode != "common" && mode != "threads") || (argc != 3 && argc != 5)) {
    std::fprintf(stderr,
                 "coheriq: probe: usage: probe best | probe supports ENGINE | probe common OUTDIR "
                 "[--lock RANK] | probe "
                 "threads OUTDIR [--set N]\n");
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

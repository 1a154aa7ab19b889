// coheriq-mpi-info: what each rank of a job supports and runs, for the job's log.
//
// usage: mpirun [...] coheriq-mpi-info [--domain NAME] [--no-enable]
//   Enables the common engine of the domain (coheriq.kernels by default) on every rank, as
//   coheriq::mpi::enable_common_engine does in a program (in the reproducible mode: each rank's
//   own), then rank 0 prints the report (docs/cluster.md). --no-enable reports what each rank
//   would run on its own instead.
//   Exit codes: 0 ok, 1 no common engine (the message on rank 0's stderr), 2 usage.
// The `coheriq` command does not link MPI; this separate program is its MPI counterpart.
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <cstdio>
#include <exception>
#include <string>

namespace {

int usage(int rank, const std::string& problem) {
  if (rank == 0) {
    std::fprintf(stderr,
                 "coheriq: coheriq-mpi-info: %s\nusage: mpirun [...] coheriq-mpi-info [--domain "
                 "NAME] [--no-enable]\n",
                 problem.c_str());
  }
  return 2;
}

int run(int argc, char** argv, int rank) {
  std::string domain(coheriq::kernels::domain_name);
  bool enable = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--domain" && i + 1 < argc) {
      domain = argv[++i];
    } else if (arg == "--no-enable") {
      enable = false;
    } else if (arg == "--help" || arg == "-h") {
      if (rank == 0) {
        std::printf(
            "usage: mpirun [...] coheriq-mpi-info [--domain NAME] [--no-enable]\n"
            "Enables the engine every rank supports (COHERIQ_ENGINE, else the best common one)\n"
            "on every rank (with COHERIQ_REPRODUCIBLE=1: each rank its own, the same bits), then\n"
            "prints each rank's host, engine, threads, supported engines and CPU features, and\n"
            "whether the reproducible mode is on (docs/cluster.md).\n"
            "  --domain NAME  the domain to report (default %s)\n"
            "  --no-enable    report what each rank would run on its own\n",
            std::string(coheriq::kernels::domain_name).c_str());
      }
      return 0;
    } else {
      return usage(rank, "unknown argument '" + arg + "'");
    }
  }
  std::string error;
  if (enable) {
    try {
      (void)coheriq::mpi::enable_common_engine(MPI_COMM_WORLD, domain);
    } catch (const std::exception& e) {
      error = e.what();  // the same on every rank
    }
  }
  const auto report = coheriq::mpi::gather_report(MPI_COMM_WORLD, domain);
  if (rank == 0) {
    std::fputs(coheriq::mpi::format_report(report, domain).c_str(), stdout);
    std::fflush(stdout);
    if (!error.empty()) std::fprintf(stderr, "%s\n", error.c_str());
  }
  return error.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int code = 1;
  try {
    code = run(argc, argv, rank);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
  }
  MPI_Finalize();
  return code;
}

// Links coheriq::mpi from an installed package (C++17): every rank enables the common engine and
// computes the same dot product on it.
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int code = 1;
  try {
    const std::string engine =
        coheriq::mpi::enable_common_engine(MPI_COMM_WORLD, coheriq::kernels::domain_name);
    std::vector<double> x(1001, 0.5), y(1001, 4.0);
    const double d = coheriq::kernels::dot(x.size(), x.data(), y.data());
    std::printf("rank %d: engine %s, dot %g\n", rank, engine.c_str(), d);
    code = d == 2002.0 && coheriq::kernels::active_engine() == engine ? 0 : 1;
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
  }
  MPI_Finalize();
  return code;
}

// A distributed conjugate-gradient solver on the kernels: A x = b, A dense, symmetric positive
// definite, its rows partitioned in blocks across the ranks (1-D).
//
//   A[i][i] = 2, A[i][j] = 0.5 / (1 + |i - j|)^2 otherwise. By Gershgorin every eigenvalue lies in
//   [2 - c, 2 + c] with c = pi^2/6 - 1 < 0.645, so cond(A) < 1.96 and CG converges in a few dozen
//   iterations. b = A x_true for a known x_true.
//
// Reproducibility: every rank runs the same engine (coheriq::mpi::enable_common_engine), and
// every global sum is deterministic: each rank's partial dot product is gathered and the partials
// are added in rank order, on every rank, instead of MPI_Allreduce (whose order is unspecified).
// So a run is bitwise identical to any other with the same rank count and engine (the checksum
// line). Other rank counts split the sums differently; the bound below covers that.
// With COHERIQ_REPRODUCIBLE=1 (the kernels' reproducible mode) enable_common_engine lets each rank
// keep its own best engine, and every engine that honours the mode gives the same bits: a run is
// then bitwise identical to any other with the same rank count, whatever engines the nodes run
// (the report's last line says that the mode is on; tests/mpi: mpi.solver.reproducible).
//
// Bound: CG stops when ||r|| <= 1e-12 ||b||, so ||x - x_true|| <= cond(A) 1e-12 ||x_true|| in exact
// arithmetic; the program requires ||x - x_true|| / ||x_true|| <= 5e-11 (a 25x margin for
// rounding in the recurrences), and hence two runs of any rank counts agree within 1e-10
// (relative, 2-norm), which --compare checks.
//
// usage: mpirun -np P mpi-solver [--n N] [--save FILE] [--compare FILE]
//   --save FILE     rank 0 writes the solution (one hex float per line)
//   --compare FILE  rank 0 checks the solution against one saved by another run (bound 1e-10)
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <cinttypes>
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

constexpr double kTolerance = 1e-12;   // on ||r|| / ||b||
constexpr double kErrorBound = 5e-11;  // on ||x - x_true|| / ||x_true||, per run
constexpr double kAgreeBound = 1e-10;  // between two runs (2 x kErrorBound)
constexpr int kMaxIterations = 200;

struct Partition {
  int rank = 0;
  int size = 1;
  std::size_t n = 0;
  std::vector<int> counts, offsets;  // rows of each rank
  std::size_t begin() const { return static_cast<std::size_t>(offsets[rank]); }
  std::size_t rows() const { return static_cast<std::size_t>(counts[rank]); }
};

Partition partition(std::size_t n, int rank, int size) {
  Partition p;
  p.rank = rank;
  p.size = size;
  p.n = n;
  for (int r = 0; r < size; ++r) {
    const std::size_t b = n * static_cast<std::size_t>(r) / static_cast<std::size_t>(size);
    const std::size_t e = n * static_cast<std::size_t>(r + 1) / static_cast<std::size_t>(size);
    p.offsets.push_back(static_cast<int>(b));
    p.counts.push_back(static_cast<int>(e - b));
  }
  return p;
}

// The deterministic global dot product: partials gathered, added in rank order.
double global_dot(const Partition& p, const double* x, const double* y) {
  const double mine = ck::dot(p.rows(), x, y);
  std::vector<double> partial(static_cast<std::size_t>(p.size));
  MPI_Allgather(&mine, 1, MPI_DOUBLE, partial.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
  double sum = 0;
  for (double v : partial) sum += v;
  return sum;
}

std::uint64_t fnv1a(const std::vector<double>& x) {
  std::uint64_t h = 14695981039346656037ull;
  for (double v : x) {
    unsigned char bytes[sizeof(double)];
    std::memcpy(bytes, &v, sizeof(v));
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  }
  return h;
}

double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

int usage(int rank, const std::string& why) {
  if (rank == 0) {
    std::fprintf(stderr,
                 "coheriq: mpi-solver: %s\nusage: mpirun -np P mpi-solver [--n N] [--save FILE] "
                 "[--compare FILE]\n",
                 why.c_str());
  }
  return 2;
}

int run(int argc, char** argv, int rank, int size) {
  std::size_t n = 600;
  std::string save, compare;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--n" && i + 1 < argc) {
      n = std::strtoull(argv[++i], nullptr, 10);
      if (n < static_cast<std::size_t>(size) || n > 20000) {
        return usage(rank, "--n must be between the rank count and 20000");
      }
    } else if (arg == "--save" && i + 1 < argc) {
      save = argv[++i];
    } else if (arg == "--compare" && i + 1 < argc) {
      compare = argv[++i];
    } else {
      return usage(rank, "unknown argument '" + arg + "'");
    }
  }

  // One engine everywhere (in the reproducible mode: each rank's own), or the same error
  // everywhere (then every rank returns 1). `engine` is this rank's; rank 0 prints its own.
  std::string engine;
  try {
    engine = coheriq::mpi::enable_common_engine(MPI_COMM_WORLD, ck::domain_name);
  } catch (const coheriq::Error& e) {
    if (rank == 0) std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  const auto report = coheriq::mpi::gather_report(MPI_COMM_WORLD, ck::domain_name);
  if (rank == 0) std::fputs(coheriq::mpi::format_report(report, ck::domain_name).c_str(), stdout);

  const Partition p = partition(n, rank, size);
  const std::size_t m = p.rows();
  std::vector<double> a(m * n), x_true(n);
  for (std::size_t j = 0; j < n; ++j) x_true[j] = 1.0 + std::sin(0.01 * static_cast<double>(j));
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t gi = p.begin() + i;
    for (std::size_t j = 0; j < n; ++j) {
      const double d = gi > j ? static_cast<double>(gi - j) : static_cast<double>(j - gi);
      a[i * n + j] = gi == j ? 2.0 : 0.5 / ((1.0 + d) * (1.0 + d));
    }
  }
  // b row by row (one dot each), the same on every rank count.
  std::vector<double> b(m);
  for (std::size_t i = 0; i < m; ++i) b[i] = ck::dot(n, &a[i * n], x_true.data());

  // CG from x = 0.
  std::vector<double> x(m, 0.0), r(b), dir(b), q(m), dir_full(n);
  double rr = global_dot(p, r.data(), r.data());
  const double bnorm = std::sqrt(rr);
  int iterations = 0;
  while (std::sqrt(rr) > kTolerance * bnorm && iterations < kMaxIterations) {
    MPI_Allgatherv(dir.data(), static_cast<int>(m), MPI_DOUBLE, dir_full.data(), p.counts.data(),
                   p.offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    // q = A_local * dir (m x n times n x 1)
    ck::gemm(ck::Trans::N, ck::Trans::N, m, 1, n, 1.0, a.data(), n, dir_full.data(), 1, 0.0,
             q.data(), 1);
    const double alpha = rr / global_dot(p, dir.data(), q.data());
    ck::axpy(m, alpha, dir.data(), x.data());
    ck::axpy(m, -alpha, q.data(), r.data());
    const double rr_next = global_dot(p, r.data(), r.data());
    ck::scal(m, rr_next / rr, dir.data());  // dir = r + beta dir
    ck::axpy(m, 1.0, r.data(), dir.data());
    rr = rr_next;
    ++iterations;
  }

  std::vector<double> solution(rank == 0 ? n : 0);
  MPI_Gatherv(x.data(), static_cast<int>(m), MPI_DOUBLE, solution.data(), p.counts.data(),
              p.offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank != 0) return 0;

  const double error = rel_diff(solution, x_true);
  std::printf(
      "mpi-solver: n=%zu ranks=%d engine=%s iterations=%d residual=%.3e error=%.3e "
      "checksum=%016" PRIx64 "\n",
      n, size, engine.c_str(), iterations, std::sqrt(rr) / bnorm, error, fnv1a(solution));
  int code = 0;
  if (std::sqrt(rr) > kTolerance * bnorm) {
    std::fprintf(stderr, "coheriq: mpi-solver: CG did not converge in %d iterations\n",
                 kMaxIterations);
    code = 1;
  }
  if (!(error <= kErrorBound)) {
    std::fprintf(stderr, "coheriq: mpi-solver: error %.3e exceeds the bound %.1e\n", error,
                 kErrorBound);
    code = 1;
  }
  if (!save.empty()) {
    FILE* f = std::fopen(save.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "coheriq: mpi-solver: cannot write '%s': %s; give a writable path\n",
                   save.c_str(), std::strerror(errno));
      return 1;
    }
    for (double v : solution) std::fprintf(f, "%a\n", v);
    if (std::fclose(f) != 0) {
      std::fprintf(stderr, "coheriq: mpi-solver: writing '%s' failed\n", save.c_str());
      return 1;
    }
  }
  if (!compare.empty()) {
    FILE* f = std::fopen(compare.c_str(), "r");
    if (f == nullptr) {
      std::fprintf(stderr, "coheriq: mpi-solver: cannot read '%s': %s; run with --save first\n",
                   compare.c_str(), std::strerror(errno));
      return 1;
    }
    std::vector<double> other;
    double v = 0;
    while (std::fscanf(f, "%la", &v) == 1) other.push_back(v);
    std::fclose(f);
    if (other.size() != n) {
      std::fprintf(stderr,
                   "coheriq: mpi-solver: '%s' holds %zu values, not %zu; save it with the same "
                   "--n\n",
                   compare.c_str(), other.size(), n);
      return 1;
    }
    const double diff = rel_diff(solution, other);
    std::printf("mpi-solver: agrees with %s: relative difference %.3e (bound %.0e)\n",
                compare.c_str(), diff, kAgreeBound);
    if (!(diff <= kAgreeBound)) {
      std::fprintf(stderr,
                   "coheriq: mpi-solver: the solution differs from '%s' by %.3e, over the "
                   "bound %.0e\n",
                   compare.c_str(), diff, kAgreeBound);
      code = 1;
    }
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 1;
  try {
    code = run(argc, argv, rank, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);  // a rank that fails alone must not leave the others waiting
  }
  MPI_Finalize();
  return code;
}

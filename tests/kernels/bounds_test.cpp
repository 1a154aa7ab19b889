// No kernel of the engine in effect reads or writes past the end of its arrays: every array a
// call reads or writes ends where an inaccessible page begins, at every length around the
// vector widths, so a vector tail that loads or stores a whole vector (instead of the lanes
// inside the array) faults. A fault prints the kernel and the length and fails the binary.
//
// A tail that reaches past the end is wrong even when the bytes there are written back
// unchanged: the array may end at a page the process cannot read, and the bytes past it may
// belong to another thread's data (another block of the same matrix, on the thread pool).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <coheriq/kernels.hpp>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "kernels/candidates.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

// ------------------------------ Arrays that end at a guard page

// count elements whose last one ends where a PROT_NONE page begins.
template <class T>
class Guarded {
 public:
  explicit Guarded(std::size_t count) : count_(count) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t bytes = (count * sizeof(T) + page - 1) / page * page;
    size_ = bytes + page;
    void* map = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(map != MAP_FAILED);
    base_ = static_cast<unsigned char*>(map);
    REQUIRE(mprotect(base_ + bytes, page, PROT_NONE) == 0);
    data_ = reinterpret_cast<T*>(base_ + bytes - count * sizeof(T));
    for (std::size_t i = 0; i < count; ++i) data_[i] = value(i);
  }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  ~Guarded() { munmap(base_, size_); }

  T* data() { return data_; }

 private:
  static T value(std::size_t i) {
    const double v = 0.25 + 0.5 * static_cast<double>(i % 7) / 7.0;
    if constexpr (std::is_same_v<T, std::complex<float>> ||
                  std::is_same_v<T, std::complex<double>>) {
      using R = typename T::value_type;
      return T(static_cast<R>(v), static_cast<R>(-v));
    } else {
      return static_cast<T>(v);
    }
  }

  std::size_t count_;
  std::size_t size_ = 0;
  unsigned char* base_ = nullptr;
  T* data_ = nullptr;
};

// ------------------------------ The fault report

// What runs now, for the handler (a fault cannot return to doctest).
char running[160] = "nothing";

extern "C" void on_fault(int) {
  static const char prefix[] = "coheriq test: a kernel touched the page past its array: ";
  (void)!write(2, prefix, sizeof prefix - 1);
  (void)!write(2, running, std::strlen(running));
  (void)!write(2, "\n", 1);
  _exit(1);
}

struct FaultReport {
  FaultReport() {
    struct sigaction action {};
    action.sa_handler = on_fault;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &segv_);
    sigaction(SIGBUS, &action, &bus_);
  }
  ~FaultReport() {
    sigaction(SIGSEGV, &segv_, nullptr);
    sigaction(SIGBUS, &bus_, nullptr);
  }
  FaultReport(const FaultReport&) = delete;
  FaultReport& operator=(const FaultReport&) = delete;

 private:
  struct sigaction segv_ {};
  struct sigaction bus_ {};
};

// n: the length, or m·1000 + n (and ·1000 + k) for a matrix kernel.
void now_running(const char* kernel, const char* type, std::size_t n) {
  std::snprintf(running, sizeof running, "%s.%s, size %zu", kernel, type, n);
}

// Every length from 0 to 67 (the tails of 4-, 8- and 16-lane vectors, 2 and 4 at a time), then
// some longer odd ones.
std::vector<std::size_t> lengths() {
  std::vector<std::size_t> n;
  for (std::size_t i = 0; i <= 67; ++i) n.push_back(i);
  for (std::size_t i : {101, 257, 1031}) n.push_back(i);
  return n;
}

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

// ------------------------------ The kernels

// A unary or binary vector function of the math group on the guarded arrays.
template <class T>
void call_math(void (*f)(std::size_t, const T*, T*), std::size_t n, T* x, T* y, T*) {
  f(n, x, y);
}
template <class T>
void call_math(void (*f)(std::size_t, const T*, const T*, T*), std::size_t n, T* x, T* y, T* z) {
  f(n, x, y, z);
}

template <class T>
void vector_kernels() {
  const FaultReport report;
  for (const std::size_t n : lengths()) {
    Guarded<T> x(n), y(n), z(n);
    const auto at = [&](const char* kernel) { now_running(kernel, type_name<T>(), n); };
    at("dot");
    (void)dot(n, x.data(), y.data());
    at("axpy");
    axpy(n, T(0.5), x.data(), y.data());
    at("scal");
    scal(n, T(0.5), y.data());
    at("sum");
    (void)sum(n, x.data());
    at("asum");
    (void)asum(n, x.data());
    at("nrm2");
    (void)nrm2(n, x.data());
    at("iamax");
    (void)iamax(n, x.data());
    at("copy_strided");
    copy_strided(n, x.data(), 1, y.data(), 1);
    at("swap_strided");
    swap_strided(n, x.data(), 1, y.data(), 1);
    at("rot_strided");
    rot_strided(n, x.data(), 1, y.data(), 1, T(0.6), T(0.8));
    at("axpy_dot_strided");
    (void)axpy_dot_strided(n, T(0.5), x.data(), 1, y.data(), 1, z.data(), 1);
#define COHERIQ_BOUNDS_MATH(op, S, impl, touches, R, params, args)             \
  if constexpr (std::is_same_v<T, float> == (std::string_view(#S) == "f32")) { \
    at(#op);                                                                   \
    call_math<T>(coheriq::kernels::op, n, x.data(), y.data(), z.data());       \
  }
    COHERIQ_KERNELS_MATH(COHERIQ_BOUNDS_MATH)
#undef COHERIQ_BOUNDS_MATH
  }
}

// The complex BLAS-1 on contiguous vectors (real and imaginary parts interleaved).
template <class R>
void complex_kernels() {
  using C = std::complex<R>;
  const FaultReport report;
  const char* type = sizeof(R) == 4 ? "c32" : "c64";
  for (const std::size_t n : lengths()) {
    Guarded<C> x(n), y(n);
    C result;
    now_running("dotu_strided", type, n);
    dotu_strided(n, x.data(), 1, y.data(), 1, &result);
    now_running("dotc_strided", type, n);
    dotc_strided(n, x.data(), 1, y.data(), 1, &result);
    now_running("axpy_strided", type, n);
    axpy_strided(n, C(R(0.5), R(0.25)), x.data(), 1, y.data(), 1);
    now_running("axpyc_strided", type, n);
    axpyc_strided(n, C(R(0.5), R(0.25)), x.data(), 1, y.data(), 1);
  }
}

TEST_CASE("vector kernels touch nothing past their arrays") {
  vector_kernels<float>();
  vector_kernels<double>();
  complex_kernels<float>();
  complex_kernels<double>();
}

// gemv, ger, trsm_rows and gemm (the small and the packed path) on matrices whose last row ends
// at the guard (leading dimension = row length), with guarded vectors; m and n around the tails.
template <class T>
void matrix_kernels() {
  const FaultReport report;
  const std::size_t orders[] = {1, 2, 3, 5, 7, 9, 13, 17, 23, 31, 33, 47, 67, 131};
  for (const std::size_t m : orders) {
    for (const std::size_t n : orders) {
      Guarded<T> a(m * n), x(n), y(m), xt(m), yt(n);
      now_running("gemv N", type_name<T>(), m * 1000 + n);
      gemv(Trans::N, m, n, T(0.5), a.data(), n, x.data(), 1, T(0.5), y.data(), 1);
      now_running("gemv T", type_name<T>(), m * 1000 + n);
      gemv(Trans::T, m, n, T(0.5), a.data(), n, xt.data(), 1, T(0.5), yt.data(), 1);
      now_running("ger", type_name<T>(), m * 1000 + n);
      ger(m, n, T(0.5), xt.data(), 1, x.data(), 1, a.data(), n);
      if (m <= 33) {  // trsm_rows: the base blocks are of order 32 at most
        Guarded<T> tri(m * m), b(m * n);
        for (std::size_t i = 0; i < m; ++i) tri.data()[i * m + i] = T(2);
        now_running("trsm_rows", type_name<T>(), m * 1000 + n);
        coheriq::call<Domain, typename Blas3BlockCandidates<T>::trsm_rows>(
            Uplo::Lower, Trans::N, Diag::NonUnit, m, n, T(0.5), tri.data(), m, b.data(), n);
      }
      for (const std::size_t k : {std::size_t{3}, std::size_t{37}}) {
        Guarded<T> ak(m * k), bk(k * n), c(m * n), akt(k * m), bkt(n * k);
        now_running("gemm NN", type_name<T>(), (m * 1000 + n) * 1000 + k);
        gemm(Trans::N, Trans::N, m, n, k, T(0.5), ak.data(), k, bk.data(), n, T(0.5), c.data(), n);
        now_running("gemm TT", type_name<T>(), (m * 1000 + n) * 1000 + k);
        gemm(Trans::T, Trans::T, m, n, k, T(0.5), akt.data(), m, bkt.data(), k, T(0.5), c.data(),
             n);
      }
    }
  }
}

TEST_CASE("matrix kernels touch nothing past their arrays") {
  matrix_kernels<float>();
  matrix_kernels<double>();
}

}  // namespace
}  // namespace coheriq::kernels::testing

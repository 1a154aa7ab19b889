// The reference engine's BLAS-1 kernels: scalar, compensated, baseline flags.
#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "kernels/candidates.hpp"
#include "reference/blas.hpp"
#include "reference/compensated.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::reference {
namespace {

// Element i of a strided vector (x points at element 0 whatever the sign of inc).
template <class T>
T& at(T* x, std::ptrdiff_t inc, std::size_t i) {
  return x[static_cast<std::ptrdiff_t>(i) * inc];
}

// f32: squares of f32 values are exact in f64 and their sum cannot overflow or underflow
// (FLT_MAX² ≈ 1.2e77, the smallest f32 denormal squared ≈ 2e-90), so no scaling is needed.
float nrm2_f32(std::size_t n, const float* x, std::ptrdiff_t incx) {
  CompensatedSum squares;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = at(x, incx, i);
    squares.add(v * v);
  }
  return static_cast<float>(std::sqrt(squares.value()));
}

// f64: two passes. The first finds max |x| (and NaN/Inf); the second sums the squares of x
// scaled by the power of two 2^-e that brings max |x| into [0.5, 1), so the sum lies in
// [0.25, n] whatever the input's range. Scaling by a power of two is exact for every element
// whose scaled value is normal; the others are below max|x|·2^-1021 and their squares cannot
// change the result.
double nrm2_f64(std::size_t n, const double* x, std::ptrdiff_t incx) {
  double largest = 0.0;
  bool infinite = false;
  for (std::size_t i = 0; i < n; ++i) {
    const double magnitude = std::fabs(at(x, incx, i));
    if (std::isnan(magnitude)) return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(magnitude)) {
      infinite = true;  // a later NaN still wins
    } else if (magnitude > largest) {
      largest = magnitude;
    }
  }
  if (infinite) return std::numeric_limits<double>::infinity();
  if (largest == 0.0) return 0.0;

  int exponent = 0;
  (void)std::frexp(largest, &exponent);  // largest = f·2^exponent, f in [0.5, 1)
  CompensatedSum squares;
  for (std::size_t i = 0; i < n; ++i) {
    const double scaled = std::ldexp(at(x, incx, i), -exponent);
    squares.add_product(scaled, scaled);
  }
  return std::ldexp(std::sqrt(squares.value()), exponent);
}

}  // namespace

// ------------------------------ Reductions

// Σ x·y, compensated: as if computed in twice f64 precision, then rounded to T.
template <class T>
T dot(std::size_t n, const T* x, const T* y) {
  CompensatedSum total;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, float>) {
      total.add(static_cast<double>(x[i]) * static_cast<double>(y[i]));  // exact in f64
    } else {
      total.add_product(x[i], y[i]);
    }
  }
  return static_cast<T>(total.value());
}

// Σ x, compensated.
template <class T>
T sum(std::size_t n, const T* x) {
  CompensatedSum total;
  for (std::size_t i = 0; i < n; ++i) total.add(x[i]);
  return static_cast<T>(total.value());
}

// Σ |x|, compensated.
template <class T>
T asum(std::size_t n, const T* x) {
  CompensatedSum total;
  for (std::size_t i = 0; i < n; ++i) total.add(std::fabs(x[i]));
  return static_cast<T>(total.value());
}

// √Σx² for any finite input without overflow or underflow; NaN if any x is NaN, else +Inf if
// any is infinite.
template <class T>
T nrm2(std::size_t n, const T* x) {
  if constexpr (std::is_same_v<T, float>) {
    return nrm2_f32(n, x, 1);
  } else {
    return nrm2_f64(n, x, 1);
  }
}

// The first index of the largest |x|; the first NaN if any; 0 when n == 0.
template <class T>
std::size_t iamax(std::size_t n, const T* x) {
  std::size_t best = 0;
  T best_magnitude = T(-1);  // below every |x|, so x[0] is taken first
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return i;
    const T magnitude = std::fabs(x[i]);
    if (magnitude > best_magnitude) {  // strictly greater: ties keep the first index
      best = i;
      best_magnitude = magnitude;
    }
  }
  return best;
}

// ------------------------------ Elementwise

// y = fma(a, x, y): one rounding per element. Allows y == x.
template <class T>
void axpy(std::size_t n, T a, const T* x, T* y) {
  // Fused, so each element is correctly rounded: the most accurate answer an engine can give.
  for (std::size_t i = 0; i < n; ++i) y[i] = std::fma(a, x[i], y[i]);
}

// x = a·x.
template <class T>
void scal(std::size_t n, T a, T* x) {
  for (std::size_t i = 0; i < n; ++i) x[i] = a * x[i];
}

// ------------------------------ Strided: the same sums and loops, element i at x[i * inc]

template <class T>
T dot_strided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y, std::ptrdiff_t incy) {
  CompensatedSum total;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, float>) {
      total.add(static_cast<double>(at(x, incx, i)) * static_cast<double>(at(y, incy, i)));
    } else {
      total.add_product(at(x, incx, i), at(y, incy, i));
    }
  }
  return static_cast<T>(total.value());
}

template <class T>
T asum_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  CompensatedSum total;
  for (std::size_t i = 0; i < n; ++i) total.add(std::fabs(at(x, incx, i)));
  return static_cast<T>(total.value());
}

template <class T>
T nrm2_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  if constexpr (std::is_same_v<T, float>) {
    return nrm2_f32(n, x, incx);
  } else {
    return nrm2_f64(n, x, incx);
  }
}

template <class T>
std::size_t iamax_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  std::size_t best = 0;
  T best_magnitude = T(-1);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = at(x, incx, i);
    if (std::isnan(v)) return i;
    if (std::fabs(v) > best_magnitude) {
      best = i;
      best_magnitude = std::fabs(v);
    }
  }
  return best;
}

// In order, element by element: an increment of 0 on y accumulates every update into y[0].
template <class T>
void axpy_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy) {
  for (std::size_t i = 0; i < n; ++i) at(y, incy, i) = std::fma(a, at(x, incx, i), at(y, incy, i));
}

// y := a·x + y, then Σ x_i·v_i: the two kernels above in turn (so v == y reads the updated y).
template <class T>
T axpy_dot_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy,
                   const T* v, std::ptrdiff_t incv) {
  axpy_strided(n, a, x, incx, y, incy);
  return dot_strided(n, x, incx, v, incv);
}

template <class T>
void scal_strided(std::size_t n, T a, T* x, std::ptrdiff_t incx) {
  for (std::size_t i = 0; i < n; ++i) at(x, incx, i) = a * at(x, incx, i);
}

// Data movement and plane rotations: the reference BLAS kernels of blas_level1.cpp, which the
// BLAS library's complex routines share (element by element, in order, so a 0 increment on a
// written vector leaves the last element's value).
template <class T>
void copy_strided(std::size_t n, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy) {
  blas::copy(n, x, incx, y, incy);
}

template <class T>
void swap_strided(std::size_t n, T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy) {
  blas::swap(n, x, incx, y, incy);
}

// (x_i, y_i) := (c·x_i + s·y_i, c·y_i − s·x_i), each product rounded, as the reference BLAS.
template <class T>
void rot_strided(std::size_t n, T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy, T c, T s) {
  blas::rot(n, x, incx, y, incy, c, s);
}

// ------------------------------ Complex (T the real type): the same, over std::complex<T>

// Σ conj?(x_i)·y_i, each part a compensated sum of the exact products (f32: products in f64).
template <class T>
std::complex<T> complex_dot(bool conj_x, std::size_t n, const std::complex<T>* x,
                            std::ptrdiff_t incx, const std::complex<T>* y, std::ptrdiff_t incy) {
  CompensatedSum re, im;
  const double sign = conj_x ? -1.0 : 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::complex<T> a = at(x, incx, i), b = at(y, incy, i);
    const double ar = a.real(), ai = sign * static_cast<double>(a.imag());
    const double br = b.real(), bi = b.imag();
    re.add_product(ar, br);
    re.add_product(-ai, bi);
    im.add_product(ar, bi);
    im.add_product(ai, br);
  }
  return {static_cast<T>(re.value()), static_cast<T>(im.value())};
}

template <class T>
void dotu_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                  const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result) {
  *result = complex_dot(false, n, x, incx, y, incy);
}
template <class T>
void dotc_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                  const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result) {
  *result = complex_dot(true, n, x, incx, y, incy);
}

// In order, element by element, the textbook product added to y_i (the reference BLAS's).
template <class T>
void axpy_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                  std::complex<T>* y, std::ptrdiff_t incy) {
  for (std::size_t i = 0; i < n; ++i) at(y, incy, i) += mul(a, at(x, incx, i));
}
template <class T>
void axpyc_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                   std::complex<T>* y, std::ptrdiff_t incy) {
  for (std::size_t i = 0; i < n; ++i) at(y, incy, i) += mul(a, std::conj(at(x, incx, i)));
}

// Explicit instantiations of every row of the candidate list this file implements.
#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_PUBLIC_TYPED(COHERIQ_REFERENCE_INSTANTIATE, float, f32)
COHERIQ_KERNELS_PUBLIC_TYPED(COHERIQ_REFERENCE_INSTANTIATE, double, f64)
COHERIQ_KERNELS_COMPLEX_TYPED(COHERIQ_REFERENCE_INSTANTIATE, float, c32)
COHERIQ_KERNELS_COMPLEX_TYPED(COHERIQ_REFERENCE_INSTANTIATE, double, c64)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference

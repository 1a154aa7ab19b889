// The reference engine's level-1 BLAS kernels beyond the kernels domain's candidates
// (src/reference/blas.hpp): copy, swap and the rotations in the four types, and the complex
// dot products, updates and reductions.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>

#include "reference/blas.hpp"

namespace coheriq::kernels::reference::blas {
namespace {

// Element i of a vector whose element 0 is x (any increment).
template <class T>
T& at(T* x, ptrdiff_t inc, size_t i) {
  return x[static_cast<ptrdiff_t>(i) * inc];
}

}  // namespace

template <class T>
void copy(size_t n, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy) {
  if (incx == 1 && incy == 1) {
    for (size_t i = 0; i < n; ++i) y[i] = x[i];
    return;
  }
  for (size_t i = 0; i < n; ++i) at(y, incy, i) = at(x, incx, i);
}

template <class T>
void swap(size_t n, T* x, ptrdiff_t incx, T* y, ptrdiff_t incy) {
  if (incx == 1 && incy == 1) {
    for (size_t i = 0; i < n; ++i) std::swap(x[i], y[i]);
    return;
  }
  for (size_t i = 0; i < n; ++i) std::swap(at(x, incx, i), at(y, incy, i));
}

template <class T>
void rot(size_t n, T* x, ptrdiff_t incx, T* y, ptrdiff_t incy, real_t<T> c, real_t<T> s) {
  for (size_t i = 0; i < n; ++i) {
    T& xi = at(x, incx, i);
    T& yi = at(y, incy, i);
    const T rotated = scale(c, xi) + scale(s, yi);
    yi = scale(c, yi) - scale(s, xi);
    xi = rotated;
  }
}

// param = (flag, h11, h21, h12, h22): flag -1 uses all of H, 0 takes h11 = h22 = 1, 1 takes
// h12 = 1 and h21 = -1, -2 is the identity.
template <class T>
void rotm(size_t n, T* x, ptrdiff_t incx, T* y, ptrdiff_t incy, const T* param) {
  const T flag = param[0];
  if (flag == T(-2)) return;
  const T h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
  for (size_t i = 0; i < n; ++i) {
    T& xi = at(x, incx, i);
    T& yi = at(y, incy, i);
    const T w = xi, z = yi;
    if (flag < T(0)) {
      xi = w * h11 + z * h12;
      yi = w * h21 + z * h22;
    } else if (flag == T(0)) {
      xi = w + z * h12;
      yi = w * h21 + z;
    } else {
      xi = w * h11 + z;
      yi = -w + h22 * z;
    }
  }
}

// Real: r = ±√(a² + b²) with the sign of the larger of a and b, c = a/r, s = b/r, and in b the
// reconstruction value z (s if |a| > |b|, else 1/c, or 1 when c is 0); the squares are taken
// of a and b scaled by the larger magnitude (kept within the normal range), so nothing
// overflows or underflows that need not. Complex: c real, s complex with c² + |s|² = 1, r
// (in a) = f·√(|f|² + |g|²)/|f|, b unchanged; magnitudes by hypot, which scales.
template <class T>
void rotg(T* a, T* b, real_t<T>* c, T* s) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    const T f = *a, g = *b;
    if (g == T(0)) {
      *c = R(1);
      *s = T(0);
      return;  // r = f
    }
    const R g_norm = std::hypot(g.real(), g.imag());
    if (f == T(0)) {
      *c = R(0);
      *s = T(g.real() / g_norm, -g.imag() / g_norm);
      *a = T(g_norm);
      return;
    }
    const R f_norm = std::hypot(f.real(), f.imag());
    const R h = std::hypot(f_norm, g_norm);
    const T phase(f.real() / f_norm, f.imag() / f_norm);  // f/|f|
    *c = f_norm / h;
    *s = mul(phase, T(g.real() / h, -g.imag() / h));
    *a = T(phase.real() * h, phase.imag() * h);
  } else {
    // The reference's scaling bounds: 2^-126 and 2^127 (float), 2^-1022 and 2^1023 (double).
    const R safe_min = std::numeric_limits<R>::min();
    const R safe_max = std::ldexp(R(1), std::numeric_limits<R>::max_exponent - 1);
    const R a_norm = std::fabs(*a), b_norm = std::fabs(*b);
    if (b_norm == R(0)) {
      *c = R(1);
      *s = R(0);
      *b = R(0);
      return;
    }
    if (a_norm == R(0)) {
      *c = R(0);
      *s = R(1);
      *a = *b;
      *b = R(1);
      return;
    }
    const R scl = std::min(safe_max, std::max({safe_min, a_norm, b_norm}));
    const R sigma = std::copysign(R(1), a_norm > b_norm ? *a : *b);
    const R as = *a / scl, bs = *b / scl;
    const R r = sigma * (scl * std::sqrt(as * as + bs * bs));
    *c = *a / r;
    *s = *b / r;
    R z = R(1);
    if (a_norm > b_norm) {
      z = *s;
    } else if (*c != R(0)) {
      z = R(1) / *c;
    }
    *a = r;
    *b = z;
  }
}

// The modified Givens rotation (Hammarling's, with the reference's rescaling by gamma = 4096 to
// keep d1 and |d2| within [gamma⁻², gamma²]; every rescaling turns the flag to -1, and, as in
// the reference, fills in the implied entries of H from the flag it finds at that moment).
template <class T>
void rotmg(T* d1, T* d2, T* x1, T y1, T* param) {
  constexpr T gamma = T(4096), gamma_sq = gamma * gamma, inv_gamma_sq = T(1) / gamma_sq;
  T flag = T(0), h11 = T(0), h12 = T(0), h21 = T(0), h22 = T(0);
  const auto zero_all = [&] {
    flag = T(-1);
    h11 = h12 = h21 = h22 = T(0);
    *d1 = *d2 = *x1 = T(0);
  };
  if (*d1 < T(0)) {
    zero_all();
  } else {
    const T p2 = *d2 * y1;
    if (p2 == T(0)) {
      param[0] = T(-2);
      return;
    }
    const T p1 = *d1 * *x1, q2 = p2 * y1, q1 = p1 * *x1;
    if (std::fabs(q1) > std::fabs(q2)) {
      h21 = -y1 / *x1;
      h12 = p2 / p1;
      const T u = T(1) - h12 * h21;
      if (u > T(0)) {
        flag = T(0);
        *d1 /= u;
        *d2 /= u;
        *x1 *= u;
      } else {
        zero_all();
      }
    } else if (q2 < T(0)) {
      zero_all();
    } else {
      flag = T(1);
      h11 = p1 / p2;
      h22 = *x1 / y1;
      const T u = T(1) + h11 * h22;
      const T d1_new = *d2 / u;
      *d2 = *d1 / u;
      *d1 = d1_new;
      *x1 = y1 * u;
    }
    // Rescaling: the entries H gets from the flag it has before each step.
    const auto fill_in = [&] {
      if (flag == T(0)) {
        h11 = h22 = T(1);
      } else {
        h21 = T(-1);
        h12 = T(1);
      }
      flag = T(-1);
    };
    if (*d1 != T(0)) {
      while (*d1 <= inv_gamma_sq || *d1 >= gamma_sq) {
        fill_in();
        if (*d1 <= inv_gamma_sq) {
          *d1 *= gamma_sq;
          *x1 /= gamma;
          h11 /= gamma;
          h12 /= gamma;
        } else {
          *d1 /= gamma_sq;
          *x1 *= gamma;
          h11 *= gamma;
          h12 *= gamma;
        }
      }
    }
    if (*d2 != T(0)) {
      while (std::fabs(*d2) <= inv_gamma_sq || std::fabs(*d2) >= gamma_sq) {
        fill_in();
        if (std::fabs(*d2) <= inv_gamma_sq) {
          *d2 *= gamma_sq;
          h21 /= gamma;
          h22 /= gamma;
        } else {
          *d2 /= gamma_sq;
          h21 *= gamma;
          h22 *= gamma;
        }
      }
    }
  }
  // Only the entries the flag does not imply are stored.
  if (flag < T(0)) {
    param[1] = h11;
    param[2] = h21;
    param[3] = h12;
    param[4] = h22;
  } else if (flag == T(0)) {
    param[2] = h21;
    param[3] = h12;
  } else {
    param[1] = h11;
    param[4] = h22;
  }
  param[0] = flag;
}

// ------------------------------ Complex

template <class T>
T dot(bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy) {
  T total(0);
  for (size_t i = 0; i < n; ++i) total += mul(conj_if(conj_x, at(x, incx, i)), at(y, incy, i));
  return total;
}

template <class T>
void axpy(size_t n, T alpha, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy) {
  if (abs1(alpha) == real_t<T>(0)) return;
  for (size_t i = 0; i < n; ++i) at(y, incy, i) += mul(alpha, at(x, incx, i));
}

template <class T>
void scal(size_t n, T alpha, T* x, ptrdiff_t incx) {
  for (size_t i = 0; i < n; ++i) at(x, incx, i) = mul(alpha, at(x, incx, i));
}

template <class T>
void scal_real(size_t n, real_t<T> alpha, T* x, ptrdiff_t incx) {
  for (size_t i = 0; i < n; ++i) at(x, incx, i) = scale(alpha, at(x, incx, i));
}

template <class T>
real_t<T> asum(size_t n, const T* x, ptrdiff_t incx) {
  real_t<T> total(0);
  for (size_t i = 0; i < n; ++i) total += abs1(at(x, incx, i));
  return total;
}

// complex<float>: the squares of float parts are exact in double and their sum cannot overflow
// or underflow. complex<double>: the parts are scaled by the power of two that brings the
// largest into [0.5, 1), so the sum of squares lies in [0.25, 2n].
template <class T>
real_t<T> nrm2(size_t n, const T* x, ptrdiff_t incx) {
  using R = real_t<T>;
  if constexpr (std::is_same_v<R, float>) {
    double squares = 0.0;
    bool infinite = false;
    for (size_t i = 0; i < n; ++i) {
      const double re = at(x, incx, i).real(), im = at(x, incx, i).imag();
      if (std::isnan(re) || std::isnan(im)) return std::numeric_limits<float>::quiet_NaN();
      if (std::isinf(re) || std::isinf(im)) infinite = true;
      squares += re * re + im * im;
    }
    if (infinite) return std::numeric_limits<float>::infinity();
    return static_cast<float>(std::sqrt(squares));
  } else {
    double largest = 0.0;
    bool infinite = false;
    for (size_t i = 0; i < n; ++i) {
      for (const double part : {at(x, incx, i).real(), at(x, incx, i).imag()}) {
        const double magnitude = std::fabs(part);
        if (std::isnan(magnitude)) return std::numeric_limits<double>::quiet_NaN();
        if (std::isinf(magnitude)) {
          infinite = true;
        } else {
          largest = std::max(largest, magnitude);
        }
      }
    }
    if (infinite) return std::numeric_limits<double>::infinity();
    if (largest == 0.0) return 0.0;
    int exponent = 0;
    (void)std::frexp(largest, &exponent);
    // 2^-exponent is a normal double (exponent <= 1024), so multiplying by it is exact for
    // every part whose scaled value is normal; smaller ones cannot change the sum.
    const double scale = exponent <= 1021 ? std::ldexp(1.0, -exponent) : 0.0;
    double squares = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const T v = at(x, incx, i);
      const double re = scale != 0.0 ? v.real() * scale : std::ldexp(v.real(), -exponent);
      const double im = scale != 0.0 ? v.imag() * scale : std::ldexp(v.imag(), -exponent);
      squares += re * re + im * im;
    }
    return std::ldexp(std::sqrt(squares), exponent);
  }
}

template <class T>
size_t iamax(size_t n, const T* x, ptrdiff_t incx) {
  if (n == 0) return 0;
  size_t best = 0;
  real_t<T> largest = abs1(at(x, incx, 0));
  for (size_t i = 1; i < n; ++i) {
    const real_t<T> magnitude = abs1(at(x, incx, i));
    if (magnitude > largest) {
      best = i;
      largest = magnitude;
    }
  }
  return best;
}

float sdsdot(size_t n, float sb, const float* x, ptrdiff_t incx, const float* y, ptrdiff_t incy) {
  double total = sb;
  for (size_t i = 0; i < n; ++i) total += double(at(x, incx, i)) * double(at(y, incy, i));
  return static_cast<float>(total);
}

double dsdot(size_t n, const float* x, ptrdiff_t incx, const float* y, ptrdiff_t incy) {
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) total += double(at(x, incx, i)) * double(at(y, incy, i));
  return total;
}

// ------------------------------ Instantiations

#define COHERIQ_BLAS1_ALL(T)                                                        \
  template void copy<T>(size_t, const T*, ptrdiff_t, T*, ptrdiff_t);                \
  template void swap<T>(size_t, T*, ptrdiff_t, T*, ptrdiff_t);                      \
  template void rot<T>(size_t, T*, ptrdiff_t, T*, ptrdiff_t, real_t<T>, real_t<T>); \
  template void rotg<T>(T*, T*, real_t<T>*, T*);                                    \
  template size_t iamax<T>(size_t, const T*, ptrdiff_t);
#define COHERIQ_BLAS1_REAL(T)                                            \
  template void rotm<T>(size_t, T*, ptrdiff_t, T*, ptrdiff_t, const T*); \
  template void rotmg<T>(T*, T*, T*, T, T*);
#define COHERIQ_BLAS1_COMPLEX(T)                                             \
  template T dot<T>(bool, size_t, const T*, ptrdiff_t, const T*, ptrdiff_t); \
  template void axpy<T>(size_t, T, const T*, ptrdiff_t, T*, ptrdiff_t);      \
  template void scal<T>(size_t, T, T*, ptrdiff_t);                           \
  template void scal_real<T>(size_t, real_t<T>, T*, ptrdiff_t);              \
  template real_t<T> asum<T>(size_t, const T*, ptrdiff_t);                   \
  template real_t<T> nrm2<T>(size_t, const T*, ptrdiff_t);
COHERIQ_BLAS1_ALL(float)
COHERIQ_BLAS1_ALL(double)
COHERIQ_BLAS1_ALL(std::complex<float>)
COHERIQ_BLAS1_ALL(std::complex<double>)
COHERIQ_BLAS1_REAL(float)
COHERIQ_BLAS1_REAL(double)
COHERIQ_BLAS1_COMPLEX(std::complex<float>)
COHERIQ_BLAS1_COMPLEX(std::complex<double>)
#undef COHERIQ_BLAS1_ALL
#undef COHERIQ_BLAS1_REAL
#undef COHERIQ_BLAS1_COMPLEX

}  // namespace coheriq::kernels::reference::blas

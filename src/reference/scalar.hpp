// Arithmetic shared by the reference engine's BLAS kernels (blas_level*.cpp) over the four BLAS
// types: float, double, std::complex<float>, std::complex<double>.
//
// Complex products and quotients are written out here rather than taken from std::complex's
// operators: those follow C's Annex G (a NaN product is recomputed to recover infinities, a
// library call), where Fortran, and so the reference BLAS, multiply with the textbook formula.
// The textbook formula is what the reference's special values come from, and it is inlined.
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

namespace coheriq::kernels::reference {

template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<T>::value;

// The real type of T (T itself when real).
template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
inline T conj(T x) {
  if constexpr (is_complex_v<T>) {
    return T(x.real(), -x.imag());
  } else {
    return x;
  }
}

// conj(x) when `c`, else x.
template <class T>
inline T conj_if(bool c, T x) {
  return c ? conj(x) : x;
}

template <class T>
inline real_t<T> real_part(T x) {
  if constexpr (is_complex_v<T>) {
    return x.real();
  } else {
    return x;
  }
}

// a·b with the textbook formula (complex), a·b (real).
template <class T>
inline T mul(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return a * b;
  }
}

// A complex value times a real one: each part scaled.
template <class T>
inline T scale(real_t<T> r, T a) {
  if constexpr (is_complex_v<T>) {
    return T(r * a.real(), r * a.imag());
  } else {
    return r * a;
  }
}

// a/b: Smith's scaling for complex (the ratio of b's smaller part to its larger), so that |b|²
// is never formed and cannot overflow or underflow, as gfortran divides.
template <class T>
inline T div(T a, T b) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    const R br = b.real(), bi = b.imag();
    if (std::fabs(br) >= std::fabs(bi)) {
      const R ratio = bi / br, d = br + bi * ratio;
      return T((a.real() + a.imag() * ratio) / d, (a.imag() - a.real() * ratio) / d);
    }
    const R ratio = br / bi, d = bi + br * ratio;
    return T((a.real() * ratio + a.imag()) / d, (a.imag() * ratio - a.real()) / d);
  } else {
    return a / b;
  }
}

// |re| + |im| (|x| for real): the BLAS's cheap complex magnitude (scabs1, icamax, scasum).
template <class T>
inline real_t<T> abs1(T x) {
  if constexpr (is_complex_v<T>) {
    return std::fabs(x.real()) + std::fabs(x.imag());
  } else {
    return std::fabs(x);
  }
}

template <class T>
inline bool is_zero(T x) {
  return x == T(0);
}
template <class T>
inline bool is_one(T x) {
  return x == T(1);
}

}  // namespace coheriq::kernels::reference

// The generic kernels of the reproducible mode: those whose fast order follows the vector width,
// written again in the domain's canonical order (kernels/reproducible.hpp), in the nested
// namespace `reproducible` that engine-table.h builds the mode's table from. Every other kernel
// is already the same on every engine (elementwise, the vector math, the level 3's base blocks
// with their order fixed per element, the level 2 and 3 built on these) and reaches the table
// through the using-directive below.
//
// The canonical reductions on P partials (256 bytes of them): an engine holds them in kV vectors
// of its width, kV · Lanes = P (4 zmm, 8 ymm, 16 NEON registers; on SVE as many as the run-time
// length needs: Highway uses its power-of-two part, so kV is 1, 2, 4, 8 or 16). Term i of a
// reduction goes to partial i mod P, that is lane i mod Lanes of vector (i mod P) / Lanes, whole
// blocks of P terms straight from memory; the last, partial block from a copy padded with zeros
// (a zero term leaves a partial unchanged: no masked loads, whose Highway 1.0.3 forms may read
// past the data for narrow lanes). Chunked inputs (strided, widened) carry the partials from chunk
// to chunk in memory, each chunk a whole number of blocks. The halving tree adds vectors kV/2
// apart, then kV/4, ..., then the lanes of the last vector in halves: the same additions in the
// same order on every width.
//
// Compiled in every engine's kernels TU, like the generic kernels it follows (ISA hygiene as
// blas1-inl.h: no std:: calls on scalars).
#ifndef COHERIQ_ENGINES_GENERIC_REPRODUCIBLE_INL_H_
#define COHERIQ_ENGINES_GENERIC_REPRODUCIBLE_INL_H_

#include <complex>
#include <cstddef>
#include <type_traits>

#include "engines/generic/blas1-inl.h"
#include "engines/generic/blas2-inl.h"
#include "engines/generic/blas3-inl.h"
#include "engines/generic/gemm-inl.h"
#include "engines/generic/math-inl.h"
#include "engines/generic/namespace.h"
#include "engines/generic/reduced-inl.h"
#include "kernels/reproducible.hpp"

COHERIQ_GENERIC_BEGIN

namespace reproducible {

// Every generic kernel not declared again below.
using namespace ::coheriq::kernels::COHERIQ_ENGINE_NS;
namespace engine = ::coheriq::kernels::COHERIQ_ENGINE_NS;
namespace canon = ::coheriq::kernels::canonical;

template <class T>
inline constexpr std::size_t kP = canon::kPartials<T>;

// The vectors that hold the P partials of T on a fixed-width target (4 zmm, 8 ymm, 16 NEON
// registers); 0 on a scalable one, whose count is known at run time (OnPartialVectors).
template <class T>
inline constexpr std::size_t kFixedPartialVectors = HWY_HAVE_SCALABLE
                                                        ? 0
                                                        : kP<T> /
                                                              hn::MaxLanes(hn::ScalableTag<T>());

// ------------------------------ The partials and the tree

// The P partials between the chunks of a reduction.
template <class T>
struct Partials {
  alignas(64) T s[kP<T>] = {};
};

// X(v) for each of the at most 16 partial vectors (vectors past kV are dead code).
#define COHERIQ_REPRO_VECTORS(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

// f(d, kV) with kV (an integral_constant) the vectors of d that hold the P partials of T.
template <class T, class F>
HWY_INLINE decltype(auto) OnPartialVectors(F f) {
  const hn::ScalableTag<T> d;
#if HWY_HAVE_SCALABLE
  switch (kP<T> / hn::Lanes(d)) {
    case 1:
      return f(d, std::integral_constant<std::size_t, 1>());
    case 2:
      return f(d, std::integral_constant<std::size_t, 2>());
    case 4:
      return f(d, std::integral_constant<std::size_t, 4>());
    case 8:
      return f(d, std::integral_constant<std::size_t, 8>());
    default:
      return f(d, std::integral_constant<std::size_t, 16>());
  }
#else
  constexpr std::size_t kV = kFixedPartialVectors<T>;
  static_assert(kV >= 1 && kV <= 16 && kV * hn::MaxLanes(hn::ScalableTag<T>()) == kP<T>,
                "the partials must fill 1 to 16 vectors");
  return f(d, std::integral_constant<std::size_t, kV>());
#endif
}

// The halving tree on the lanes of v down to kKeep lanes, into out[0, kKeep): lane j += lane
// j + h for h = Lanes/2, ..., kKeep. A fixed-width vector wider than 128 bits adds its upper half
// to its lower half in registers (storing a zmm and reading its lanes back stalls on the store);
// the last 128 bits, or a scalable vector, lane by lane.
template <std::size_t kKeep, class D, class T = hn::TFromD<D>>
HWY_INLINE void LaneTree(D d, hn::Vec<D> v, T* HWY_RESTRICT out) {
#if !HWY_HAVE_SCALABLE
  if constexpr (hn::MaxLanes(D()) * sizeof(T) > 16 && hn::MaxLanes(D()) / 2 >= kKeep) {
    const hn::Half<D> dh;
    return LaneTree<kKeep>(dh, hn::Add(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)), out);
  }
#endif
  HWY_ALIGN T lane[hn::MaxLanes(D())];
  hn::Store(v, d, lane);
  for (std::size_t h = hn::Lanes(d) / 2; h >= kKeep; h /= 2) {
    for (std::size_t j = 0; j < h; ++j) lane[j] = lane[j] + lane[j + h];
  }
  for (std::size_t j = 0; j < kKeep; ++j) out[j] = lane[j];
}

// The terms of each reduction.
struct FmaStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V a, V b) const {
    return hn::MulAdd(a, b, acc);
  }
};
struct AddStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V a, V) const {
    return hn::Add(acc, a);
  }
};
struct AbsStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V a, V) const {
    return hn::Add(acc, hn::Abs(a));
  }
};
// nrm2's sum of squares: fused.
struct SquareStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V a, V) const {
    return hn::MulAdd(a, a, acc);
  }
};
// The f32 fallback's squares in double: exact, so added (the same as fused).
struct WideSquareStep {
  template <class V>
  HWY_INLINE V operator()(V acc, V a, V) const {
    return hn::Add(acc, hn::Mul(a, a));
  }
};
// (x·scale_a·scale_b)² rounded, nrm2's rescaled sum of squares.
template <class T>
struct ScaledSquareStep {
  T scale_a, scale_b;
  template <class V>
  HWY_INLINE V operator()(V acc, V a, V) const {
    const hn::DFromV<V> d;
    a = hn::Mul(hn::Mul(a, hn::Set(d, scale_a)), hn::Set(d, scale_b));
    return hn::Add(acc, hn::Mul(a, a));
  }
};

// The end of the halving tree on at most four partial vectors (kV of them; the others unused),
// into out[0, kKeep).
template <std::size_t kV, std::size_t kKeep, class D, class V = hn::Vec<D>, class T = hn::TFromD<D>>
HWY_INLINE void TreeOfFour(D d, V a0, V a1, V a2, V a3, T* HWY_RESTRICT out) {
  if constexpr (kV >= 4) a0 = hn::Add(a0, a2), a1 = hn::Add(a1, a3);
  if constexpr (kV >= 2) a0 = hn::Add(a0, a1);
  LaneTree<kKeep>(d, a0, out);
}

// The canonical reduction of the n terms step(acc, x_i, y_i) (y may be x; element 0 is term 0 of
// a block: callers chunk at multiples of P), on kV vectors of d: whole blocks of P terms straight
// from x and y, the last, partial block from copies padded with zeros. The partials start at zero
// (kFresh) or from s; at the end they are stored to s (kKeep == 0: more chunks follow) or reduced
// by the halving tree down to kKeep (1, or 2 for the complex dots' even and odd sums) into
// out[0, kKeep). In registers throughout a single call: the tree costs a few cycles, not a trip
// through memory.
template <std::size_t kV, bool kFresh, std::size_t kKeep, class D, class T, class Step>
HWY_INLINE void Accumulate(D d, std::size_t n, const T* HWY_RESTRICT x, const T* HWY_RESTRICT y,
                           Step step, T* HWY_RESTRICT s, T* HWY_RESTRICT out) {
  const std::size_t lanes = hn::Lanes(d);
#define COHERIQ_REPRO_LOAD(v)               \
  [[maybe_unused]] auto a##v = hn::Zero(d); \
  if constexpr (!kFresh && v < kV) a##v = hn::Load(d, s + v * lanes);
  COHERIQ_REPRO_VECTORS(COHERIQ_REPRO_LOAD)
#undef COHERIQ_REPRO_LOAD
  const std::size_t blocks = n / kP<T>;
  for (std::size_t b = 0; b < blocks; ++b) {
    const T* HWY_RESTRICT xb = x + b * kP<T>;
    const T* HWY_RESTRICT yb = y + b * kP<T>;
#define COHERIQ_REPRO_TERM(v) \
  if constexpr (v < kV)       \
    a##v = step(a##v, hn::LoadU(d, xb + v * lanes), hn::LoadU(d, yb + v * lanes));
    COHERIQ_REPRO_VECTORS(COHERIQ_REPRO_TERM)
#undef COHERIQ_REPRO_TERM
  }
  if (const std::size_t done = blocks * kP<T>; done < n) {
    HWY_ALIGN T xb[kP<T>] = {};
    HWY_ALIGN T yb[kP<T>] = {};
    for (std::size_t i = done; i < n; ++i) {
      xb[i - done] = x[i];
      yb[i - done] = y[i];
    }
#define COHERIQ_REPRO_TERM(v) \
  if constexpr (v < kV) a##v = step(a##v, hn::Load(d, xb + v * lanes), hn::Load(d, yb + v * lanes));
    COHERIQ_REPRO_VECTORS(COHERIQ_REPRO_TERM)
#undef COHERIQ_REPRO_TERM
  }
  if constexpr (kKeep == 0) {
#define COHERIQ_REPRO_STORE(v) \
  if constexpr (v < kV) hn::Store(a##v, d, s + v * lanes);
    COHERIQ_REPRO_VECTORS(COHERIQ_REPRO_STORE)
#undef COHERIQ_REPRO_STORE
  } else {
    // The tree: vectors half the remaining count apart (partial j += partial j + h for h >=
    // Lanes), then the lanes of the last vector in halves.
    if constexpr (kV >= 16) {
      a0 = hn::Add(a0, a8), a1 = hn::Add(a1, a9), a2 = hn::Add(a2, a10), a3 = hn::Add(a3, a11);
      a4 = hn::Add(a4, a12), a5 = hn::Add(a5, a13), a6 = hn::Add(a6, a14), a7 = hn::Add(a7, a15);
    }
    if constexpr (kV >= 8) {
      a0 = hn::Add(a0, a4), a1 = hn::Add(a1, a5), a2 = hn::Add(a2, a6), a3 = hn::Add(a3, a7);
    }
    TreeOfFour<(kV < 4 ? kV : 4), kKeep>(d, a0, a1, a2, a3, out);
  }
}

#undef COHERIQ_REPRO_VECTORS

// Adds the n terms to the partials p (a chunk of a longer reduction).
template <class T, class Step>
HWY_INLINE void Reduce(std::size_t n, const T* x, const T* y, Step step, Partials<T>& p) {
  OnPartialVectors<T>([&](auto d, auto kv) HWY_ATTR {
    Accumulate<decltype(kv)::value, false, 0>(d, n, x, y, step, p.s, static_cast<T*>(nullptr));
  });
}

// The whole reduction of n terms, in one call.
template <class T, class Step>
HWY_INLINE T ReduceAll(std::size_t n, const T* x, const T* y, Step step) {
  T out[1];
  OnPartialVectors<T>([&](auto d, auto kv) HWY_ATTR {
    Accumulate<decltype(kv)::value, true, 1>(d, n, x, y, step, static_cast<T*>(nullptr), out);
  });
  return out[0];
}

// The tree of partials p down to `kKeep` values: Accumulate with no terms (its step unused).
template <std::size_t kKeep = 1, class T>
HWY_INLINE void Total(const Partials<T>& p, T* out) {
  OnPartialVectors<T>([&](auto d, auto kv) HWY_ATTR {
    constexpr const T* kNoTerms = nullptr;
    Accumulate<decltype(kv)::value, false, kKeep>(d, 0, kNoTerms, kNoTerms, AddStep(),
                                                  const_cast<T*>(p.s), out);
  });
}
template <class T>
HWY_INLINE T Total(const Partials<T>& p) {
  T out[1];
  Total<1>(p, out);
  return out[0];
}

// The n elements of two vectors of any increments, a chunk of kStridedChunk (a multiple of P)
// at a time: use(len, xs, ys) with contiguous copies (or the vectors themselves when contiguous).
template <class T, class Use>
HWY_INLINE void EachChunk(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                          std::ptrdiff_t incy, Use use) {
  static_assert(kStridedChunk % kP<T> == 0, "chunks are whole blocks of partials");
  if (incx == 1 && incy == 1) return use(n, x, y);
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    const T* xs = ElementPtr(x, incx, start);
    const T* ys = ElementPtr(y, incy, start);
    if (incx != 1) {
      GatherChunk(len, xs, incx, bx);
      xs = bx;
    }
    if (y == x && incy == incx) {
      ys = xs;
    } else if (incy != 1) {
      GatherChunk(len, ys, incy, by);
      ys = by;
    }
    use(len, xs, ys);
  }
}

// The chunked reduction of strided vectors, a function of its own: its gather buffers (16 KiB of
// stack) would otherwise make the frame of every contiguous call as large.
template <class T, class Step>
HWY_NOINLINE T ReduceChunks(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                            std::ptrdiff_t incy, Step step) {
  Partials<T> p;
  EachChunk(n, x, incx, y, incy,
            [&](std::size_t len, const T* xs, const T* ys) { Reduce(len, xs, ys, step, p); });
  return Total(p);
}

template <class T, class Step>
HWY_INLINE T ReduceStrided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                           std::ptrdiff_t incy, Step step) {
  if (incx == 1 && incy == 1) return ReduceAll(n, x, y, step);
  return ReduceChunks(n, x, incx, y, incy, step);
}

// ------------------------------ BLAS-1 reductions

template <class T>
HWY_ATTR T dot(std::size_t n, const T* x, const T* y) {
  return ReduceAll(n, x, y, FmaStep());
}
template <class T>
HWY_ATTR T sum(std::size_t n, const T* x) {
  return ReduceAll(n, x, x, AddStep());
}
template <class T>
HWY_ATTR T asum(std::size_t n, const T* x) {
  return ReduceAll(n, x, x, AbsStep());
}
template <class T>
HWY_ATTR T dot_strided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                       std::ptrdiff_t incy) {
  return ReduceStrided(n, x, incx, y, incy, FmaStep());
}
template <class T>
HWY_ATTR T asum_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  return ReduceStrided(n, x, incx, x, incx, AbsStep());
}
template <class T>
HWY_ATTR T axpy_dot_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y,
                            std::ptrdiff_t incy, const T* v, std::ptrdiff_t incv) {
  axpy_strided(n, a, x, incx, y, incy);
  return dot_strided(n, x, incx, v, incv);
}

// √Σx² as the fast nrm2 (blas1-inl.h), on canonical sums: the sum of squares in T; when it
// overflowed or may have underflowed, float sums in double (the elements widened a chunk at a
// time, P of double's partials: element i into partial i mod kPartials<double>), double rescales
// by a power of two near 1/max|x| (max is exact in any order).
template <class T>
HWY_NOINLINE T Nrm2Fallback(std::size_t n, const T* x, std::ptrdiff_t incx);

// nrm2's canonical sum of squares of x[0, n), n > kP, in its two parts, x[0, split) (whole
// blocks) and x[split, n) (as many blocks or one fewer), in one pass on the four partial vectors
// of each part: eight FMA chains on AVX-512, where one part's four would wait on the FMA latency.
// The second part's last blocks are padded with zeros (its squares' partials are never -0, so a
// block of zero terms changes nothing).
template <class D, class T>
HWY_INLINE T SumOfSquaresInOnePass(D d, std::size_t n, std::size_t split, const T* HWY_RESTRICT x) {
  static_assert(kFixedPartialVectors<T> == 4, "four partial vectors a part");
  const std::size_t lanes = hn::Lanes(d);
  const T* HWY_RESTRICT x2 = x + split;
  const std::size_t blocks = split / kP<T>, whole2 = (n - split) / kP<T>;
  auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  // The terms of one block at p into the partial vectors acc0 .. acc3.
#define COHERIQ_REPRO_SQUARES(acc, p)                                                  \
  {                                                                                    \
    const auto v0 = hn::LoadU(d, p), v1 = hn::LoadU(d, (p) + lanes);                   \
    const auto v2 = hn::LoadU(d, (p) + 2 * lanes), v3 = hn::LoadU(d, (p) + 3 * lanes); \
    acc##0 = hn::MulAdd(v0, v0, acc##0), acc##1 = hn::MulAdd(v1, v1, acc##1);          \
    acc##2 = hn::MulAdd(v2, v2, acc##2), acc##3 = hn::MulAdd(v3, v3, acc##3);          \
  }
  std::size_t block = 0;
  for (; block < whole2; ++block) {
    COHERIQ_REPRO_SQUARES(a, x + block * kP<T>)
    COHERIQ_REPRO_SQUARES(b, x2 + block * kP<T>)
  }
  for (; block < blocks; ++block) COHERIQ_REPRO_SQUARES(a, x + block * kP<T>)
  if (const std::size_t done = whole2 * kP<T>; split + done < n) {
    HWY_ALIGN T last[kP<T>] = {};
    for (std::size_t i = done; i < n - split; ++i) last[i - done] = x2[i];
    COHERIQ_REPRO_SQUARES(b, last)
  }
#undef COHERIQ_REPRO_SQUARES
  T first[1], second[1];
  TreeOfFour<4, 1>(d, a0, a1, a2, a3, first);
  TreeOfFour<4, 1>(d, b0, b1, b2, b3, second);
  return first[0] + second[0];
}

// nrm2's canonical sum of squares of a vector of any increment.
template <class T>
HWY_INLINE T SumOfSquares(std::size_t n, const T* x, std::ptrdiff_t incx) {
  const std::size_t split = canon::nrm2_split<T>(n);
  if (incx == 1) {
    // A single block is all in the first part (the second's +0 added changes nothing).
    if (split == n) return ReduceAll(n, x, x, SquareStep());
    // One pass where the registers hold both parts' partials (AVX-512: four vectors each),
    // else one part after the other.
    if constexpr (kFixedPartialVectors<T> == 4) {
      return SumOfSquaresInOnePass(hn::ScalableTag<T>(), n, split, x);
    }
    return ReduceAll(split, x, x, SquareStep()) +
           ReduceAll(n - split, x + split, x + split, SquareStep());
  }
  const T* second = ElementPtr(x, incx, split);
  return ReduceChunks(split, x, incx, x, incx, SquareStep()) +
         ReduceChunks(n - split, second, incx, second, incx, SquareStep());
}

template <class T>
HWY_INLINE T Nrm2(std::size_t n, const T* x, std::ptrdiff_t incx) {
  const T sumsq = SumOfSquares(n, x, incx);
  if (sumsq >= kNrm2SafeMinSumSq<T> && sumsq <= hwy::HighestValue<T>()) return ScalarSqrt(sumsq);
  if (sumsq != sumsq || n == 0) return sumsq;  // NaN in x; or n == 0 (sumsq == 0)
  return Nrm2Fallback(n, x, incx);
}

// The sum of squares out of range: apart, so that its buffers stay out of the common call.
template <class T>
HWY_NOINLINE T Nrm2Fallback(std::size_t n, const T* x, std::ptrdiff_t incx) {
  if constexpr (sizeof(T) == 4) {
    static_assert(kStridedChunk % kP<double> == 0, "chunks are whole blocks of partials");
    HWY_ALIGN double wide[kStridedChunk];
    Partials<double> p;
    // A chunk at a time whatever the increment: `wide` holds one chunk.
    for (std::size_t start = 0; start < n; start += kStridedChunk) {
      const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
      const float* xs = ElementPtr(x, incx, start);
      for (std::size_t i = 0; i < len; ++i) wide[i] = *ElementPtr(xs, incx, i);
      Reduce(len, wide, wide, WideSquareStep(), p);
    }
    return static_cast<float>(__builtin_sqrt(Total(p)));
  } else {
    const hn::ScalableTag<double> d;
    double amax = 0.0;
    EachChunk(n, x, incx, x, incx, [&](std::size_t len, const double* xs, const double*) HWY_ATTR {
      const double m = MaxAbs(d, len, xs);
      amax = m > amax ? m : amax;
    });
    if (amax == 0.0 || amax > hwy::HighestValue<double>()) return amax;  // all zero, or an Inf
    int e = 0;
    __builtin_frexp(amax, &e);
    const int e_half = e / 2;
    const ScaledSquareStep<double> step{__builtin_ldexp(1.0, -e_half),
                                        __builtin_ldexp(1.0, e_half - e)};
    return __builtin_ldexp(__builtin_sqrt(ReduceStrided(n, x, incx, x, incx, step)), e);
  }
}
template <class T>
HWY_ATTR T nrm2(std::size_t n, const T* x) {
  return Nrm2(n, x, 1);
}
template <class T>
HWY_ATTR T nrm2_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  return Nrm2(n, x, incx);
}

// ------------------------------ Complex dots

// The 2n interleaved reals: A = Σ x·y and B = Σ x·y' (y' = y with each pair swapped) lane by
// lane, each down to its even and odd sums; dotu = (A0 − A1, B0 + B1), dotc = (A0 + A1, B0 − B1).
template <bool kConj, class T>
HWY_INLINE void ComplexDot(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                           std::ptrdiff_t incy, T* result) {
  Partials<T> pa, pb;
  const auto both = [&](std::size_t len, const T* xs, const T* ys) HWY_ATTR {
    Reduce(2 * len, xs, ys, FmaStep(), pa);
    Reduce(
        2 * len, xs, ys,
        [](auto acc, auto a, auto b)
            HWY_ATTR { return hn::MulAdd(a, hn::Reverse2(hn::DFromV<decltype(b)>(), b), acc); },
        pb);
  };
  static_assert(2 * kComplexChunk % kP<T> == 0, "chunks are whole blocks of partials");
  EachComplexChunk(n, x, incx, y, incy, both);
  T a[2], b[2];
  Total<2>(pa, a);
  Total<2>(pb, b);
  result[0] = kConj ? a[0] + a[1] : a[0] - a[1];
  result[1] = kConj ? b[0] - b[1] : b[0] + b[1];
}

template <class T>
HWY_ATTR void dotu_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                           const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result) {
  ComplexDot<false>(n, reinterpret_cast<const T*>(x), incx, reinterpret_cast<const T*>(y), incy,
                    reinterpret_cast<T*>(result));
}
template <class T>
HWY_ATTR void dotc_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                           const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result) {
  ComplexDot<true>(n, reinterpret_cast<const T*>(x), incx, reinterpret_cast<const T*>(y), incy,
                   reinterpret_cast<T*>(result));
}

// ------------------------------ gemv

// The canonical dots of four rows (a, a + lda, ...) with x over n elements, into out[0, 4): the
// loads of x shared by the rows, on sixteen partial vectors (AVX-512, four per row); the last,
// partial block from copies padded with zeros, as Accumulate's.
template <class D, class T>
HWY_INLINE void DotFourRows(D d, std::size_t n, const T* HWY_RESTRICT a, std::size_t lda,
                            const T* HWY_RESTRICT x, T* HWY_RESTRICT out) {
  static_assert(kFixedPartialVectors<T> == 4, "four partial vectors a row");
  const std::size_t lanes = hn::Lanes(d);
  auto r0 = hn::Zero(d), r1 = r0, r2 = r0, r3 = r0, r4 = r0, r5 = r0, r6 = r0, r7 = r0;
  auto r8 = r0, r9 = r0, r10 = r0, r11 = r0, r12 = r0, r13 = r0, r14 = r0, r15 = r0;
  // Partial vector v of row q is r(4q + v).
  const auto block = [&](const T* HWY_RESTRICT ab, std::size_t ld, const T* HWY_RESTRICT xb)
                         HWY_ATTR {
#define COHERIQ_REPRO_ROWS(v, q0, q1, q2, q3)                             \
  {                                                                       \
    const auto xv = hn::LoadU(d, xb + v * lanes);                         \
    r##q0 = hn::MulAdd(xv, hn::LoadU(d, ab + v * lanes), r##q0);          \
    r##q1 = hn::MulAdd(xv, hn::LoadU(d, ab + ld + v * lanes), r##q1);     \
    r##q2 = hn::MulAdd(xv, hn::LoadU(d, ab + 2 * ld + v * lanes), r##q2); \
    r##q3 = hn::MulAdd(xv, hn::LoadU(d, ab + 3 * ld + v * lanes), r##q3); \
  }
                           COHERIQ_REPRO_ROWS(0, 0, 4, 8, 12)
                           COHERIQ_REPRO_ROWS(1, 1, 5, 9, 13)
                           COHERIQ_REPRO_ROWS(2, 2, 6, 10, 14)
                           COHERIQ_REPRO_ROWS(3, 3, 7, 11, 15)
#undef COHERIQ_REPRO_ROWS
                         };
  const std::size_t blocks = n / kP<T>;
  for (std::size_t b = 0; b < blocks; ++b) block(a + b * kP<T>, lda, x + b * kP<T>);
  if (const std::size_t done = blocks * kP<T>; done < n) {
    HWY_ALIGN T ab[4 * kP<T>] = {};
    HWY_ALIGN T xb[kP<T>] = {};
    for (std::size_t i = done; i < n; ++i) {
      xb[i - done] = x[i];
      for (std::size_t q = 0; q < 4; ++q) ab[q * kP<T> + i - done] = a[q * lda + i];
    }
    block(ab, kP<T>, xb);
  }
  TreeOfFour<4, 1>(d, r0, r1, r2, r3, out);
  TreeOfFour<4, 1>(d, r4, r5, r6, r7, out + 1);
  TreeOfFour<4, 1>(d, r8, r9, r10, r11, out + 2);
  TreeOfFour<4, 1>(d, r12, r13, r14, r15, out + 3);
}

// As the fast gemv (blas2-inl.h), with Trans::N in chunks of kGemvChunk columns for every
// increment: y_i = y_i + alpha·D, D the canonical dot of row i's chunk with x's, the chunks of a
// row in order. A contiguous x is read row by row (each row's chunks one after the other, as
// the fast kernel streams A), four rows at a time where the registers hold their partials
// (AVX-512); a strided x is gathered a chunk at a time, the rows of each chunk in turn.
// Trans::T is the same on every width already (each y_j an FMA chain over the rows in order).
template <class T>
HWY_ATTR void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda,
                   const T* x, std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy) {
  if (op == Trans::T) return engine::gemv(op, m, n, alpha, A, lda, x, incx, beta, y, incy);
  if (m == 0 || n == 0 || (alpha == T{0} && beta == T{1})) return;
  ScaleByBeta(m, beta, y, incy);
  if (alpha == T{0}) return;
  constexpr std::size_t kChunk = canon::kGemvChunk;
  static_assert(kChunk <= kStridedChunk, "gemv's chunk fits the gather buffer");
  // body(start, len) for each chunk of columns, in order.
  const auto each_chunk = [n](auto body) {
    for (std::size_t start = 0; start < n; start += kChunk) {
      body(start, n - start < kChunk ? n - start : kChunk);
    }
  };
  const auto update = [&](std::size_t i, T dot_of_chunk) {
    T* yi = ElementPtr(y, incy, i);
    *yi = *yi + alpha * dot_of_chunk;
  };
  if (incx == 1) {
    std::size_t i = 0;
    if constexpr (kFixedPartialVectors<T> == 4) {
      for (; i + 4 <= m; i += 4) {
        each_chunk([&](std::size_t start, std::size_t len) HWY_ATTR {
          T dots[4];
          DotFourRows(hn::ScalableTag<T>(), len, A + i * lda + start, lda, x + start, dots);
          for (std::size_t q = 0; q < 4; ++q) update(i + q, dots[q]);
        });
      }
    }
    for (; i < m; ++i) {
      each_chunk([&](std::size_t start, std::size_t len)
                     HWY_ATTR { update(i, dot(len, A + i * lda + start, x + start)); });
    }
    return;
  }
  HWY_ALIGN T buffer[kChunk];
  each_chunk([&](std::size_t start, std::size_t len) HWY_ATTR {
    GatherChunk(len, ElementPtr(x, incx, start), incx, buffer);
    for (std::size_t i = 0; i < m; ++i) update(i, dot(len, A + i * lda + start, buffer));
  });
}

// ------------------------------ GEMM: the domain's k-blocks (gemm-inl.h, kReproducible)

template <class T>
std::size_t gemm_workspace(std::size_t m, std::size_t n, std::size_t k) {
  return engine::gemm_workspace<T, true>(m, n, k);
}
template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
          void* workspace) {
  engine::gemm<T, true>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, workspace);
}
// The complex GEMM row (level3, forwarded-inl.h) shares the name: declared here too, so that
// reproducible::gemm names both overloads.
template <class T>
void gemm(Op opa, Op opb, std::size_t m, std::size_t n, std::size_t k, std::complex<T> alpha,
          const std::complex<T>* A, std::size_t lda, const std::complex<T>* B, std::size_t ldb,
          std::complex<T> beta, std::complex<T>* C, std::size_t ldc) {
  engine::gemm<T>(opa, opb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
template <class T>
void pack_b(Trans tb, std::size_t k, std::size_t n, const T* B, std::size_t ldb, void* packed,
            std::size_t part, std::size_t parts) {
  engine::pack_b<T, true>(tb, k, n, B, ldb, packed, part, parts);
}
template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc) {
  engine::gemm_packed<T, true>(ta, m, n, k, alpha, A, lda, packed, beta, C, ldc);
}
template <class T>
void pack_b_1m(Op op, bool conj_a, std::size_t k, std::size_t n, T alpha_re, T alpha_im, const T* B,
               std::size_t ldb, void* packed) {
  engine::pack_b_1m<T, true>(op, conj_a, k, n, alpha_re, alpha_im, B, ldb, packed);
}
template <class T>
bool gemm_plan(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
               void* plan) {
  return engine::gemm_plan<T, true>(ta, tb, m, n, k, lda, plan);
}
template <class T>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch, void* workspace) {
  engine::gemm_batch_strided<T, true>(ta, tb, m, n, k, alpha, A, lda, stride_a, B, ldb, stride_b,
                                      beta, C, ldc, stride_c, batch, workspace);
}
template <class T>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch, void* workspace) {
  engine::gemm_batch<T, true>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch,
                              workspace);
}
template <class T>
std::size_t gemmt_workspace(std::size_t n, std::size_t width, std::size_t k) {
  return engine::gemmt_workspace<T, true>(n, width, k);
}
template <class T>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
           void* workspace) {
  engine::gemmt<T, true>(uplo, ta, tb, n, width, k, alpha, A, lda, B, ldb, beta, C, ldc, workspace);
}
template <class T>
std::size_t gemm_1m_workspace(std::size_t m, std::size_t k) {
  return engine::gemm_1m_workspace<T, true>(m, k);
}
template <class T>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
             const void* packed, T beta, T* C, std::size_t ldc, void* workspace) {
  engine::gemm_1m<T, true>(ta, m, n, k, A, lda, packed, beta, C, ldc, workspace);
}
template <class T>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,
              const void* packed, T beta, T* C, std::size_t ldc, void* workspace) {
  engine::gemmt_1m<T, true>(uplo, ta, n, k, A, lda, packed, beta, C, ldc, workspace);
}
template <class T>
std::size_t symm_packed_workspace(Side side, std::size_t m, std::size_t n) {
  return engine::symm_packed_workspace<T, true>(side, m, n);
}
template <class T>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
                 void* workspace) {
  engine::symm_packed<T, true>(side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, workspace);
}
template <class T>
std::size_t trmm_packed_workspace(Side side, std::size_t m, std::size_t n) {
  return engine::trmm_packed_workspace<T, true>(side, m, n);
}
template <class T>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb, void* workspace) {
  engine::trmm_packed<T, true>(side, uplo, ta, diag, m, n, alpha, A, lda, B, ldb, workspace);
}
template <class T>
std::size_t trmm_1m_workspace(Side side, std::size_t m, std::size_t n) {
  return engine::trmm_1m_workspace<T, true>(side, m, n);
}
template <class T>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha_re,
             T alpha_im, const T* A, std::size_t lda, T* B, std::size_t ldb, void* workspace) {
  engine::trmm_1m<T, true>(side, uplo, op, diag, m, n, alpha_re, alpha_im, A, lda, B, ldb,
                           workspace);
}

// ------------------------------ bf16: the f32 kernels on the operands widened (each product
// exact in float)

HWY_ATTR float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::bfloat16_t, decltype(df)> dbf;
  const std::size_t lanes = hn::Lanes(df);
  HWY_ALIGN float wx[kStridedChunk];
  HWY_ALIGN float wy[kStridedChunk];
  const auto widen = [&](std::size_t len, const bfloat16* from, float* to) HWY_ATTR {
    std::size_t i = 0;
    for (; i + lanes <= len; i += lanes) {
      hn::Store(hn::PromoteTo(df, hn::LoadU(dbf, HwyBF16(from) + i)), df, to + i);
    }
    for (; i < len; ++i) to[i] = BF16ToFloat(from[i]);
  };
  Partials<float> p;
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    widen(len, x + start, wx);
    widen(len, y + start, wy);
    Reduce(len, wx, wy, FmaStep(), p);
  }
  return Total(p);
}

// The canonical float GEMM on the operands widened (gemm-inl.h, GemmBf16), with its workspace.
HWY_ATTR std::size_t gemm_workspace_bf16(std::size_t m, std::size_t n, std::size_t k) {
  return GemmWorkspaceBf16<true>(m, n, k);
}
HWY_ATTR void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
                        std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
                        std::size_t ldc, void* work) {
  GemmBf16<true>(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, work);
}

// ------------------------------ softmax and log_softmax: the sum of the exponentials

// Σ e_i in double (e_i widened), kPartials<double> partials held in memory, term i into partial
// i mod P as the exponentials arrive (a vector of the T lanes from element i, i a multiple of the
// lane count); float terms by plain double additions, double terms with their rounding errors
// (each partial a pair hi + lo, TwoSum). The halving tree then combines the partials (pairs:
// (h, e) = TwoSum(h_j, h_j+h), l_j = (l_j + l_j+h) + e) into hi + lo.
template <class T>
struct ExpSumCanonical {
  static constexpr std::size_t kPd = kP<double>;
  alignas(64) double hi[kPd] = {};
  alignas(64) double lo[kPd] = {};

  // The Lanes(d) exponentials of elements [i, i + lanes), zero past the data.
  template <class V>
  HWY_INLINE void Add(std::size_t i, V e) {
    if constexpr (sizeof(T) == 4) {
      // Each half of the float lanes is one vector of doubles (the same lane count).
      const hn::Half<hn::DFromV<V>> dh;
      const hn::Rebind<double, decltype(dh)> dw;
      const auto add = [&](std::size_t at, auto w) HWY_ATTR {
        double* h = hi + at % kPd;
        hn::StoreU(hn::Add(hn::LoadU(dw, h), w), dw, h);
      };
      add(i, hn::PromoteTo(dw, hn::LowerHalf(dh, e)));
      add(i + hn::Lanes(dh), hn::PromoteTo(dw, hn::UpperHalf(dh, e)));
    } else {
      const HwyOps<double> o;
      double* h = hi + i % kPd;
      double* l = lo + i % kPd;
      V err;
      const V sum = math::TwoSum(o, hn::LoadU(o.d, h), e, err);
      hn::StoreU(sum, o.d, h);
      hn::StoreU(hn::Add(hn::LoadU(o.d, l), err), o.d, l);
    }
  }

  HWY_INLINE void Total(double& total_hi, double& total_lo) {
    const math::ScalarOps<double, HwyOps<double>> so;
    for (std::size_t h = kPd / 2; h >= 1; h /= 2) {
      for (std::size_t j = 0; j < h; ++j) {
        if constexpr (sizeof(T) == 4) {
          hi[j] = hi[j] + hi[j + h];
        } else {
          double err;
          hi[j] = math::TwoSum(so, hi[j], hi[j + h], err);
          lo[j] = (lo[j] + lo[j + h]) + err;
        }
      }
    }
    total_hi = hi[0];
    total_lo = lo[0];
  }
};

// The fast softmax and log_softmax (math-inl.h) with the canonical sum.
template <class T>
HWY_ATTR void softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(typename HwyOps<T>::D());
  ExpSumCanonical<T> sum;
  SoftmaxWith(
      n, x, y, [&](std::size_t i, V e) HWY_ATTR { sum.Add(i, e); },
      [&](std::size_t i, V ea, V eb) HWY_ATTR {
        sum.Add(i, ea);
        sum.Add(i + N, eb);
      },
      [&](double& hi, double& lo) HWY_ATTR { sum.Total(hi, lo); });
}

template <class T>
HWY_ATTR void log_softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(typename HwyOps<T>::D());
  ExpSumCanonical<T> rest;
  LogSoftmaxWith(
      n, x, y, [&](std::size_t i, V e) HWY_ATTR { rest.Add(i, e); },
      [&](std::size_t i, V ea, V eb) HWY_ATTR {
        rest.Add(i, ea);
        rest.Add(i + N, eb);
      },
      [&](double& hi, double& lo) HWY_ATTR { rest.Total(hi, lo); });
}

}  // namespace reproducible

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_REPRODUCIBLE_INL_H_

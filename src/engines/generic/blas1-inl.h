// Generic BLAS-1 kernels (dot, axpy, scal, sum, asum, nrm2, iamax, their strided siblings, copy,
// swap and rot), written once with Highway.
//
// Compiled once per engine, inside its kernels TU (through engines/generic/engine-table.h), in the
// engine's own namespace with internal linkage; hn::ScalableTag makes the same code ymm under
// avx2, zmm under avx512. Vector-length agnostic (lane counts are run-time
// values), so a scalable-vector engine can include it too.
//
// ISA hygiene: no std:: calls on scalars here (they would be emitted as weak symbols built with
// this engine's flags); scalar maths uses __builtin_* functions or Highway ops.
//
// Shape of every kernel: an unrolled main loop, then whole vectors, then one masked vector for
// the remainder. Masked-off lanes load as zero, which is neutral for every reduction here, and
// masked stores leave memory past n untouched.
#ifndef COHERIQ_ENGINES_GENERIC_BLAS1_INL_H_
#define COHERIQ_ENGINES_GENERIC_BLAS1_INL_H_

#include <complex>
#include <cstddef>
#include <cstring>

#include "engines/generic/masked-inl.h"
#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

// ------------------------------ Shared helpers

// Folds `step(acc, x_i, y_i)` over n elements into kChains independent accumulators (2, 4 or
// 8), which it combines with `combine` (y may equal x for one-array reductions; unused loads are
// dropped by the compiler). Eight by default: an FMA has 4 cycles of latency and two pipes on the
// hosts measured, where four chains left Σx² from L1 at 60% of its throughput.
template <int kChains = 8, class D, class T, class Step, class Combine>
HWY_INLINE hn::Vec<D> Accumulate(D d, std::size_t n, const T* x, const T* y, Step step,
                                 Combine combine) {
  static_assert(kChains == 2 || kChains == 4 || kChains == 8, "2, 4 or 8 chains");
  const std::size_t N = hn::Lanes(d);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  auto a4 = hn::Zero(d), a5 = hn::Zero(d), a6 = hn::Zero(d), a7 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + kChains * N <= n; i += kChains * N) {
    a0 = step(a0, hn::LoadU(d, x + i), hn::LoadU(d, y + i));
    a1 = step(a1, hn::LoadU(d, x + i + N), hn::LoadU(d, y + i + N));
    if constexpr (kChains >= 4) {
      a2 = step(a2, hn::LoadU(d, x + i + 2 * N), hn::LoadU(d, y + i + 2 * N));
      a3 = step(a3, hn::LoadU(d, x + i + 3 * N), hn::LoadU(d, y + i + 3 * N));
    }
    if constexpr (kChains == 8) {
      a4 = step(a4, hn::LoadU(d, x + i + 4 * N), hn::LoadU(d, y + i + 4 * N));
      a5 = step(a5, hn::LoadU(d, x + i + 5 * N), hn::LoadU(d, y + i + 5 * N));
      a6 = step(a6, hn::LoadU(d, x + i + 6 * N), hn::LoadU(d, y + i + 6 * N));
      a7 = step(a7, hn::LoadU(d, x + i + 7 * N), hn::LoadU(d, y + i + 7 * N));
    }
  }
  for (; i + N <= n; i += N) a0 = step(a0, hn::LoadU(d, x + i), hn::LoadU(d, y + i));
  if (i < n) {
    const auto mask = hn::FirstN(d, n - i);
    a1 = step(a1, LoadSelected(mask, d, x + i), LoadSelected(mask, d, y + i));
  }
  if constexpr (kChains == 2) {
    return combine(a0, a1);
  } else if constexpr (kChains == 4) {
    return combine(combine(a0, a1), combine(a2, a3));
  } else {
    return combine(combine(combine(a0, a1), combine(a2, a3)),
                   combine(combine(a4, a5), combine(a6, a7)));
  }
}

template <int kChains = 8, class D, class T, class Step>
HWY_INLINE T SumAccumulated(D d, std::size_t n, const T* x, const T* y, Step step) {
  const auto add = [](auto a, auto b) HWY_ATTR { return hn::Add(a, b); };
  return hn::GetLane(hn::SumOfLanes(d, Accumulate<kChains>(d, n, x, y, step, add)));
}

// Runs `body4(v0, v1, v2, v3, offset)` over x in blocks of four vectors, then `body1(v, offset)`
// over single vectors and `body_tail(v, mask, offset)` over the zero-padded remainder. Loads x
// only; kernels that read a second array load it themselves at the same offset.
template <class D, class T, class Body4, class Body1, class BodyTail>
HWY_INLINE void ForEachVector(D d, std::size_t n, const T* x, Body4 body4, Body1 body1,
                              BodyTail body_tail) {
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    body4(hn::LoadU(d, x + i), hn::LoadU(d, x + i + N), hn::LoadU(d, x + i + 2 * N),
          hn::LoadU(d, x + i + 3 * N), i);
  }
  for (; i + N <= n; i += N) body1(hn::LoadU(d, x + i), i);
  if (i < n) {
    const auto mask = hn::FirstN(d, n - i);
    body_tail(LoadSelected(mask, d, x + i), mask, i);
  }
}

// ------------------------------ Dot

template <class T>
HWY_ATTR T dot(std::size_t n, const T* x, const T* y) {
  const hn::ScalableTag<T> d;
  const auto fma = [](auto acc, auto a, auto b) HWY_ATTR { return hn::MulAdd(a, b, acc); };
  // From L2 (about 64 bytes per cycle), two vectors loaded per FMA of 4 cycles' latency: 2 chains
  // of 64-byte vectors, 4 of 32 or 8 of 16 bytes keep up, and more read slower, not faster
  // (docs/performance.md, "BLAS-1 chains"). In L1, eight.
  if (n * sizeof(T) >= kTuning.blas1.dot_from_l2_bytes) {
    const std::size_t vector_bytes = hn::Lanes(d) * sizeof(T);
    if (vector_bytes >= 64) return SumAccumulated<2>(d, n, x, y, fma);
    if (vector_bytes >= 32) return SumAccumulated<4>(d, n, x, y, fma);
  }
  return SumAccumulated(d, n, x, y, fma);
}

// ------------------------------ Axpy

// y += a * x with one FMA per element (within 1 ulp). Each vector of y is loaded before it is
// stored, so y == x (in place) is fine.
template <class T>
HWY_ATTR void axpy(std::size_t n, T a, const T* x, T* y) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  const auto va = hn::Set(d, a);
  ForEachVector(
      d, n, x,
      [&](auto x0, auto x1, auto x2, auto x3, std::size_t i) HWY_ATTR {
        const auto y0 = hn::LoadU(d, y + i), y1 = hn::LoadU(d, y + i + N);
        const auto y2 = hn::LoadU(d, y + i + 2 * N), y3 = hn::LoadU(d, y + i + 3 * N);
        hn::StoreU(hn::MulAdd(va, x0, y0), d, y + i);
        hn::StoreU(hn::MulAdd(va, x1, y1), d, y + i + N);
        hn::StoreU(hn::MulAdd(va, x2, y2), d, y + i + 2 * N);
        hn::StoreU(hn::MulAdd(va, x3, y3), d, y + i + 3 * N);
      },
      [&](auto xv, std::size_t i)
          HWY_ATTR { hn::StoreU(hn::MulAdd(va, xv, hn::LoadU(d, y + i)), d, y + i); },
      [&](auto xv, auto mask, std::size_t i) HWY_ATTR {
        StoreSelected(hn::MulAdd(va, xv, LoadSelected(mask, d, y + i)), mask, d, y + i);
      });
}

// ------------------------------ Scal

// x *= a, one rounded product per element (the same as the scalar reference, also for a == 0
// with NaN/Inf in x).
template <class T>
HWY_ATTR void scal(std::size_t n, T a, T* x) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  const auto va = hn::Set(d, a);
  ForEachVector(
      d, n, x,
      [&](auto x0, auto x1, auto x2, auto x3, std::size_t i) HWY_ATTR {
        hn::StoreU(hn::Mul(va, x0), d, x + i);
        hn::StoreU(hn::Mul(va, x1), d, x + i + N);
        hn::StoreU(hn::Mul(va, x2), d, x + i + 2 * N);
        hn::StoreU(hn::Mul(va, x3), d, x + i + 3 * N);
      },
      [&](auto xv, std::size_t i) HWY_ATTR { hn::StoreU(hn::Mul(va, xv), d, x + i); },
      [&](auto xv, auto mask, std::size_t i)
          HWY_ATTR { StoreSelected(hn::Mul(va, xv), mask, d, x + i); });
}

// ------------------------------ Sum, Asum

template <class T>
HWY_ATTR T sum(std::size_t n, const T* x) {
  const hn::ScalableTag<T> d;
  return SumAccumulated(d, n, x, x,
                        [](auto acc, auto a, auto) HWY_ATTR { return hn::Add(acc, a); });
}

// Arrays in the engine's half-width window (kTuning.blas1, set where wide loads from L2 are
// slower than two narrow ones): half-width loads, the sign cleared by an integer AND, four
// accumulators (docs/performance.md, "asum from L2"). Elsewhere full-width loads. The split
// depends on n only, so results stay bitwise reproducible.
template <class T>
HWY_ATTR T asum(std::size_t n, const T* x) {
  const hn::ScalableTag<T> d;
  const auto step = [](auto acc, auto a, auto) HWY_ATTR { return hn::Add(acc, hn::Abs(a)); };
  constexpr Blas1Tuning kBlas1 = kTuning.blas1;
  if constexpr (kBlas1.asum_half_width_min_bytes < kBlas1.asum_half_width_max_bytes) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kBlas1.asum_half_width_min_bytes && bytes < kBlas1.asum_half_width_max_bytes) {
      const hn::Half<decltype(d)> dh;
      const hn::RebindToUnsigned<decltype(dh)> du;
      using U = hn::TFromD<decltype(du)>;
      const auto mask = hn::Set(du, static_cast<U>(~U{0} >> 1));
      const U* xu = reinterpret_cast<const U*>(x);
      const std::size_t H = hn::Lanes(dh);
      auto a0 = hn::Zero(dh), a1 = hn::Zero(dh), a2 = hn::Zero(dh), a3 = hn::Zero(dh);
      std::size_t i = 0;
      for (; i + 4 * H <= n; i += 4 * H) {
        a0 = hn::Add(a0, hn::BitCast(dh, hn::And(hn::LoadU(du, xu + i), mask)));
        a1 = hn::Add(a1, hn::BitCast(dh, hn::And(hn::LoadU(du, xu + i + H), mask)));
        a2 = hn::Add(a2, hn::BitCast(dh, hn::And(hn::LoadU(du, xu + i + 2 * H), mask)));
        a3 = hn::Add(a3, hn::BitCast(dh, hn::And(hn::LoadU(du, xu + i + 3 * H), mask)));
      }
      const T head = hn::GetLane(hn::SumOfLanes(dh, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
      return head + SumAccumulated(d, n - i, x + i, x + i, step);
    }
  }
  return SumAccumulated(d, n, x, x, step);
}

// ------------------------------ Nrm2

// max |x| (0 for n == 0); NaN lanes may or may not win, callers handle NaN first.
template <class D, class T>
HWY_INLINE T MaxAbs(D d, std::size_t n, const T* x) {
  const auto max = [](auto a, auto b) HWY_ATTR { return hn::Max(a, b); };
  const auto step = [](auto acc, auto a, auto) HWY_ATTR { return hn::Max(acc, hn::Abs(a)); };
  return hn::GetLane(hn::MaxOfLanes(d, Accumulate<8>(d, n, x, x, step, max)));
}

// Σ (x·scale_a·scale_b)²; the scaling multiplies are there only when kScaled.
template <bool kScaled, class D, class T>
HWY_INLINE T SumOfSquares(D d, std::size_t n, const T* x, T scale_a = T{1}, T scale_b = T{1}) {
  const auto va = hn::Set(d, scale_a), vb = hn::Set(d, scale_b);
  return SumAccumulated(d, n, x, x, [&](auto acc, auto a, auto) HWY_ATTR {
    if constexpr (kScaled) a = hn::Mul(hn::Mul(a, va), vb);
    return hn::MulAdd(a, a, acc);
  });
}

// Σ x² of float data accumulated in double: no float input can overflow or underflow there.
HWY_INLINE double SumOfSquaresF64(std::size_t n, const float* x) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // half-width float vectors, one per double vector
  const std::size_t N = hn::Lanes(dd);
  auto s0 = hn::Zero(dd), s1 = hn::Zero(dd);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto x0 = hn::PromoteTo(dd, hn::LoadU(df, x + i));
    const auto x1 = hn::PromoteTo(dd, hn::LoadU(df, x + i + N));
    s0 = hn::MulAdd(x0, x0, s0);
    s1 = hn::MulAdd(x1, x1, s1);
  }
  for (; i < n; i += N) {
    const auto mask = hn::FirstN(df, n - i);
    const auto xv = hn::PromoteTo(dd, LoadSelected(mask, df, x + i));
    s0 = hn::MulAdd(xv, xv, s0);
  }
  return hn::GetLane(hn::SumOfLanes(dd, hn::Add(s0, s1)));
}

template <class T>
HWY_INLINE T ScalarSqrt(T v) {
  if constexpr (sizeof(T) == 4) {
    return __builtin_sqrtf(v);
  } else {
    return __builtin_sqrt(v);
  }
}

// Below this the fast sum of squares may have lost significant terms to underflow (each
// flushed or subnormal square errs by at most the smallest subnormal, negligible against a
// total this large even for n = 2^40).
template <class T>
constexpr T kNrm2SafeMinSumSq = sizeof(T) == 4 ? 0x1p-80f : 0x1p-900;

// √Σx²: sum of squares in T, then a fallback when that overflowed or may have underflowed
// (float: accumulate in double; double: rescale by a power of two near 1/max|x|, exact).
template <class T>
HWY_ATTR T nrm2(std::size_t n, const T* x) {
  const hn::ScalableTag<T> d;
  const T sumsq = SumOfSquares<false>(d, n, x);
  if (sumsq >= kNrm2SafeMinSumSq<T> && sumsq <= hwy::HighestValue<T>()) {
    return ScalarSqrt(sumsq);
  }
  if (sumsq != sumsq || n == 0) return sumsq;  // NaN in x; or n == 0 (sumsq == 0)
  if constexpr (sizeof(T) == 4) {
    return static_cast<float>(__builtin_sqrt(SumOfSquaresF64(n, x)));
  } else {
    const double amax = MaxAbs(d, n, x);
    if (amax == 0.0 || amax > hwy::HighestValue<double>()) return amax;  // all zero, or an Inf
    // 2^-e with amax = m·2^e, m in [0.5, 1): scaled values are at most 1 and the sum of their
    // squares at most n. 2^-e alone overflows for subnormal amax, so it is applied in two
    // halves, each a power of two within range (products stay exact).
    int e = 0;
    __builtin_frexp(amax, &e);
    const int e_half = e / 2;
    const double scale_a = __builtin_ldexp(1.0, -e_half);
    const double scale_b = __builtin_ldexp(1.0, e_half - e);
    return __builtin_ldexp(__builtin_sqrt(SumOfSquares<true>(d, n, x, scale_a, scale_b)), e);
  }
}

// ------------------------------ Iamax

// Index of the first lane of x[0, n) for which `pred(v)` holds (n if none).
template <class D, class T, class Pred>
HWY_INLINE std::size_t FindFirst(D d, std::size_t n, const T* x, Pred pred) {
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= n; i += N) {
    const std::intptr_t lane = hn::FindFirstTrue(d, pred(hn::LoadU(d, x + i)));
    if (lane >= 0) return i + static_cast<std::size_t>(lane);
  }
  if (i < n) {
    const auto mask = hn::FirstN(d, n - i);
    const std::intptr_t lane =
        hn::FindFirstTrue(d, hn::And(mask, pred(LoadSelected(mask, d, x + i))));
    if (lane >= 0) return i + static_cast<std::size_t>(lane);
  }
  return n;
}

// First index of the largest |x|; the first NaN wins over everything; 0 for n == 0.
// One pass computes each block's max |x| (and Σ|x|, which is NaN exactly when the block holds a
// NaN, as |x| >= 0 rules out Inf - Inf); the first block with a NaN, or else the first block
// holding the overall max, is then scanned again for the first matching index. No per-lane
// index bookkeeping, so any n works and the pass runs at the speed of a max reduction.
template <class T>
HWY_ATTR std::size_t iamax(std::size_t n, const T* x) {
  const hn::ScalableTag<T> d;
  constexpr std::size_t kBlock = kTuning.blas1.iamax_block_bytes / sizeof(T);  // re-read from L1d
  static_assert(kBlock > 0, "tuning: blas1.iamax_block_bytes must hold one element");
  T best = T{-1};  // below any |x|, so the first block always wins ties
  std::size_t best_start = 0;
  for (std::size_t start = 0; start < n; start += kBlock) {
    const std::size_t len = n - start < kBlock ? n - start : kBlock;
    auto m0 = hn::Zero(d), m1 = hn::Zero(d), m2 = hn::Zero(d), m3 = hn::Zero(d);
    auto s0 = hn::Zero(d), s1 = hn::Zero(d);
    ForEachVector(
        d, len, x + start,
        [&](auto x0, auto x1, auto x2, auto x3, std::size_t) HWY_ATTR {
          x0 = hn::Abs(x0);
          x1 = hn::Abs(x1);
          x2 = hn::Abs(x2);
          x3 = hn::Abs(x3);
          m0 = hn::Max(m0, x0);
          m1 = hn::Max(m1, x1);
          m2 = hn::Max(m2, x2);
          m3 = hn::Max(m3, x3);
          s0 = hn::Add(s0, hn::Add(x0, x1));
          s1 = hn::Add(s1, hn::Add(x2, x3));
        },
        [&](auto xv, std::size_t) HWY_ATTR {
          xv = hn::Abs(xv);
          m0 = hn::Max(m0, xv);
          s0 = hn::Add(s0, xv);
        },
        [&](auto xv, auto, std::size_t) HWY_ATTR {
          xv = hn::Abs(xv);
          m1 = hn::Max(m1, xv);
          s1 = hn::Add(s1, xv);
        });
    const auto nan_sum = hn::Add(s0, s1);
    if (!hn::AllFalse(d, hn::IsNaN(nan_sum))) {
      return start + FindFirst(d, len, x + start, [](auto v) HWY_ATTR { return hn::IsNaN(v); });
    }
    const T block_max = hn::GetLane(hn::MaxOfLanes(d, hn::Max(hn::Max(m0, m1), hn::Max(m2, m3))));
    if (block_max > best) {
      best = block_max;
      best_start = start;
    }
  }
  if (n == 0) return 0;
  const std::size_t len = n - best_start < kBlock ? n - best_start : kBlock;
  const auto vbest = hn::Set(d, best);
  return best_start + FindFirst(d, len, x + best_start,
                                [&](auto v) HWY_ATTR { return hn::Eq(hn::Abs(v), vbest); });
}

// ------------------------------ Strided siblings

// A strided vector is processed in chunks: each chunk is gathered into a contiguous buffer on the
// stack (an L1-resident 4-8 KiB), the contiguous kernel runs on the buffer, and written vectors
// are scattered back. The gathers are what costs; the copy through L1 is cheap beside them, and
// every contiguous kernel's accuracy and special-value handling is reused unchanged. An
// increment of 1 goes straight to the contiguous kernel, so that path is exactly today's.
// A constant, not a tuning field: it bounds the stack these kernels take on the caller's thread,
// and their speed is the gathers', not the chunk's, once it fits L1d (docs/decisions.md).
inline constexpr std::size_t kStridedChunk = 1024;

template <class T>
HWY_INLINE const T* ElementPtr(const T* x, std::ptrdiff_t inc, std::size_t i) {
  return x + static_cast<std::ptrdiff_t>(i) * inc;
}
template <class T>
HWY_INLINE T* ElementPtr(T* x, std::ptrdiff_t inc, std::size_t i) {
  return x + static_cast<std::ptrdiff_t>(i) * inc;
}

template <class T>
HWY_INLINE T ScalarFma(T a, T b, T c) {
  if constexpr (sizeof(T) == 4) {
    return __builtin_fmaf(a, b, c);
  } else {
    return __builtin_fma(a, b, c);
  }
}

// The gather offsets of one vector, lane j at j·inc, when they fit the index lanes; false (and
// scalar copies) for increments too large for them.
template <class DI>
HWY_INLINE bool StrideIndices(DI di, std::ptrdiff_t inc, hn::Vec<DI>* out) {
  using TI = hn::TFromD<DI>;
  const std::size_t N = hn::Lanes(di);
  const std::ptrdiff_t magnitude = inc < 0 ? -inc : inc;
  const auto limit = static_cast<std::ptrdiff_t>(hwy::LimitsMax<TI>() / static_cast<TI>(N));
  if (magnitude > limit) return false;
  HWY_ALIGN TI lanes[HWY_MAX_BYTES / sizeof(TI)];
  for (std::size_t j = 0; j < N; ++j)
    lanes[j] = static_cast<TI>(static_cast<std::ptrdiff_t>(j) * inc);
  *out = hn::Load(di, lanes);
  return true;
}

HWY_INLINE bool SmallStride(std::ptrdiff_t inc) { return inc >= -4 && inc <= 4 && inc != 0; }

// Elements i .. i+N-1 of a vector with |inc| = s in [2, 4] (or inc = -1), from s contiguous vectors
// and a de-interleave: for small increments that moves far fewer bytes per cycle through the load
// ports than a gather does (docs/performance.md, "Strided BLAS-1"). Reads the s - 1 elements past
// element i+N-1 (inc > 0) or before it (inc < 0), so callers need element i+N to exist. A negative
// increment reads the block from its low end, whose last lane is the block's first element:
// reversed.
template <class D, class T>
HWY_INLINE hn::Vec<D> LoadSmallStride(D d, const T* x, std::ptrdiff_t inc, std::size_t i) {
  const std::size_t N = hn::Lanes(d);
  const std::ptrdiff_t s = inc < 0 ? -inc : inc;
  const T* p = inc > 0 ? ElementPtr(x, inc, i) : ElementPtr(x, inc, i + N - 1) - (s - 1);
  hn::Vec<D> v0, v1, v2, v3;
  if (s == 1) {
    v0 = v3 = hn::LoadU(d, p);
  } else if (s == 2) {
    hn::LoadInterleaved2(d, p, v0, v1);
    v3 = v1;
  } else if (s == 3) {
    hn::LoadInterleaved3(d, p, v0, v1, v2);
    v3 = v2;
  } else {
    hn::LoadInterleaved4(d, p, v0, v1, v2, v3);
  }
  return inc > 0 ? v0 : hn::Reverse(d, v3);
}

// buf[0, len) = x[i·inc] for i in [0, len).
template <class T>
HWY_INLINE void GatherChunk(std::size_t len, const T* x, std::ptrdiff_t inc, T* buf) {
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  hn::Vec<decltype(di)> index;
  // A small stride leaves at most N elements to the scalar loop, no gather: qemu 7.2 faulted on
  // that one f32 gather at inc = -2 (at a valid address; emulation.haswell.kernels.avx2).
  if (SmallStride(inc) && inc != 1 && inc != -1) {
    for (; i + N < len; i += N) hn::StoreU(LoadSmallStride(d, x, inc, i), d, buf + i);
  } else if (StrideIndices(di, inc, &index)) {
    for (; i + 2 * N <= len; i += 2 * N) {
      const auto v0 = hn::GatherIndex(d, ElementPtr(x, inc, i), index);
      const auto v1 = hn::GatherIndex(d, ElementPtr(x, inc, i + N), index);
      hn::StoreU(v0, d, buf + i);
      hn::StoreU(v1, d, buf + i + N);
    }
    for (; i + N <= len; i += N)
      hn::StoreU(hn::GatherIndex(d, ElementPtr(x, inc, i), index), d, buf + i);
  }
  for (; i < len; ++i) buf[i] = *ElementPtr(x, inc, i);
}

// x[i·inc] = buf[i] for i in [0, len); inc != 0.
template <class T>
HWY_INLINE void ScatterChunk(std::size_t len, const T* buf, T* x, std::ptrdiff_t inc) {
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  hn::Vec<decltype(di)> index;
  if (StrideIndices(di, inc, &index)) {
    for (; i + N <= len; i += N)
      hn::ScatterIndex(hn::LoadU(d, buf + i), d, ElementPtr(x, inc, i), index);
  }
  for (; i < len; ++i) *ElementPtr(x, inc, i) = buf[i];
}

// Σ x·y straight from the vectors when both increments are small (|inc| <= 4): contiguous or
// de-interleaving loads, four accumulators, no buffer; a scalar tail of fewer than N + 1
// elements (each load needs the element after its block, so the last block stops short). The
// common strided case (interleaved data, inc = 2) then streams from memory like a contiguous dot.
template <class T>
HWY_INLINE T DotSmallStrides(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                             std::ptrdiff_t incy) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  const auto load = [d](const T* v, std::ptrdiff_t inc, std::size_t i) HWY_ATTR {
    return inc == 1 ? hn::LoadU(d, v + i) : LoadSmallStride(d, v, inc, i);
  };
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + 4 * N < n; i += 4 * N) {
    a0 = hn::MulAdd(load(x, incx, i), load(y, incy, i), a0);
    a1 = hn::MulAdd(load(x, incx, i + N), load(y, incy, i + N), a1);
    a2 = hn::MulAdd(load(x, incx, i + 2 * N), load(y, incy, i + 2 * N), a2);
    a3 = hn::MulAdd(load(x, incx, i + 3 * N), load(y, incy, i + 3 * N), a3);
  }
  for (; i + N < n; i += N) a0 = hn::MulAdd(load(x, incx, i), load(y, incy, i), a0);
  T total = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  for (; i < n; ++i) total = ScalarFma(*ElementPtr(x, incx, i), *ElementPtr(y, incy, i), total);
  return total;
}

template <class T>
HWY_ATTR T dot_strided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                       std::ptrdiff_t incy) {
  if (incx == 1 && incy == 1) return dot(n, x, y);
  if (SmallStride(incx) && SmallStride(incy)) return DotSmallStrides(n, x, incx, y, incy);
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  T total = T{0};
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    const T* xs = ElementPtr(x, incx, start);
    const T* ys = ElementPtr(y, incy, start);
    if (incx == 1) {
      GatherChunk(len, ys, incy, by);
      total += dot(len, xs, by);
    } else if (incy == 1) {
      GatherChunk(len, xs, incx, bx);
      total += dot(len, bx, ys);
    } else {
      GatherChunk(len, xs, incx, bx);
      GatherChunk(len, ys, incy, by);
      total += dot(len, bx, by);
    }
  }
  return total;
}

template <class T>
HWY_ATTR T asum_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  if (incx == 1) return asum(n, x);
  HWY_ALIGN T bx[kStridedChunk];
  T total = T{0};
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    GatherChunk(len, ElementPtr(x, incx, start), incx, bx);
    total += asum(len, bx);
  }
  return total;
}

// y = a·x + y. An increment of 0 on y makes every update hit y[0], in order: scalar, like the
// reference. Each chunk of y is gathered before it is scattered, so y == x works as in axpy.
template <class T>
HWY_ATTR void axpy_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y,
                           std::ptrdiff_t incy) {
  if (incx == 1 && incy == 1) return axpy(n, a, x, y);
  if (incy == 0) {
    for (std::size_t i = 0; i < n; ++i) *y = ScalarFma(a, *ElementPtr(x, incx, i), *y);
    return;
  }
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    const T* xs = ElementPtr(x, incx, start);
    T* ys = ElementPtr(y, incy, start);
    if (incy == 1) {
      GatherChunk(len, xs, incx, bx);
      axpy(len, a, bx, ys);
      continue;
    }
    GatherChunk(len, ys, incy, by);
    if (incx == 1) {
      axpy(len, a, xs, by);
    } else {
      GatherChunk(len, xs, incx, bx);
      axpy(len, a, bx, by);
    }
    ScatterChunk(len, by, ys, incy);
  }
}

// The two kernels above in turn, in one call: the same bits as two calls (v == y reads the
// updated y), without a second dispatch. x is a symmetric product's stored row, read again by
// the dot from L1 (a band row, k elements at most) or L2.
template <class T>
HWY_ATTR T axpy_dot_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y,
                            std::ptrdiff_t incy, const T* v, std::ptrdiff_t incv) {
  axpy_strided(n, a, x, incx, y, incy);
  return dot_strided(n, x, incx, v, incv);
}

template <class T>
HWY_ATTR void scal_strided(std::size_t n, T a, T* x, std::ptrdiff_t incx) {
  if (incx == 1) return scal(n, a, x);
  if (incx == 0) {
    for (std::size_t i = 0; i < n; ++i) *x = a * *x;
    return;
  }
  HWY_ALIGN T bx[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    T* xs = ElementPtr(x, incx, start);
    GatherChunk(len, xs, incx, bx);
    scal(len, a, bx);
    ScatterChunk(len, bx, xs, incx);
  }
}

// √Σx² as nrm2: the fast sum of squares over the chunks, then nrm2's fallbacks when it
// overflowed or may have underflowed (float: Σ in double; double: a power-of-two rescale by
// max |x|, found in a first pass).
template <class T>
HWY_ATTR T nrm2_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  if (incx == 1) return nrm2(n, x);
  const hn::ScalableTag<T> d;
  HWY_ALIGN T bx[kStridedChunk];
  const auto each_chunk = [&](auto body) HWY_ATTR {
    for (std::size_t start = 0; start < n; start += kStridedChunk) {
      const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
      GatherChunk(len, ElementPtr(x, incx, start), incx, bx);
      body(len);
    }
  };
  T sumsq = T{0};
  each_chunk([&](std::size_t len) HWY_ATTR { sumsq += SumOfSquares<false>(d, len, bx); });
  if (sumsq >= kNrm2SafeMinSumSq<T> && sumsq <= hwy::HighestValue<T>()) return ScalarSqrt(sumsq);
  if (sumsq != sumsq || n == 0) return sumsq;
  if constexpr (sizeof(T) == 4) {
    double wide = 0.0;
    each_chunk([&](std::size_t len) HWY_ATTR { wide += SumOfSquaresF64(len, bx); });
    return static_cast<float>(__builtin_sqrt(wide));
  } else {
    double amax = 0.0;
    each_chunk([&](std::size_t len) HWY_ATTR {
      const double m = MaxAbs(d, len, bx);
      amax = m > amax ? m : amax;
    });
    if (amax == 0.0 || amax > hwy::HighestValue<double>()) return amax;
    int e = 0;
    __builtin_frexp(amax, &e);
    const int e_half = e / 2;
    const double scale_a = __builtin_ldexp(1.0, -e_half);
    const double scale_b = __builtin_ldexp(1.0, e_half - e);
    double scaled = 0.0;
    each_chunk([&](std::size_t len)
                   HWY_ATTR { scaled += SumOfSquares<true>(d, len, bx, scale_a, scale_b); });
    return __builtin_ldexp(__builtin_sqrt(scaled), e);
  }
}

// The first index of the largest |x|, the first NaN winning: each chunk's own iamax, which is
// that chunk's first NaN when it has one; strictly greater magnitudes replace the best, so ties
// keep the earliest chunk.
template <class T>
HWY_ATTR std::size_t iamax_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  if (incx == 1) return iamax(n, x);
  HWY_ALIGN T bx[kStridedChunk];
  std::size_t best = 0;
  T best_magnitude = T{-1};
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    GatherChunk(len, ElementPtr(x, incx, start), incx, bx);
    const std::size_t i = iamax(len, bx);
    const T v = bx[i];
    if (v != v) return start + i;
    const T magnitude = v < T{0} ? -v : v;
    if (magnitude > best_magnitude) {
      best = start + i;
      best_magnitude = magnitude;
    }
  }
  return best;
}

// ------------------------------ Copy, swap, rot

// The contiguous loops of copy_strided, swap_strided and rot_strided, which their strided forms
// run on gathered chunks.
template <class T>
HWY_INLINE void CopyContiguous(std::size_t n, const T* x, T* y) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  ForEachVector(
      d, n, x,
      [&](auto x0, auto x1, auto x2, auto x3, std::size_t i) HWY_ATTR {
        hn::StoreU(x0, d, y + i);
        hn::StoreU(x1, d, y + i + N);
        hn::StoreU(x2, d, y + i + 2 * N);
        hn::StoreU(x3, d, y + i + 3 * N);
      },
      [&](auto xv, std::size_t i) HWY_ATTR { hn::StoreU(xv, d, y + i); },
      [&](auto xv, auto mask, std::size_t i) HWY_ATTR { StoreSelected(xv, mask, d, y + i); });
}

template <class T>
HWY_INLINE void SwapContiguous(std::size_t n, T* x, T* y) {
  const hn::ScalableTag<T> d;
  const auto one = [&](auto xv, std::size_t i) HWY_ATTR {
    const auto yv = hn::LoadU(d, y + i);
    hn::StoreU(xv, d, y + i);
    hn::StoreU(yv, d, x + i);
  };
  const std::size_t N = hn::Lanes(d);
  ForEachVector(
      d, n, x,
      [&](auto x0, auto x1, auto x2, auto x3, std::size_t i) HWY_ATTR {
        one(x0, i);
        one(x1, i + N);
        one(x2, i + 2 * N);
        one(x3, i + 3 * N);
      },
      one,
      [&](auto xv, auto mask, std::size_t i) HWY_ATTR {
        const auto yv = LoadSelected(mask, d, y + i);
        StoreSelected(xv, mask, d, y + i);
        StoreSelected(yv, mask, d, x + i);
      });
}

// (x, y) := (c·x + s·y, c·y − s·x), one product of each pair fused (within 1 ulp of each part).
template <class T>
HWY_INLINE void RotContiguous(std::size_t n, T* x, T* y, T c, T s) {
  const hn::ScalableTag<T> d;
  const auto vc = hn::Set(d, c), vs = hn::Set(d, s);
  const auto one = [&](auto xv, std::size_t i) HWY_ATTR {
    const auto yv = hn::LoadU(d, y + i);
    hn::StoreU(hn::MulAdd(vc, xv, hn::Mul(vs, yv)), d, x + i);
    hn::StoreU(hn::MulSub(vc, yv, hn::Mul(vs, xv)), d, y + i);
  };
  const std::size_t N = hn::Lanes(d);
  ForEachVector(
      d, n, x,
      [&](auto x0, auto x1, auto x2, auto x3, std::size_t i) HWY_ATTR {
        one(x0, i);
        one(x1, i + N);
        one(x2, i + 2 * N);
        one(x3, i + 3 * N);
      },
      one,
      [&](auto xv, auto mask, std::size_t i) HWY_ATTR {
        const auto yv = LoadSelected(mask, d, y + i);
        StoreSelected(hn::MulAdd(vc, xv, hn::Mul(vs, yv)), mask, d, x + i);
        StoreSelected(hn::MulSub(vc, yv, hn::Mul(vs, xv)), mask, d, y + i);
      });
}

// A chunk of a vector into a buffer and back: contiguous copies for a unit increment.
template <class T>
HWY_INLINE void GatherAny(std::size_t len, const T* x, std::ptrdiff_t inc, T* buf) {
  if (inc == 1) return CopyContiguous(len, x, buf);
  GatherChunk(len, x, inc, buf);
}
template <class T>
HWY_INLINE void ScatterAny(std::size_t len, const T* buf, T* x, std::ptrdiff_t inc) {
  if (inc == 1) return CopyContiguous(len, buf, x);
  ScatterChunk(len, buf, x, inc);
}

// y := x. Element by element in order, so a 0 increment on y leaves x's last element there.
// Contiguous vectors are the C library's memmove: beyond the caches its stores do not read the
// lines they overwrite (x86's fast string moves), which a loop of vector stores does.
template <class T>
HWY_ATTR void copy_strided(std::size_t n, const T* x, std::ptrdiff_t incx, T* y,
                           std::ptrdiff_t incy) {
  if (incx == 1 && incy == 1) {
    if (n != 0) std::memmove(y, x, n * sizeof(T));
    return;
  }
  if (n == 0) return;
  if (incy == 0) {
    *y = *ElementPtr(x, incx, n - 1);
    return;
  }
  HWY_ALIGN T bx[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    const T* xs = ElementPtr(x, incx, start);
    T* ys = ElementPtr(y, incy, start);
    if (incy == 1) {
      GatherChunk(len, xs, incx, ys);
    } else if (incx == 1) {
      ScatterChunk(len, xs, ys, incy);
    } else {
      GatherChunk(len, xs, incx, bx);
      ScatterChunk(len, bx, ys, incy);
    }
  }
}

// x <-> y. A 0 increment swaps element by element in order, as the reference.
template <class T>
HWY_ATTR void swap_strided(std::size_t n, T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy) {
  if (incx == 1 && incy == 1) return SwapContiguous(n, x, y);
  if (incx == 0 || incy == 0) {
    for (std::size_t i = 0; i < n; ++i) {
      T* xi = ElementPtr(x, incx, i);
      T* yi = ElementPtr(y, incy, i);
      const T t = *xi;
      *xi = *yi;
      *yi = t;
    }
    return;
  }
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    T* xs = ElementPtr(x, incx, start);
    T* ys = ElementPtr(y, incy, start);
    GatherAny(len, xs, incx, bx);
    GatherAny(len, ys, incy, by);
    ScatterAny(len, bx, ys, incy);
    ScatterAny(len, by, xs, incx);
  }
}

// The plane rotation; a 0 increment rotates element by element in order, as the reference.
template <class T>
HWY_ATTR void rot_strided(std::size_t n, T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy, T c,
                          T s) {
  if (incx == 1 && incy == 1) return RotContiguous(n, x, y, c, s);
  if (incx == 0 || incy == 0) {
    for (std::size_t i = 0; i < n; ++i) {
      T* xi = ElementPtr(x, incx, i);
      T* yi = ElementPtr(y, incy, i);
      const T xv = *xi, yv = *yi;
      *xi = ScalarFma(c, xv, s * yv);
      *yi = ScalarFma(c, yv, -(s * xv));
    }
    return;
  }
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    T* xs = ElementPtr(x, incx, start);
    T* ys = ElementPtr(y, incy, start);
    GatherAny(len, xs, incx, bx);
    GatherAny(len, ys, incy, by);
    RotContiguous(len, bx, by, c, s);
    ScatterAny(len, bx, xs, incx);
    ScatterAny(len, by, ys, incy);
  }
}

// ------------------------------ Complex: interleaved pairs (dotu, dotc, axpy, axpyc)

// A contiguous complex vector of n elements is 2n reals, each real part in an even lane and its
// imaginary part in the odd lane after it (a vector's lane count is even, so no pair straddles
// two vectors). a·x = a_r·x + a_i·(i·x), and i·x is x with its pairs swapped (Reverse2) and the
// even lanes negated, folded into the constant: one Reverse2 and two fused multiply-adds per
// vector. The arrays are read as T: engine code calls no std::complex member (an unoptimized
// build would emit it as a weak symbol with this engine's ISA flags).

// A vector whose even lanes are `even` and odd lanes `odd`.
template <class D, class T>
HWY_INLINE hn::Vec<D> EvenOdd(D d, T even, T odd) {
  return hn::OddEven(hn::Set(d, odd), hn::Set(d, even));
}

// y += a·conj?(x) over n contiguous complex elements: y += direct·x + swapped·Reverse2(x), with
// direct = (a_r, a_r), swapped = (-a_i, a_i) for a·x and direct = (a_r, -a_r), swapped =
// (a_i, a_i) for a·conj(x). x == y allowed.
template <bool kConj, class T>
HWY_INLINE void ComplexAxpyContiguous(std::size_t n, T ar, T ai, const T* x, T* y) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d), m = 2 * n;
  const auto direct = kConj ? EvenOdd(d, ar, -ar) : hn::Set(d, ar);
  const auto swapped = kConj ? hn::Set(d, ai) : EvenOdd(d, -ai, ai);
  const auto update = [&](auto xv, auto yv) HWY_ATTR {
    return hn::MulAdd(direct, xv, hn::MulAdd(swapped, hn::Reverse2(d, xv), yv));
  };
  std::size_t i = 0;
  for (; i + 2 * N <= m; i += 2 * N) {
    const auto x0 = hn::LoadU(d, x + i), x1 = hn::LoadU(d, x + i + N);
    const auto y0 = hn::LoadU(d, y + i), y1 = hn::LoadU(d, y + i + N);
    hn::StoreU(update(x0, y0), d, y + i);
    hn::StoreU(update(x1, y1), d, y + i + N);
  }
  for (; i + N <= m; i += N) hn::StoreU(update(hn::LoadU(d, x + i), hn::LoadU(d, y + i)), d, y + i);
  if (i < m) {
    const auto mask = hn::FirstN(d, m - i);
    const auto xv = LoadSelected(mask, d, x + i);
    StoreSelected(update(xv, LoadSelected(mask, d, y + i)), mask, d, y + i);
  }
}

// Σ conj?(x)·y over n contiguous complex elements into (*re, *im): p = Σ x·y and s = Σ
// x·Reverse2(y) lane by lane; dotu = (Σ even p − Σ odd p, Σ s), dotc = (Σ p, Σ even s − Σ odd s).
template <bool kConj, class T>
HWY_INLINE void ComplexDotContiguous(std::size_t n, const T* x, const T* y, T* re, T* im) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d), m = 2 * n;
  auto p0 = hn::Zero(d), p1 = hn::Zero(d), s0 = hn::Zero(d), s1 = hn::Zero(d);
  std::size_t i = 0;
  for (; i + 2 * N <= m; i += 2 * N) {
    const auto x0 = hn::LoadU(d, x + i), x1 = hn::LoadU(d, x + i + N);
    const auto y0 = hn::LoadU(d, y + i), y1 = hn::LoadU(d, y + i + N);
    p0 = hn::MulAdd(x0, y0, p0);
    s0 = hn::MulAdd(x0, hn::Reverse2(d, y0), s0);
    p1 = hn::MulAdd(x1, y1, p1);
    s1 = hn::MulAdd(x1, hn::Reverse2(d, y1), s1);
  }
  for (; i + N <= m; i += N) {
    const auto xv = hn::LoadU(d, x + i), yv = hn::LoadU(d, y + i);
    p0 = hn::MulAdd(xv, yv, p0);
    s0 = hn::MulAdd(xv, hn::Reverse2(d, yv), s0);
  }
  if (i < m) {  // masked-off lanes load as 0
    const auto mask = hn::FirstN(d, m - i);
    const auto xv = LoadSelected(mask, d, x + i), yv = LoadSelected(mask, d, y + i);
    p1 = hn::MulAdd(xv, yv, p1);
    s1 = hn::MulAdd(xv, hn::Reverse2(d, yv), s1);
  }
  const auto p = hn::Add(p0, p1), s = hn::Add(s0, s1);
  const auto sign = EvenOdd(d, T(1), T(-1));
  *re = hn::GetLane(hn::SumOfLanes(d, kConj ? p : hn::Mul(p, sign)));
  *im = hn::GetLane(hn::SumOfLanes(d, kConj ? hn::Mul(s, sign) : s));
}

// Elements of a strided complex vector (increment `inc` complex elements) to and from pairs in a
// buffer.
template <class T>
HWY_INLINE void GatherPairs(std::size_t len, const T* x, std::ptrdiff_t inc, T* buf) {
  for (std::size_t i = 0; i < len; ++i) {
    const T* p = ElementPtr(x, 2 * inc, i);
    buf[2 * i] = p[0];
    buf[2 * i + 1] = p[1];
  }
}
template <class T>
HWY_INLINE void ScatterPairs(std::size_t len, const T* buf, T* x, std::ptrdiff_t inc) {
  for (std::size_t i = 0; i < len; ++i) {
    T* p = ElementPtr(x, 2 * inc, i);
    p[0] = buf[2 * i];
    p[1] = buf[2 * i + 1];
  }
}

// Complex elements per chunk of a strided call: a chunk's pairs fill kStridedChunk reals.
inline constexpr std::size_t kComplexChunk = kStridedChunk / 2;

// use(len, xs, ys) on the n complex elements of two vectors of any increments, kComplexChunk of
// them at a time, a strided vector's gathered to a contiguous buffer (one call on contiguous
// vectors).
template <class T, class Use>
HWY_INLINE void EachComplexChunk(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                                 std::ptrdiff_t incy, Use use) {
  if (incx == 1 && incy == 1) return use(n, x, y);
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kComplexChunk) {
    const std::size_t len = n - start < kComplexChunk ? n - start : kComplexChunk;
    const T* xs = ElementPtr(x, 2 * incx, start);
    const T* ys = ElementPtr(y, 2 * incy, start);
    if (incx != 1) GatherPairs(len, xs, incx, bx);
    if (incy != 1) GatherPairs(len, ys, incy, by);
    use(len, incx == 1 ? xs : bx, incy == 1 ? ys : by);
  }
}

template <bool kConj, class T>
HWY_INLINE void ComplexDot(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y,
                           std::ptrdiff_t incy, T* result) {
  if (incx == 1 && incy == 1) return ComplexDotContiguous<kConj>(n, x, y, result, result + 1);
  T re = T{0}, im = T{0};
  EachComplexChunk(n, x, incx, y, incy, [&](std::size_t len, const T* xs, const T* ys) HWY_ATTR {
    T chunk_re, chunk_im;
    ComplexDotContiguous<kConj>(len, xs, ys, &chunk_re, &chunk_im);
    re += chunk_re;
    im += chunk_im;
  });
  result[0] = re;
  result[1] = im;
}

template <bool kConj, class T>
HWY_INLINE void ComplexAxpy(std::size_t n, const T* a, const T* x, std::ptrdiff_t incx, T* y,
                            std::ptrdiff_t incy) {
  const T ar = a[0], ai = a[1];
  if (incx == 1 && incy == 1) return ComplexAxpyContiguous<kConj>(n, ar, ai, x, y);
  if (incy == 0) {  // every update on y[0], in order, as the reference
    for (std::size_t i = 0; i < n; ++i) {
      const T* p = ElementPtr(x, 2 * incx, i);
      const T xr = p[0], xi = kConj ? -p[1] : p[1];
      y[0] += ar * xr - ai * xi;
      y[1] += ar * xi + ai * xr;
    }
    return;
  }
  HWY_ALIGN T bx[kStridedChunk];
  HWY_ALIGN T by[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kComplexChunk) {
    const std::size_t len = n - start < kComplexChunk ? n - start : kComplexChunk;
    const T* xs = ElementPtr(x, 2 * incx, start);
    T* ys = ElementPtr(y, 2 * incy, start);
    // y's chunk is gathered before it is scattered, so y == x works as in the contiguous form.
    if (incy != 1) GatherPairs(len, ys, incy, by);
    if (incx != 1) GatherPairs(len, xs, incx, bx);
    ComplexAxpyContiguous<kConj>(len, ar, ai, incx == 1 ? xs : bx, incy == 1 ? ys : by);
    if (incy != 1) ScatterPairs(len, by, ys, incy);
  }
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
template <class T>
HWY_ATTR void axpy_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x,
                           std::ptrdiff_t incx, std::complex<T>* y, std::ptrdiff_t incy) {
  ComplexAxpy<false>(n, reinterpret_cast<const T*>(&a), reinterpret_cast<const T*>(x), incx,
                     reinterpret_cast<T*>(y), incy);
}
template <class T>
HWY_ATTR void axpyc_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x,
                            std::ptrdiff_t incx, std::complex<T>* y, std::ptrdiff_t incy) {
  ComplexAxpy<true>(n, reinterpret_cast<const T*>(&a), reinterpret_cast<const T*>(x), incx,
                    reinterpret_cast<T*>(y), incy);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_BLAS1_INL_H_

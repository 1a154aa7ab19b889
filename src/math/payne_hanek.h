// Exact reduction of a huge argument modulo π/2 (Payne-Hanek), one double at a time: for any
// finite |x| up to DBL_MAX, the nearest multiple k·π/2 and r = |x| - k·π/2 in [-π/4, π/4] as a
// double-double whose relative error is below 2^-100, even for the inputs closest to a multiple
// of π/2 (about 2^-61 away for doubles).
//
// Integer arithmetic on 2/π's bits: x = m·2^e with m < 2^53; the bits of 2/π whose products with
// m are multiples of 4 are skipped, the next 256 are multiplied by m exactly (5 limbs of 64 bits),
// and the product's two bits above the binary point give k mod 4 and the 128 below it the
// fraction. Written on a scalar policy (src/math/scalar.h), so that a vector engine's copy, run on
// the lanes its vectors leave out (ops.h, Lanewise), is its own (internal linkage).
#pragma once

#include <cstdint>
#include <cstring>

namespace coheriq::kernels::math {

// 2/π = 0.a2f9836e... in hexadecimal: limb j holds the bits 64j + 1 to 64j + 64 after the point.
// 22 limbs reach bit 1408, past the 971 + 256 + 64 that the largest double needs. Not inline:
// internal linkage, so that an engine TU defines no external symbol (tests/symbols).
constexpr std::uint64_t kTwoOverPiBits[] = {
    0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561,
    0xb7246e3a424dd2e0, 0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484,
    0xe99c7026b45f7e41, 0x3991d639835339f4, 0x9c845f8bbdf9283b, 0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d, 0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab, 0xf0cfbc209af4361d,
    0xa9e391615ee61b08, 0x6599855f14a06840};

// 128-bit integers (GCC and Clang on every 64-bit target the library builds for).
__extension__ typedef unsigned __int128 HugeU128;
__extension__ typedef __int128 HugeI128;

struct HugeReduction {
  int k;          // the multiple of π/2, modulo 4
  double hi, lo;  // r = hi + lo, |r| <= π/4 (a hair more where rounding decides k)
};

// 64 bits of the 384-bit little-endian number p, starting at bit `pos` (0 <= pos <= 320).
template <class O>
std::uint64_t HugeBits64(const O&, const std::uint64_t (&p)[6], int pos) {
  const int limb = pos / 64, shift = pos % 64;
  if (shift == 0) return p[limb];
  return (p[limb] >> shift) | (p[limb + 1] << (64 - shift));
}

// a: finite, a >= 1 (the callers pass |x| beyond their Cody-Waite ranges). O: ScalarOps<double>.
template <class O>
HugeReduction ReduceHuge(const O& o, double a) {
  std::uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  const int biased = int(bits >> 52) & 0x7ff;
  const std::uint64_t m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int e = biased - 1075;  // a = m·2^e (a is normal here)
  // Bits of 2/π numbered from 1 after the point: bit i times m·2^e is a multiple of 4 when
  // e - i >= 2, so the window starts at the limb holding bit e - 1 (or at the first limb).
  const int first_bit = e - 1 > 1 ? e - 1 : 1;
  const int j0 = (first_bit - 1) / 64;
  // p = m · (limbs j0 .. j0 + 3), exactly; its value times 2^(e - 64·j0 - 256) is x·2/π mod 4
  // up to less than 2^-130.
  std::uint64_t p[6] = {};
  HugeU128 carry = 0;
  for (int i = 0; i < 4; ++i) {
    carry += static_cast<HugeU128>(m) * kTwoOverPiBits[j0 + 3 - i];
    p[i] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
  p[4] = static_cast<std::uint64_t>(carry);
  const int point = 64 * j0 + 256 - e;  // the binary point of p: 191 <= point <= 308
  int k = static_cast<int>(HugeBits64(o, p, point) & 3);
  const HugeU128 fraction =
      (static_cast<HugeU128>(HugeBits64(o, p, point - 64)) << 64) | HugeBits64(o, p, point - 128);
  // Round to the nearest multiple: a fraction of 1/2 or more counts from the next one. As a
  // signed number, the fraction is then already f - 1 (two's complement).
  if (fraction >> 127) k = (k + 1) & 3;
  // f·2^126 with 126 bits of magnitude, split into two doubles exactly.
  const HugeI128 scaled = static_cast<HugeI128>(fraction) >> 2;
  const double f_hi = static_cast<double>(scaled);
  const double f_lo = static_cast<double>(scaled - static_cast<HugeI128>(f_hi));
  const double hi = o.Mul(f_hi, 0x1p-126), lo = o.Mul(f_lo, 0x1p-126);
  // r = f·π/2 as a double-double.
  constexpr double kPiOver2Hi = 0x1.921fb54442d18p+0, kPiOver2Lo = 0x1.1a62633145c07p-54;
  const double r = o.Mul(hi, kPiOver2Hi);
  double err = o.MulSub(hi, kPiOver2Hi, r);
  err = o.MulAdd(hi, kPiOver2Lo, err);
  err = o.MulAdd(lo, kPiOver2Hi, err);
  const double r_hi = o.Add(r, err);
  return {k, r_hi, o.Sub(err, o.Sub(r_hi, r))};
}

}  // namespace coheriq::kernels::math

// Masked loads and stores that touch only the lanes their mask selects: what every generic kernel
// uses for a vector that reaches past the end of an array (a tail, an edge tile).
//
// Highway 1.0.3's MaskedLoad and BlendedStore are masked instructions on AVX-512, on AVX2 for
// lanes of 32 and 64 bits, and on SVE. Elsewhere (NEON; AVX2's 8- and 16-bit lanes) MaskedLoad
// loads the whole vector and BlendedStore writes the whole vector back, the lanes outside the
// mask with the values just read. Both touch memory past the array: a page the process may not
// be able to read (a fault for an array that ends at one), and elements another thread may be
// writing at that moment (the next block of the same matrix on the thread pool, or data of the
// caller's), whose new values the write-back would undo. LoadSelected and StoreSelected are
// Highway's operations where those are instructions, and elsewhere move the selected lanes one
// at a time through a vector on the stack (a tail of at most a vector, so the loop costs little).
// tests/kernels/bounds_test.cpp runs every kernel on arrays that end at an inaccessible page.
#ifndef COHERIQ_ENGINES_GENERIC_MASKED_INL_H_
#define COHERIQ_ENGINES_GENERIC_MASKED_INL_H_

#include <cstddef>
#include <cstdint>

#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

// Whether the target's MaskedLoad and BlendedStore of lanes of T are masked instructions.
template <class T>
constexpr bool MaskedMemoryIsNative() {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return true;
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  return sizeof(T) >= 4;
#elif HWY_TARGET == HWY_SVE || HWY_TARGET == HWY_SVE2 || HWY_TARGET == HWY_SVE_256 || \
    HWY_TARGET == HWY_SVE2_128
  return true;
#else
  return false;
#endif
}

// Whether lane i of a mask whose bits StoreMaskBits wrote to `bits` is set.
HWY_INLINE bool MaskBit(const std::uint8_t* bits, std::size_t i) {
  return ((bits[i / 8] >> (i % 8)) & 1) != 0;
}

// hn::MaskedLoad(m, d, p): the lanes of m from p, zero elsewhere; reads no other lane.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE hn::VFromD<D> LoadSelected(hn::Mask<D> m, D d, const T* HWY_RESTRICT p) {
  if constexpr (MaskedMemoryIsNative<T>()) {
    return hn::MaskedLoad(m, d, p);
  } else {
    constexpr std::size_t kMax = hn::MaxLanes(D());
    HWY_ALIGN T lanes[kMax] = {};
    std::uint8_t bits[(kMax + 7) / 8] = {};
    hn::StoreMaskBits(d, m, bits);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
      if (MaskBit(bits, i)) lanes[i] = p[i];
    }
    return hn::Load(d, lanes);
  }
}

// hn::BlendedStore(v, m, d, p): the lanes of m to p; writes (and reads) no other lane.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void StoreSelected(hn::VFromD<D> v, hn::Mask<D> m, D d, T* HWY_RESTRICT p) {
  if constexpr (MaskedMemoryIsNative<T>()) {
    hn::BlendedStore(v, m, d, p);
  } else {
    constexpr std::size_t kMax = hn::MaxLanes(D());
    HWY_ALIGN T lanes[kMax];
    std::uint8_t bits[(kMax + 7) / 8] = {};
    hn::Store(v, d, lanes);
    hn::StoreMaskBits(d, m, bits);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
      if (MaskBit(bits, i)) p[i] = lanes[i];
    }
  }
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_MASKED_INL_H_

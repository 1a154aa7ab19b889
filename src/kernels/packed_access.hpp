// Baseline access to PackedMatrix's private representation, for the public pack_b and packed
// gemm (api.cpp) and the tests. Not installed: users see PackedMatrix as opaque.
#pragma once

#include <coheriq/kernels.hpp>

#include <cstddef>
#include <type_traits>

#include "kernels/candidates.hpp"

namespace coheriq::kernels {

template <class T>
struct PackedAccess {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);

  // The candidate class tag of PackedMatrix<T>.
  using candidate_class =
      std::conditional_t<std::is_same_v<T, float>, cand::packed_f32, cand::packed_f64>;

  // An uninitialized k x n matrix of `bytes` bytes, 64-byte aligned, recording the engine in
  // effect. Constructing it is a first use of the domain.
  static PackedMatrix<T> allocate(std::size_t rows, std::size_t cols, std::size_t bytes) {
    return PackedMatrix<T>(rows, cols, bytes);
  }
  static void* data(PackedMatrix<T>& matrix) noexcept { return matrix.data(); }
  static const void* data(const PackedMatrix<T>& matrix) noexcept { return matrix.data(); }
};

}  // namespace coheriq::kernels

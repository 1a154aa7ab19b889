// PackedMatrix<T>: baseline-owned memory holding op(B) in the layout of the engine in effect.
//
// The engine only computes (packed_bytes, pack_b, gemm_packed); allocation, ownership and the
// record of which engine packed the matrix stay here, in baseline code.
#include <coheriq/kernels.hpp>

#include <cstddef>
#include <new>
#include <utility>

#include "kernels/candidates.hpp"
#include "kernels/packed_access.hpp"

namespace coheriq::kernels {
namespace {

// A cache line, and the widest vector register (AVX-512) an engine may load from it.
constexpr std::align_val_t kPackedAlignment{64};

void release(void* data) noexcept {
  if (data != nullptr) ::operator delete(data, kPackedAlignment);
}

}  // namespace

template <class T>
PackedMatrix<T>::PackedMatrix(std::size_t rows, std::size_t cols, std::size_t bytes)
    : rows_(rows), cols_(cols), bytes_(bytes) {
  // A first use: it settles and locks the domain, so the layout cannot change under the matrix.
  coheriq::use_class<Domain, typename PackedAccess<T>::candidate_class>();
  engine_ = kernels::active_engine();
  // Last, so that nothing after it can throw and leak the memory.
  if (bytes_ != 0) data_ = ::operator new(bytes_, kPackedAlignment);
}

template <class T>
PackedMatrix<T>::PackedMatrix(PackedMatrix&& other) noexcept
    : rows_(std::exchange(other.rows_, 0)),
      cols_(std::exchange(other.cols_, 0)),
      bytes_(std::exchange(other.bytes_, 0)),
      data_(std::exchange(other.data_, nullptr)),
      engine_(std::move(other.engine_)) {
  other.engine_.clear();
}

template <class T>
PackedMatrix<T>& PackedMatrix<T>::operator=(PackedMatrix&& other) noexcept {
  if (this != &other) {
    release(data_);
    rows_ = std::exchange(other.rows_, 0);
    cols_ = std::exchange(other.cols_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
    data_ = std::exchange(other.data_, nullptr);
    engine_ = std::move(other.engine_);
    other.engine_.clear();
  }
  return *this;
}

template <class T>
PackedMatrix<T>::~PackedMatrix() {
  release(data_);
}

template class PackedMatrix<float>;
template class PackedMatrix<double>;

}  // namespace coheriq::kernels

// Scratch memory kept by each thread between calls: the GEMM driver's workspace (the packed A
// block and B k-block) and the complex GEMM's expanded op(B) (complex_gemm.hpp). Owned by
// baseline code, because ISA code never allocates. One buffer per thread and per Slot (a tag type
// naming the user, which must not hold two at once on one thread), 64-byte aligned, grown on
// demand and kept until the thread exits, so repeated products of one size allocate once and
// fault their pages in once.
//
// The block itself is trivially destructible thread-local storage, valid for the whole life of
// the thread; a separate guard frees the buffer when the thread's thread_local objects are
// destroyed. A call that runs after that (from a later thread_local destructor, or from a static
// destructor after the main thread's) gets a buffer of its own for that call. A failed
// allocation throws std::bad_alloc and leaves the thread's buffer as it was.
#pragma once

#include <cstddef>
#include <new>

namespace coheriq::kernels {

template <class Slot>
class ThreadWorkspace {
 public:
  explicit ThreadWorkspace(std::size_t bytes) {
    Block& b = block;
    if (b.state == State::released) {
      if (bytes != 0) data_ = owned_ = ::operator new(bytes, kAlignment);
      return;
    }
    if (b.state == State::unused) {
      thread_local Guard guard;  // registers the release at thread exit
      b.state = State::cached;
    }
    if (bytes > b.capacity) {
      void* grown = ::operator new(bytes, kAlignment);  // on bad_alloc the old one stays
      release(b.data);
      b.data = grown;
      b.capacity = bytes;
    }
    data_ = b.data;
  }
  ThreadWorkspace(const ThreadWorkspace&) = delete;
  ThreadWorkspace& operator=(const ThreadWorkspace&) = delete;
  ~ThreadWorkspace() { release(owned_); }

  void* data() const { return data_; }

 private:
  static constexpr std::align_val_t kAlignment{64};
  enum class State : unsigned char { unused, cached, released };
  struct Block {
    void* data;
    std::size_t capacity;
    State state;
  };
  static inline thread_local Block block{nullptr, 0, State::unused};

  static void release(void* data) noexcept {
    if (data != nullptr) ::operator delete(data, kAlignment);
  }
  struct Guard {
    ~Guard() {
      release(block.data);
      block = {nullptr, 0, State::released};
    }
  };

  void* data_ = nullptr;
  void* owned_ = nullptr;  // this call's own buffer, after the thread's was released
};

}  // namespace coheriq::kernels

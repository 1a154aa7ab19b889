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

#include <sys/mman.h>

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
      advise_huge_pages(grown, bytes);
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

  // A buffer of kHugeBytes or more is advised onto transparent huge pages (where the kernel
  // offers them only on advice), its whole 2 MiB pages: the B k-block of a large product (8 MiB
  // for f32 at n = 4096) then takes a few TLB entries instead of thousands. Measured on a Zen 5
  // guest: sgemm at 4096 1.02-1.05x, at 2048 1.03x. Advice only: without huge pages nothing
  // changes. Once per buffer, which a thread keeps, unlike a packed matrix's storage
  // (docs/decisions.md, "Huge pages for the thread's GEMM workspace").
  static constexpr std::size_t kHugeBytes = std::size_t{4} << 20;
  static void advise_huge_pages(void* data, std::size_t bytes) noexcept {
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    if (bytes < kHugeBytes) return;
    const std::size_t begin = reinterpret_cast<std::size_t>(data);
    const std::size_t first = (begin + kHugePage - 1) / kHugePage * kHugePage;
    const std::size_t last = (begin + bytes) / kHugePage * kHugePage;
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
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

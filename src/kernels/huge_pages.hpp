// Huge-page advice for the kernels domain's large buffers (packed matrices, GEMM workspaces).
//
// A buffer of several MiB is mapped anew by malloc at each allocation, and faulting it in one
// 4 KiB page at a time can cost more than the work done in it: pack_b of a 2048 x 2048 double
// matrix (32 MiB) took 15.6 ms on the Zen 5 host, 1.1 ms of it packing, the rest page faults
// (14 ms for 32 MiB first touched, 2.2 ms with this advice). Where the kernel offers transparent
// huge pages on request (Linux, THP mode "madvise" or "always"), the whole 2 MiB ranges inside
// such a buffer are advised (MADV_HUGEPAGE) before anything writes to it. Advice only: when it
// is refused, or elsewhere, the buffer is the same memory with 4 KiB pages.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace coheriq::kernels {

// Buffers from this size on are advised: two huge pages, so that at least one 2 MiB range lies
// wholly inside the buffer wherever it starts.
inline constexpr std::size_t kHugePageAdviceMin = std::size_t{4} << 20;

inline void advise_huge_pages(void* data, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data == nullptr || bytes < kHugePageAdviceMin) return;
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return;
  const std::uintptr_t page = static_cast<std::uintptr_t>(page_size);
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t begin = (at + page - 1) / page * page;
  const std::uintptr_t end = (at + bytes) / page * page;
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace coheriq::kernels

// Mapping the pages of a fresh buffer in one system call rather than one
// page fault per 4 KB as it fills: on a virtual machine a fault costs several
// microseconds, which for the megabytes of an assembled program is a large
// share of `nisa asm`. Only a hint: on kernels without MADV_POPULATE_WRITE
// (Linux < 5.14) or where it fails, pages fault in as usual.
#pragma once
#include <cstddef>
#include <cstdint>
#include <sys/mman.h>

namespace nisa {

inline void prefault_for_writing(void* data, std::size_t size) {
#ifdef MADV_POPULATE_WRITE
  constexpr std::uintptr_t kPage = 4096;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(kPage - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)data;
  (void)size;
#endif
}

}  // namespace nisa

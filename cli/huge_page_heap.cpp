// See huge_page_heap.hpp. How: glibc's malloc takes memory below 64 MB from
// the brk heap and grows it by at least M_TOP_PAD. One allocation with a pad
// of 1 GB extends the heap by that much address space (nothing is touched:
// the memory counts only once written), madvise(MADV_HUGEPAGE) marks the new
// range, and the allocation is freed again: from then on the heap's pages
// fault in as 2 MB huge pages (one fault where there were 512), and freed
// memory is kept rather than given back and faulted in again. Measured on
// `nisa run bench/small_instructions_f32.nasm`: 85,600 faults -> ~700.
//
// The fallbacks (correct, only slower):
// - huge pages switched off (/sys/kernel/mm/transparent_hugepage/enabled is
//   `never`, or THP is missing) or madvise refused: the reservation stays,
//   on 4 KB pages;
// - compaction stalls: when the kernel's defrag setting makes a fault in an
//   advised range compact memory synchronously (`always`, `madvise`,
//   `defer+madvise`) and /proc/buddyinfo shows fewer free 2 MB blocks than a
//   large run needs, a fault could wait for compaction (a run of 0.4 s once
//   took 1 s): no advice is given, the same;
// - the heap cannot grow by the reservation (an address-space limit):
//   glibc's defaults are restored;
// - the sanitizers (they bring their own allocator) and NISA_HUGE_PAGES=0:
//   glibc's default heap, untouched.
#include "huge_page_heap.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define NISA_OWN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NISA_OWN_ALLOCATOR 1
#endif

namespace nisa {

namespace {

#ifndef NISA_OWN_ALLOCATOR  // under the sanitizers their allocator owns the heap: nothing here is used
constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kHugePage = 2 * kMiB;
// Address space reserved for the heap (untouched: costs no memory).
constexpr std::size_t kReservation = 1024 * kMiB;
// The first part of the reservation stays on 4 KB pages: a small run (a few
// MB of heap) then zeroes no 2 MB page it would mostly not use (~0.3 ms).
constexpr std::size_t kSmallPart = 4 * kMiB;
// Heap every run touches, mapped at once.
constexpr std::size_t kStartupHeap = 512 * 1024;
// Allocations up to this size come from the heap rather than their own mmap.
constexpr int kMmapThreshold = 64 * kMiB;
// Free 2 MB blocks the kernel must have for huge pages to come without
// compaction: room for the largest benchmark run (~300 MB) with a margin.
constexpr uint64_t kMinFreeHugeBlocks = 256;

// A small /proc or /sys file into `buf` (NUL-terminated); false if unreadable.
bool read_small_file(const char* path, char* buf, std::size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::size_t used = 0;
  while (used + 1 < size) {
    const ssize_t n = ::read(fd, buf + used, size - 1 - used);
    if (n <= 0) break;
    used += static_cast<std::size_t>(n);
  }
  ::close(fd);
  buf[used] = '\0';
  return used > 0;
}

// The selected word of a sysfs choice file: "always [madvise] never".
bool selected(const char* text, const char* word) {
  char bracketed[32];
  std::snprintf(bracketed, sizeof bracketed, "[%s]", word);
  return std::strstr(text, bracketed) != nullptr;
}

// Free blocks of 2 MB or more, counted in 2 MB units, from /proc/buddyinfo
// ("Node 0, zone Normal c0 c1 ... c10": free blocks of 4 KB << order).
uint64_t free_huge_blocks(const char* buddyinfo) {
  constexpr int kHugeOrder = 9;  // 4 KB << 9 = 2 MB
  uint64_t blocks = 0;
  for (const char* line = buddyinfo; *line != '\0';) {
    const char* zone = std::strstr(line, "zone");
    const char* eol = std::strchr(line, '\n');
    if (eol == nullptr) eol = line + std::strlen(line);
    if (zone != nullptr && zone < eol) {
      const char* p = zone + 4;
      while (p < eol && *p == ' ') ++p;
      while (p < eol && *p != ' ') ++p;  // the zone's name
      for (int order = 0; p < eol; ++order) {
        char* next = nullptr;
        const unsigned long long count = std::strtoull(p, &next, 10);
        if (next == p) break;
        if (order >= kHugeOrder) blocks += count << (order - kHugeOrder);
        p = next;
      }
    }
    line = *eol == '\0' ? eol : eol + 1;
  }
  return blocks;
}

bool switched_off_by_environment() {
  const char* env = std::getenv("NISA_HUGE_PAGES");
  return env != nullptr && std::strcmp(env, "0") == 0;
}

// Whether advising huge pages risks no compaction stall. THP's `enabled`
// file is not read: where it says `never` the advice is simply without
// effect (one file less to open on every start, ~25 us).
bool huge_pages_worth_asking() {
  char text[256];
  // `defer` and `never` never make a fault wait for compaction.
  if (!read_small_file("/sys/kernel/mm/transparent_hugepage/defrag", text, sizeof text)) return false;
  if (selected(text, "defer") || selected(text, "never")) return true;
  char buddy[4096];
  return read_small_file("/proc/buddyinfo", buddy, sizeof buddy) && free_huge_blocks(buddy) >= kMinFreeHugeBlocks;
}

void restore_default_heap() {
  // glibc's defaults (malloc.c): no top pad, 128 KB trim and mmap thresholds.
  mallopt(M_TOP_PAD, 0);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}
#endif

}  // namespace

void use_huge_page_heap() {
#ifndef NISA_OWN_ALLOCATOR
  if (switched_off_by_environment()) return;
  if (mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 0 || mallopt(M_TRIM_THRESHOLD, kReservation) == 0 ||
      mallopt(M_TOP_PAD, kReservation) == 0) {
    restore_default_heap();
    return;
  }
  // Larger than the heap's free top: the heap grows by it plus the pad.
  const auto before = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  void* probe = std::malloc(kMiB);
  const auto after = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  const auto first = (before + kSmallPart + kHugePage - 1) & ~(kHugePage - 1);
  const auto last = after & ~(kHugePage - 1);
  const bool reserved = probe != nullptr && after > before && last > first && last - first >= kReservation / 2;
  if (!reserved)
    restore_default_heap();
  else if (huge_pages_worth_asking())
    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // refused: the reservation stays on 4 KB pages
#ifdef MADV_POPULATE_WRITE
  // What every run uses (the spec, the command line, a small program: ~400
  // KB) mapped in one call rather than ~100 faults.
  if (probe != nullptr) {
    const auto start = reinterpret_cast<std::uintptr_t>(probe) & ~std::uintptr_t{4095};
    ::madvise(reinterpret_cast<void*>(start), kStartupHeap, MADV_POPULATE_WRITE);
  }
#endif
  std::free(probe);
#endif
}

}  // namespace nisa

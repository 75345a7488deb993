// The `nisa` executable's own pages mapped in a few system calls (one per
// segment) before any of its code runs (issue 16: a 4-element `nisa run` under 3 ms).
//
// Why: the static executable's code is 3.8 MB, and even a tiny run touches
// functions spread over all of it (the C and C++ runtimes, CLI11, the spec,
// the assembler, the interpreter): ~40 page faults on code and ~10 on data,
// each 10-15 us on the virtual machines we measure on (a fault leaves the
// guest), ~0.5 ms of a 3 ms run. MADV_POPULATE_READ maps the whole code and
// read-only data from the page cache in one call (~0.1 ms), and
// MADV_POPULATE_WRITE makes the writable data private in one call, and the
// top 64 KB of the stack present. Measured with `nisa run` of a 4-element
// program (bench/README.md, "Start-up"): 92 page faults -> 36.
//
// When: from .preinit_array, the first user code a static executable runs
// (after the C library's own start-up, before every constructor). Only a
// hint: kernels before Linux 5.14 refuse the advice, and the pages then
// fault in as before. The Python module (a shared library) never has this.
#include <cstdint>
#include <link.h>
#include <sys/mman.h>

namespace {

constexpr std::uintptr_t kPage = 4096;

std::uintptr_t page_down(std::uintptr_t a) { return a & ~(kPage - 1); }
std::uintptr_t page_up(std::uintptr_t a) { return (a + kPage - 1) & ~(kPage - 1); }

void populate(std::uintptr_t begin, std::uintptr_t end, [[maybe_unused]] bool write) {
#if defined(MADV_POPULATE_READ) && defined(MADV_POPULATE_WRITE)
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
#else
  (void)begin;
  (void)end;
#endif
}

// The executable is the first object dl_iterate_phdr reports.
int populate_executable(dl_phdr_info* info, std::size_t, void*) {
  // The part of the writable segment made read-only after relocation
  // (PT_GNU_RELRO): writing to populate it would be refused.
  std::uintptr_t relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) relro_end = page_up(info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t begin = page_down(info->dlpi_addr + ph.p_vaddr);
    const std::uintptr_t end = page_up(info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
    if ((ph.p_flags & PF_W) == 0) {
      populate(begin, end, false);
    } else if (relro_end > begin && relro_end < end) {
      populate(begin, relro_end, false);
      populate(relro_end, end, true);
    } else {
      populate(begin, end, true);
    }
  }
  return 1;  // the executable only
}

// The stack a run's deepest calls reach (~24 KB for a small program; 64 KB
// is well inside the 128 KB the kernel maps below the arguments at exec):
// five faults fewer. Deeper calls fault in as usual.
constexpr std::uintptr_t kStackAhead = 64 * 1024;

void populate_executable_pages(int, char**, char**) {
  dl_iterate_phdr(populate_executable, nullptr);
  const std::uintptr_t here = page_down(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
  populate(here - kStackAhead, here, true);
}

}  // namespace

// A static executable runs .preinit_array entries before its constructors.
__attribute__((section(".preinit_array"), used)) void (*const nisa_populate_executable_pages)(int, char**, char**) =
    populate_executable_pages;

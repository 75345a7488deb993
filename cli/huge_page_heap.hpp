// The `nisa` executable's heap on transparent huge pages (issue 16): a long
// program's model (the assembled Program, its Steps, the tile table) is
// hundreds of thousands of small allocations, and on a virtual machine every
// first touch of a 4 KB page is a fault of 7-14 us, which was most of the
// time of `nisa run` on a 200,000-instruction program. Only the command line
// does this: a library user (the Python module) keeps its own allocator.
#pragma once

namespace nisa {

// Grows the malloc heap by a large untouched reservation advised as huge
// pages, so that it faults in 2 MB at a time, and maps the heap every run
// uses in one call. No advice (4 KB pages) when huge pages are off, when the
// kernel refuses it, or when it has too few free 2 MB blocks to give them
// without compaction stalls. Does nothing (the heap stays glibc's default)
// under the sanitizers or with NISA_HUGE_PAGES=0.
void use_huge_page_heap();

}  // namespace nisa

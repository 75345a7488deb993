// Reading a .nbin file: its header says how long the whole file is, so no
// more than that (and one byte, to see trailing bytes) is ever read; a file
// that does not start with the magic number is read no further than its
// header (issue 15: `nisa dis /dev/zero` read until memory ran out).
#include <algorithm>
#include <cstring>

#include "file_io.hpp"
#include "nbin.hpp"
#include "nbin_format.hpp"

namespace nisa {

std::vector<uint8_t> read_nbin_file(const std::string& path) {
  return read_file_bytes(path, nbin::kHeaderSize, [](std::span<const uint8_t> head) -> std::size_t {
    if (head.size() < nbin::kHeaderSize || std::memcmp(head.data(), nbin::kMagic, sizeof nbin::kMagic) != 0)
      return head.size();  // the decoder names what is wrong from these bytes alone
    uint32_t payload = 0;
    for (std::size_t i = 0; i < 4; ++i) payload |= uint32_t{head[nbin::kPayloadSizeAt + i]} << (8 * i);
    return nbin::kHeaderSize + std::size_t{payload};
  });
}

}  // namespace nisa

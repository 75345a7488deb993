#include "bit_copy.hpp"

#include <cstring>

namespace nisa {
namespace {

template <int64_t Size>
void copy_row(uint8_t* dst, int64_t dst_stride, const uint8_t* src, int64_t src_stride, int64_t n) {
  if (dst_stride == Size && src_stride == Size) {
    std::memmove(dst, src, static_cast<std::size_t>(n * Size));
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * dst_stride, src + i * src_stride, Size);
}

}  // namespace

void copy_tile_bits(const TileAccess& dst, const TileAccess& src, int64_t partitions, int64_t rows, int64_t row_length) {
  auto* copy = dst.element_size == 1 ? &copy_row<1> : dst.element_size == 2 ? &copy_row<2> : &copy_row<4>;
  for (int64_t p = 0; p < partitions; ++p) {
    uint8_t* d = dst.partition(p);
    const uint8_t* s = src.partition(p);
    for (int64_t r = 0; r < rows; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      copy(d + dst.row_offsets[ri], dst.element_stride, s + src.row_offsets[ri], src.element_stride, row_length);
    }
  }
}

}  // namespace nisa

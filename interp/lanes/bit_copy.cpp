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

void copy_partition_bits(const TileAccess& dst, uint8_t* to, const TileAccess& src, const uint8_t* from, int64_t rows, int64_t row_length) {
  auto* copy = dst.element_size == 1 ? &copy_row<1> : dst.element_size == 2 ? &copy_row<2> : &copy_row<4>;
  for (int64_t r = 0; r < rows; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    copy(to + dst.row_offsets[ri], dst.element_stride, from + src.row_offsets[ri], src.element_stride, row_length);
  }
}

void copy_tile_bits(const TileAccess& dst, const TileAccess& src, int64_t partitions, int64_t rows, int64_t row_length) {
  for (int64_t p = 0; p < partitions; ++p) copy_partition_bits(dst, dst.partition(p), src, src.partition(p), rows, row_length);
}

}  // namespace nisa

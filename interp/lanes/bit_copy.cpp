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

// One row of Bytes bytes, all loaded before any is stored (as memmove: the
// same bytes may be source and destination), inlined by the compiler: a
// small tile's rows are a few vector moves rather than a call each.
template <std::size_t Bytes>
void move_bytes(uint8_t* dst, const uint8_t* src) {
  uint8_t row[Bytes];
  std::memcpy(row, src, Bytes);
  std::memcpy(dst, row, Bytes);
}

template <std::size_t Bytes>
void copy_short_rows(const TileAccess& dst, const TileAccess& src, int64_t partitions, int64_t rows) {
  for (int64_t p = 0; p < partitions; ++p) {
    uint8_t* to = dst.partition(p);
    const uint8_t* from = src.partition(p);
    for (int64_t r = 0; r < rows; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      move_bytes<Bytes>(to + dst.row_offsets[ri], from + src.row_offsets[ri]);
    }
  }
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
  if (dst.unit_stride() && src.unit_stride()) {
    switch (row_length * dst.element_size) {
      case 16: return copy_short_rows<16>(dst, src, partitions, rows);
      case 32: return copy_short_rows<32>(dst, src, partitions, rows);
      case 64: return copy_short_rows<64>(dst, src, partitions, rows);
      case 128: return copy_short_rows<128>(dst, src, partitions, rows);
      case 256: return copy_short_rows<256>(dst, src, partitions, rows);
      default: break;
    }
  }
  for (int64_t p = 0; p < partitions; ++p) copy_partition_bits(dst, dst.partition(p), src, src.partition(p), rows, row_length);
}

}  // namespace nisa

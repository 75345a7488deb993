// nonzero_with_count dst, src, index_offset, padding_val (GpSimd; S4.1,
// S4.1). Only partitions whose physical number is a multiple of 16 are read
// and written (GpSimd core k serves partition 16k); every other dst partition
// is left untouched. Per served partition: the positions i with src != 0
// (+index_offset), then padding_val, then the count N in the extra element.
// -0.0 counts as zero, NaN as nonzero.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nonzero_with_count;

struct Params {
  int32_t index_offset, padding_val;
};
constexpr int64_t kPartitionEvery = 16;  // GpSimd core k serves partition 16k (S4.1)

// Address of flat free element i of partition p (rows of the tile's own length).
inline uint8_t* element_at(const TileAccess& t, int64_t p, int64_t i) {
  return t.partition(p) + t.row_offsets[static_cast<std::size_t>(i / t.row_length)] + (i % t.row_length) * t.element_stride;
}

// Float32 src: nonzero unless +-0.0 (sign bit masked). Int32 src: nonzero bits.
template <uint32_t kValueMask>
void run(const Step& s, Machine&) {
  const TileAccess& src = *s.in[0];
  const TileAccess& dst = *s.dst;
  const Params& k = s.params<Params>();
  const int64_t count = src.elements;
  // One unit-stride row each (the common case: whole tiles).
  const bool contiguous = src.row_length == count && src.element_stride == 4 && dst.row_length == count + 1 &&
                          dst.element_stride == 4;
  for (int64_t p = 0; p < s.partitions; ++p) {
    if ((src.first_partition + p) % kPartitionEvery != 0) continue;  // S4.1: other partitions untouched
    int32_t found = 0;
    if (contiguous) {
      // Branch-free compaction: write every index at slot `found` and advance
      // only past nonzeros; slots beyond the final count get padding below.
      const uint8_t* in = element_at(src, p, 0);
      uint8_t* out = element_at(dst, p, 0);
      for (int64_t i = 0; i < count; ++i) {
        uint32_t bits;
        std::memcpy(&bits, in + 4 * i, 4);
        const auto index = static_cast<int32_t>(i + k.index_offset);
        std::memcpy(out + 4 * static_cast<int64_t>(found), &index, 4);
        found += (bits & kValueMask) != 0;
      }
    }
    for (int64_t i = contiguous ? count : 0; i < count; ++i) {
      uint32_t bits;
      std::memcpy(&bits, element_at(src, p, i), 4);
      if ((bits & kValueMask) == 0) continue;
      const auto index = static_cast<int32_t>(i + k.index_offset);
      std::memcpy(element_at(dst, p, found++), &index, 4);
    }
    const int32_t padding = k.padding_val;
    for (int64_t i = found; i < count; ++i) std::memcpy(element_at(dst, p, i), &padding, 4);
    std::memcpy(element_at(dst, p, count), &found, 4);
  }
}

void decode(const DecodeContext& c, Step& s) {
  // dst has one more element than src, so each keeps its own row layout.
  const TileAccess* src = c.tile(slot::src);
  s.dst = c.tile(slot::dst);
  s.partitions = src->partitions;
  s.elements = src->elements;
  s.in[0] = src;
  s.inputs = 1;
  s.row_length = 0;
  // S1.6: src is read before dst is written; a found index could overwrite a
  // src element not yet read when the two overlap, so stage dst then
  // (starting as a copy: untouched partitions keep their bytes).
  if (tiles_overlap(*s.dst, *src)) stage_dst(c, s, s.dst, s.dst->row_length, /*reads_dst=*/true);
  s.set_params(Params{static_cast<int32_t>(c.integer(slot::index_offset)), static_cast<int32_t>(c.integer(slot::padding_val))});
  s.run = src->dtype == Dtype::f32 ? run<0x7FFFFFFFu> : run<0xFFFFFFFFu>;
}

}  // namespace

// --strict reads and writes only the served partitions.
const InstructionSemantics nonzero_with_count_semantics{decode, {.partition_every = kPartitionEvery}};

}  // namespace nisa

// nc_stream_shuffle dst, src, shuffle_mask (Vector; S11.2): within every
// quadrant of 32 partitions (counted from each tile's first partition), dst
// partition 32q + i receives src partition 32q + shuffle_mask[i], bits exact;
// a mask entry of 255 leaves that dst partition unchanged. The checks
// (shuffle_quadrants) guarantee every named src partition exists.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_stream_shuffle;

constexpr uint8_t kUnchanged = 255;

struct Params {
  uint8_t mask[32];
};

void run(const Step& s, Machine&) {
  const TileAccess& src = *s.in[0];
  const TileAccess& dst = *s.dst;
  const Params& k = s.params<Params>();
  for (int64_t d = 0; d < dst.partitions; ++d) {
    const uint8_t m = k.mask[d % 32];
    if (m == kUnchanged) continue;
    const int64_t from = d / 32 * 32 + m;
    for (int64_t r = 0; r < s.rows(); ++r) {
      uint8_t* out = dst.partition(d) + dst.row_offsets[static_cast<std::size_t>(r)];
      const uint8_t* in = src.partition(from) + src.row_offsets[static_cast<std::size_t>(r)];
      if (dst.unit_stride() && src.unit_stride()) {
        std::memcpy(out, in, static_cast<std::size_t>(s.row_length * dst.element_size));
        continue;
      }
      for (int64_t j = 0; j < s.row_length; ++j)
        std::memcpy(out + j * dst.element_stride, in + j * src.element_stride, static_cast<std::size_t>(dst.element_size));
    }
  }
}

// --strict: only the dst partitions with a mask entry other than 255 are written.
void written_elements(const Step& s, std::vector<uint8_t*>& out) {
  const Params& k = s.params<Params>();
  const TileAccess& dst = s.staged ? *s.final_dst : *s.dst;
  for_each_element(dst, 1, [&](int64_t p, int64_t, uint8_t* address) {
    if (k.mask[p % 32] != kUnchanged) out.push_back(address);
  });
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src);
  // The partitions differ when one src partition is broadcast: lay out rows
  // from the free elements only (equal counts, checked).
  stream_tiles(c, s, c.tile(slot::dst), {src}, /*reads_dst=*/true);
  // S1.6 and in-place shuffles: partitions move, so any overlap is staged
  // (the staging starts as a copy: 255 entries keep dst's bytes).
  if (!s.staged && tiles_overlap(*s.dst, *s.in[0])) stage_dst(c, s, s.dst, s.row_length, /*reads_dst=*/true);
  Params k{};
  const std::vector<int32_t>& mask = c.operand(slot::shuffle_mask).list;  // 32 entries, 0..31 or 255 (checked)
  for (std::size_t i = 0; i < 32; ++i) k.mask[i] = static_cast<uint8_t>(mask[i]);
  s.set_params(k);
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_stream_shuffle_semantics{decode, {.written_elements = written_elements}};

}  // namespace nisa

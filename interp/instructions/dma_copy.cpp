// dma_copy dst, src (LANGUAGE.md 2.4): bits copied exactly, whatever the dtype
// (S2.1); HBM views may be strided on every dimension.
#include "../bit_copy.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::dma_copy;

void run(const Step& s, Machine&) { copy_tile_bits(*s.dst, *s.in[0], s.partitions, s.rows(), s.row_length); }

void decode(const DecodeContext& c, Step& s) {
  s.run = run;
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::src)});
}

}  // namespace

const InstructionSemantics dma_copy_semantics{decode};

}  // namespace nisa

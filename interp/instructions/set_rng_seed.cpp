// set_rng_seed src_seeds (Vector; S11.9, S11.5): every Vector Engine generator of
// every lane takes the state seeded_state(seed, lane, 4, generator) of the
// 32-bit seed in the [1, 1] src_seeds. Writes no memory.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::set_rng_seed;

void run(const Step& s, Machine& m) {
  uint32_t seed;
  std::memcpy(&seed, s.in[0]->base, sizeof seed);
  seed_vector_rng(m, seed);
}

// --strict: nothing is written (the "result" is src_seeds, with no element marked).
const TileAccess* no_result(const Step& s) { return s.in[0]; }
void writes_nothing(const Step&, std::vector<uint8_t*>&) {}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* seeds = c.tile(slot::src_seeds);
  s.in[0] = seeds;
  s.inputs = 1;
  s.partitions = 1;
  s.elements = 1;
  s.row_length = 0;
  s.run = run;
}

}  // namespace

const InstructionSemantics set_rng_seed_semantics{decode, {.written_elements = writes_nothing, .result_tile = no_result}};

}  // namespace nisa

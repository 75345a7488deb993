// rand_set_state src_seeds, engine (GpSimd or Vector; S11.10, S11.5): the XORWOW
// states of the engine's lanes (the physical partitions of src_seeds) are
// loaded from src_seeds: per partition, generator after generator, the
// words [x, y, z, w, v, d] (6 words on GpSimd, 24 on Vector). Writes no memory.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::rand_set_state;

template <std::size_t kGenerators>
void load_states(const TileAccess& src, std::array<std::array<XorwowState, kGenerators>, kLanes>& engine) {
  for (int64_t p = 0; p < src.partitions; ++p) {
    auto& lane = engine[static_cast<std::size_t>(src.first_partition + p)];
    for (int64_t w = 0; w < src.elements; ++w)
      std::memcpy(&lane[static_cast<std::size_t>(w / kRngWords)][static_cast<std::size_t>(w % kRngWords)], element_address(src, p, w),
                  sizeof(uint32_t));
  }
}

template <bool kVector>
void run(const Step& s, Machine& m) {
  if constexpr (kVector)
    load_states(*s.in[0], m.vector_rng);
  else
    load_states(*s.in[0], m.gpsimd_rng);
}

const TileAccess* no_result(const Step& s) { return s.in[0]; }
void writes_nothing(const Step&, std::vector<uint8_t*>&) {}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src_seeds);
  s.in[0] = src;
  s.inputs = 1;
  s.partitions = src->partitions;
  s.elements = src->elements;
  s.row_length = 0;
  s.run = c.enum_value<spec_enum::engine>(slot::engine) == spec_enum::engine::vector ? run<true> : run<false>;
}

}  // namespace

// --strict: nothing is written (the "result" is src_seeds, with no element marked).
const InstructionSemantics rand_set_state_semantics{decode, {.written_elements = writes_nothing, .result_tile = no_result}};

}  // namespace nisa

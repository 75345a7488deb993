// rand_get_state dst, engine (GpSimd or Vector; S11.11, S11.5): the XORWOW states of
// the engine's lanes (the physical partitions of dst), in rand_set_state's
// layout: per partition, generator after generator, [x, y, z, w, v, d].
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::rand_get_state;

template <std::size_t kGenerators>
void store_states(const TileAccess& dst, const std::array<std::array<XorwowState, kGenerators>, kLanes>& engine) {
  for (int64_t p = 0; p < dst.partitions; ++p) {
    const auto& lane = engine[static_cast<std::size_t>(dst.first_partition + p)];
    for (int64_t w = 0; w < dst.elements; ++w)
      std::memcpy(element_address(dst, p, w), &lane[static_cast<std::size_t>(w / kRngWords)][static_cast<std::size_t>(w % kRngWords)],
                  sizeof(uint32_t));
  }
}

template <bool kVector>
void run(const Step& s, Machine& m) {
  if constexpr (kVector)
    store_states(*s.dst, m.vector_rng);
  else
    store_states(*s.dst, m.gpsimd_rng);
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  s.dst = dst;
  s.inputs = 0;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = 0;
  s.run = c.enum_value<spec_enum::engine>(slot::engine) == spec_enum::engine::vector ? run<true> : run<false>;
}

}  // namespace

const InstructionSemantics rand_get_state_semantics{decode};

}  // namespace nisa

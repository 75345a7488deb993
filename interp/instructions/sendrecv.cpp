// sendrecv src, dst, send_to_rank, recv_from_rank, pipe_id, dma_engine (DMA;
// SEMANTICS S16.2): between two cores, each side's src goes to the other
// side's dst, bits exact, when the two meet (sendrecv.hpp). --strict sees src
// read and dst written at the step, as for any instruction.
#include "sendrecv.hpp"

#include <cstring>
#include <vector>

#include "bit_copy.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::sendrecv;

// Every element of `t` in row-major order, as bytes.
void gather(const TileAccess& t, std::vector<uint8_t>& out) {
  const auto size = static_cast<std::size_t>(t.element_size);
  out.resize(static_cast<std::size_t>(t.partitions * t.elements) * size);
  uint8_t* to = out.data();
  for (int64_t p = 0; p < t.partitions; ++p)
    for (int64_t i = 0; i < t.elements; ++i, to += size) std::memcpy(to, element_address(t, p, i), size);
}

void scatter(const TileAccess& t, const std::vector<uint8_t>& in) {
  const auto size = static_cast<std::size_t>(t.element_size);
  const uint8_t* from = in.data();
  for (int64_t p = 0; p < t.partitions; ++p)
    for (int64_t i = 0; i < t.elements; ++i, from += size) std::memcpy(element_address(t, p, i), from, size);
}

// Both sources are read before either destination is written, so a side
// whose dst is its src swaps.
void exchange(const Step& a, const Step& b) {
  std::vector<uint8_t> from_a, from_b;
  gather(*a.in[0], from_a);
  gather(*b.in[0], from_b);
  scatter(*b.dst, from_a);
  scatter(*a.dst, from_b);
}

void meets_elsewhere(const Step&, Machine&) {}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::src)});
  s.set_params(PairParams{exchange});
  s.run = meets_elsewhere;
}

}  // namespace

const InstructionSemantics sendrecv_semantics{decode};

}  // namespace nisa

// nc_transpose dst, data, engine (Tensor or Vector Engine as engine=
// selects; NKI 0.6 docstring; S8.4): dst[j, p] = data[p, j] with data's free
// axes flattened, bits copied (dst has data's dtype). Both engines give the
// same bits (NeuronCore-v3+ Tensor Engine transposes are bit-accurate); the
// engine decides the memories and sizes allowed (checked when assembled) and
// where the cost lands (S6).
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_transpose;

struct Params {
  uint8_t* scratch;  // data's elements, partition-major, so dst may overlap data (S1.6)
};

uint8_t* element(const TileAccess& t, int64_t p, int64_t j) {
  return t.partition(p) + t.row_offsets[static_cast<std::size_t>(j / t.row_length)] + (j % t.row_length) * t.element_stride;
}

void run(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  const TileAccess& dst = *s.dst;
  uint8_t* scratch = s.params<Params>().scratch;
  const auto size = static_cast<std::size_t>(data.element_size);
  const int64_t parts = data.partitions, free = data.elements;
  for (int64_t p = 0; p < parts; ++p)
    for (int64_t j = 0; j < free; ++j) std::memcpy(scratch + (p * free + j) * data.element_size, element(data, p, j), size);
  for (int64_t p = 0; p < parts; ++p)
    for (int64_t j = 0; j < free; ++j) std::memcpy(element(dst, j, p), scratch + (p * free + j) * data.element_size, size);
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* data = c.tile(slot::data);
  s.set_params(Params{c.tiles.buffer(static_cast<std::size_t>(data->partitions * data->elements * data->element_size))});
  s.dst = dst;
  s.inputs = 1;
  s.in[0] = data;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = dst->row_length;
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_transpose_semantics{decode};

}  // namespace nisa

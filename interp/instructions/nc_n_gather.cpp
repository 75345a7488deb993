// nc_n_gather dst, data, indices (GpSimd; S11.4): within each partition,
// dst[p, j] = data[p, indices[p, j]] over the flattened free elements of all
// three, bits exact. An index outside [0, data's elements per partition)
// gives zero bits (NKI requires it in range); --strict faults on it.
#include <cstring>
#include <string>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_n_gather;

inline uint32_t index_at(const TileAccess& indices, int64_t p, int64_t j) {
  uint32_t v;
  std::memcpy(&v, element_address(indices, p, j), sizeof v);
  return v;
}

void run(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  const TileAccess& indices = *s.in[1];
  const TileAccess& dst = *s.dst;
  const auto size = static_cast<std::size_t>(dst.element_size);
  for (int64_t p = 0; p < dst.partitions; ++p)
    for (int64_t j = 0; j < dst.elements; ++j) {
      const uint32_t at = index_at(indices, p, j);
      uint8_t* out = element_address(dst, p, j);
      if (at < data.elements)
        std::memcpy(out, element_address(data, p, at), size);
      else
        std::memset(out, 0, size);
    }
}

void check_indices(const Step& s, const StrictFault& fault) {
  const TileAccess& data = *s.in[0];
  const TileAccess& indices = *s.in[1];
  for (int64_t p = 0; p < indices.partitions; ++p)
    for (int64_t j = 0; j < indices.elements; ++j)
      if (index_at(indices, p, j) >= data.elements)
        fault(s, "index " + std::to_string(index_at(indices, p, j)) + " (partition " + std::to_string(indices.first_partition + p) +
                     ", element " + std::to_string(j) + ") is outside data's " + std::to_string(data.elements) + " elements per partition");
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* data = c.tile(slot::data);
  const TileAccess* indices = c.tile(slot::indices);
  s.dst = dst;
  s.in[0] = data;
  s.in[1] = indices;
  s.inputs = 2;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = 0;
  // S1.6: all inputs are read before dst is written.
  if (tiles_overlap(*dst, *data) || tiles_overlap(*dst, *indices)) stage_dst(c, s, dst, dst->row_length, /*reads_dst=*/false);
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_n_gather_semantics{decode, {.check = check_indices}};

}  // namespace nisa

// local_gather dst, src_buffer, index, num_elem_per_idx, num_valid_indices
// (GpSimd; S11.3). GpSimd core c serves partitions 16c..16c+15 of the tiles
// (they start at a multiple of 16: checked). Its indices are its 16 index
// partitions read column-major (partition first), the first
// num_valid_indices of them; every partition p of the core gathers from its
// own src_buffer partition: dst[p, k*n + e] = src_buffer[p, idx[k] + e] over
// flattened free elements, n = num_elem_per_idx (NKI's golden formula:
// np.take along the free axis). An index past the end gives zero bits
// (undefined in NKI); --strict faults on it.
#include <cstring>
#include <string>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::local_gather;

constexpr int64_t kCorePartitions = 16;

struct Params {
  int64_t width;  // num_elem_per_idx
  int64_t count;  // num_valid_indices
};

// Index k of the core whose first partition is `first` (column-major).
inline uint16_t core_index(const TileAccess& index, int64_t first, int64_t k) {
  uint16_t v;
  std::memcpy(&v, element_address(index, first + k % kCorePartitions, k / kCorePartitions), sizeof v);
  return v;
}

void run(const Step& s, Machine&) {
  const TileAccess& src = *s.in[0];
  const TileAccess& index = *s.in[1];
  const TileAccess& dst = *s.dst;
  const Params& k = s.params<Params>();
  const auto size = static_cast<std::size_t>(dst.element_size);
  for (int64_t first = 0; first < dst.partitions; first += kCorePartitions)
    for (int64_t j = 0; j < k.count; ++j) {
      const int64_t at = core_index(index, first, j);
      for (int64_t p = first; p < first + kCorePartitions; ++p)
        for (int64_t e = 0; e < k.width; ++e) {
          uint8_t* out = element_address(dst, p, j * k.width + e);
          if (at + e < src.elements)
            std::memcpy(out, element_address(src, p, at + e), size);
          else
            std::memset(out, 0, size);
        }
    }
}

// --strict: an index whose elements run past the end of the partition.
void check_indices(const Step& s, const StrictFault& fault) {
  const TileAccess& src = *s.in[0];
  const TileAccess& index = *s.in[1];
  const Params& k = s.params<Params>();
  for (int64_t first = 0; first < index.partitions; first += kCorePartitions)
    for (int64_t j = 0; j < k.count; ++j) {
      const int64_t at = core_index(index, first, j);
      if (at + k.width > src.elements)
        fault(s, "index " + std::to_string(at) + " (GpSimd core " + std::to_string((index.first_partition + first) / kCorePartitions) +
                     ", index " + std::to_string(j) + ") reads elements " + std::to_string(at) + ".." + std::to_string(at + k.width - 1) +
                     " of a partition holding " + std::to_string(src.elements) + " (NKI: undefined)");
    }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* src = c.tile(slot::src_buffer);
  const TileAccess* index = c.tile(slot::index);
  const int64_t per_core = kCorePartitions * index->elements;
  s.set_params(Params{c.integer(slot::num_elem_per_idx),
                      c.present(slot::num_valid_indices) ? c.integer(slot::num_valid_indices) : per_core});
  s.dst = dst;
  s.in[0] = src;
  s.in[1] = index;
  s.inputs = 2;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = 0;
  // S1.6: all inputs are read before dst is written.
  if (tiles_overlap(*dst, *src) || tiles_overlap(*dst, *index)) stage_dst(c, s, dst, dst->row_length, /*reads_dst=*/false);
  s.run = run;
}

}  // namespace

const InstructionSemantics local_gather_semantics{decode, {.check = check_indices}};

}  // namespace nisa

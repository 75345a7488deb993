// dma_transpose dst, src, axes (DMA; S11.1): bits copied exactly. The
// permutation is the one of src's rank (NKI 0.6: (1, 0), (2, 1, 0),
// (3, 1, 2, 0)); in all three dst's partition axis is src's last axis, so
// dst[i_last, permuted free axes...] = src[i0, i1, ...]. src may be HBM (its
// dimension 0 plays the partition) or SBUF; dst is SBUF.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::dma_transpose;

struct Params {
  int32_t rank;
  int32_t count[4];       // src's axes, outermost first
  int32_t dst_weight[4];  // per src axis: its step in dst's flat free index (0 for the last axis)
};

void run(const Step& s, Machine&) {
  const TileAccess& src = *s.in[0];
  const TileAccess& dst = *s.dst;
  const Params& k = s.params<Params>();
  const int last = k.rank - 1;
  const int64_t size = src.element_size;
  for (int64_t p = 0; p < src.partitions; ++p) {
    const int64_t dst_base = p * k.dst_weight[0];
    for (int64_t f = 0; f < src.elements; ++f) {
      // f is the row-major index of (i1, ..., i_last).
      int64_t rest = f;
      const int64_t to_partition = rest % k.count[last];
      rest /= k.count[last];
      int64_t to_free = dst_base;
      for (int a = last - 1; a >= 1; --a) {
        to_free += (rest % k.count[a]) * k.dst_weight[a];
        rest /= k.count[a];
      }
      std::memcpy(element_address(dst, to_partition, to_free), element_address(src, p, f), static_cast<std::size_t>(size));
    }
  }
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* src = c.tile(slot::src);
  const TileAccess* dst = c.tile(slot::dst);
  const std::vector<int64_t> counts = view_counts(c.operand(slot::src).view);
  const std::vector<int32_t> perm = transpose_axes(counts.size());  // checked: rank 2..4
  Params k{static_cast<int32_t>(counts.size()), {1, 1, 1, 1}, {0, 0, 0, 0}};
  for (std::size_t a = 0; a < counts.size(); ++a) k.count[a] = static_cast<int32_t>(counts[a]);
  // dst's free axes are src's axes perm[1], perm[2], ... (row-major).
  int64_t weight = 1;
  for (std::size_t j = perm.size() - 1; j >= 1; --j) {
    k.dst_weight[perm[j]] = static_cast<int32_t>(weight);
    weight *= counts[static_cast<std::size_t>(perm[j])];
  }
  s.set_params(k);
  s.dst = dst;
  s.in[0] = src;
  s.inputs = 1;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = 0;
  // S1.6: every src element is read before dst is written.
  if (tiles_overlap(*dst, *src)) stage_dst(c, s, dst, dst->row_length, /*reads_dst=*/false);
  s.run = run;
}

}  // namespace

const InstructionSemantics dma_transpose_semantics{decode};

}  // namespace nisa

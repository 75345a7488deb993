// tensor_copy_predicated dst, src, predicate, reverse_pred (Vector; S4.2,
// S4.2). Where predicate != 0 (== 0 with reverse_pred) dst = src; elsewhere
// dst keeps its bits. src and dst share a dtype, so the copy is of bits
// (S2.1); a scalar src is converted to dst's dtype once (an integer scalar for
// an integer tile exactly).
// The step's parameters are declared in tensor_copy_predicated.hpp, which
// its AVX-512 kernel (simd/tensor_copy_predicated_avx512.cpp) reads too.
#include <cstring>

#include "instructions.hpp"
#include "predicated_select.hpp"
#include "tensor_copy_predicated.hpp"
#include "tensor_copy_predicated_avx512.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_copy_predicated;
using namespace tensor_copy_predicated;

template <int64_t kSize, class Pred, bool kScalarSrc>
void run(const Step& s, Machine&) {
  const TileAccess& dst = *s.dst;
  const TileAccess& pred = *s.in[0];
  const TileAccess& src = kScalarSrc ? pred : *s.in[1];  // not read with a scalar src
  const Params& k = s.params<Params>();
  const bool reverse = k.reverse_pred;
  uint8_t scalar[kSize];
  std::memcpy(scalar, &k.bits, kSize);
  Bits<kSize> scalar_bits;
  std::memcpy(&scalar_bits, &k.bits, kSize);
  const bool contiguous = dst.element_stride == kSize && pred.element_stride == static_cast<int64_t>(sizeof(Pred)) &&
                          (kScalarSrc || src.element_stride == kSize);
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t r = 0; r < s.rows(); ++r) {
      const auto ri = static_cast<std::size_t>(r);
      uint8_t* d = dst.partition(p) + dst.row_offsets[ri];
      const uint8_t* pr = pred.partition(p) + pred.row_offsets[ri];
      const uint8_t* sr = kScalarSrc ? scalar : src.partition(p) + src.row_offsets[ri];
      if (contiguous) {
        // dst = take ? src : dst (an unselected element is rewritten with its own bits)
        select_row<kSize, Pred, kScalarSrc, false>(d, pr, sr, scalar_bits, d, 0, reverse, s.row_length);
        continue;
      }
      for (int64_t i = 0; i < s.row_length; ++i) {
        Pred pv;
        std::memcpy(&pv, pr + i * pred.element_stride, sizeof(Pred));
        if ((pv != 0) == reverse) continue;
        std::memcpy(d + i * dst.element_stride, kScalarSrc ? scalar : sr + i * src.element_stride, kSize);
      }
    }
}

template <int64_t kSize, class Pred>
Kernel pick(bool scalar_src) {
  return scalar_src ? &run<kSize, Pred, true> : &run<kSize, Pred, false>;
}

template <int64_t kSize>
Kernel pick(int64_t predicate_size, bool scalar_src) {
  switch (predicate_size) {
    case 1: return pick<kSize, uint8_t>(scalar_src);
    case 2: return pick<kSize, uint16_t>(scalar_src);
    default: return pick<kSize, uint32_t>(scalar_src);
  }
}

void decode(const DecodeContext& c, Step& s) {
  const bool scalar_src = !c.is_tile(slot::src);
  const TileAccess* dst = streamed_tile(c, slot::dst);
  const TileAccess* predicate = streamed_tile(c, slot::predicate);
  if (scalar_src) {
    stream_tiles(c, s, dst, {predicate}, /*reads_dst=*/true);
  } else {
    stream_tiles(c, s, dst, {predicate, c.tile(slot::src)}, /*reads_dst=*/true);
  }
  s.set_params(Params{c.boolean(slot::reverse_pred), scalar_src ? c.scalar_bits(slot::src, s.dst->dtype) : 0u});
  const int64_t psize = s.in[0]->element_size;
  switch (s.dst->element_size) {
    case 1: s.run = pick<1>(psize, scalar_src); break;
    case 2: s.run = pick<2>(psize, scalar_src); break;
    default: s.run = pick<4>(psize, scalar_src); break;
  }
  if (Kernel masked = tensor_copy_predicated_avx512_kernel(s, scalar_src)) s.run = masked;
  // src takes no .indirect() view (NKI 0.6); an unselected column of a
  // scattered dst keeps its bits, so dst's columns are gathered first.
  if (scalar_src) finish_tensor_indirection(c, s, slot::dst, {slot::predicate}, {.read = true});
  else finish_tensor_indirection(c, s, slot::dst, {slot::predicate, slot::src}, {.read = true});
}

// --strict: only the selected elements are written (S4.2); their addresses,
// taken before the step runs (dst may overlap the predicate).
void selected_elements(const Step& s, std::vector<uint8_t*>& out) {
  const TileAccess& pred = *s.in[0];
  const TileAccess& dst = s.staged ? *s.final_dst : *s.dst;
  const bool reverse = s.params<Params>().reverse_pred;
  for_each_element(dst, 1, [&](int64_t p, int64_t i, const uint8_t* address) {
    const uint8_t* pa = pred.partition(p) + pred.row_offsets[static_cast<std::size_t>(i / pred.row_length)] +
                        (i % pred.row_length) * pred.element_stride;
    uint32_t v = 0;
    std::memcpy(&v, pa, static_cast<std::size_t>(pred.element_size));  // little-endian: the low bytes
    if ((v != 0) != reverse) out.push_back(const_cast<uint8_t*>(address));
  });
}

}  // namespace

const InstructionSemantics tensor_copy_predicated_semantics{decode, {.written_elements = selected_elements}};

}  // namespace nisa

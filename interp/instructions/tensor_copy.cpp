// tensor_copy dst, src, engine (Vector, Scalar or GpSimd as engine= selects;
// NKI 0.6 docstring; S8.1). Every engine copies the same way in this model:
// bits exactly when dst and src share a dtype, else each element converted
// to float32 and then to dst's dtype (S2.1-S2.3: NKI's "intermediate FP32
// cast"). The engine only decides where the copy runs (--profile, S6) and
// which memories it may touch (checked when the program is assembled).
#include <cstring>
#include <vector>

#include "bit_copy.hpp"
#include "instructions.hpp"
#include "lane_loop.hpp"
#include "strict.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_copy;

struct ConvertBody : ElementwiseBody {
  static void apply(const Step&, const Lane&, int64_t, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i];
  }
};

void copy_bits(const Step& s, Machine&) { copy_tile_bits(*s.dst, *s.in[0], s.partitions, s.rows(), s.row_length); }

// Tensor Indirection (NeuronCore-v4, NKI 0.6 "Tensor indirection"; S1.7):
// dst scatters and/or src gathers its columns at offsets read from the index
// when the step runs. Each partition's row of src is read whole before any of
// dst's is written, so an overlap of the two cannot change the result.
struct Indirect {
  const TensorIndirection* dst;
  const TensorIndirection* src;
};

void column_addresses(const Step& s, std::vector<int64_t>& to, std::vector<int64_t>& from) {
  const Indirect& k = s.params<Indirect>();
  column_offsets(k.dst, *s.dst, s.elements, to);
  column_offsets(k.src, *s.in[0], s.elements, from);
}

void run_indirect(const Step& s, Machine&) {
  std::vector<int64_t> to, from;
  column_addresses(s, to, from);
  const TileAccess& d = *s.dst;
  const TileAccess& a = *s.in[0];
  std::vector<float> row(static_cast<std::size_t>(s.elements));
  std::vector<uint8_t> bits(static_cast<std::size_t>(s.elements * a.element_size));
  const bool same = d.dtype == a.dtype;
  for (int64_t p = 0; p < s.partitions; ++p) {
    const uint8_t* in = a.partition(p);
    uint8_t* out = d.partition(p);
    for (int64_t i = 0; i < s.elements; ++i) {
      const std::size_t at = static_cast<std::size_t>(i);
      if (same) std::memcpy(&bits[at * static_cast<std::size_t>(a.element_size)], in + from[at], static_cast<std::size_t>(a.element_size));
      else a.load(in + from[at], a.element_size, 1, &row[at]);
    }
    for (int64_t i = 0; i < s.elements; ++i) {
      const std::size_t at = static_cast<std::size_t>(i);
      if (same) std::memcpy(out + to[at], &bits[at * static_cast<std::size_t>(a.element_size)], static_cast<std::size_t>(a.element_size));
      else d.store(out + to[at], d.element_size, 1, &row[at]);
    }
  }
}

// --strict: a scattered dst writes the indexed columns only.
void written_elements(const Step& s, std::vector<uint8_t*>& out) {
  std::vector<int64_t> to, from;
  column_addresses(s, to, from);
  for (int64_t p = 0; p < s.partitions; ++p)
    for (int64_t i = 0; i < s.elements; ++i) out.push_back(s.dst->partition(p) + to[static_cast<std::size_t>(i)]);
}

const StrictHooks indirect_hooks{.written_elements = written_elements};

bool decode_indirect(const DecodeContext& c, Step& s) {
  const TensorView& dst = c.operand(slot::dst).view;
  const TensorView& src = c.operand(slot::src).view;
  if (dst.indirect != IndirectKind::tensor && src.indirect != IndirectKind::tensor) return false;
  const Engine engine = executing_engine(c.instruction_spec, c.instruction);
  s.dst = indirect_start_tile(c, slot::dst);
  s.in[0] = indirect_start_tile(c, slot::src);
  s.inputs = 1;
  s.partitions = s.dst->partitions;
  s.elements = view_elements_per_partition(dst);
  s.row_length = 1;
  s.set_params(Indirect{tensor_indirection(c, dst, engine), tensor_indirection(c, src, engine)});
  if (dst.indirect == IndirectKind::tensor) s.strict = &indirect_hooks;
  s.run = run_indirect;
  return true;
}

void decode(const DecodeContext& c, Step& s) {
  if (decode_indirect(c, s)) return;
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* src = c.tile(slot::src);
  stream_tiles(c, s, dst, {src});
  s.run = dst->dtype == src->dtype ? copy_bits : run_lanes<ConvertBody>;
}

}  // namespace

const InstructionSemantics tensor_copy_semantics{decode};

}  // namespace nisa

// tensor_reduce dst, data, op, negate, axis, keepdims (Vector; LANGUAGE.md
// 2.4, NKI 0.6 docstring): the free axes listed in `axis` (the last ones,
// ending at the final axis, as the checker guarantees), or all free axes,
// reduced. Arithmetic operators fold in float32, left to right (S3's folds;
// subtract as NumPy's subtract.reduce: data[0] - data[1] - ...), negated when
// `negate`; bitvec ones fold bit patterns (bit_alu.hpp). Reducing the last
// axes of a row-major tile folds consecutive runs of `group` flat elements,
// one result per run, in dst's row-major order; keepdims only names dst's shape.
#include "bit_alu.hpp"
#include "lane_loop.hpp"
#include "instructions.hpp"
#include "tensor_indirection.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_reduce;

struct Params {
  bool negate;
  int64_t group;   // with axis: elements reduced into each result
  float* scratch;  // with axis: one partition's float32 data, then its results (TileTable memory)
};

struct Body {
  static void begin(const Step&, int64_t, Lane&) {}
  static void apply(const Step& s, const Lane&, int64_t first, int64_t n, const float* const* in, float* out) {
    for (int64_t i = 0; i < n; ++i) out[i] = in[0][i];
    // subtract folds from -0.0 (fold_start): its first term enters negated.
    if (s.reduce_op == ReduceOp::subtract && first == 0 && n > 0) out[0] = -out[0];
  }
  static void end(const Step& s, Machine&, int64_t p, float r) {
    const float v = s.params<Params>().negate ? -r : r;
    s.final_dst->store(s.final_dst->partition(p), s.final_dst->element_stride, 1, &v);
  }
};

struct BitBody {
  static uint32_t start(const Step& s) { return bit_reduce_identity(s.reduce_op); }
  static void apply(const Step& s, const uint32_t*, int64_t n, const uint32_t* const* in, uint32_t*, uint32_t& r) {
    for (int64_t i = 0; i < n; ++i) r = bit_combine(s.reduce_op, r, in[0][i]);
  }
  static void end(const Step& s, int64_t p, uint32_t r) {
    store_bits_for(s.final_dst->dtype)(s.final_dst->partition(p), s.final_dst->element_stride, 1, &r);
  }
};

// Several results per partition: the partition's data is read whole into
// scratch first, so dst may overlap it (S1.6), then each run of `group`
// elements folds into one result.
void run_groups(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  const TileAccess& dst = *s.final_dst;
  const Params& k = s.params<Params>();
  const int64_t group = k.group, results = s.elements / group;
  float* values = k.scratch;
  float* out = k.scratch + s.elements;
  for (int64_t p = 0; p < s.partitions; ++p) {
    for (int64_t row = 0; row < s.rows(); ++row)
      data.load(data.partition(p) + data.row_offsets[static_cast<std::size_t>(row)], data.element_stride, s.row_length, values + row * s.row_length);
    for (int64_t j = 0; j < results; ++j) {
      const float r = fold(s.reduce_op, fold_start(s.reduce_op), values + j * group, group);
      out[j] = k.negate ? -r : r;
    }
    for (int64_t row = 0; row * dst.row_length < results; ++row)
      dst.store(dst.partition(p) + dst.row_offsets[static_cast<std::size_t>(row)], dst.element_stride, dst.row_length, out + row * dst.row_length);
  }
}

// run_groups on bit patterns (bitvec reductions).
void run_bit_groups(const Step& s, Machine&) {
  const TileAccess& data = *s.in[0];
  const TileAccess& dst = *s.final_dst;
  const LoadBits load = load_bits_for(data.dtype);
  const StoreBits store = store_bits_for(dst.dtype);
  const Params& k = s.params<Params>();
  const int64_t group = k.group, results = s.elements / group;
  auto* values = reinterpret_cast<uint32_t*>(k.scratch);
  uint32_t* out = values + s.elements;
  for (int64_t p = 0; p < s.partitions; ++p) {
    for (int64_t row = 0; row < s.rows(); ++row)
      load(data.partition(p) + data.row_offsets[static_cast<std::size_t>(row)], data.element_stride, s.row_length, values + row * s.row_length);
    for (int64_t j = 0; j < results; ++j) {
      uint32_t r = bit_reduce_identity(s.reduce_op);
      for (int64_t i = 0; i < group; ++i) r = bit_combine(s.reduce_op, r, values[j * group + i]);
      out[j] = r;
    }
    for (int64_t row = 0; row * dst.row_length < results; ++row)
      store(dst.partition(p) + dst.row_offsets[static_cast<std::size_t>(row)], dst.element_stride, dst.row_length, out + row * dst.row_length);
  }
}

void decode(const DecodeContext& c, Step& s) {
  // The free elements stream through the lane loop into the fold only; the
  // [P, 1] result is written per partition after its last element was read
  // (S1.6: dst may overlap data).
  const TileAccess* data = streamed_tile(c, slot::data);
  stream_tiles(c, s, data, {data});
  s.final_dst = streamed_tile(c, slot::dst);
  set_reduce_op(c, s, slot::op, ReduceOp::add);
  Params k{c.boolean(slot::negate), 0, nullptr};
  const bool bitvec = spec_enum::is_bitvec(s.reduce_op);
  s.run = bitvec ? run_bit_lanes<BitBody, false> : run_lanes<Body, false>;
  if (s.final_dst->elements > 1) {  // axis= keeps some free axes (checked: elements divide)
    k.group = s.elements / s.final_dst->elements;
    const auto words = static_cast<std::size_t>(s.elements + s.final_dst->elements);  // float32 or bit patterns
    k.scratch = reinterpret_cast<float*>(c.tiles.buffer(words * sizeof(float)));
    s.run = bitvec ? run_bit_groups : run_groups;
  }
  s.set_params(k);
  finish_tensor_indirection(c, s, slot::dst, {slot::data}, {.final = true});
}

// --strict: the result is in final_dst (s.dst is the data it streams).
const TileAccess* result_tile(const Step& s) { return s.final_dst; }

}  // namespace

const InstructionSemantics tensor_reduce_semantics{decode, {.result_tile = result_tile}};

}  // namespace nisa

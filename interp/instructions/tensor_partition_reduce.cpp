// tensor_partition_reduce dst, op, data (GpSimd; S4.28, NKI 0.6 docstring):
// the reduction of data across its partitions, dst[0, i] = op(..op(op(
// data[0, i], data[1, i]), data[2, i]).., data[P-1, i]): partitions in
// increasing order, each element's chain in float32 for add, average (the sum
// divided by P) and maximum (NaN propagates, S2.1), on bit patterns for
// bitwise_or/bitwise_and. The whole of data is read into scratch before dst
// is written, so dst may overlap it.
#include "bit_alu.hpp"
#include "reduction.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_partition_reduce;
using PartitionReduceOp = spec_enum::partition_reduce;

struct Params {
  PartitionReduceOp op;
  uint32_t* acc;      // TileTable memory: one result per free element (float32 bits or bit patterns)
  uint32_t* row;      // TileTable memory: one partition of data
};

// f(row, offset, count) for each row of partition p of t, offset its first flat free index.
template <class F>
void for_rows(const TileAccess& t, int64_t p, F f) {
  for (std::size_t r = 0; r < t.row_offsets.size(); ++r)
    f(t.partition(p) + t.row_offsets[r], static_cast<int64_t>(r) * t.row_length, t.row_length);
}

void run_float(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& data = *s.in[0];
  const TileAccess& dst = *s.dst;
  auto* acc = reinterpret_cast<float*>(k.acc);
  auto* values = reinterpret_cast<float*>(k.row);
  const int64_t n = data.elements;
  const bool sums = k.op != PartitionReduceOp::maximum;
  for (int64_t i = 0; i < n; ++i) acc[i] = sums ? -0.0f : reduce_identity(ReduceOp::maximum);
  for (int64_t p = 0; p < data.partitions; ++p) {
    for_rows(data, p, [&](const uint8_t* src, int64_t at, int64_t count) { data.load(src, data.element_stride, count, values + at); });
    for (int64_t i = 0; i < n; ++i) acc[i] = sums ? acc[i] + values[i] : nan_max(acc[i], values[i]);
  }
  if (k.op == PartitionReduceOp::average) {
    const auto partitions = static_cast<float>(data.partitions);
    for (int64_t i = 0; i < n; ++i) acc[i] = acc[i] / partitions;
  }
  for_rows(dst, 0, [&](uint8_t* out, int64_t at, int64_t count) { dst.store(out, dst.element_stride, count, acc + at); });
}

void run_bits(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& data = *s.in[0];
  const TileAccess& dst = *s.dst;
  const LoadBits load = load_bits_for(data.dtype);
  const StoreBits store = store_bits_for(dst.dtype);
  const int64_t n = data.elements;
  const bool is_or = k.op == PartitionReduceOp::bitwise_or;
  for (int64_t i = 0; i < n; ++i) k.acc[i] = is_or ? 0u : ~0u;
  for (int64_t p = 0; p < data.partitions; ++p) {
    for_rows(data, p, [&](const uint8_t* src, int64_t at, int64_t count) { load(src, data.element_stride, count, k.row + at); });
    for (int64_t i = 0; i < n; ++i) k.acc[i] = is_or ? (k.acc[i] | k.row[i]) : (k.acc[i] & k.row[i]);
  }
  for_rows(dst, 0, [&](uint8_t* out, int64_t at, int64_t count) { store(out, dst.element_stride, count, k.acc + at); });
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* data = c.tile(slot::data);
  s.dst = c.tile(slot::dst);
  s.in[0] = data;
  s.inputs = 1;
  s.partitions = data->partitions;
  const auto words = static_cast<std::size_t>(data->elements);
  auto* acc = reinterpret_cast<uint32_t*>(c.tiles.buffer(words * sizeof(uint32_t)));
  auto* row = reinterpret_cast<uint32_t*>(c.tiles.buffer(words * sizeof(uint32_t)));
  const Params& k = s.set_params(Params{c.enum_value<PartitionReduceOp>(slot::op), acc, row});
  s.run = spec_enum::is_bitvec(k.op) ? run_bits : run_float;
}

}  // namespace

const InstructionSemantics tensor_partition_reduce_semantics{decode};

}  // namespace nisa

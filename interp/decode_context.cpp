#include "decode_context.hpp"

#include <stdexcept>

namespace nisa {

const Operand& DecodeContext::operand(std::string_view name) const {
  const int i = instruction_spec.find_operand(name);
  if (i < 0 || static_cast<std::size_t>(i) >= instruction.operands.size())
    throw std::logic_error("interp: instruction " + instruction_spec.name + " has no operand " + std::string(name));
  return instruction.operands[static_cast<std::size_t>(i)];
}

const TileAccess* DecodeContext::tile(std::string_view name) const { return tiles.view(operand(name).view); }

double DecodeContext::number(std::string_view name) const {
  const Operand& o = operand(name);
  return o.state == OperandState::integer ? static_cast<double>(o.integer) : static_cast<double>(o.scalar);
}

float DecodeContext::scalar(std::string_view name) const { return static_cast<float>(number(name)); }

PartitionScalar DecodeContext::partition_scalar(std::string_view name, float if_absent) const {
  PartitionScalar ps;
  ps.present = true;
  const Operand& o = operand(name);
  if (o.state == OperandState::tensor) {
    ps.tile = tile(name);
  } else if (o.state == OperandState::absent) {
    ps.value = if_absent;
  } else {
    ps.value = scalar(name);
    if (o.state == OperandState::integer) ps.bits = static_cast<uint32_t>(static_cast<int32_t>(o.integer));
  }
  return ps;
}

namespace {
// The operand's enum index, which is the value of the C++ enum generated from
// the same spec (predecode checks that a --spec file has these enums).
template <class E>
E enum_value(const DecodeContext& c, std::string_view operand) {
  return static_cast<E>(c.operand(operand).integer);
}
}  // namespace

AluOp alu_op(const DecodeContext& c, std::string_view o) { return enum_value<AluOp>(c, o); }
CompareOp compare_op(const DecodeContext& c, std::string_view o) { return enum_value<CompareOp>(c, o); }
ReduceCmd reduce_cmd(const DecodeContext& c, std::string_view o) { return enum_value<ReduceCmd>(c, o); }
ActivationFn activation_fn(const DecodeContext& c, std::string_view o) { return enum_value<ActivationFn>(c, o); }

void set_reduce_op(const DecodeContext& c, Step& s, std::string_view o, ReduceOp if_absent) {
  s.reduces = true;
  s.reduce_op = c.present(o) ? enum_value<ReduceOp>(c, o) : if_absent;
}

void stream_tiles(const DecodeContext& c, Step& s, const TileAccess* dst, std::initializer_list<const TileAccess*> inputs,
                  bool reads_dst) {
  s.inputs = 0;
  for (const TileAccess* t : inputs) s.in[s.inputs++] = t;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  const TileAccess* all[4] = {dst, s.in[0], s.in[1], s.in[2]};
  s.row_length = common_row_length(std::span(all, static_cast<std::size_t>(s.inputs) + 1));
  s.dst = c.tiles.with_rows(dst, s.row_length);
  for (int k = 0; k < s.inputs; ++k) s.in[k] = c.tiles.with_rows(s.in[k], s.row_length);

  bool hazard = false;
  for (int k = 0; k < s.inputs; ++k)
    if (tiles_overlap(*s.dst, *s.in[k]) && !same_layout(*s.dst, *s.in[k])) hazard = true;
  // S1.6: all inputs are read before dst is written.
  if (hazard) stage_dst(c, s, s.dst, s.row_length, reads_dst);
}

void stage_dst(const DecodeContext& c, Step& s, const TileAccess* dst, int64_t row_length, bool reads_dst) {
  s.staged = true;
  s.staging_reads_dst = reads_dst;
  s.staging_row_length = row_length;
  s.final_dst = c.tiles.with_rows(dst, row_length);
  const auto bytes = static_cast<std::size_t>(dst->partitions * dst->elements * dst->element_size);
  TileAccess staging = contiguous_tile(c.tiles.buffer(bytes), dst->dtype, dst->partitions, dst->elements);
  staging.first_partition = dst->first_partition;
  lay_out_rows(staging, row_length);
  s.dst = c.tiles.add(std::move(staging));
}

void accumulate_into(const DecodeContext& c, Step& s, AccumulatorEngine engine, int64_t first_lane,
                     ReduceOp default_op) {
  s.accumulator = engine;
  s.first_lane = first_lane;
  s.reduce_cmd = reduce_cmd(c, "reduce_cmd");
  set_reduce_op(c, s, "reduce_op", default_op);
  if (c.is_tile("reduce_res")) s.reduce_res = c.tile("reduce_res");
}

}  // namespace nisa

#include "decode_context.hpp"

#include <stdexcept>
#include <string>

#include "lanes.hpp"

namespace nisa {

const Operand& DecodeContext::operand(OperandSlot slot) const {
  if (slot.instruction != instruction_id || slot.index < 0 ||
      static_cast<std::size_t>(slot.index) >= instruction.operands.size())
    throw std::logic_error("interp: instruction " + instruction_spec.name + " decoded with operand slot " +
                           std::to_string(slot.index) + " of another instruction");
  return instruction.operands[static_cast<std::size_t>(slot.index)];
}

const TileAccess* DecodeContext::tile(OperandSlot o) const { return tiles.view(operand(o).view); }

double DecodeContext::number(OperandSlot o) const {
  const Operand& v = operand(o);
  return v.state == OperandState::integer ? static_cast<double>(v.integer) : static_cast<double>(v.scalar);
}

float DecodeContext::scalar(OperandSlot o) const { return static_cast<float>(number(o)); }

PartitionScalar DecodeContext::partition_scalar(OperandSlot o, float if_absent) const {
  PartitionScalar ps;
  ps.present = true;
  const Operand& v = operand(o);
  if (v.state == OperandState::tensor) {
    ps.tile = tile(o);
  } else if (v.state == OperandState::absent) {
    ps.value = if_absent;
  } else {
    ps.value = scalar(o);
    if (v.state == OperandState::integer) ps.bits = static_cast<uint32_t>(static_cast<int32_t>(v.integer));
  }
  return ps;
}

uint32_t DecodeContext::scalar_bits(OperandSlot o, Dtype dtype) const {
  return integer_valued(o) ? bits_from_i64(dtype, integer(o)) : bits_from_f32(dtype, scalar(o));
}

void set_reduce_op(const DecodeContext& c, Step& s, OperandSlot o, ReduceOp if_absent) {
  s.reduces = true;
  s.reduce_op = c.present(o) ? c.enum_value<ReduceOp>(o) : if_absent;
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

void accumulate_into(const DecodeContext& c, Step& s, AccumulatorOperands operands, AccumulatorEngine engine,
                     int64_t first_lane, ReduceOp default_op) {
  s.accumulator = engine;
  s.first_lane = first_lane;
  s.reduce_cmd = c.enum_value<ReduceCmd>(operands.reduce_cmd);
  set_reduce_op(c, s, operands.reduce_op, default_op);
  if (c.is_tile(operands.reduce_res)) s.reduce_res = c.tile(operands.reduce_res);
}

}  // namespace nisa

#include "decode_context.hpp"

#include <cstring>
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
  }
  return ps;
}

std::string_view DecodeContext::enum_name(std::string_view name) const {
  const Operand& o = operand(name);
  const OperandSpec& os = instruction_spec.operands[static_cast<std::size_t>(instruction_spec.find_operand(name))];
  return spec.enums[static_cast<std::size_t>(os.enum_id)].values[static_cast<std::size_t>(o.integer)].name;
}

int enum_index_by_name(std::string_view value, const char* const* names, int count) {
  for (int i = 0; i < count; ++i)
    if (value == names[i]) return i;
  throw std::logic_error("interp: unknown enum value " + std::string(value));
}

namespace {
constexpr const char* kAluNames[] = {"bypass", "add", "subtract", "multiply", "maximum", "minimum"};
constexpr const char* kCompareNames[] = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
constexpr const char* kReduceNames[] = {"none", "add", "maximum", "minimum", "abs_max", "abs_min"};
constexpr const char* kReduceCmdNames[] = {"idle", "reset", "reset_reduce", "reduce"};
constexpr const char* kActivationNames[] = {
    "copy", "identity", "exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_apprx_tanh", "gelu_apprx_sigmoid",
    "silu", "mish", "square", "sqrt", "rsqrt", "reciprocal", "sin", "arctan", "erf", "softplus", "abs", "sign",
    "prelu"};
template <class E, std::size_t N>
E by_name(const DecodeContext& c, std::string_view operand, const char* const (&names)[N]) {
  return static_cast<E>(enum_index_by_name(c.enum_name(operand), names, static_cast<int>(N)));
}
}  // namespace

AluOp alu_op(const DecodeContext& c, std::string_view o) { return by_name<AluOp>(c, o, kAluNames); }
CompareOp compare_op(const DecodeContext& c, std::string_view o) { return by_name<CompareOp>(c, o, kCompareNames); }
ReduceOp reduce_op(const DecodeContext& c, std::string_view o) {
  return c.present(o) ? by_name<ReduceOp>(c, o, kReduceNames) : ReduceOp::none;
}
ReduceCmd reduce_cmd(const DecodeContext& c, std::string_view o) { return by_name<ReduceCmd>(c, o, kReduceCmdNames); }
ActivationFn activation_fn(const DecodeContext& c, std::string_view o) {
  return by_name<ActivationFn>(c, o, kActivationNames);
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
  s.reduce_op = reduce_op(c, "reduce_op");
  if (s.reduce_op == ReduceOp::none) s.reduce_op = default_op;
  if (c.is_tile("reduce_res")) s.reduce_res = c.tile("reduce_res");
}

}  // namespace nisa

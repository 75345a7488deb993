// Builds Programs in C++ for the .nbin and disassembler tests, independent of
// the assembler: operands by name, defaults filled from the spec the way
// LANGUAGE.md 2.3 describes (optional keys take NKI's defaults).
#pragma once
#include <algorithm>
#include <bit>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa::test {

struct ProgramBuilder {
  const Spec& spec;
  Program program;

  explicit ProgramBuilder(const Spec& s, const std::string& arch = "trn2", const std::string& file = "sample.nasm") : spec(s) {
    program.arch = spec.find_arch(arch);
    program.nki = spec.default_nki;  // as the assembler's, a program without .nki
    program.file = file;
  }

  int32_t tensor(const std::string& name, Memory m, Dtype t, std::vector<int64_t> shape, Role role = Role::none,
                 int64_t offset = 0, uint32_t line = 0) {
    TensorDecl d;
    d.name = name;
    d.memory = m;
    d.dtype = t;
    d.shape = std::move(shape);
    d.role = role;
    d.offset = offset;
    d.explicit_offset = m != Memory::hbm;
    d.line = line ? line : static_cast<uint32_t>(program.tensors.size() + 2);
    program.tensors.push_back(d);
    return static_cast<int32_t>(program.tensors.size() - 1);
  }

  // A view: whole tensor, or {start, count, step} per leading dimension.
  Operand view(int32_t tensor, std::vector<DimSlice> dims = {}) const {
    Operand o;
    o.state = OperandState::tensor;
    o.view = whole_view(program, tensor);
    for (std::size_t d = 0; d < dims.size(); ++d) o.view.dims[d] = dims[d];
    return o;
  }
  static Operand f32(float v) {
    Operand o;
    o.state = OperandState::scalar;
    o.scalar = v;
    return o;
  }
  static Operand integer(int64_t v) {
    Operand o;
    o.state = OperandState::integer;
    o.integer = v;
    return o;
  }
  static Operand boolean(bool v) {
    Operand o;
    o.state = OperandState::boolean;
    o.integer = v ? 1 : 0;
    return o;
  }
  // A string operand: `text` in the program's string table (once).
  Operand text(const std::string& text) {
    Operand o;
    o.state = OperandState::string;
    const auto found = std::find(program.strings.begin(), program.strings.end(), text);
    o.integer = found - program.strings.begin();
    if (found == program.strings.end()) program.strings.push_back(text);
    return o;
  }
  Operand enumerated(const std::string& enum_name, const std::string& value) const {
    Operand o;
    o.state = OperandState::enumerated;
    o.integer = spec.enums[static_cast<std::size_t>(spec.find_enum(enum_name))].find(value);
    if (o.integer < 0) throw std::runtime_error("no enum value " + value);
    return o;
  }

  Instruction& add(const std::string& mnemonic, std::initializer_list<std::pair<std::string, Operand>> operands, uint32_t line = 0) {
    Instruction ins;
    ins.spec_index = spec.find_instruction(mnemonic);
    if (ins.spec_index < 0) throw std::runtime_error("no instruction " + mnemonic);
    const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
    ins.operands.resize(is.operands.size());
    for (const auto& [name, value] : operands) {
      int i = is.find_operand(name);
      if (i < 0) throw std::runtime_error("no operand " + name);
      ins.operands[static_cast<std::size_t>(i)] = value;
    }
    for (std::size_t i = 0; i < is.operands.size(); ++i) {
      const OperandSpec& os = is.operands[i];
      Operand& o = ins.operands[i];
      if (o.state != OperandState::absent || !os.default_value) continue;
      const DefaultValue& dv = *os.default_value;
      switch (os.kind) {
        case OperandKind::enumeration: o.state = OperandState::enumerated; o.integer = dv.enum_index; break;
        case OperandKind::boolean: o.state = OperandState::boolean; o.integer = dv.boolean; break;
        case OperandKind::integer: o.state = OperandState::integer; o.integer = static_cast<int64_t>(dv.number); break;
        default: {
          bool is_int = false;
          if (os.integer_if_dtype_of >= 0) {
            const Operand& r = ins.operands[static_cast<std::size_t>(os.integer_if_dtype_of)];
            is_int = r.state == OperandState::tensor && dtype_is_int(program.tensors[static_cast<std::size_t>(r.view.tensor)].dtype);
          }
          o = is_int ? integer(static_cast<int64_t>(dv.number)) : f32(static_cast<float>(dv.number));
        }
      }
    }
    uint32_t previous = program.instructions.empty() ? 0 : program.instructions.back().line;
    ins.line = line ? line : previous + 1;
    program.instructions.push_back(std::move(ins));
    return program.instructions.back();
  }
};

// A program with every instruction form of S4: whole and sliced
// views (with steps on HBM), float and int32 scalars, tensor-or-scalar in both
// forms, present and absent optional operands, enums, bools, negative ints.
inline Program sample_program(const Spec& spec) {
  ProgramBuilder b(spec, "trn3", "sample.nasm");
  auto x = b.tensor("x", Memory::hbm, Dtype::f32, {128, 64}, Role::input);
  b.program.tensors[static_cast<std::size_t>(x)].init = InitKind::iota;
  auto y = b.tensor("y", Memory::hbm, Dtype::f32, {128, 64}, Role::output);
  auto c = b.tensor("c", Memory::hbm, Dtype::i32, {4}, Role::inout);
  b.program.tensors[static_cast<std::size_t>(c)].init = InitKind::fill;
  b.program.tensors[static_cast<std::size_t>(c)].init_value = ProgramBuilder::integer(-7);
  auto h = b.tensor("h", Memory::hbm, Dtype::bf16, {2, 3, 4}, Role::input);
  b.program.tensors[static_cast<std::size_t>(h)].init = InitKind::fill;
  b.program.tensors[static_cast<std::size_t>(h)].init_value = ProgramBuilder::f32(0.1f);
  auto a = b.tensor("a", Memory::sbuf, Dtype::f32, {128, 64}, Role::none, 0);
  auto col = b.tensor("col", Memory::sbuf, Dtype::f32, {128, 1}, Role::none, 256);
  auto m = b.tensor("m", Memory::sbuf, Dtype::u8, {128, 64}, Role::none, 320);
  auto ii = b.tensor("ii", Memory::sbuf, Dtype::i32, {128, 65}, Role::none, 384);
  auto ps = b.tensor("ps", Memory::psum, Dtype::f32, {128, 64}, Role::none, 0);
  auto col2 = b.tensor("col2", Memory::sbuf, Dtype::f32, {64, 1}, Role::none, 1024);
  (void)h;

  b.add("dma_copy", {{"dst", b.view(a)}, {"src", b.view(x)}}, 20);
  b.add("memset", {{"dst", b.view(col)}, {"value", ProgramBuilder::f32(-std::numeric_limits<float>::infinity())}});
  b.add("memset", {{"dst", b.view(ii, {{0, 64, 1}, {0, 10, 1}})}, {"value", ProgramBuilder::integer(-5)}});
  b.add("iota", {{"dst", b.view(ii)}, {"base", ProgramBuilder::integer(3)}, {"free_step", ProgramBuilder::integer(2)}});
  b.add("tensor_scalar", {{"dst", b.view(a, {{0, 64, 1}, {0, 32, 1}})},
                          {"data", b.view(a, {{64, 64, 1}, {32, 32, 1}})},
                          {"op0", b.enumerated("alu", "multiply")},
                          {"operand0", ProgramBuilder::f32(1.5f)},
                          {"op1", b.enumerated("alu", "add")},
                          {"operand1", b.view(col2)}}, 30);
  b.add("activation", {{"dst", b.view(ps)}, {"op", b.enumerated("activation", "exp")}, {"data", b.view(a)},
                       {"bias", b.view(col)}, {"scale", ProgramBuilder::f32(2.0f)}});
  b.add("range_select", {{"dst", b.view(a)}, {"on_true_tile", b.view(a)},
                         {"comp_op0", b.enumerated("compare", "greater_equal")},
                         {"comp_op1", b.enumerated("compare", "less")},
                         {"bound0", b.view(col)}, {"bound1", b.view(col)},
                         {"reduce_cmd", b.enumerated("reduce_cmd", "reset_reduce")},
                         {"reduce_res", b.view(col)}, {"range_start", ProgramBuilder::integer(-3)},
                         {"on_false_value", ProgramBuilder::f32(-3.4028234663852886e38f)}}, 12);
  b.add("tensor_copy_predicated", {{"dst", b.view(a)}, {"src", ProgramBuilder::f32(0.5f)}, {"predicate", b.view(m)},
                                   {"reverse_pred", ProgramBuilder::boolean(true)}});
  b.add("nonzero_with_count", {{"dst", b.view(ii)}, {"src", b.view(a)}, {"index_offset", ProgramBuilder::integer(-7)}});
  b.add("activate2", {{"dst", b.view(a)}, {"op", b.enumerated("activation", "gelu")}, {"data", b.view(a)},
                      {"imm0", ProgramBuilder::f32(0.25f)}, {"imm1", b.view(col)},
                      {"op0", b.enumerated("alu", "multiply")}, {"op1", b.enumerated("alu", "add")},
                      {"reduce_op", b.enumerated("reduce", "add")}, {"reduce_res", b.view(col)},
                      {"reduce_cmd", b.enumerated("reduce_cmd", "reduce")}});
  b.add("tensor_tensor", {{"dst", b.view(a)}, {"data1", b.view(a)}, {"data2", b.view(ps)}, {"op", b.enumerated("alu", "maximum")}});
  b.add("tensor_reduce", {{"dst", b.view(col)}, {"data", b.view(a)}, {"op", b.enumerated("reduce", "abs_max")},
                          {"negate", ProgramBuilder::boolean(true)}});
  b.add("select_reduce", {{"dst", b.view(a)}, {"predicate", b.view(m)}, {"on_true", b.view(a)}, {"on_false", b.view(col)}});
  b.add("dma_copy", {{"dst", b.view(y, {{0, 64, 2}, {1, 21, 3}})}, {"src", b.view(a, {{0, 64, 1}, {0, 21, 1}})}}, 5);
  // String operands: one text twice (one table entry), the empty one, bytes beyond ASCII.
  b.add("device_print", {{"print_prefix", b.text("a; b # c, d = \t\xc3\xa9")}, {"tensor", b.view(a, {{64, 64, 1}, {0, 3, 2}})}});
  b.add("device_print", {{"print_prefix", b.text("")}, {"tensor", b.view(c)}});
  b.add("device_print", {{"print_prefix", b.text("a; b # c, d = \t\xc3\xa9")}, {"tensor", b.view(ps)}});
  return b.program;
}

}  // namespace nisa::test

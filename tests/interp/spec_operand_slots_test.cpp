// Operands are decoded by the slots generated from isa.json (spec_operands.hpp):
// a spec given at run time must name the same operands in the same order, or
// nisa run refuses it with a clear error instead of decoding wrong operands.
#include <doctest/doctest.h>

#include <utility>

#include "error.hpp"
#include "spec_operands.hpp"
#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("operand slots are the spec's operand positions") {
  const Spec& spec = active_spec();
  const InstructionSpec& tt = spec.instructions.at(static_cast<std::size_t>(spec.find_instruction("tensor_tensor")));
  CHECK(tt.operands.at(static_cast<std::size_t>(spec_operand::tensor_tensor::data2.index)).name == "data2");
  CHECK(tt.operands.at(static_cast<std::size_t>(spec_operand::tensor_tensor::op.index)).name == "op");
  CHECK(spec_instruction::names[spec_operand::tensor_tensor::op.instruction] == "tensor_tensor");
  CHECK(spec_operands_match(spec));
}

TEST_CASE("a run-time spec with reordered operands is refused (exit 2), not decoded wrongly") {
  TestMachine m;
  const int32_t a = m.sbuf("a", Dtype::f32, {4, 4});
  m.add("memset", {{"dst", m.whole(a)}, {"value", number(1)}});
  m.add("tensor_tensor", {{"dst", m.whole(a)}, {"data1", m.whole(a)}, {"data2", m.whole(a)}, {"op", "add"}});
  Spec swapped = active_spec();
  auto& ops = swapped.instructions.at(static_cast<std::size_t>(swapped.find_instruction("tensor_tensor"))).operands;
  std::swap(ops.at(1), ops.at(2));  // data1 <-> data2
  CHECK_FALSE(spec_operands_match(swapped));
  CHECK_THROWS_AS(predecode(swapped, m.program(), m.machine()), InputError);
}

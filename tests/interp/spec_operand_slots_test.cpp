// Operands are decoded by the slots generated from isa.json (spec_operands.hpp):
// a spec given at run time must name the same operands in the same order, or
// nisa run refuses it with a clear error instead of decoding wrong operands.
#include <doctest/doctest.h>

#include <utility>

#include <nlohmann/json.hpp>

#include "error.hpp"
#include "spec_enums.hpp"
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
  // As a --spec file would give it: the JSON with data1 and data2 swapped
  // (so its spec id differs from the built-in one).
  nlohmann::json json = nlohmann::json::parse(active_spec().json);
  for (nlohmann::json& ins : json["instructions"])
    if (ins["name"] == "tensor_tensor") std::swap(ins["operands"][1], ins["operands"][2]);
  const Spec swapped = load_spec(json.dump());
  CHECK(swapped.id != active_spec().id);
  CHECK_FALSE(spec_operands_match(swapped));
  CHECK_THROWS_AS(predecode(swapped, m.program(), m.machine()), InputError);
}

TEST_CASE("a run-time spec with reordered enum values is refused, the built-in spec is not") {
  CHECK(spec_enum::spec_enums_match(active_spec()));
  // The built-in spec loaded from its JSON text again (not the snapshot): same id, matches.
  CHECK(spec_enum::spec_enums_match(load_spec(active_spec().json)));
  nlohmann::json json = nlohmann::json::parse(active_spec().json);
  std::swap(json["enums"]["reduce"][1], json["enums"]["reduce"][2]);  // maximum <-> minimum
  const Spec swapped = load_spec(json.dump());
  CHECK(swapped.id != active_spec().id);
  CHECK_FALSE(spec_enum::spec_enums_match(swapped));
  CHECK(spec_operands_match(swapped));
}

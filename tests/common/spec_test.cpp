// The spec loader: the shipped spec loads, and deliberately broken specs are
// refused with the JSON path of the defect (STYLE.md, riscv-opcodes).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "spec.hpp"

using nisa::load_spec;
using nisa::Spec;
using nisa::SpecError;
using nlohmann::json;

namespace {

json shipped() { return json::parse(nisa::embedded_spec_text()); }

std::string error_of(const json& j) {
  try {
    load_spec(j.dump());
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

json& instruction(json& j, const std::string& name) {
  for (auto& i : j["instructions"])
    if (i["name"] == name) return i;
  throw std::runtime_error("no instruction " + name);
}

}  // namespace

TEST_CASE("the shipped spec loads and describes the modeled instructions") {
  Spec s = load_spec(nisa::embedded_spec_text());
  // LANGUAGE.md 2.4: the twelve modeled instructions (S4.1 to S4.12).
  for (const char* name : {"nonzero_with_count", "tensor_copy_predicated", "select_reduce", "range_select", "activate2",
                           "dma_copy", "memset", "iota", "activation", "tensor_scalar", "tensor_tensor", "tensor_reduce"})
    CHECK_MESSAGE(s.find_instruction(name) >= 0, name);
  // S1.2: nonzero_with_count needs v3+, activate2 v4+, the others v2+.
  CHECK(s.instructions[s.find_instruction("nonzero_with_count")].first_arch_version == 3);
  CHECK(s.instructions[s.find_instruction("activate2")].first_arch_version == 4);
  CHECK(s.instructions[s.find_instruction("range_select")].first_arch_version == 2);
  // S1.1: per-partition sizes.
  CHECK(s.archs[s.find_arch("trn2")].sbuf_partition_bytes == 224 * 1024);
  CHECK(s.archs[s.find_arch("trn3")].sbuf_partition_bytes == 256 * 1024);
  CHECK(s.archs[s.find_arch("trn1")].psum_partition_bytes == 16 * 1024);
  CHECK(s.archs[s.default_arch].name == "trn2");
  // LANGUAGE.md 2.2 aliases.
  CHECK(s.find_dtype("bool") == nisa::Dtype::u8);
  CHECK(s.find_dtype("bfloat16") == nisa::Dtype::bf16);
  CHECK(s.enums[s.find_enum("reduce")].find("amax") == s.enums[s.find_enum("reduce")].find("maximum"));
  CHECK(s.enums[s.find_enum("compare")].find("ge") == s.enums[s.find_enum("compare")].find("greater_equal"));
}

TEST_CASE("the spec id depends on content, not on whitespace") {
  json j = shipped();
  Spec a = load_spec(j.dump());
  Spec b = load_spec(j.dump(4));
  CHECK(a.id == b.id);
  instruction(j, "range_select")["encoding"][0]["bits"] = 11;
  Spec c = load_spec(j.dump());
  CHECK(a.id != c.id);
}

TEST_CASE("broken specs are refused with the JSON path") {
  SUBCASE("duplicate opcode") {
    json j = shipped();
    instruction(j, "memset")["opcode"] = instruction(j, "dma_copy")["opcode"];
    CHECK(error_of(j) == "isa-spec: /instructions/1/opcode: opcode 1 used twice");
  }
  SUBCASE("opcode wider than its field") {
    json j = shipped();
    instruction(j, "memset")["opcode"] = 99;  // opcode_bits is 6
    CHECK(error_of(j) == "isa-spec: /instructions/1/opcode: value 99 outside [0, 63]");
  }
  SUBCASE("enum field too narrow") {
    json j = shipped();
    instruction(j, "activation")["encoding"][1]["bits"] = 4;
    CHECK(error_of(j) == "isa-spec: /instructions/7/encoding/1/bits: 4 bits cannot hold the 27 values of enum activation");
  }
  SUBCASE("operand encoded twice") {
    json j = shipped();
    instruction(j, "dma_copy")["encoding"][1]["field"] = "dst";
    CHECK(error_of(j) == "isa-spec: /instructions/0/encoding/1/field: operand encoded twice");
  }
  SUBCASE("operand without encoding field") {
    json j = shipped();
    instruction(j, "dma_copy")["encoding"].erase(1);
    CHECK(error_of(j) == "isa-spec: /instructions/0/encoding: operand src has no encoding field");
  }
  SUBCASE("int range wider than its field") {
    json j = shipped();
    instruction(j, "nonzero_with_count")["encoding"][2]["bits"] = 16;
    CHECK(error_of(j) == "isa-spec: /instructions/3/encoding/2/bits: 16 bits cannot hold the range [-2147483648, 2147483647] of index_offset");
  }
  SUBCASE("unknown dtype") {
    json j = shipped();
    instruction(j, "nonzero_with_count")["operands"][0]["dtypes"][0] = "int64";
    CHECK(error_of(j) == "isa-spec: /instructions/3/operands/0/dtypes/0: unknown dtype \"int64\" (a dtype name, any, float, int or mx)");
  }
  SUBCASE("dtype size disagrees with the model") {
    json j = shipped();
    j["dtypes"][1]["size"] = 4;
    CHECK(error_of(j) == "isa-spec: /dtypes/1/size: dtype bf16 has size 2 in the model");
  }
  SUBCASE("memory the engine cannot reach") {
    json j = shipped();
    instruction(j, "iota")["operands"][0]["memories"] = {"sbuf", "psum"};
    CHECK(error_of(j) == "isa-spec: /instructions/2/operands/0/memories: engine gpsimd cannot access psum");
  }
  SUBCASE("check naming an unknown operand") {
    json j = shipped();
    instruction(j, "range_select")["constraints"][0]["operands"][1] = "on_true";
    CHECK(error_of(j) == "isa-spec: /instructions/6/constraints/0/operands/1: instruction range_select has no operand \"on_true\"");
  }
  SUBCASE("list count wider than its count field") {
    json j = shipped();
    instruction(j, "iota")["encoding"][1]["count_bits"] = 2;
    CHECK(error_of(j) == "isa-spec: /instructions/2/encoding/1/count_bits: 2 bits cannot hold the count 4 of pattern");
  }
  SUBCASE("list item range wider than its field") {
    json j = shipped();
    instruction(j, "iota")["encoding"][1]["bits"] = 24;
    CHECK(error_of(j) == "isa-spec: /instructions/2/encoding/1/bits: 24 bits cannot hold the range [-2147483648, 2147483647] of pattern step");
  }
  SUBCASE("list field without a count") {
    json j = shipped();
    instruction(j, "iota")["encoding"][1].erase("count_bits");
    CHECK(error_of(j) == "isa-spec: /instructions/2/encoding/1: missing key \"count_bits\"");
  }
  SUBCASE("count on a field that is not a list") {
    json j = shipped();
    instruction(j, "iota")["encoding"][2]["count_bits"] = 3;
    CHECK(error_of(j) == "isa-spec: /instructions/2/encoding/2/count_bits: only a list field has a count");
  }
  SUBCASE("list with a default") {
    json j = shipped();
    instruction(j, "iota")["operands"][1]["default"] = json::array();
    CHECK(error_of(j) == "isa-spec: /instructions/2/operands/1/default: a list operand has no default (leave it optional)");
  }
  SUBCASE("list without items") {
    json j = shipped();
    instruction(j, "iota")["operands"][1].erase("items");
    CHECK(error_of(j) == "isa-spec: /instructions/2/operands/1: missing key \"items\"");
  }
  SUBCASE("list item range reversed") {
    json j = shipped();
    instruction(j, "iota")["operands"][1]["items"][1]["max"] = 0;
    CHECK(error_of(j) == "isa-spec: /instructions/2/operands/1/items/1/max: value 0 outside [1, 2147483647]");
  }
  SUBCASE("pattern_covers on a list that is not of [step, num]") {
    json j = shipped();
    instruction(j, "iota")["operands"][1]["items"][1]["name"] = "count";
    CHECK(error_of(j) == "isa-spec: /instructions/2/constraints/3/operands/0: pattern_covers needs a list of [step, num] entries (num >= 1) first");
  }
  SUBCASE("exclusive group naming a required operand") {
    json j = shipped();
    instruction(j, "iota")["constraints"][0]["with"][0] = "dst";
    CHECK(error_of(j) == "isa-spec: /instructions/2/constraints/0/with/0: a required operand is always given");
  }
  SUBCASE("reduced_by_axes with axes that are not a list") {
    json j = shipped();
    instruction(j, "tensor_reduce")["constraints"][0]["axes"] = "negate";
    CHECK(error_of(j) == "isa-spec: /instructions/11/constraints/0/axes: not an optional list of single integers");
  }
  SUBCASE("requires if_given on an operand with a default") {
    json j = shipped();
    instruction(j, "iota")["constraints"][1]["if_given"] = "dst";
    CHECK(error_of(j) == "isa-spec: /instructions/2/constraints/1/if_given: operand is never absent");
  }
  SUBCASE("missing key") {
    json j = shipped();
    j.erase("archs");
    CHECK(error_of(j) == "isa-spec: /: missing key \"archs\"");
  }
  SUBCASE("a modeled instruction listed as not modeled") {
    json j = shipped();
    j["nki_instructions_not_modeled"] = {"register_alloc", "iota"};
    CHECK(error_of(j) == "isa-spec: /nki_instructions_not_modeled/1: \"iota\" is a modeled instruction");
  }
  SUBCASE("a name listed twice as not modeled") {
    json j = shipped();
    j["nki_instructions_not_modeled"] = {"collective", "collective"};
    CHECK(error_of(j) == "isa-spec: /nki_instructions_not_modeled/1: \"collective\" listed twice");
  }
  SUBCASE("not JSON") {
    CHECK_THROWS_AS(load_spec("{ nope"), SpecError);
  }
}

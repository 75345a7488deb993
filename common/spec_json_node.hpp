// Internal to the spec loader (spec.cpp, spec_checks.cpp): a JSON node with
// its path, so every error names where it is (STYLE.md: riscv-opcodes
// validates its tables and names the entry).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec.hpp"

namespace nisa::spec_json {

using nlohmann::json;

struct Node {
  const json& j;
  std::string path;

  [[noreturn]] void fail(const std::string& why) const {
    throw SpecError("isa-spec: " + (path.empty() ? std::string("/") : path) + ": " + why);
  }
  Node at(const std::string& key) const {
    if (!j.is_object()) fail("expected an object");
    auto it = j.find(key);
    if (it == j.end()) fail("missing key \"" + key + "\"");
    return Node{*it, path + "/" + key};
  }
  bool has(const std::string& key) const { return j.is_object() && j.contains(key); }
  Node at(std::size_t i) const { return Node{j[i], path + "/" + std::to_string(i)}; }
  std::size_t size() const {
    if (!j.is_array()) fail("expected an array");
    return j.size();
  }
  std::string str() const {
    if (!j.is_string()) fail("expected a string");
    return j.get<std::string>();
  }
  int64_t integer(int64_t lo, int64_t hi) const {
    if (!j.is_number_integer()) fail("expected an integer");
    int64_t v = j.get<int64_t>();
    if (v < lo || v > hi) fail("value " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
  }
  double number() const {
    if (!j.is_number()) fail("expected a number");
    return j.get<double>();
  }
  bool boolean() const {
    if (!j.is_boolean()) fail("expected true or false");
    return j.get<bool>();
  }
  std::vector<std::string> strings() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < size(); ++i) out.push_back(at(i).str());
    return out;
  }
};

// "hbm", "sbuf" or "psum" (refused otherwise).
Memory parse_memory(const Node& n);
// An operand named by a string node, as its index in `ins` (refused if none).
int operand_ref(const Node& n, const InstructionSpec& ins);
// One entry of an instruction's "constraints" (CheckKind, spec.hpp).
CheckSpec parse_check(const Node& c, const Spec& spec, const InstructionSpec& ins);

// The "timeline" part of the spec's "cost" section: which operands an
// instruction writes and how it names the accumulator (S3), by operand name
// (spec_cost.cpp). Compiles the cross-engine wait into `spec`.
struct TimelineNames {
  std::vector<std::string> written;
  std::string accumulator_command, accumulator_idle, accumulator_result;
};
TimelineNames parse_timeline(const Node& t, Spec& spec);
// An instruction's "cost" entry (S6), its formulas compiled and checked.
CostSpec parse_cost(const Node& c, const Spec& spec, const InstructionSpec& ins, const TimelineNames& names);

}  // namespace nisa::spec_json

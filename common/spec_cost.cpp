// The spec's "cost" section (S6): the timeline's names and each
// instruction's cost, its formulas compiled once and checked.
#include <cmath>
#include <string>

#include "spec_json_node.hpp"

namespace nisa::spec_json {

namespace {

// Compiles a formula once (S6) and checks that it gives a finite cycle count
// >= 0 over the range of N and BYTES a program can have.
CostFormula cost_formula(const Node& n, const Spec& spec) {
  CostFormula f;
  try {
    f = compile_cost_formula(n.str(), spec.cost_constants);
  } catch (const CostFormulaError& e) {
    n.fail(e.what());
  }
  for (double x : {0.0, 1.0, 4096.0, 1e9}) {
    double v = f.evaluate(CostInputs{x, 4 * x, 128});
    if (!std::isfinite(v) || v < 0) n.fail("formula gives " + std::to_string(v) + " cycles for N = " + std::to_string(x));
  }
  return f;
}

}  // namespace

TimelineNames parse_timeline(const Node& t, Spec& spec) {
  TimelineNames names;
  names.written = t.at("written_operands").strings();
  Node acc = t.at("accumulator");
  names.accumulator_command = acc.at("command").str();
  names.accumulator_idle = acc.at("idle").str();
  names.accumulator_result = acc.at("result").str();
  Node wait = t.at("cross_engine_wait");
  try {
    spec.cross_engine_wait = compile_cost_formula(wait.str(), spec.cost_constants);
  } catch (const CostFormulaError& e) {
    wait.fail(e.what());
  }
  return names;
}

CostSpec parse_cost(const Node& c, const Spec& spec, const InstructionSpec& ins, const TimelineNames& names) {
  CostSpec cs;
  cs.cycles = c.at("cycles").str();
  cs.formula = cost_formula(c.at("cycles"), spec);
  cs.estimate = c.at("estimate").boolean();
  // A sequencer instruction without a tensor operand (S17.4) has no size.
  if (ins.sequencer != Sequencer::none && !c.has("size_of")) {
    cs.size_of = -1;
  } else {
    cs.size_of = operand_ref(c.at("size_of"), ins);
    if (const OperandSpec& s = ins.operands[static_cast<std::size_t>(cs.size_of)]; s.kind != OperandKind::tensor || !s.required)
      c.at("size_of").fail("operand " + s.name + " is not a required tensor");
  }
  if (c.has("cases")) {
    Node cases = c.at("cases");
    for (std::size_t i = 0; i < cases.size(); ++i) {
      Node k = cases.at(i);
      CostCase cc;
      cc.memory = parse_memory(k.at("when_all_in"));
      Node ops = k.at("operands");
      for (std::size_t j = 0; j < ops.size(); ++j) cc.operands.push_back(operand_ref(ops.at(j), ins));
      cc.cycles = k.at("cycles").str();
      cc.formula = cost_formula(k.at("cycles"), spec);
      cs.cases.push_back(std::move(cc));
    }
  }
  if (c.has("extra_if_present")) {
    Node e = c.at("extra_if_present");
    if (!e.j.is_object()) e.fail("expected an object");
    for (auto it = e.j.begin(); it != e.j.end(); ++it) {
      Node v{it.value(), e.path + "/" + it.key()};
      int op = ins.find_operand(it.key());
      if (op < 0) v.fail("instruction " + ins.name + " has no operand \"" + it.key() + "\"");
      cs.extra_if_present.emplace_back(op, v.str());
      cs.extra_formulas.push_back(cost_formula(v, spec));
    }
  }
  for (const std::string& w : names.written)
    if (int op = ins.find_operand(w); op >= 0) cs.written.push_back(op);
  if (int op = ins.find_operand(names.accumulator_command); op >= 0) {
    const OperandSpec& os = ins.operands[static_cast<std::size_t>(op)];
    if (os.kind != OperandKind::enumeration) c.fail("operand " + os.name + " of " + ins.name + " is not an enum");
    cs.accumulator_command = op;
    cs.accumulator_idle = spec.enums[static_cast<std::size_t>(os.enum_id)].find(names.accumulator_idle);
    if (cs.accumulator_idle < 0) c.fail("enum " + spec.enums[static_cast<std::size_t>(os.enum_id)].name + " has no value " + names.accumulator_idle);
  }
  cs.accumulator_result = ins.find_operand(names.accumulator_result);
  return cs;
}

}  // namespace nisa::spec_json

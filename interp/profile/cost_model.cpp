#include "cost_model.hpp"

#include <cmath>

namespace nisa {

CostInputs cost_inputs(const Program& program, const TensorView& view) {
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(view.tensor)];
  const double n = static_cast<double>(view_elements_per_partition(view));
  const double p = static_cast<double>(view_partitions(view));
  return CostInputs{n, n * p * static_cast<double>(dtype_size(t.dtype)), p};
}

namespace {

bool all_in(const Instruction& ins, const CostCase& c, const Program& program) {
  for (int o : c.operands) {
    const Operand& op = ins.operands[static_cast<std::size_t>(o)];
    if (op.state != OperandState::tensor) return false;  // a scalar lives nowhere
    if (program.tensors[static_cast<std::size_t>(op.view.tensor)].memory != c.memory) return false;
  }
  return true;
}

}  // namespace

double instruction_cycles(const Spec& spec, const Program& program, const Instruction& ins) {
  const CostSpec& cost = spec.instructions[static_cast<std::size_t>(ins.spec_index)].cost;
  // A sequencer instruction without a tensor (S17.4) has no size.
  const CostInputs in = cost.size_of < 0 ? CostInputs{0, 0, 0} : cost_inputs(program, ins.operands[static_cast<std::size_t>(cost.size_of)].view);
  const CostFormula* formula = &cost.formula;
  for (const CostCase& c : cost.cases)
    if (all_in(ins, c, program)) {
      formula = &c.formula;
      break;
    }
  double cycles = formula->evaluate(in);
  for (std::size_t k = 0; k < cost.extra_if_present.size(); ++k)
    if (ins.operands[static_cast<std::size_t>(cost.extra_if_present[k].first)].state != OperandState::absent)
      cycles += cost.extra_formulas[k].evaluate(in);
  return std::ceil(cycles);
}

double engine_clock_ghz(const Spec& spec, const Program& program, Engine engine) {
  return spec.archs[static_cast<std::size_t>(program.arch)].clock_ghz[static_cast<int>(engine)];
}

}  // namespace nisa

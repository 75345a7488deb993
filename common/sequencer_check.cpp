#include "sequencer_check.hpp"

namespace nisa {

namespace {

void views_of(const TensorView& v, int operand, const std::function<void(int32_t, bool, int)>& use) {
  if (v.index_register >= 0) use(v.index_register, false, operand);
}

}  // namespace

void for_each_register(const Spec& spec, const Instruction& ins, const std::function<void(int32_t, bool, int)>& use) {
  const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
  for (std::size_t i = 0; i < ins.operands.size(); ++i) {
    const Operand& o = ins.operands[i];
    const int operand = static_cast<int>(i);
    if (o.state == OperandState::reg) {
      // S17.1: what an instruction sets is its `dst` (register_move, _load,
      // _op) or a fori_loop's `var`.
      const std::string& name = is.operands[i].name;
      use(static_cast<int32_t>(o.integer), name == "dst" || name == "var", operand);
    } else if (o.state == OperandState::tensor) {
      views_of(o.view, operand, use);
    } else if (o.state == OperandState::tensor_list) {
      for (const TensorView& v : o.views) views_of(v, operand, use);
    }
  }
}

int registers_of_core(const Program& p, int32_t core) {
  int n = 0;
  for (const RegisterDecl& r : p.registers) n += r.core == core || r.core == TensorDecl::kShared || core == TensorDecl::kShared;
  return n;
}

std::optional<CheckFailure> SequencerCheck::change_core(int core) {
  std::optional<CheckFailure> failure;
  if (!open_.empty())
    failure = CheckFailure{-1, "the loop opened at line " + std::to_string(open_.back()) + " is not closed by end_loop before core " +
                                   std::to_string(core) + "'s instructions (S17.2: a loop is one core's)"};
  open_.clear();
  set_.assign(program_.registers.size(), false);
  core_ = core;
  return failure;
}

std::optional<CheckFailure> SequencerCheck::add(int core, const Instruction& ins, uint32_t text_line) {
  if (core != core_)
    if (std::optional<CheckFailure> f = change_core(core)) return f;
  if (set_.size() < program_.registers.size()) set_.resize(program_.registers.size(), false);
  const InstructionSpec& is = spec_.instructions[static_cast<std::size_t>(ins.spec_index)];
  std::optional<CheckFailure> failure;
  for_each_register(spec_, ins, [&](int32_t reg, bool written, int operand) {
    if (failure) return;
    const RegisterDecl& r = program_.registers[static_cast<std::size_t>(reg)];
    if (r.core != TensorDecl::kShared && r.core != core) {
      failure = CheckFailure{operand, "register '" + r.name + "' is core " + std::to_string(r.core) + "'s; a core reaches only its own registers"};
    } else if (!written && !set_[static_cast<std::size_t>(reg)]) {
      failure = CheckFailure{operand, "register '" + r.name + "' is read before anything sets it (S17.1: register_move, register_load, "
                                      "register_op or a fori_loop's var)"};
    }
  });
  if (failure) return failure;
  // A register read and written by one instruction (register_op dst=r,
  // src0=r) was read first: set only now.
  for_each_register(spec_, ins, [&](int32_t reg, bool written, int) {
    if (written) set_[static_cast<std::size_t>(reg)] = true;
  });
  if (starts_loop(is.sequencer)) {
    open_.push_back(text_line);
    has_loops_ = true;
  } else if (is.sequencer == Sequencer::end_loop) {
    if (open_.empty()) return CheckFailure{-1, "end_loop without an open fori_loop or while_loop"};
    open_.pop_back();
  } else if (is.cross_core != CrossCore::none && !open_.empty()) {
    return CheckFailure{-1, is.name + " inside the loop opened at line " + std::to_string(open_.back()) +
                                ": the cores' meetings are matched before the run (S16.1), so none may be in a runtime loop"};
  }
  return std::nullopt;
}

std::optional<SequencerCheck::OpenLoop> SequencerCheck::finish() const {
  if (open_.empty()) return std::nullopt;
  return OpenLoop{open_.back(), "loop not closed: no end_loop after it (S17.2)"};
}

}  // namespace nisa

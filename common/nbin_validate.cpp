// The decoder's last step: the same spec-driven checks the assembler makes
// (program_check.hpp), so a decoded program is as safe to run as an
// assembled one; failures point at the tensor record or the operand's field.
#include "nbin_validate.hpp"

#include "error.hpp"
#include "program_check.hpp"

namespace nisa::nbin {

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& why, std::size_t at) {
  throw InputError(file_error(file, why + " at byte " + std::to_string(at)));
}

}  // namespace

void validate_tensors(const Spec& spec, const Program& p, const std::string& file, const std::vector<std::size_t>& record_at) {
  TensorChecker checker;
  for (std::size_t i = 0; i < p.tensors.size(); ++i) {
    std::vector<CheckFailure> failures = checker.check(spec, p, static_cast<int>(i));
    if (!failures.empty()) fail(file, "tensor record: " + failures.front().message, record_at.at(i));
  }
}

void validate_instruction(const Spec& spec, const Program& p, const Instruction& ins, int core, const std::string& file,
                          const std::string& where, const std::vector<std::size_t>& operand_at, std::size_t at) {
  std::vector<CheckFailure> failures = check_instruction(spec, p, ins);
  if (failures.empty()) failures = check_on_core(spec, p, ins, core);
  if (failures.empty()) return;
  const CheckFailure& f = failures.front();
  bool has_operand = f.operand >= 0 && static_cast<std::size_t>(f.operand) < operand_at.size();
  fail(file, where + ": " + f.message, has_operand ? operand_at[static_cast<std::size_t>(f.operand)] : at);
}

}  // namespace nisa::nbin

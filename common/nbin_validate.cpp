#include "nbin_validate.hpp"

#include "error.hpp"

namespace nisa::nbin {

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& why, std::size_t at) {
  throw InputError(file_error(file, why + " at byte " + std::to_string(at)));
}

int64_t memory_bytes(const ArchSpec& a, Memory m) {
  return m == Memory::sbuf ? a.sbuf_partition_bytes : a.psum_partition_bytes;
}

}  // namespace

void validate_tensor(const Spec& spec, const Program& p, int tensor, const std::string& file, std::size_t at) {
  const TensorDecl& t = p.tensors[static_cast<std::size_t>(tensor)];
  if (t.memory != Memory::hbm) {
    // S1.1, S1.4: partitions start at 0, the free bytes lie inside each partition.
    if (t.shape[0] > spec.partitions)
      fail(file, "tensor " + t.name + ": " + std::to_string(t.shape[0]) + " partitions, the machine has " + std::to_string(spec.partitions), at);
    int64_t limit = memory_bytes(spec.archs[static_cast<std::size_t>(p.arch)], t.memory);
    if (t.offset + tensor_bytes_per_partition(t) > limit)
      fail(file, "tensor " + t.name + " does not fit " + std::string(memory_name(t.memory)) + " (" + std::to_string(limit) + " bytes per partition)", at);
  }
}

void validate_instruction(const Spec& spec, const Program& p, const Instruction& ins, const std::string& file,
                          const std::string& where, const std::vector<std::size_t>& operand_at, std::size_t at) {
  const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
  const ArchSpec& arch = spec.archs[static_cast<std::size_t>(p.arch)];
  if (is.first_arch_version > arch.version)
    fail(file, where + ": not available on " + arch.name + " (needs " + is.first_arch + " or later)", at);
  for (std::size_t i = 0; i < is.operands.size(); ++i) {
    const OperandSpec& os = is.operands[i];
    const Operand& op = ins.operands[i];
    std::string here = where + ", operand " + os.name;
    if (op.state == OperandState::tensor) {
      const TensorDecl& t = p.tensors[static_cast<std::size_t>(op.view.tensor)];
      if (!os.allows_memory(t.memory))
        fail(file, here + ": tensor " + t.name + " is in " + std::string(memory_name(t.memory)), operand_at[i]);
      if (!os.allows_dtype(t.dtype))
        fail(file, here + ": dtype " + std::string(dtype_name(t.dtype)) + " not allowed", operand_at[i]);
    }
    if (op.state == OperandState::enumerated && !os.allows_enum_value(static_cast<int>(op.integer)))
      fail(file, here + ": value not allowed", operand_at[i]);
  }
}

}  // namespace nisa::nbin

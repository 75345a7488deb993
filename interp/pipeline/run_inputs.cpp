#include "run_inputs.hpp"

#include <string_view>
#include <unordered_map>

#include "error.hpp"
#include "tensor_init.hpp"

namespace nisa {
namespace {

std::string label(InputOrigin origin, const std::string& name) {
  return (origin == InputOrigin::command_line ? "--input " : "input ") + name;
}

}  // namespace

bool is_input_tensor(const TensorDecl& d) {
  return d.memory == Memory::hbm && (d.role == Role::input || d.role == Role::inout);
}

bool is_output_tensor(const TensorDecl& d) {
  return d.memory == Memory::hbm && (d.role == Role::output || d.role == Role::inout);
}

std::vector<std::size_t> tensors_of_inputs(const Program& program, const std::string& program_name,
                                           const std::vector<GivenInput>& given, InputOrigin origin) {
  std::unordered_map<std::string_view, std::size_t> by_name;
  by_name.reserve(program.tensors.size());
  for (std::size_t t = 0; t < program.tensors.size(); ++t) by_name.emplace(program.tensors[t].name, t);
  std::vector<std::size_t> tensors;
  std::vector<bool> seen(program.tensors.size(), false);
  for (const GivenInput& g : given) {
    const auto it = by_name.find(g.name);
    if (it == by_name.end())
      throw InputError(file_error(program_name, label(origin, g.name) + ": no tensor named '" + g.name + "'"));
    const TensorDecl& d = program.tensors[it->second];
    if (!is_input_tensor(d))
      throw InputError(file_error(program_name, label(origin, g.name) + ": tensor '" + g.name + "' (line " +
                                                    std::to_string(d.line) + ") is not declared input or inout"));
    if (seen[it->second]) throw InputError(file_error(program_name, label(origin, g.name) + " is given twice"));
    seen[it->second] = true;
    tensors.push_back(it->second);
  }
  return tensors;
}

void check_hbm_limit(const Program& program, int64_t limit, InputOrigin origin) {
  int64_t total = 0;  // each tensor is at most kMaxHbmTensorBytes (check_tensor), 1024 of them: no overflow
  for (const TensorDecl& d : program.tensors) {
    if (d.memory != Memory::hbm) continue;
    total += element_count(d.shape) * static_cast<int64_t>(dtype_size(d.dtype));
    if (total > limit)
      throw InputError(program.file + ":" + std::to_string(d.line) + ": error: tensor '" + d.name +
                       "' brings the HBM tensors to " + std::to_string(total) + " bytes, over the run's HBM limit of " +
                       std::to_string(limit) + " (raise it with " +
                       (origin == InputOrigin::command_line ? "--hbm-limit BYTES" : "nisa.run(..., hbm_limit=BYTES)") +
                       "; LANGUAGE.md 2.6)");
  }
}

void bind_inputs(const Program& program, const std::string& program_name, const std::vector<GivenInput>& given,
                 Machine& machine, InputOrigin origin, const std::vector<bool>* written) {
  const std::vector<std::size_t> tensors = tensors_of_inputs(program, program_name, given, origin);
  std::vector<const GivenInput*> value_of(program.tensors.size(), nullptr);
  for (std::size_t i = 0; i < given.size(); ++i) value_of[tensors[i]] = &given[i];
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (!is_input_tensor(d)) continue;
    const std::span<uint8_t> storage = machine.hbm[t].bytes();
    const bool never_written = written != nullptr && d.role == Role::input && !(*written)[t];
    if (value_of[t] != nullptr && never_written && value_of[t]->in_place) {
      const std::span<const uint8_t> bytes = value_of[t]->in_place(d);
      if (!bytes.empty() && bytes.size() == storage.size()) {
        machine.hbm[t] = ZeroedBytes::borrow(bytes.data(), bytes.size());
        continue;
      }
    }
    if (value_of[t] != nullptr) {
      value_of[t]->fill(d, storage);
    } else if (d.init != InitKind::none) {
      fill_from_init(d, storage);
    } else {
      const std::string how = origin == InputOrigin::command_line ? "--input " + d.name + "=FILE.npy" : "array in inputs";
      throw InputError(program.file + ":" + std::to_string(d.line) + ": error: input tensor '" + d.name + "' has no " +
                       how + " and no '= INIT' in its declaration");
    }
  }
}

}  // namespace nisa

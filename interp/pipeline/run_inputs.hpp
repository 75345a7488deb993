// Filling a run's input and inout HBM tensors (LANGUAGE.md 1 `--input`, 4
// `inputs=`): each one from what the caller gave for its name, else from its
// `= INIT`, else an error. One set of checks and messages for the command
// line and for Python; only the way a given value is read differs.
#pragma once
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "machine.hpp"
#include "program.hpp"

namespace nisa {

// Where the values come from, as messages name them.
enum class InputOrigin { command_line, python };

struct GivenInput {
  std::string name;
  // Writes the tensor's value into its storage (throws InputError on a
  // mismatch of dtype or shape).
  std::function<void(const TensorDecl& decl, std::span<uint8_t> storage)> fill;
};

bool is_input_tensor(const TensorDecl& d);
bool is_output_tensor(const TensorDecl& d);

// The tensor each given name fills: an error ("PROGRAM: error: --input q:
// ...", PROGRAM as the caller names it) names an unknown name, a tensor that
// is not input or inout, or a name given twice.
std::vector<std::size_t> tensors_of_inputs(const Program& program, const std::string& program_name,
                                           const std::vector<GivenInput>& given, InputOrigin origin);

// Fills every input/inout tensor of `machine` (see above).
void bind_inputs(const Program& program, const std::string& program_name, const std::vector<GivenInput>& given,
                 Machine& machine, InputOrigin origin);

}  // namespace nisa

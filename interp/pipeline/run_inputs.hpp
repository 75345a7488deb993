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
  // Optional: the value's bytes exactly as the tensor stores them, to be
  // read in place for the whole run (Python: a caller's array of the
  // tensor's own dtype), or an empty span when they must go through `fill`
  // (a conversion). Throws as `fill` does. The bytes must stay alive and
  // unchanged until the machine is gone.
  std::function<std::span<const uint8_t>(const TensorDecl& decl)> in_place = nullptr;
};

bool is_input_tensor(const TensorDecl& d);
bool is_output_tensor(const TensorDecl& d);

// The tensor each given name fills: an error ("PROGRAM: error: --input q:
// ...", PROGRAM as the caller names it) names an unknown name, a tensor that
// is not input or inout, or a name given twice.
std::vector<std::size_t> tensors_of_inputs(const Program& program, const std::string& program_name,
                                           const std::vector<GivenInput>& given, InputOrigin origin);

// LANGUAGE.md 2.6: refuses (InputError) a program whose HBM tensors need
// more than `limit` bytes in all (hbm_limits.hpp: --hbm-limit, hbm_limit=;
// by default this machine's memory), naming the first tensor over the limit
// and the option that raises it. Call before make_machine.
void check_hbm_limit(const Program& program, int64_t limit, InputOrigin origin);

// Fills every input/inout tensor of `machine` (see above). With `written`
// (LoadedProgram::written_tensors), an `input` tensor that no instruction
// writes and whose value offers its bytes in place is not copied: the
// machine reads the caller's bytes (ZeroedBytes::borrow).
void bind_inputs(const Program& program, const std::string& program_name, const std::vector<GivenInput>& given,
                 Machine& machine, InputOrigin origin, const std::vector<bool>* written = nullptr);

}  // namespace nisa

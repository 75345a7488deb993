// A program as a run takes it: loaded from a .nasm or .nbin file, assembled
// from text or decoded from bytes, and checked (so it runs without bounds
// checks). Its instructions are kept as distinct ones (distinct_instructions.hpp:
// a long .rept is a handful of Instructions); the Program model's instruction
// list, which the cost model, the encoder and the disassembler read, is built
// from them only when one of those asks.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distinct_instructions.hpp"
#include "error.hpp"
#include "program.hpp"
#include "spec.hpp"

namespace nisa {

struct LoadedProgram {
  Program program;                 // tensors, arch, file name; no instruction list
  DistinctInstructions distinct;   // the instructions, per position
  std::string source_path;         // the file it was read from ("" for text or bytes)
  // Python may run one program from several threads: predecoding reads
  // `distinct` through its non-const at(), and model() builds once.
  std::mutex lock;

  std::size_t instruction_count() const { return distinct.size(); }
  // The Program with its instruction list (built on first use; call with
  // `lock` held when others may use this program).
  const Program& model();
  // Per tensor: whether some instruction writes it (a written operand of its
  // spec, as dead stores and the timeline count writes). An input no
  // instruction writes may be read in place from the caller's memory
  // (bind_inputs). Computed on first use; call with `lock` held.
  const std::vector<bool>& written_tensors(const Spec& spec);

 private:
  std::optional<Program> model_;
  std::optional<std::vector<bool>> written_;
};

// Every diagnostic of a failed assembly, formatted as the CLI prints them
// (exit 2). The assembler caps their number and size.
class AssemblyFailed : public InputError {
 public:
  using InputError::InputError;
};

// `path` as `nisa run` takes it: a .nasm file is assembled, anything else
// decoded as a .nbin. `display_name` names it in messages (default: path).
// `cores` (--cores N; 0: not given): the core count of a .nasm program
// without `.cores`; a program that says its count must say N (LANGUAGE.md 2.7).
std::unique_ptr<LoadedProgram> load_program_file(const Spec& spec, const std::string& path,
                                                 const std::string& display_name = "", int cores = 0);
std::unique_ptr<LoadedProgram> assemble_program(const Spec& spec, std::string_view text, const std::string& file, int cores = 0);
// A program built from values rather than text (nisa.nki's recording):
// `fill` declares and adds everything through the builder it is given
// (asm/program_builder.hpp) and says whether all of it was taken. Nothing
// when the builder refused some of it. `instructions`: how many it will add.
class ProgramBuilder;
std::unique_ptr<LoadedProgram> build_program(const Spec& spec, const std::function<bool(ProgramBuilder&)>& fill,
                                             std::size_t instructions);
std::unique_ptr<LoadedProgram> decode_program_bytes(const Spec& spec, const std::vector<uint8_t>& bytes,
                                                    const std::string& file);

}  // namespace nisa

// A program built from values instead of text: nisa.nki hands its recording
// over this way (LANGUAGE.md 4), without writing .nasm lines for the
// assembler to read back. Declarations and `key=value`s arrive as the values
// their text would read as, and go through the assembler's own steps: the
// declaration checks (TensorChecker), the defaults of absent keys
// (set_default_operand), scalars rounded by scalar_operand, check_instruction,
// the allocator and the limits of LANGUAGE.md 2.6.
//
// It accepts a subset of what the text of the same program is accepted as
// (everything nisa.nki records; a string where a number goes, say, is left to
// the text) and builds the same Program. It only says whether it refused:
// the caller then assembles the program's text, whose diagnostics word and
// locate the problem, so there is one set of messages.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assembler.hpp"
#include "assembly_state.hpp"

namespace nisa {

// One `key=value`'s value, as what its text reads as (LANGUAGE.md 2.3).
struct GivenValue {
  enum class Kind : uint8_t { view, integer, written, name, boolean, list, views };
  Kind kind = Kind::integer;
  // view: a tensor's access pattern (TensorView in pattern form; its index
  // view too). It becomes the operand the recorder's text of it reads as:
  // slices where slices say the same (recorded_view).
  TensorView view;
  int64_t integer = 0;  // integer; boolean: 0 or 1
  // written: any other value as the text writes it (a number: "0.1",
  // "-inf", "fp32.min"), read by the assembler's own lexer and expression
  // reader; name: an enum value.
  std::string text;
  // list: its integers, row-major, and per entry how many integers it holds,
  // -1 for an integer that is not in a list of its own (`[1, 2]` is {1, 2},
  // {-1, -1}; `[[1, 64]]` is {1, 64}, {2}).
  std::vector<int64_t> items;
  std::vector<int32_t> entries;
  std::vector<TensorView> views;  // views: a list of tensors, each as `view`
};

// Into `slices`, the slices that name the same elements as the access
// pattern (offset, pattern) of a tensor of `shape` (in elements, row-major;
// for SBUF/PSUM the first dimension is the partitions, which take no step),
// one per dimension; false when only an access pattern says it. nisa.nki
// writes a view as slices exactly when this gives some.
bool slices_of_pattern(const std::vector<int64_t>& shape, bool on_chip, int64_t offset, std::span<const PatternDim> pattern,
                       std::vector<DimSlice>& slices);

class ProgramBuilder {
 public:
  // Instructions go to `sink` (nullptr: into the program).
  ProgramBuilder(const Spec& spec, InstructionSink* sink);

  // .arch NAME; false: refused.
  bool set_arch(std::string_view name);
  // .nki VERSION, before any instruction; false: refused.
  bool set_nki(std::string_view version);
  // .file NAME
  void set_file(std::string name);
  // .cores N, after set_arch and before anything else; .core K (LANGUAGE.md
  // 2.7): the declarations and instructions after it are core K's. False: refused.
  bool set_cores(int cores);
  bool begin_core(int core);
  // .hbm NAME DTYPE [SHAPE] ROLE, or .sbuf/.psum NAME DTYPE [SHAPE] @ OFFSET
  // (offset explicit): `decl` with its name, memory, dtype, shape, role or
  // offset and line. False: refused.
  bool declare(TensorDecl decl);
  // .reg NAME (SEMANTICS S17) at `line`. False: refused.
  bool declare_register(std::string_view name, uint64_t line);

  // An instruction's mnemonic and keys, resolved once for all instructions
  // written with them: the spec instruction, and the operand of each key.
  struct Form {
    int spec_index = -1;
    std::vector<int> operand_of_key;
  };
  // Nothing for an unknown mnemonic or key, or a key given twice.
  std::optional<Form> form(std::string_view mnemonic, std::span<const std::string_view> keys) const;

  // One instruction: `values` in the order of the form's keys, `line` its
  // source line (.loc). False: refused.
  bool add(const Form& form, std::span<const GivenValue> values, uint64_t line);

  // After the last instruction: SBUF/PSUM placed, the program (without its
  // instructions when they went to a sink). Nothing if anything was refused.
  std::optional<Program> finish();

 private:
  bool refuse() {
    refused_ = true;
    return false;
  }
  bool read_value(const InstructionSpec& is, int index, const GivenValue& given, Operand& out);
  bool recorded_view(const TensorView& given, TensorView& out) const;

  AssemblyState state_;
  AssembleLimits limits_;
  std::size_t max_tensors_;
  int64_t instructions_ = 0;
  bool refused_ = false;
  std::vector<int> value_of_operand_;  // reused by add()
  std::vector<Token> tokens_;          // reused to read number texts and names
};

}  // namespace nisa

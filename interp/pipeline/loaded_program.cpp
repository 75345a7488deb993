#include "loaded_program.hpp"

#include "assembler.hpp"
#include "file_io.hpp"
#include "nbin.hpp"
#include "program_builder.hpp"

namespace nisa {
namespace {

// Keeps what the assembler accepts as distinct instructions.
class DistinctInstructionSink final : public InstructionSink {
 public:
  explicit DistinctInstructionSink(DistinctInstructions& to) : to_(to) {}
  void add(const Program&, const Instruction& ins) override { to_.add(ins); }

 private:
  DistinctInstructions& to_;
};

bool is_nasm_path(const std::string& path) {
  constexpr std::string_view suffix = ".nasm";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const Program& LoadedProgram::model() {
  if (!model_) {
    Program whole = program;
    whole.instructions.reserve(distinct.size());
    for (std::size_t i = 0; i < distinct.size(); ++i) whole.instructions.push_back(distinct.at(i));
    model_ = std::move(whole);
  }
  return *model_;
}

const std::vector<bool>& LoadedProgram::written_tensors(const Spec& spec) {
  if (!written_) {
    std::vector<bool> written(program.tensors.size(), false);
    auto mark = [&](const TensorView& v) {
      if (v.tensor >= 0 && static_cast<std::size_t>(v.tensor) < written.size()) written[static_cast<std::size_t>(v.tensor)] = true;
    };
    for (std::size_t k = 0; k < distinct.distinct_count(); ++k) {
      const Instruction& ins = distinct.distinct(k);
      const InstructionSpec& is = spec.instructions.at(static_cast<std::size_t>(ins.spec_index));
      for (const int o : is.cost.written) {
        const Operand& op = ins.operands.at(static_cast<std::size_t>(o));
        if (op.state == OperandState::tensor) mark(op.view);
        if (op.state == OperandState::tensor_list)
          for (const TensorView& v : op.views) mark(v);
      }
    }
    written_ = std::move(written);
  }
  return *written_;
}

std::unique_ptr<LoadedProgram> assemble_program(const Spec& spec, std::string_view text, const std::string& file, int cores) {
  auto loaded = std::make_unique<LoadedProgram>();
  DistinctInstructionSink sink(loaded->distinct);
  AssembleResult result = assemble(spec, text, file, &sink, {}, cores);
  if (!result.diagnostics.empty()) {
    std::string message;
    for (const Diagnostic& d : result.diagnostics) message += format_diagnostic(d);
    if (!message.empty() && message.back() == '\n') message.pop_back();  // the caller ends the line
    throw AssemblyFailed(message);
  }
  loaded->program = std::move(result.program);
  return loaded;
}

std::unique_ptr<LoadedProgram> build_program(const Spec& spec, const std::function<bool(ProgramBuilder&)>& fill,
                                             std::size_t instructions) {
  auto loaded = std::make_unique<LoadedProgram>();
  loaded->distinct.reserve(instructions);
  DistinctInstructionSink sink(loaded->distinct);
  ProgramBuilder builder(spec, &sink);
  if (!fill(builder)) return nullptr;
  std::optional<Program> program = builder.finish();
  if (!program) return nullptr;
  loaded->program = std::move(*program);
  return loaded;
}

std::unique_ptr<LoadedProgram> decode_program_bytes(const Spec& spec, const std::vector<uint8_t>& bytes,
                                                    const std::string& file) {
  auto loaded = std::make_unique<LoadedProgram>();
  DistinctInstructions& distinct = loaded->distinct;
  loaded->program = decode_program(spec, bytes, file, [&](const Program&, const Instruction& ins) { distinct.add(ins); });
  return loaded;
}

std::unique_ptr<LoadedProgram> load_program_file(const Spec& spec, const std::string& path,
                                                 const std::string& display_name, int cores) {
  const std::string& name = display_name.empty() ? path : display_name;
  std::unique_ptr<LoadedProgram> loaded;
  if (is_nasm_path(path)) {
    const FileText source(path);
    loaded = assemble_program(spec, source.text(), name, cores);
  } else {
    loaded = decode_program_bytes(spec, read_nbin_file(path), name);
    const int has = core_count(loaded->program);
    if (cores != 0 && cores != has)
      throw InputError(file_error(name, "the program is for " + std::to_string(has) + (has == 1 ? " core" : " cores") + " but --cores asks for " +
                                            std::to_string(cores)));
  }
  loaded->source_path = path;
  return loaded;
}

}  // namespace nisa

// ProgramBuilder (program_builder.hpp): each step is the one the assembler
// takes for the same line of text (declaration_parser.cpp,
// instruction_parser.cpp, assembler.cpp), minus the reading of text.
#include "program_builder.hpp"

#include <limits>

#include "nbin_format.hpp"
#include "operand_values.hpp"
#include "program_check.hpp"
#include "source_lexer.hpp"
#include "tensor_allocator.hpp"

namespace nisa {

bool slices_of_pattern(const std::vector<int64_t>& shape, bool on_chip, int64_t offset, std::span<const PatternDim> pattern,
                       std::vector<DimSlice>& slices) {
  const std::size_t rank = shape.size();
  if (pattern.size() != rank || offset < 0 || rank == 0) return false;
  // Each dimension's start, innermost first: the offset in the declared
  // shape's row-major order. Its unit (the row-major stride) goes along.
  slices.resize(rank);
  int64_t unit = 1;
  for (std::size_t d = rank; d-- > 0;) {
    const int64_t size = shape[d];
    const PatternDim& p = pattern[d];
    if (size < 1 || p.num < 1) return false;
    const int64_t start = d == 0 ? offset : offset % size;
    offset /= size;
    int64_t step = 1;
    if (p.num != 1) {
      if (p.step <= 0 || p.step % unit != 0) return false;  // backwards or broadcast: a pattern only
      step = p.step / unit;
    }
    // The partition dimension of a tile takes no step (S1.4).
    if (start >= size || (step != 1 && d == 0 && on_chip) || (size - 1 - start) / step < p.num - 1) return false;
    slices[d] = DimSlice{start, p.num, step};
    if (d > 0 && unit > std::numeric_limits<int64_t>::max() / size) return false;
    unit *= size;
  }
  return true;
}

ProgramBuilder::ProgramBuilder(const Spec& spec, InstructionSink* sink) : state_(spec), max_tensors_(nbin::max_tensor_count(spec)) {
  state_.sink = sink;
  state_.program.arch = spec.default_arch;
  state_.program.nki = spec.default_nki;
}

bool ProgramBuilder::set_nki(std::string_view version) {
  const int nki = state_.spec.find_nki_version(version);
  if (nki < 0 || state_.positions > 0 || state_.nki_line) return refuse();
  state_.program.nki = nki;
  state_.nki_line = 1;
  return true;
}

bool ProgramBuilder::set_arch(std::string_view name) {
  const int arch = state_.spec.find_arch(name);
  if (arch < 0 || state_.body_started || state_.arch_line) return refuse();
  state_.program.arch = arch;
  state_.arch_line = 1;
  return true;
}

void ProgramBuilder::set_file(std::string name) { state_.program.file = std::move(name); }

bool ProgramBuilder::declare(TensorDecl decl) {
  state_.body_started = true;
  // The name as one identifier token, as the declaration's text reads it.
  try {
    tokenize_line(decl.name, tokens_);
  } catch (const SourceError&) {
    return refuse();
  }
  if (refused_ || tokens_.size() != 2 || tokens_[0].kind != TokenKind::identifier || tokens_[0].text != decl.name ||
      state_.program.tensors.size() >= max_tensors_ || decl.shape.empty() || state_.find_tensor(decl.name) >= 0 ||
      (decl.memory == Memory::hbm) != (decl.role != Role::none))
    return refuse();
  decl.explicit_offset = decl.memory != Memory::hbm;
  if (decl.memory == Memory::hbm) decl.offset = 0;
  decl.init = InitKind::none;
  decl.core = state_.current_core;
  const int index = static_cast<int>(state_.program.tensors.size());
  state_.program.tensors.push_back(std::move(decl));
  state_.add_tensor_name(state_.program.tensors.back().name, index);
  state_.tensor_sites.push_back(TensorSite{static_cast<int>(state_.program.tensors.back().line), 1, false});
  if (!state_.tensor_checker.check(state_.spec, state_.program, index).empty()) return refuse();
  return true;
}

std::optional<ProgramBuilder::Form> ProgramBuilder::form(std::string_view mnemonic, std::span<const std::string_view> keys) const {
  Form f;
  f.spec_index = state_.spec.find_instruction(mnemonic);
  if (f.spec_index < 0) return std::nullopt;
  const InstructionSpec& is = state_.spec.instructions[static_cast<std::size_t>(f.spec_index)];
  std::vector<bool> given(is.operands.size(), false);
  for (const std::string_view key : keys) {
    const int op = is.find_operand(key);
    if (op < 0 || given[static_cast<std::size_t>(op)]) return std::nullopt;
    given[static_cast<std::size_t>(op)] = true;
    f.operand_of_key.push_back(op);
  }
  return f;
}

// The operand the recorder's text of `given` reads as (operand_values.cpp's
// parse_tensor_view): slices where they say the same, else the pattern,
// whose text form takes positive nums, an offset of at least 0, an
// indirect_dim of 0 to 7 and an index_stride only with a runtime index.
bool ProgramBuilder::recorded_view(const TensorView& given, TensorView& out) const {
  if (given.tensor < 0 || static_cast<std::size_t>(given.tensor) >= state_.program.tensors.size() || given.pattern.empty() ||
      given.offset < 0)
    return false;
  for (const PatternDim& d : given.pattern)
    if (d.num < 1) return false;
  const TensorDecl& t = state_.program.tensors[static_cast<std::size_t>(given.tensor)];
  out.tensor = given.tensor;
  out.indirect = given.indirect;
  out.indirect_dim = given.indirect_dim;
  out.index_stride = given.index_stride;  // 0: not given (LANGUAGE.md 2.3)
  out.index_register = -1;
  out.index.clear();
  if (given.index_stride < 0 || (given.indirect == IndirectKind::none && given.index_stride != 0)) return false;
  if (given.indirect == IndirectKind::none) {
    if (slices_of_pattern(t.shape, t.memory != Memory::hbm, given.offset, given.pattern, out.dims)) {
      out.is_pattern = false;
      out.offset = 0;
      out.pattern.clear();
      return true;
    }
  } else if (given.index_register >= 0) {  // scalar_offset=REG (S17.3)
    if (given.indirect != IndirectKind::scalar || !given.index.empty() || given.indirect_dim < 0 || given.indirect_dim > 7 ||
        static_cast<std::size_t>(given.index_register) >= state_.program.registers.size())
      return false;
  } else if (given.index.size() != 1 || given.indirect_dim < 0 || given.indirect_dim > 7) {
    return false;
  }
  out.dims.clear();
  out.is_pattern = true;
  out.offset = given.offset;
  out.pattern = given.pattern;
  if (given.index_register >= 0) {
    out.index_register = given.index_register;
  } else if (given.indirect != IndirectKind::none) {
    out.index.resize(1);
    if (given.index[0].indirect != IndirectKind::none || !recorded_view(given.index[0], out.index[0])) return false;
  }
  return true;
}

// resolve_operand (operand_values.cpp) for a value rather than its text:
// which values each kind of key takes, and the operand they make.
bool ProgramBuilder::read_value(const InstructionSpec& is, int index, const GivenValue& given, Operand& o) {
  using Kind = GivenValue::Kind;
  const OperandSpec& os = is.operands[static_cast<std::size_t>(index)];
  reset_operand(o);
  // A number's value: an integer as itself, a written value as the expression reader reads it.
  ExprValue v = ExprValue::integer(given.integer);
  auto number = [&] {
    if (given.kind == Kind::integer) return true;
    if (given.kind != Kind::written) return false;
    tokenize_line(given.text, tokens_);
    TokenCursor cur{tokens_};
    v = parse_expression(cur, state_.scope());
    return cur.at_end();
  };
  auto scalar = [&] {
    if (!number()) return false;
    const Operand s = scalar_operand(v, scalar_is_integer(state_.program.tensors, is, state_.scratch_instruction.operands, index), 0, os.name);
    o.state = s.state;
    o.scalar = s.scalar;
    o.integer = s.integer;
    return true;
  };
  try {
    switch (os.kind) {
      case OperandKind::tensor:
        if (given.kind != Kind::view) return false;
        o.state = OperandState::tensor;
        return recorded_view(given.view, o.view);
      case OperandKind::tensor_or_scalar:
        if (given.kind == Kind::view) {
          o.state = OperandState::tensor;
          return recorded_view(given.view, o.view);
        }
        return scalar();
      case OperandKind::scalar: return scalar();
      case OperandKind::enumeration: {
        if (given.kind != Kind::name || state_.find_tensor(given.text) >= 0) return false;
        const int value = state_.spec.enums[static_cast<std::size_t>(os.enum_id)].find(given.text);
        if (value < 0) return false;
        o.state = OperandState::enumerated;
        o.integer = value;
        return true;
      }
      case OperandKind::boolean:
        if (given.kind != Kind::boolean) return false;
        o.state = OperandState::boolean;
        o.integer = given.integer;
        return true;
      case OperandKind::integer:
        if (!number()) return false;
        o.state = OperandState::integer;
        o.integer = require_integer(v, 0, os.name);
        return true;
      case OperandKind::list: {
        // list_parser.cpp: a flat list of integers, or entries of exactly
        // entry_size integers; a lone integer for a flat list (`axis=1`).
        const int entry_size = static_cast<int>(os.list_items.size());
        o.state = OperandState::list;
        if (given.kind == Kind::integer) {
          if (entry_size != 1) return false;
          o.list.push_back(0);
          if (given.integer < std::numeric_limits<int32_t>::min() || given.integer > std::numeric_limits<int32_t>::max()) return false;
          o.list.back() = static_cast<int32_t>(given.integer);
          return true;
        }
        if (given.kind != Kind::list) return false;
        for (const int32_t n : given.entries)
          if (entry_size <= 1 ? n != -1 : n != entry_size) return false;
        for (const int64_t item : given.items) {
          if (item < std::numeric_limits<int32_t>::min() || item > std::numeric_limits<int32_t>::max()) return false;
          o.list.push_back(static_cast<int32_t>(item));
        }
        return true;
      }
      case OperandKind::string: {  // "text" (operand_values.cpp): render_value writes _record.Text quoted
        if (given.kind != Kind::written) return false;
        tokenize_line(given.text, tokens_);
        if (tokens_.size() != 2 || tokens_[0].kind != TokenKind::string) return false;
        string_operand(state_, tokens_[0], o);  // a control character: SourceError, refused below
        return true;
      }
      case OperandKind::reg:
      case OperandKind::reg_or_int:  // S17: a register by name, or (reg_or_int) an integer
        if (given.kind == Kind::name) {
          const int reg = state_.find_register(given.text);
          if (reg < 0) return false;
          o.state = OperandState::reg;
          o.integer = reg;
          return true;
        }
        if (os.kind == OperandKind::reg || !number()) return false;
        o.state = OperandState::integer;
        o.integer = require_integer(v, 0, os.name);
        return true;
      case OperandKind::tensor_list:
        o.state = OperandState::tensor_list;
        if (given.kind == Kind::list && given.entries.empty()) return true;  // `[]`
        if (given.kind != Kind::views) return false;
        o.views.resize(given.views.size());
        for (std::size_t k = 0; k < given.views.size(); ++k)
          if (!recorded_view(given.views[k], o.views[k])) return false;
        return true;
    }
  } catch (const SourceError&) {  // a value the text would refuse (an integer required, a bad text)
    return false;
  }
  return false;
}

bool ProgramBuilder::add(const Form& form, std::span<const GivenValue> values, uint64_t line) {
  state_.body_started = true;
  if (refused_ || values.size() != form.operand_of_key.size() || ++instructions_ > limits_.instructions || line < 1 ||
      line > 0xFFFFFFFFu)
    return refuse();
  const InstructionSpec& is = state_.spec.instructions[static_cast<std::size_t>(form.spec_index)];
  value_of_operand_.assign(is.operands.size(), -1);
  for (std::size_t k = 0; k < form.operand_of_key.size(); ++k) value_of_operand_[static_cast<std::size_t>(form.operand_of_key[k])] = static_cast<int>(k);
  // In spec order, as the text's values are: integer_if_dtype_of sees its tensor first.
  Instruction& ins = state_.scratch_instruction;
  ins.spec_index = form.spec_index;
  ins.operands.resize(is.operands.size());
  for (std::size_t i = 0; i < is.operands.size(); ++i) {
    Operand& o = ins.operands[i];
    const int k = value_of_operand_[i];
    if (k < 0) {
      if (is.operands[i].required) return refuse();
      set_default_operand(state_, is, static_cast<int>(i), ins.operands, o);
    } else if (!read_value(is, static_cast<int>(i), values[static_cast<std::size_t>(k)], o)) {
      return refuse();
    }
  }
  ins.line = static_cast<uint32_t>(line);
  if ((core_count(state_.program) > 1 && state_.current_core == TensorDecl::kShared) ||
      !check_instruction(state_.spec, state_.program, ins).empty() ||
      !check_on_core(state_.spec, state_.program, ins, state_.instruction_core()).empty() ||
      state_.sequencer.add(state_.instruction_core(), ins, ins.line))
    return refuse();
  state_.take_instruction(ins, 0);
  return true;
}

bool ProgramBuilder::declare_register(std::string_view name, uint64_t line) {
  state_.body_started = true;
  if (refused_ || line < 1 || line > 0xFFFFFFFFu || !state_.add_register(name, static_cast<uint32_t>(line)).empty()) return refuse();
  return true;
}

bool ProgramBuilder::set_cores(int cores) {
  const ArchSpec& arch = state_.spec.archs[static_cast<std::size_t>(state_.program.arch)];
  if (state_.body_started || state_.cores_line || cores < 1 || cores > arch.max_cores) return refuse();
  state_.has_core_sections = true;  // the caller opens each core's section (begin_core)
  state_.set_cores(cores);
  state_.cores_line = 1;
  return true;
}

bool ProgramBuilder::begin_core(int core) {
  if (refused_ || core_count(state_.program) < 2 || core <= state_.current_core || core >= core_count(state_.program)) return refuse();
  state_.body_started = true;
  state_.begin_core(core);
  return true;
}

std::optional<Program> ProgramBuilder::finish() {
  if (refused_ || state_.sequencer.finish() || state_.finish_cores() || !allocate_tensors(state_.spec, state_.program).empty()) return std::nullopt;
  return std::move(state_.program);
}

}  // namespace nisa

// Program -> canonical .nasm (LANGUAGE.md 2.1, 2.3). Assembling the text
// gives back the identical .nbin: every SBUF/PSUM tensor gets its explicit
// `@ OFFSET`, each declaration lands on its recorded source line (blank lines
// fill the gaps), `.file` names the recorded source, and `.loc` restores an
// instruction's line whenever it is not the previous one + 1.
#include "disassembler.hpp"

#include <algorithm>
#include <bit>

#include "float_text.hpp"

namespace nisa {

namespace {

std::string dims_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string declaration_text(const TensorDecl& t) {
  // Built with += only: g++ 12 warns falsely (-Wrestrict) on "literal" + string.
  std::string s = ".";
  s += memory_name(t.memory);
  s += ' ';
  s += t.name;
  s += ' ';
  s += dtype_name(t.dtype);
  s += ' ';
  s += dims_text(t.shape);
  if (t.memory != Memory::hbm) {
    s += " @ ";
    s += std::to_string(t.offset);
    return s;
  }
  s += ' ';
  s += role_name(t.role);
  if (t.init == InitKind::iota) s += " = iota";
  if (t.init == InitKind::fill) {
    s += " = ";
    s += t.init_value.state == OperandState::integer ? std::to_string(t.init_value.integer) : float32_text(t.init_value.scalar);
  }
  return s;
}

std::string view_text(const Program& p, const TensorView& v);

// NAME.ap(pattern=[[step, num], ...], offset=K), offset always spelled out,
// then vector_offset=IDX / scalar_offset=IDX, indirect_dim=D and, when
// given, index_stride=S if dynamic; or indirect=IDX (Tensor Indirection).
std::string pattern_text(const Program& p, const TensorDecl& t, const TensorView& v) {
  std::string s = t.name + ".ap(pattern=[";
  for (std::size_t d = 0; d < v.pattern.size(); ++d) {
    if (d) s += ", ";
    s += '[' + std::to_string(v.pattern[d].step) + ", " + std::to_string(v.pattern[d].num) + ']';
  }
  s += "], offset=" + std::to_string(v.offset);
  if (v.indirect == IndirectKind::tensor && v.index.size() == 1) {
    s += ", indirect=" + view_text(p, v.index[0]);
  } else if (v.index_register >= 0) {
    s += ", scalar_offset=" + p.registers[static_cast<std::size_t>(v.index_register)].name;
    s += ", indirect_dim=" + std::to_string(v.indirect_dim);
    if (v.index_stride != 0) s += ", index_stride=" + std::to_string(v.index_stride);
  } else if (v.indirect != IndirectKind::none && v.index.size() == 1) {
    s += v.indirect == IndirectKind::vector ? ", vector_offset=" : ", scalar_offset=";
    s += view_text(p, v.index[0]);
    s += ", indirect_dim=" + std::to_string(v.indirect_dim);
    if (v.index_stride != 0) s += ", index_stride=" + std::to_string(v.index_stride);
  }
  return s + ")";
}

// NAME, or NAME[...] with trailing whole dimensions left out (LANGUAGE.md 2.3),
// or the access pattern as written.
std::string view_text(const Program& p, const TensorView& v) {
  const TensorDecl& t = p.tensors[static_cast<std::size_t>(v.tensor)];
  if (v.is_pattern) return pattern_text(p, t, v);
  std::size_t used = v.dims.size();
  while (used > 0 && v.dims[used - 1] == DimSlice{0, t.shape[used - 1], 1}) --used;
  if (used == 0) return t.name;
  std::string s = t.name + "[";
  for (std::size_t d = 0; d < used; ++d) {
    const DimSlice& ds = v.dims[d];
    if (d) s += ", ";
    if (ds == DimSlice{0, t.shape[d], 1}) {
      s += ":";
    } else {
      // The smallest exclusive end that gives `count` elements with this step.
      s += std::to_string(ds.start);
      s += ':';
      s += std::to_string(ds.start + (ds.count - 1) * ds.step + 1);
      if (ds.step != 1) {
        s += ':';
        s += std::to_string(ds.step);
      }
    }
  }
  return s + "]";
}

// `[1, 2]`, or `[[1, 64], [2, 8]]` for entries of several integers (LANGUAGE.md 2.4).
std::string list_text(const std::vector<int32_t>& list, std::size_t entry_size) {
  std::string s = "[";
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (k) s += ", ";
    if (entry_size > 1 && k % entry_size == 0) s += '[';
    s += std::to_string(list[k]);
    if (entry_size > 1 && k % entry_size == entry_size - 1) s += ']';
  }
  return s + "]";
}

std::string operand_text(const Spec& spec, const Program& p, const OperandSpec& os, const Operand& op) {
  switch (op.state) {
    case OperandState::tensor: return view_text(p, op.view);
    case OperandState::scalar: return float32_text(op.scalar);
    case OperandState::integer: return std::to_string(op.integer);
    case OperandState::enumerated:
      return spec.enums[static_cast<std::size_t>(os.enum_id)].values[static_cast<std::size_t>(op.integer)].name;
    case OperandState::boolean: return op.integer ? "true" : "false";
    case OperandState::list: return list_text(op.list, os.list_items.size());
    case OperandState::tensor_list: {
      std::string s = "[";
      for (std::size_t k = 0; k < op.views.size(); ++k) s += (k ? ", " : "") + view_text(p, op.views[k]);
      return s + "]";
    }
    case OperandState::string: {  // as written: a string holds no '"' (LANGUAGE.md 2.3)
      std::string s(1, '"');
      s += p.strings[static_cast<std::size_t>(op.integer)];
      s += '"';
      return s;
    }
    case OperandState::reg: return p.registers[static_cast<std::size_t>(op.integer)].name;
    case OperandState::absent: break;
  }
  return "";
}

std::string instruction_text(const Spec& spec, const Program& p, const Instruction& ins) {
  const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
  std::string s = is.name;
  bool first = true;
  for (std::size_t i = 0; i < is.operands.size(); ++i) {
    if (operand_is_default(is.operands[i], ins.operands[i])) continue;
    s += first ? " " : ", ";
    first = false;
    s += is.operands[i].name + "=" + operand_text(spec, p, is.operands[i], ins.operands[i]);
  }
  return s;
}

// A program for several cores (LANGUAGE.md 2.7): the directives, the shared
// declarations, then each core's section with its declarations and
// instructions. Lines are kept with `.loc`, which declarations take too: a
// core's declarations may have come before the previous core's instructions.
std::string disassemble_cores(const Spec& spec, const Program& program) {
  std::vector<std::string> lines{".arch " + spec.archs[static_cast<std::size_t>(program.arch)].name, ".file \"" + program.file + "\"",
                                 ".cores " + std::to_string(core_count(program))};
  if (program.nki != spec.default_nki) lines.push_back(".nki " + spec.nki_versions[static_cast<std::size_t>(program.nki)]);
  int64_t previous = -1;  // the line the last declaration or instruction took
  auto place = [&](uint32_t line, std::string text) {
    if (line != previous + 1 || (previous < 0 && line != lines.size() + 1)) lines.push_back(".loc " + std::to_string(line));
    previous = line;
    lines.push_back(std::move(text));
  };
  std::size_t t = 0;
  for (; t < program.tensors.size() && program.tensors[t].core == TensorDecl::kShared; ++t) place(program.tensors[t].line, declaration_text(program.tensors[t]));
  for (int core = 0; core < core_count(program); ++core) {
    lines.push_back(".core " + std::to_string(core));
    for (; t < program.tensors.size() && program.tensors[t].core == core; ++t) place(program.tensors[t].line, declaration_text(program.tensors[t]));
    for (const RegisterDecl& r : program.registers)
      if (r.core == core) place(r.line, ".reg " + r.name);
    const PositionRange range = core_positions(program, core, program.instructions.size());
    for (std::size_t i = range.begin; i < range.end; ++i) place(program.instructions[i].line, instruction_text(spec, program, program.instructions[i]));
  }
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

}  // namespace

std::string disassemble(const Spec& spec, const Program& program) {
  if (core_count(program) > 1) return disassemble_cores(spec, program);
  // Directives before the first declaration that needs its line; `.arch` of
  // the default arch may be left out when there is no room for it.
  std::vector<std::string> pending;
  // Declarations at their lines: tensors and registers (S17) in line order.
  std::vector<std::pair<uint32_t, std::string>> declarations;
  for (const TensorDecl& t : program.tensors) declarations.emplace_back(t.line, declaration_text(t));
  for (const RegisterDecl& r : program.registers) declarations.emplace_back(r.line, ".reg " + r.name);
  std::stable_sort(declarations.begin(), declarations.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const uint32_t first_decl = declarations.empty() ? 0 : declarations.front().first;
  bool room_for_both = first_decl == 0 || first_decl > 2;
  if (program.arch != spec.default_arch || room_for_both) {
    std::string arch = ".arch ";
    arch += spec.archs[static_cast<std::size_t>(program.arch)].name;
    pending.push_back(arch);
  }
  std::string file = ".file \"";
  file += program.file;
  pending.push_back(file + "\"");
  if (program.nki != spec.default_nki) pending.push_back(".nki " + spec.nki_versions[static_cast<std::size_t>(program.nki)]);

  std::vector<std::string> lines;  // lines[k] is source line k + 1
  std::size_t next_pending = 0;
  for (auto& [line, text] : declarations) {
    while (next_pending < pending.size() && lines.size() + 1 < line) lines.push_back(pending[next_pending++]);
    while (lines.size() + 1 < line) lines.emplace_back();
    lines.push_back(std::move(text));
  }
  while (next_pending < pending.size()) lines.push_back(pending[next_pending++]);

  int64_t previous = -1;
  for (const Instruction& ins : program.instructions) {
    if (previous < 0 || ins.line != previous + 1) {
      std::string loc = ".loc ";
      loc += std::to_string(ins.line);
      lines.push_back(loc);
    }
    previous = ins.line;
    lines.push_back(instruction_text(spec, program, ins));
  }

  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

}  // namespace nisa

// The spec's names and look-ups (spec.hpp): what the assembler, encoder,
// decoder and interpreter ask of a loaded Spec. Loading and validating the
// JSON is spec.cpp's job.
#include <string>

#include "spec.hpp"

namespace nisa {

std::string_view memory_name(Memory m) {
  switch (m) {
    case Memory::hbm: return "hbm";
    case Memory::sbuf: return "sbuf";
    case Memory::psum: return "psum";
  }
  return "?";
}

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::tensor: return "tensor";
    case Engine::vector: return "vector";
    case Engine::scalar: return "scalar";
    case Engine::gpsimd: return "gpsimd";
    case Engine::dma: return "dma";
  }
  return "?";
}

std::string_view operand_kind_name(OperandKind k) {
  switch (k) {
    case OperandKind::tensor: return "tensor";
    case OperandKind::scalar: return "scalar";
    case OperandKind::tensor_or_scalar: return "tensor_or_scalar";
    case OperandKind::enumeration: return "enum";
    case OperandKind::boolean: return "bool";
    case OperandKind::integer: return "int";
    case OperandKind::list: return "list";
    case OperandKind::tensor_list: return "tensor_list";
    case OperandKind::string: return "string";
    case OperandKind::reg: return "register";
    case OperandKind::reg_or_int: return "register_or_int";
  }
  return "?";
}

namespace {
// Name look-ups run for every key and value the assembler reads: comparing
// the length and first character first skips most string comparisons.
bool same_name(const std::string& a, std::string_view b) { return a.size() == b.size() && (b.empty() || a[0] == b[0]) && a == b; }
}  // namespace

int EnumSpec::find(std::string_view n) const {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (same_name(values[i].name, n)) return static_cast<int>(i);
    for (const auto& a : values[i].aliases)
      if (same_name(a, n)) return static_cast<int>(i);
  }
  return -1;
}

bool OperandSpec::allows_memory(Memory m) const {
  for (Memory x : memories)
    if (x == m) return true;
  return false;
}

int InstructionSpec::find_operand(std::string_view n) const {
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (same_name(operands[i].name, n)) return static_cast<int>(i);
  return -1;
}

int Spec::find_arch(std::string_view n) const {
  for (std::size_t i = 0; i < archs.size(); ++i)
    if (archs[i].name == n) return static_cast<int>(i);
  return -1;
}

int Spec::find_nki_version(std::string_view n) const {
  for (std::size_t i = 0; i < nki_versions.size(); ++i)
    if (nki_versions[i] == n) return static_cast<int>(i);
  return -1;
}

int Spec::find_instruction(std::string_view n) const {
  for (std::size_t i = 0; i < instructions.size(); ++i)
    if (same_name(instructions[i].name, n)) return static_cast<int>(i);
  return -1;
}

bool Spec::is_nki_not_modeled(std::string_view n) const {
  for (const auto& listed : nki_not_modeled)
    if (same_name(listed, n)) return true;
  return false;
}

int Spec::find_opcode(int opcode) const {
  for (std::size_t i = 0; i < instructions.size(); ++i)
    if (instructions[i].opcode == opcode) return static_cast<int>(i);
  return -1;
}

int Spec::find_enum(std::string_view n) const {
  for (std::size_t i = 0; i < enums.size(); ++i)
    if (enums[i].name == n) return static_cast<int>(i);
  return -1;
}

std::optional<Dtype> Spec::find_dtype(std::string_view n) const {
  for (const auto& d : dtypes) {
    if (d.name == n) return d.dtype;
    for (const auto& a : d.aliases)
      if (a == n) return d.dtype;
  }
  return std::nullopt;
}

std::optional<double> Spec::cost_constant(std::string_view n) const {
  for (const auto& [k, v] : cost_constants)
    if (k == n) return v;
  return std::nullopt;
}

uint64_t spec_id_of(std::string_view canonical_json) {  // FNV-1a, 64 bits
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : canonical_json) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string spec_id_hex(uint64_t id) {
  char buf[17];
  static const char* digits = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, id >>= 4) buf[i] = digits[id & 15];
  buf[16] = 0;
  return buf;
}

}  // namespace nisa

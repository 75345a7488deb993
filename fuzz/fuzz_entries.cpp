// See fuzz_entries.hpp. Clean outcomes are caught here; everything else
// escapes (or aborts) so that libFuzzer and the regression replayer report it.
#include "fuzz_entries.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assembler.hpp"
#include "disassembler.hpp"
#include "encoding_sink.hpp"
#include "error.hpp"
#include "interpreter.hpp"
#include "nbin.hpp"
#include "nbin_format.hpp"
#include "npy.hpp"
#include "spec.hpp"

namespace nisa::fuzz {
namespace {

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// Runs a checked program within the fuzz budget. Inputs keep their zeroed
// HBM bytes (fill values are the CLI's business); `strict` picks the hazard
// tracking executor, whose RuntimeFaults are a clean outcome.
void run_within_budget(const Spec& spec, const Program& program, bool strict) {
  if (program.instructions.size() > kMaxRunInstructions) return;
  int64_t elements = 0;  // the work of a run is about the elements its operands cover
  for (const Instruction& ins : program.instructions)
    for (const Operand& op : ins.operands)
      for (const TensorView& v : op.state == OperandState::tensor ? std::span(&op.view, 1) : std::span(op.views)) {
        int64_t n = 1;
        for (const DimSlice& d : v.dims) n *= d.count;
        elements += n;
      }
  if (elements > kMaxRunElements) return;
  int64_t hbm_bytes = 0;
  for (const TensorDecl& t : program.tensors)
    if (t.memory == Memory::hbm) hbm_bytes += element_count(t.shape) * static_cast<int64_t>(dtype_size(t.dtype));
  if (hbm_bytes > kMaxRunHbmBytes) return;
  Machine machine = make_machine(spec, program);
  // S17.2: a loop's iterations are work too; and its faults (a negative trip
  // count, an unset register, the step limit) are runs' own, --strict or not.
  machine.loop_step_limit = kMaxRunInstructions;
  bool sequencer = false;
  for (const Instruction& ins : program.instructions)
    sequencer = sequencer || spec.instructions[static_cast<std::size_t>(ins.spec_index)].sequencer != Sequencer::none;
  const DecodedProgram decoded = predecode(spec, program, machine);
  try {
    if (strict) execute_strict(program, decoded.steps, machine);
    else execute(decoded.steps, machine);
  } catch (const RuntimeFault&) {
    if (!strict && !sequencer) broken("RuntimeFault outside --strict");
  }
}

}  // namespace

// The bytes `nisa asm` would write, or nullopt when it reports errors.
std::optional<std::vector<uint8_t>> streamed_nbin(const Spec& spec, std::string_view text, const AssembleLimits& limits) {
  NbinEncoder encoder(spec);
  EncodingSink sink(encoder);
  const AssembleResult result = assemble(spec, text, "fuzz.nasm", &sink, limits);
  if (!result.diagnostics.empty()) return std::nullopt;
  try {
    const NbinEncoder::Parts parts = encoder.finish(result.program);
    std::vector<uint8_t> bytes = parts.head;
    for (const std::vector<uint8_t>& chunk : parts.stream) bytes.insert(bytes.end(), chunk.begin(), chunk.end());
    return bytes;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

void assemble_text(const uint8_t* data, std::size_t size) {
  const Spec& spec = active_spec();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  AssembleLimits limits;
  limits.rept_lines = kMaxFuzzReptLines;
  limits.rept_iterations = kMaxFuzzReptLines;
  AssembleResult result = assemble(spec, text, "fuzz.nasm", nullptr, limits);
  const std::optional<std::vector<uint8_t>> streamed = streamed_nbin(spec, text, limits);
  if (!result.diagnostics.empty()) {
    for (const Diagnostic& d : result.diagnostics) (void)format_diagnostic(d);
    if (streamed) broken("nisa asm's streaming path accepts what the program model refuses");
    return;
  }
  // A clean assembly encodes (and nisa asm's streaming encoder gives the same
  // bytes); the binary decodes to a program that encodes to the same bytes;
  // the disassembly assembles to the same bytes (LANGUAGE.md 1).
  std::vector<uint8_t> bytes;
  try {
    bytes = encode_program(spec, result.program);
  } catch (const InputError&) {
    if (streamed) broken("nisa asm's streaming path encodes what encode_program refuses");
    return;  // a value that does not fit its field is reported, not a bug
  }
  if (!streamed || *streamed != bytes) broken("nisa asm's streaming path writes other bytes than encode_program");
  const Program decoded = decode_program(spec, bytes, "fuzz.nbin");
  if (encode_program(spec, decoded) != bytes) broken("decode(encode(p)) encodes differently");
  AssembleResult again = assemble(spec, disassemble(spec, decoded), "fuzz.dis.nasm");
  if (!again.diagnostics.empty()) {
    for (const Diagnostic& d : again.diagnostics) std::fputs(format_diagnostic(d).c_str(), stderr);
    broken("the disassembly does not assemble");
  }
  if (encode_program(spec, again.program) != bytes) broken("the disassembly assembles to other bytes");
  run_within_budget(spec, decoded, size % 2 == 1);
}

void load_binary(const uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const Spec& spec = active_spec();
  std::vector<uint8_t> bytes(data + 1, data + size);
  if ((data[0] & 1) && bytes.size() >= nbin::kHeaderSize) {
    uint32_t crc = nbin::crc32(bytes.data(), nbin::kCrcAt);
    crc = nbin::crc32(bytes.data() + nbin::kHeaderSize, bytes.size() - nbin::kHeaderSize, crc);
    for (std::size_t i = 0; i < 4; ++i) bytes[nbin::kCrcAt + i] = static_cast<uint8_t>(crc >> (8 * i));
  }
  Program program;
  try {
    program = decode_program(spec, bytes, "fuzz.nbin");
  } catch (const InputError&) {
    return;
  }
  // A decoded binary is canonical: it encodes to exactly its own bytes.
  if (encode_program(spec, program) != bytes) broken("a decoded binary encodes to other bytes");
  run_within_budget(spec, program, (data[0] & 2) != 0);
}

void read_npy_bytes(const uint8_t* data, std::size_t size) {
  NpyArray array;
  try {
    array = parse_npy(std::span<const uint8_t>(data, size), "fuzz.npy");
  } catch (const InputError&) {
    return;
  }
  const NpyArray again = parse_npy(encode_npy(array), "fuzz.npy");
  if (!(again.type == array.type) || again.shape != array.shape || again.data != array.data)
    broken("encode_npy does not round-trip a parsed array");
}

}  // namespace nisa::fuzz

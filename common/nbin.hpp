// The .nbin binary format (LANGUAGE.md section 3): magic, format version, arch,
// spec id, tensor table, bit-packed instruction stream laid out by the spec's
// encoding fields, and the line table. Encoding and decoding walk the same
// field list of the spec, so they cannot disagree.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bit_stream.hpp"
#include "program.hpp"
#include "spec.hpp"

namespace nisa {

// Encodes a checked program. Throws InputError if a value does not fit its field.
std::vector<uint8_t> encode_program(const Spec& spec, const Program& program);

// The same, one instruction at a time, so that the assembler can hand each
// instruction over as it accepts it and never hold a long program in memory
// (`nisa asm`). encode_program is add() for every instruction, then finish().
class NbinEncoder {
 public:
  explicit NbinEncoder(const Spec& spec, std::size_t expected_instructions = 0);

  // `program` holds the tensors the instruction names (its own instruction
  // list is not read). A value that does not fit its field is remembered and
  // thrown by finish(), so errors come in the same order as encode_program's.
  void add(const Program& program, const Instruction& ins);

  // The file is `head` (header, tensor table, line table, stream size)
  // followed by the `stream` chunks (the instructions), so that a long stream
  // is never copied into one buffer. Throws InputError.
  struct Parts {
    std::vector<uint8_t> head;
    std::vector<std::vector<uint8_t>> stream;
  };
  Parts finish(const Program& program);

 private:
  const Spec& spec_;
  ByteWriter line_table_;  // zig-zag line differences
  // The stream so far: full chunks, then the writer (whose last byte may be partial).
  std::vector<std::vector<uint8_t>> chunks_;
  std::size_t chunk_bytes_ = 0;
  BitWriter stream_;
  std::size_t count_ = 0;
  int64_t previous_line_ = 0;
  std::string error_;  // the first encoding failure, after "FILE"
};

// Decodes and fully validates a binary (structure, spec id, opcodes, enum
// ranges, and check_tensor / check_instruction for everything). Any defect
// throws InputError("FILE: error: <reason> at byte <offset>"). The result is
// safe to execute.
Program decode_program(const Spec& spec, const std::vector<uint8_t>& bytes, const std::string& file_name);

// The same, but each instruction, once validated, goes to `each` (in order;
// `program` has the tensors, arch and file name) instead of the result's
// instruction list, which stays empty: `nisa run` never holds the program
// model of a long binary.
using DecodedInstructionSink = std::function<void(const Program& program, const Instruction& ins)>;
Program decode_program(const Spec& spec, const std::vector<uint8_t>& bytes, const std::string& file_name,
                       const DecodedInstructionSink& each);

// The bytes of a .nbin file for decode_program, read no further than its
// header announces (plus one byte, so trailing bytes are still reported), and
// no further than the header if the magic number is wrong. InputError if the
// file cannot be read.
std::vector<uint8_t> read_nbin_file(const std::string& path);

}  // namespace nisa

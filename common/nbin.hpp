// The .nbin binary format (LANGUAGE.md section 3): magic, format version, arch,
// spec id, tensor table, bit-packed instruction stream laid out by the spec's
// encoding fields, and the line table. Encoding and decoding walk the same
// field list of the spec, so they cannot disagree.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

// Encodes a checked program. Throws InputError if a value does not fit its field.
std::vector<uint8_t> encode_program(const Spec& spec, const Program& program);

// Decodes and fully validates a binary (structure, spec id, opcodes, enum
// ranges, and check_tensor / check_instruction for everything). Any defect
// throws InputError("FILE: error: <reason> at byte <offset>"). The result is
// safe to execute.
Program decode_program(const Spec& spec, const std::vector<uint8_t>& bytes, const std::string& file_name);

}  // namespace nisa

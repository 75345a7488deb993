// The entry functions of the libFuzzer targets (fuzz/*_fuzzer.cpp) and of the
// regression replayer (tests/fuzz_regressions): one function per input kind,
// so a crash found by fuzzing is replayed in the normal build through exactly
// the code that found it.
//
// Each entry feeds arbitrary bytes to nisa and accepts any clean outcome (a
// result, or an InputError / RuntimeFault / diagnostics). Anything else is a
// bug and ends the process: a sanitizer report, an unexpected exception type
// (std::bad_alloc, std::out_of_range, ...), or an internal invariant broken
// (e.g. a program that assembled cleanly but does not survive encode/decode).
#pragma once
#include <cstddef>
#include <cstdint>

namespace nisa::fuzz {

// Limits of a fuzz run, not of nisa: the fuzzer's environment has a fixed
// memory budget, so programs are executed only when they are small enough.
// The assembler's .rept limits for fuzzing: the real ones (1,000,000) make a
// legitimate expansion take tens of seconds under the sanitizers, which
// libFuzzer would report as a hang; the code paths are the same.
inline constexpr int64_t kMaxFuzzReptLines = 20'000;
inline constexpr std::size_t kMaxRunInstructions = 256;        // run-time instruction budget
inline constexpr int64_t kMaxRunElements = int64_t{1} << 20;   // tensor operand elements, all instructions
inline constexpr int64_t kMaxRunHbmBytes = int64_t{16} << 20;  // all HBM tensors together

// .nasm text -> assemble; on success encode, decode (must round-trip),
// disassemble, and run with the budget above.
void assemble_text(const uint8_t* data, std::size_t size);

// .nbin bytes -> decode -> run with the budget above. The first byte chooses
// whether the header's CRC is recomputed first, so that mutations get past the
// checksum and reach the field decoder.
void load_binary(const uint8_t* data, std::size_t size);

// .npy bytes -> parse; on success encode again and parse the result (must
// give the same array).
void read_npy_bytes(const uint8_t* data, std::size_t size);

}  // namespace nisa::fuzz

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

// Limits of a fuzz run, not of nisa: each execution should take about a
// millisecond under the sanitizers, so that a campaign reaches millions of
// inputs. Programs are executed only when they are small (the real programs'
// tiles, 128 x 512, cost ~100 ms a run: their scaled-down copies from
// make_small_seeds.py are what reaches the interpreter). The assembler's
// .rept limits for fuzzing are 2,000 lines and iterations (nisa's are
// 4,000,000): every line of an expansion is parsed twice per input, and an
// erroneous body repeats its error message (did-you-mean search included)
// once per iteration; the code paths are the same at any limit.
inline constexpr int64_t kMaxFuzzReptLines = 2'000;
inline constexpr std::size_t kMaxRunInstructions = 256;        // run-time instruction budget
inline constexpr int64_t kMaxRunElements = int64_t{1} << 16;   // tensor operand elements, all instructions
inline constexpr int64_t kMaxRunHbmBytes = int64_t{1} << 20;   // all HBM tensors together

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

// A program's instruction list as its distinct instructions plus, for each
// position, which one runs there and its source line: what `nisa run` keeps
// of a .nasm program instead of the Program model's instruction list. A
// `.rept` of a few instructions expanded 25,000 times (the usual way to write
// a long program) is a handful of Instructions rather than 200,000 of ~1.4 KB
// each, memory that had to be allocated, zeroed by the kernel and freed
// (issue 16: most of the time of running such a program). A program without
// repetition costs what the model costs, plus a hash table entry per
// instruction.
#pragma once
#include <cstdint>
#include <vector>

#include "program.hpp"

namespace nisa {

class DistinctInstructions {
 public:
  // Appends `ins` (its line included) at the next position.
  void add(const Instruction& ins);
  // Room for `positions` positions, as many distinct instructions at most,
  // so that adding them moves nothing.
  void reserve(std::size_t positions);

  std::size_t size() const { return which_.size(); }
  std::size_t distinct_count() const { return distinct_.size(); }
  // The instruction at position i, with its own line: the returned reference
  // is to a distinct instruction whose line is set to position i's, valid
  // until the next call.
  const Instruction& at(std::size_t i);
  // Distinct instruction k (< distinct_count()), with some position's line.
  const Instruction& distinct(std::size_t k) const { return distinct_[k]; }
  // Which distinct instruction runs at position i (< distinct_count()).
  uint32_t which(std::size_t i) const { return which_[i]; }

 private:
  std::vector<Instruction> distinct_;  // each with the line of its first position (reset by at())
  std::vector<uint32_t> which_;        // per position: index into distinct_
  std::vector<uint32_t> lines_;        // per position: source line
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> next_;         // per distinct instruction: the one that followed it last (or kNone)
  std::vector<uint64_t> hashes_;       // per distinct instruction: instruction_hash
  // Open addressing by hash (linear probing): a distinct instruction's index
  // or kNone; a power of two of slots, at most half of them taken. A flat
  // table: a program without repetition inserts every instruction, and a
  // node per entry cost more than the rest of keeping it.
  std::vector<uint32_t> table_;
  void grow();
};

// Hash and equality of an instruction's contents (spec index and operands,
// not its line). Scalars compare by their bits: -0.0 and 0.0 are different
// operands, and a NaN operand equals the same NaN.
uint64_t instruction_hash(const Instruction& ins);
bool same_operands(const Instruction& a, const Instruction& b);

}  // namespace nisa

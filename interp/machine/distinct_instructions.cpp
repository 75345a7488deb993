#include "distinct_instructions.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace nisa {

namespace {

// Every field of Operand and TensorView is hashed and compared below: a new
// field must be added there too (or two different instructions would run as
// one). These sizes change when a field is added.
static_assert(sizeof(TensorView) == 120 && sizeof(Operand) == 192 && sizeof(Instruction) == 40,
              "Operand, TensorView or Instruction changed: update instruction_hash and same_operands");

// FNV-1a over 64-bit words (one multiply each: this runs for every
// instruction of the program), finished by a mix of the high bits downward.
struct Hasher {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }
  uint64_t result() const { return h ^ (h >> 29) ^ (h >> 47); }
  void add_view(const TensorView& v) {
    add(static_cast<uint64_t>(static_cast<uint32_t>(v.tensor)) << 32 | v.dims.size());
    if (v.is_pattern) {
      add(static_cast<uint64_t>(v.offset));
      add(static_cast<uint64_t>(v.indirect) << 32 | static_cast<uint32_t>(v.indirect_dim));
      add(static_cast<uint64_t>(v.index_stride));
      add(static_cast<uint64_t>(static_cast<uint32_t>(v.index_register)));
    }
    for (const DimSlice& d : v.dims) {
      add(static_cast<uint64_t>(d.start));
      add(static_cast<uint64_t>(d.count));
      add(static_cast<uint64_t>(d.step));
    }
    for (const PatternDim& d : v.pattern) {
      add(static_cast<uint64_t>(d.step));
      add(static_cast<uint64_t>(d.num));
    }
    for (const TensorView& i : v.index) add_view(i);
  }
};

bool same_operand(const Operand& a, const Operand& b) {
  return a.state == b.state && std::bit_cast<uint32_t>(a.scalar) == std::bit_cast<uint32_t>(b.scalar) &&
         a.integer == b.integer && a.view == b.view && a.list == b.list && a.views == b.views;
}

}  // namespace

// Only what an operand of its state holds is hashed (equality compares all).
uint64_t instruction_hash(const Instruction& ins) {
  Hasher h;
  h.add(static_cast<uint64_t>(ins.spec_index) << 32 | ins.operands.size());
  for (const Operand& o : ins.operands) {
    h.add(static_cast<uint64_t>(o.state));
    switch (o.state) {
      case OperandState::absent: break;
      case OperandState::tensor: h.add_view(o.view); break;
      case OperandState::scalar: h.add(std::bit_cast<uint32_t>(o.scalar)); break;
      case OperandState::integer:
      case OperandState::enumerated:
      case OperandState::boolean:
      case OperandState::string:  // its table index (each text once)
      case OperandState::reg: h.add(static_cast<uint64_t>(o.integer)); break;  // the register's index
      case OperandState::list:
        for (int32_t v : o.list) h.add(static_cast<uint32_t>(v));
        break;
      case OperandState::tensor_list:
        for (const TensorView& v : o.views) h.add_view(v);
        break;
    }
  }
  return h.result();
}

bool same_operands(const Instruction& a, const Instruction& b) {
  if (a.spec_index != b.spec_index || a.operands.size() != b.operands.size()) return false;
  for (std::size_t i = 0; i < a.operands.size(); ++i)
    if (!same_operand(a.operands[i], b.operands[i])) return false;
  return true;
}

void DistinctInstructions::add(const Instruction& ins) {
  if (which_.size() >= UINT32_MAX) throw std::length_error("more than 2^32 - 1 instructions");
  // A loop body repeats its sequence: first try the instruction that came
  // after the previous one last time (one comparison, no hash).
  if (!which_.empty()) {
    const uint32_t predicted = next_[which_.back()];
    if (predicted != kNone && same_operands(distinct_[predicted], ins)) {
      which_.push_back(predicted);
      lines_.push_back(ins.line);
      return;
    }
  }
  const uint64_t hash = instruction_hash(ins);
  if ((distinct_.size() + 1) * 2 > table_.size()) grow();
  const std::size_t mask = table_.size() - 1;
  uint32_t index = kNone;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const uint32_t k = table_[slot];
    if (k == kNone) {
      index = static_cast<uint32_t>(distinct_.size());
      distinct_.push_back(ins);
      hashes_.push_back(hash);
      next_.push_back(kNone);
      table_[slot] = index;
      break;
    }
    if (hashes_[k] == hash && same_operands(distinct_[k], ins)) {
      index = k;
      break;
    }
  }
  if (!which_.empty()) next_[which_.back()] = index;
  which_.push_back(index);
  lines_.push_back(ins.line);
}

void DistinctInstructions::reserve(std::size_t positions) {
  which_.reserve(positions);
  lines_.reserve(positions);
  distinct_.reserve(positions);
  hashes_.reserve(positions);
  next_.reserve(positions);
  while (table_.size() < 2 * positions) grow();
}

void DistinctInstructions::grow() {
  table_.assign(std::max<std::size_t>(16, table_.size() * 2), kNone);
  const std::size_t mask = table_.size() - 1;
  for (uint32_t k = 0; k < hashes_.size(); ++k) {
    std::size_t slot = hashes_[k] & mask;
    while (table_[slot] != kNone) slot = (slot + 1) & mask;
    table_[slot] = k;
  }
}

const Instruction& DistinctInstructions::at(std::size_t i) {
  Instruction& ins = distinct_[which_[i]];
  ins.line = lines_[i];
  return ins;
}

}  // namespace nisa

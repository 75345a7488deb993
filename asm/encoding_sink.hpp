// `nisa asm`'s instruction sink: each instruction is encoded as the assembler
// accepts it, so the program model of a long file is never built (the bytes
// are the same as encode_program's). Also used by the asm fuzz target, which
// checks exactly that.
#pragma once
#include "assembler.hpp"
#include "nbin.hpp"

namespace nisa {

class EncodingSink final : public InstructionSink {
 public:
  explicit EncodingSink(NbinEncoder& encoder) : encoder_(encoder) {}
  void add(const Program& program, const Instruction& ins) override { encoder_.add(program, ins); }

 private:
  NbinEncoder& encoder_;
};

}  // namespace nisa

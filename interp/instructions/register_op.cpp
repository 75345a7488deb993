// register_op dst, src0, src1, op (SEMANTICS S17.1): NKI 0.7's NkiScalar
// arithmetic on the sequencer's 32-bit registers. nki.isa.NkiScalar: "A
// 32-bit scalar is never widened, so arithmetic that outgrows 32 bits wraps":
// computed in uint32, two's complement.
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::register_op;

struct Params {
  RegisterSite site;
  RegisterOrInt src0, src1;
  int32_t dst;
  AluOp op;
  uint8_t unused[3] = {};
};

void run(const Step& s, Machine& m) {
  const Params& p = s.params<Params>();
  const auto a = static_cast<uint32_t>(p.src0.get(m, p.site));
  const auto b = static_cast<uint32_t>(p.src1.get(m, p.site));
  const uint32_t r = p.op == AluOp::add ? a + b : p.op == AluOp::subtract ? a - b : a * b;  // the spec allows these three
  write_register(m, p.dst, static_cast<int32_t>(r));
}

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext& c, Step& s) {
  s.set_params(Params{c.register_site(), c.register_or_int(slot::src0), c.register_or_int(slot::src1), c.reg(slot::dst),
                      c.enum_value<AluOp>(slot::op)});
  s.run = run;
}

}  // namespace

const InstructionSemantics register_op_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa

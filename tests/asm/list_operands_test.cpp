// List operands (LANGUAGE.md 2.4): parsing, the checker's rules for iota's
// two forms and tensor_reduce's axis, and the canonical text of `nisa dis`.
#include <string>

#include "asm_test_support.hpp"
#include "disassembler.hpp"
#include "nbin.hpp"

using namespace nisa;

namespace {
const char* kDecls = ".sbuf t i32 [4, 2, 3]\n.sbuf r f32 [4, 2]\n.sbuf c f32 [4, 1]\n.sbuf d f32 [4, 2, 3]\n";
std::string prog(const std::string& body) { return std::string(kDecls) + body + "\n"; }
}  // namespace

TEST_CASE("list operands: flat, pairs, expressions, a bare integer for a flat list") {
  auto p = asm_test::assemble_ok(prog(".equ N, 3\niota dst=t, pattern=[[2 * 5, 2], [-1, N]], offset=-4, channel_multiplier=6\n"
                                      "tensor_reduce dst=r, data=d, op=add, axis=2\ntensor_reduce dst=c, data=d, op=add, axis=[1, -1]"));
  const Operand& pattern = p.instructions[0].operands[1];
  CHECK(pattern.state == OperandState::list);
  CHECK(pattern.list == std::vector<int32_t>{10, 2, -1, 3});
  CHECK(p.instructions[1].operands[4].list == std::vector<int32_t>{2});
  CHECK(p.instructions[2].operands[4].list == std::vector<int32_t>{1, -1});
}

TEST_CASE("list operands: malformed lists are errors at the key's column") {
  CHECK(asm_test::errors_of(prog("iota dst=t, pattern=[[1, 2, 3]]")).find("t.nasm:5:13: error: 'pattern' entry 0 has 3 integers, expected 2") == 0);
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[1, 6]")) == "'pattern' is a list of [2 integers] entries, got '1'");
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[[1, 6]")) == "expected ',' or ']' in 'pattern', got the end of the value");
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=6")) == "'pattern' takes a list like [[1, 64]], got a number");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=[1.5]")) == "'axis' element must be an integer, got 1.5");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=[[2]]")) == "'axis' holds integers, not lists");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=d")) == "'axis' takes a list like [1, 2], got tensor 'd'");
  CHECK(asm_test::first_error(prog("iota dst=t, offset=[1]")) == "expected an expression, got '['");
}

TEST_CASE("iota: the two forms do not mix; the pattern covers dst") {
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[[1, 6]], base=3")) ==
        "'base' cannot be mixed with 'pattern': iota takes either pattern, offset, channel_multiplier or base, partition_step, free_step");
  CHECK(asm_test::first_error(prog("iota dst=t, offset=3")) == "'offset' requires 'pattern'");
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[[1, 5]]")) ==
        "'pattern' generates 5 elements per partition (the product of its nums) but 'dst' has 6");
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[[1, 0]]")) == "'pattern' entry 0: num 0 is out of range [1, 16777215]");
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[[1,1],[1,1],[1,1],[1,1],[1,6]]")) == "'pattern' has 5 entries; iota takes 1 to 4");
  CHECK(asm_test::first_error(prog("iota dst=t, pattern=[]")) == "'pattern' has 0 entries; iota takes 1 to 4");
}

TEST_CASE("tensor_reduce axis: last free axes only, dst of the kept size") {
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=[1]")) ==
        "'axis' must name the last free axes of 'data', ending at axis 2 (e.g. [2]), got [1]");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=[0, 1, 2]")) ==
        "'axis' names axis 0, the partition axis, which tensor_reduce cannot reduce");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=[2, -1]")) == "'axis' names axis 2 twice");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add, axis=[3]")) == "'axis' names axis 3 but 'data' has 3 axes");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=c, data=d, op=add, axis=[2]")) ==
        "'dst' must hold 2 elements per partition ('data' reduced over axis [2]), got 4 partitions x 1 elements");
  CHECK(asm_test::first_error(prog("tensor_reduce dst=r, data=d, op=add")) ==
        "'dst' must be a [4, 1] column (the partitions of 'data'), got 4 partitions x 2 elements");
}

TEST_CASE("dma_copy's NKI 0.6 keys: defaults, engine only with hwdge") {
  auto p = asm_test::assemble_ok(prog("dma_copy dst=r, src=r[:, :]"));
  CHECK(p.instructions[0].operands[2].state == OperandState::absent);  // priority
  CHECK(asm_test::first_error(prog("dma_copy dst=c, src=c, engine=sync")) == "engine=sync requires dge_mode=hwdge");
  CHECK(asm_test::first_error(prog("dma_copy dst=c, src=c, engine=vector")) == "'engine' = vector is not allowed for dma_copy; allowed: unknown, scalar, sync");
  CHECK(asm_test::first_error(prog("dma_copy dst=c, src=c, priority=4")) == "'priority' = 4 is out of range [0, 3]");
  asm_test::assemble_ok(prog("dma_copy dst=c, src=c, dge_mode=hwdge, engine=scalar, oob_mode=skip, priority=0"));
}

TEST_CASE("dis: list operands print canonically and assemble back to the same bytes") {
  const std::string source = prog("iota dst=t, pattern = [ [ 1 , 3 ] ,[10,2] ], offset=0\ntensor_reduce dst=r, data=d, op=max, axis=-1, keepdims=true");
  auto p = asm_test::assemble_ok(source);
  const std::string text = disassemble(asm_test::spec(), p);
  CHECK(text.find("iota dst=t, pattern=[[1, 3], [10, 2]], offset=0\n") != std::string::npos);
  CHECK(text.find("tensor_reduce dst=r, data=d, op=maximum, axis=[-1], keepdims=true\n") != std::string::npos);
  auto again = asm_test::assemble_ok(text);
  CHECK(encode_program(asm_test::spec(), again) == encode_program(asm_test::spec(), p));
  CHECK(decode_program(asm_test::spec(), encode_program(asm_test::spec(), p), "t.nbin").instructions == p.instructions);
}

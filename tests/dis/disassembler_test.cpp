// The disassembler (LANGUAGE.md 2.1, 2.3): canonical text with explicit SBUF/PSUM
// offsets, defaults left out, declarations on their recorded lines, `.loc`
// where the line table jumps, and floats that read back to the same bits.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "disassembler.hpp"
#include "float_text.hpp"
#include "../nbin/program_builder.hpp"
#include "spec.hpp"

using namespace nisa;

namespace {
const Spec& spec() {
  static const Spec s = load_spec(embedded_spec_text());
  return s;
}
}  // namespace

// Expected text written from the definition of sample_program (tests/nbin):
// declarations on their lines 2..11, .arch before them, .file after them (no
// room on line 1), defaults left out (iota partition_step=0, range_select's
// reduce_op and on_false_value=fp32.min, nonzero_with_count's padding_val=-1,
// ...), .loc at the first instruction and wherever the line table jumps.
TEST_CASE("the sample program disassembles to canonical text") {
  const char* expected = R"(.arch trn3
.hbm x f32 [128, 64] input = iota
.hbm y f32 [128, 64] output
.hbm c i32 [4] inout = -7
.hbm h bf16 [2, 3, 4] input = 0.1
.sbuf a f32 [128, 64] @ 0
.sbuf col f32 [128, 1] @ 256
.sbuf m u8 [128, 64] @ 320
.sbuf ii i32 [128, 65] @ 384
.psum ps f32 [128, 64] @ 0
.sbuf col2 f32 [64, 1] @ 1024
.file "sample.nasm"
.loc 20
dma_copy dst=a, src=x
memset dst=col, value=-inf
memset dst=ii[0:64, 0:10], value=-5
iota dst=ii, base=3, free_step=2
.loc 30
tensor_scalar dst=a[0:64, 0:32], data=a[64:128, 32:64], op0=multiply, operand0=1.5, op1=add, operand1=col2
activation dst=ps, op=exp, data=a, bias=col, scale=2.0
.loc 12
range_select dst=a, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, bound0=col, bound1=col, reduce_cmd=reset_reduce, reduce_res=col, range_start=-3
tensor_copy_predicated dst=a, src=0.5, predicate=m, reverse_pred=true
nonzero_with_count dst=ii, src=a, index_offset=-7
activate2 dst=a, op=gelu, data=a, imm0=0.25, imm1=col, op0=multiply, op1=add, reduce_op=add, reduce_res=col, reduce_cmd=reduce
tensor_tensor dst=a, data1=a, data2=ps, op=maximum
tensor_reduce dst=col, data=a, op=abs_max, negate=true
select_reduce dst=a, predicate=m, on_true=a, on_false=col
.loc 5
dma_copy dst=y[0:127:2, 1:62:3], src=a[0:64, 0:21]
)"
                         // a string operand as written, its tab and UTF-8 bytes included
                         "device_print print_prefix=\"a; b # c, d = \t\xc3\xa9\", tensor=a[64:128, 0:5:2]\n"
                         "device_print print_prefix=\"\", tensor=c\n"
                         "device_print print_prefix=\"a; b # c, d = \t\xc3\xa9\", tensor=ps\n";
  CHECK(disassemble(spec(), test::sample_program(spec())) == expected);
}

TEST_CASE("declarations keep their source lines; .arch of the default arch yields when there is no room") {
  test::ProgramBuilder b(spec(), "trn2", "p.nasm");
  b.tensor("a", Memory::sbuf, Dtype::f32, {4, 4}, Role::none, 0, 1);
  b.tensor("z", Memory::hbm, Dtype::f32, {4, 4}, Role::input, 0, 5);
  b.add("memset", {{"dst", b.view(0)}, {"value", test::ProgramBuilder::f32(0)}}, 3);
  CHECK(disassemble(spec(), b.program) ==
        ".sbuf a f32 [4, 4] @ 0\n.file \"p.nasm\"\n\n\n.hbm z f32 [4, 4] input\n.loc 3\nmemset dst=a, value=0.0\n");
}

TEST_CASE("floats print so that they read back to the same float32") {
  CHECK(float32_text(1.5f) == "1.5");
  CHECK(float32_text(2.0f) == "2.0");
  CHECK(float32_text(0.1f) == "0.1");
  CHECK(float32_text(1e20f) == "1.0e20");
  CHECK(float32_text(-1.25e-7f) == "-1.25e-7");
  CHECK(float32_text(16777216.0f) == "16777216.0");
  CHECK(float32_text(-0.0f) == "-0.0");
  CHECK(float32_text(std::numeric_limits<float>::denorm_min()) == "1.0e-45");
  CHECK(float32_text(std::numeric_limits<float>::infinity()) == "inf");
  CHECK(float32_text(-std::numeric_limits<float>::infinity()) == "-inf");
  CHECK(float32_text(std::numeric_limits<float>::quiet_NaN()) == "nan");
  CHECK(float32_text(-std::numeric_limits<float>::quiet_NaN()) == "-nan");
  CHECK(float32_text(3.4028234663852886e38f) == "fp32.max");
  CHECK(float32_text(-3.4028234663852886e38f) == "fp32.min");
  // Every finite value of a sweep over the bit patterns reads back exactly
  // through decimal -> double -> float32 (LANGUAGE.md 2.3: literals round once to float32).
  int checked = 0;
  for (uint64_t bits = 1; bits < 0xff800000u; bits += 0x10001u * 7 + 3) {
    float v = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (!std::isfinite(v)) continue;
    std::string s = float32_text(v);
    if (s == "fp32.max" || s == "fp32.min") continue;
    float back = static_cast<float>(std::strtod(s.c_str(), nullptr));
    INFO(s);
    CHECK(std::bit_cast<uint32_t>(back) == std::bit_cast<uint32_t>(v));
    CHECK(s.find_first_of(".e") != std::string::npos);
    ++checked;
  }
  CHECK(checked > 9000);
}

// --strict hazards (S1.1 unwritten bytes, S3 undefined Vector lanes, S5 input
// ranges): runtime faults naming the source line; nothing else changes.
#include <doctest/doctest.h>

#include <string>

#include "error.hpp"
#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

namespace {

// The fault message of a strict run, or "" when it ran through.
std::string strict_fault(TestMachine& m) {
  try {
    m.run(/*strict=*/true);
  } catch (const RuntimeFault& e) {
    CHECK(e.exit_status() == 3);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("strict: reading SBUF bytes never written faults at the instruction's line (S1.1)") {
  TestMachine m;
  const int32_t a = m.sbuf("a", Dtype::f32, {4, 8});
  const int32_t b = m.sbuf("b", Dtype::f32, {4, 8});
  m.add("memset", {{"dst", m.rows(a, 0, 2)}, {"value", number(1)}});  // line 100
  m.add("tensor_scalar", {{"dst", m.whole(b)}, {"data", m.whole(a)}, {"op0", "add"}, {"operand0", number(1)}});  // 101
  const std::string f = strict_fault(m);
  CHECK(f.rfind("test.nasm:101: error: reads an input element 0 of partition 2", 0) == 0);
  CHECK(f.find("never written (S1.1)") != std::string::npos);
}

TEST_CASE("strict: written bytes are fine; a strict run computes what the fast run computes") {
  TestMachine m;
  const int32_t a = m.sbuf("a", Dtype::f32, {4, 8});
  const int32_t b = m.psum("b", Dtype::f32, {4, 8});
  m.add("iota", {{"dst", m.whole(a)}, {"base", number(1)}, {"free_step", number(2)}});
  m.add("tensor_scalar", {{"dst", m.whole(b)}, {"data", m.whole(a)}, {"op0", "multiply"}, {"operand0", number(3)}});
  CHECK(strict_fault(m).empty());
  CHECK(m.get<float>(b, 3, 7) == 3.0f * (1 + 2 * 7));
}

TEST_CASE("strict: nonzero_with_count reads only partitions 16k (S4.1)") {
  TestMachine m;
  const int32_t src = m.sbuf("src", Dtype::i32, {32, 4});
  const int32_t dst = m.sbuf("dst", Dtype::i32, {32, 5});
  m.add("memset", {{"dst", m.rows(src, 0, 1)}, {"value", integer(1)}});
  m.add("memset", {{"dst", m.rows(src, 16, 1)}, {"value", integer(0)}});
  m.add("nonzero_with_count", {{"dst", m.whole(dst)}, {"src", m.whole(src)}});
  m.add("dma_copy", {{"dst", m.rows(src, 0, 1)}, {"src", m.rows(dst, 16, 1)}});  // reads partition 16's result: ok
  Operand dst_slice = m.rows(dst, 16, 1);
  dst_slice.view.dims[1] = DimSlice{0, 4, 1};
  m.add("dma_copy", {{"dst", m.rows(src, 0, 1)}, {"src", dst_slice}});
  CHECK(strict_fault(m).empty());
  m.add("dma_copy", {{"dst", m.rows(src, 0, 1)}, {"src", m.rows(src, 1, 1)}});  // partition 1: never written
  CHECK(strict_fault(m).find("partition 1,") != std::string::npos);
}

TEST_CASE("strict: Vector accumulator lanes never reset or last touched by idle (S3)") {
  auto program = [](TestMachine& m, const char* first_cmd, bool first_res, const char* second_cmd, bool second_res) {
    const int32_t x = m.sbuf("x", Dtype::f32, {32, 4});
    const int32_t pred = m.sbuf("pred", Dtype::u8, {32, 4});
    const int32_t dst = m.sbuf("dst", Dtype::f32, {32, 4});
    const int32_t res = m.sbuf("res", Dtype::f32, {32, 1});
    m.add("memset", {{"dst", m.whole(x)}, {"value", number(2)}});
    m.add("memset", {{"dst", m.whole(pred)}, {"value", integer(1)}});
    auto sel = [&](const char* cmd, bool with_res) {
      if (with_res)
        m.add("select_reduce", {{"dst", m.whole(dst)}, {"predicate", m.whole(pred)}, {"on_true", m.whole(x)},
                                {"on_false", number(0)}, {"reduce_cmd", cmd}, {"reduce_res", m.whole(res)}});
      else
        m.add("select_reduce", {{"dst", m.whole(dst)}, {"predicate", m.whole(pred)}, {"on_true", m.whole(x)},
                                {"on_false", number(0)}, {"reduce_cmd", cmd}});
    };
    sel(first_cmd, first_res);
    if (second_cmd) sel(second_cmd, second_res);
  };
  {
    TestMachine m;
    program(m, "reduce", false, nullptr, false);  // never reset
    CHECK(strict_fault(m).find("test.nasm:102: error: reduce onto Vector accumulator lane 0") == 0);
  }
  {
    TestMachine m;
    program(m, "reset_reduce", false, "reduce", true);
    CHECK(strict_fault(m).empty());
    CHECK(m.machine().vector_accumulator[5] == 2.0f);
  }
  {
    TestMachine m;
    program(m, "reset_reduce", false, "idle", false);
    CHECK(strict_fault(m).empty());  // idle alone reads nothing
  }
  {
    TestMachine m;
    program(m, "reset_reduce", false, "idle", true);
    CHECK(strict_fault(m).find("reduce_res reads Vector accumulator lane 0, which was never reset or last touched by an "
                               "idle") != std::string::npos);
  }
  {
    TestMachine m;
    program(m, "idle", false, "reduce", false);
    CHECK(strict_fault(m).find("test.nasm:103: error: reduce onto") == 0);
  }
  {
    TestMachine m;  // the same programs run without --strict
    program(m, "idle", false, "reduce", true);
    m.run();
    CHECK(m.machine().vector_accumulator[0] == 2.0f);  // -inf start, max with 2
  }
}

TEST_CASE("strict: activation inputs outside the valid ranges of S5") {
  struct Case {
    const char* op;
    float value;
    bool valid;
  };
  const Case cases[] = {{"log", 0.0f, false},        {"log", 1.0f, true},          {"log", 0x1p65f, false},
                        {"sin", 3.0f, true},         {"sin", 3.2f, false},         {"arctan", 1.6f, false},
                        {"sqrt", 0x1p119f, false},   {"rsqrt", 0x1p-88f, false},   {"rsqrt", 1.0f, true},
                        {"reciprocal", 0x1p-43f, false}, {"reciprocal", -0x1p42f, true}, {"exp", 1e30f, true}};
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    CAPTURE(c.value);
    TestMachine m;
    const int32_t x = m.sbuf("x", Dtype::f32, {1, 2});
    const int32_t y = m.sbuf("y", Dtype::f32, {1, 2});
    m.add("memset", {{"dst", m.whole(x)}, {"value", number(c.value / 2)}});
    // The range applies to the function's input: data * scale (+ bias).
    m.add("activation", {{"dst", m.whole(y)}, {"op", c.op}, {"data", m.whole(x)}, {"scale", number(2)}});
    const std::string f = strict_fault(m);
    CHECK(f.empty() == c.valid);
    if (!c.valid) CHECK(f.find("outside the hardware's valid range (S5)") != std::string::npos);
  }
}

TEST_CASE("strict: tensor_copy_predicated writes only the selected elements (S4.2)") {
  TestMachine m;
  const int32_t src = m.sbuf("src", Dtype::f32, {1, 4});
  const int32_t pred = m.sbuf("pred", Dtype::u8, {1, 4});
  const int32_t dst = m.sbuf("dst", Dtype::f32, {1, 4});
  const int32_t out = m.sbuf("out", Dtype::f32, {1, 2});
  m.add("memset", {{"dst", m.whole(src)}, {"value", number(3)}});
  m.add("memset", {{"dst", m.whole(pred)}, {"value", integer(0)}});
  Operand pred_first = m.whole(pred);
  pred_first.view.dims[1] = DimSlice{0, 2, 1};
  m.add("memset", {{"dst", pred_first}, {"value", integer(1)}});
  m.add("tensor_copy_predicated", {{"dst", m.whole(dst)}, {"src", m.whole(src)}, {"predicate", m.whole(pred)}});
  Operand dst_first = m.whole(dst), dst_last = m.whole(dst);
  dst_first.view.dims[1] = DimSlice{0, 2, 1};
  dst_last.view.dims[1] = DimSlice{2, 2, 1};
  m.add("tensor_scalar", {{"dst", m.whole(out)}, {"data", dst_first}, {"op0", "add"}, {"operand0", number(1)}});
  CHECK(strict_fault(m).empty());
  m.add("tensor_scalar", {{"dst", m.whole(out)}, {"data", dst_last}, {"op0", "add"}, {"operand0", number(1)}});
  CHECK(strict_fault(m).find("element 0 of partition 0") != std::string::npos);
}

TEST_CASE("strict: Scalar accumulator lanes never reset (S1.3); idle keeps them defined") {
  auto program = [](TestMachine& m, const char* first_cmd, const char* second_cmd, bool second_res) {
    const int32_t x = m.sbuf("x", Dtype::f32, {64, 4});
    const int32_t y = m.sbuf("y", Dtype::f32, {64, 4});
    const int32_t res = m.psum("res", Dtype::f32, {64, 1});
    m.add("memset", {{"dst", m.whole(x)}, {"value", number(2)}});
    m.add("activation", {{"dst", m.rows(y, 32, 32)}, {"op", "copy"}, {"data", m.rows(x, 32, 32)},
                         {"reduce_op", "add"}, {"reduce_cmd", first_cmd}});
    if (second_res)
      m.add("activation", {{"dst", m.whole(y)}, {"op", "copy"}, {"data", m.whole(x)}, {"reduce_op", "add"},
                           {"reduce_cmd", second_cmd}, {"reduce_res", m.whole(res)}});
    else
      m.add("activation", {{"dst", m.whole(y)}, {"op", "copy"}, {"data", m.whole(x)}, {"reduce_op", "add"},
                           {"reduce_cmd", second_cmd}});
  };
  {
    TestMachine m;
    program(m, "reset", "reset_reduce", true);
    CHECK(strict_fault(m).empty());
  }
  {
    TestMachine m;  // lanes 0..31 were never reset
    program(m, "reset", "reduce", false);
    CHECK(strict_fault(m).find("test.nasm:102: error: reduce onto Scalar accumulator lane 0, which was never reset") ==
          0);
  }
  {
    TestMachine m;
    program(m, "reset", "idle", true);
    CHECK(strict_fault(m).find("reduce_res reads Scalar accumulator lane 0") != std::string::npos);
  }
  {
    TestMachine m;  // idle on the Scalar engine leaves defined lanes defined
    const int32_t x = m.sbuf("x", Dtype::f32, {1, 4});
    const int32_t res = m.sbuf("res", Dtype::f32, {1, 1});
    m.add("memset", {{"dst", m.whole(x)}, {"value", number(2)}});
    m.add("activation", {{"dst", m.whole(x)}, {"op", "copy"}, {"data", m.whole(x)}, {"reduce_op", "add"},
                         {"reduce_cmd", "reset_reduce"}});
    m.add("activation", {{"dst", m.whole(x)}, {"op", "copy"}, {"data", m.whole(x)}, {"reduce_res", m.whole(res)}});
    CHECK(strict_fault(m).empty());
    CHECK(m.get<float>(res, 0, 0) == 8.0f);
  }
}

// S8.3: an accumulating nc_matmul reads dst (never written: S1.1), and on
// NeuronCore-v2/v3 accumulating onto PSUM that only a non-matmul instruction
// wrote is undefined (NKI 0.6 docstring), a fault; NeuronCore-v4 allows it.
TEST_CASE("strict: nc_matmul accumulating onto PSUM no nc_matmul wrote") {
  for (const std::string arch : {"trn2", "trn3"}) {
    CAPTURE(arch);
    TestMachine m(arch);
    const int32_t a = m.sbuf("a", Dtype::f32, {4, 4});
    const int32_t p = m.psum("p", Dtype::f32, {4, 4});
    const int32_t q = m.psum("q", Dtype::f32, {4, 4});
    m.add("memset", {{"dst", m.whole(a)}, {"value", number(1)}});                                   // line 100
    m.add("memset", {{"dst", m.whole(p)}, {"value", number(0)}});                                   // 101
    m.add("nc_matmul", {{"dst", m.whole(q)}, {"stationary", m.whole(a)}, {"moving", m.whole(a)}});  // 102: overwrites
    m.add("nc_matmul", {{"dst", m.whole(q)}, {"stationary", m.whole(a)}, {"moving", m.whole(a)}});  // 103: accumulates (None)
    m.add("nc_matmul", {{"dst", m.whole(p)}, {"stationary", m.whole(a)}, {"moving", m.whole(a)}, {"accumulate", boolean(true)}});  // 104
    const std::string f = strict_fault(m);
    if (arch == "trn2") {
      CHECK(f.rfind("test.nasm:104: error: accumulates onto PSUM bytes that no earlier nc_matmul wrote", 0) == 0);
    } else {
      CHECK(f.empty());
      CHECK(m.get<float>(p, 0, 0) == 4.0f);  // 0 + four products of 1
    }
    CHECK(m.get<float>(q, 3, 3) == 8.0f);  // 4 + 4: the second product accumulated
  }
}

TEST_CASE("strict: nc_matmul accumulating onto PSUM never written faults (S1.1)") {
  TestMachine m("trn3");
  const int32_t a = m.sbuf("a", Dtype::f32, {4, 4});
  const int32_t p = m.psum("p", Dtype::f32, {4, 4});
  m.add("memset", {{"dst", m.whole(a)}, {"value", number(1)}});
  m.add("nc_matmul", {{"dst", m.whole(p)}, {"stationary", m.whole(a)}, {"moving", m.whole(a)}, {"accumulate", boolean(true)}});  // 101
  const std::string f = strict_fault(m);
  CHECK(f.rfind("test.nasm:101: error: reads an input element 0 of partition 0, psum bytes never written (S1.1)", 0) == 0);
}

// activation (S4.6), activate2 (S4.5), the S5 functions and the
// Scalar accumulator (S1.3, S3).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

namespace {

// S5 definitions in float64, written from the rule text.
double reference(const std::string& f, double x, double alpha) {
  const double pi = 3.14159265358979323846;
  auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  auto softplus = [](double v) { return std::log(1.0 + std::exp(v)); };
  if (f == "copy" || f == "identity") return x;
  if (f == "exp") return std::exp(x);
  if (f == "log") return std::log(x);
  if (f == "tanh") return std::tanh(x);
  if (f == "sigmoid") return sig(x);
  if (f == "relu") return x > 0 ? x : 0;
  if (f == "gelu") return x * 0.5 * (1 + std::erf(x / std::sqrt(2.0)));
  if (f == "gelu_apprx_tanh") return 0.5 * x * (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
  if (f == "gelu_apprx_sigmoid") return x * sig(1.702 * x);
  if (f == "silu") return x * sig(x);
  if (f == "mish") return x * std::tanh(softplus(x));
  if (f == "square") return x * x;
  if (f == "sqrt") return std::sqrt(x);
  if (f == "rsqrt") return 1 / std::sqrt(x);
  if (f == "reciprocal") return 1 / x;
  if (f == "sin") return std::sin(x);
  if (f == "arctan") return std::atan(x);
  if (f == "erf") return std::erf(x);
  if (f == "softplus") return softplus(x);
  if (f == "abs") return std::fabs(x);
  if (f == "sign") return x > 0 ? 1 : (x < 0 ? -1 : 0);
  if (f == "prelu") return x >= 0 ? x : alpha * x;
  throw std::runtime_error("no reference for " + f);
}

bool close(float got, double want) {
  const double w = static_cast<float>(want);  // float64 reference rounded to float32 (S5)
  if (std::isinf(w) || std::isnan(w)) return got == w || (std::isnan(w) && std::isnan(got));
  return std::fabs(got - w) <= 1e-5 * std::fabs(w) + 1e-6;  // nisa diff defaults (LANGUAGE.md 1)
}

}  // namespace

TEST_CASE("activation: every S5 function within rtol 1e-5 of a float64 reference") {
  const char* functions[] = {"copy", "identity", "exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_apprx_tanh",
                             "gelu_apprx_sigmoid", "silu", "mish", "square", "sqrt", "rsqrt", "reciprocal", "sin",
                             "arctan", "erf", "softplus", "abs", "sign", "prelu"};
  for (const char* f : functions) {
    const std::string name = f;
    CAPTURE(name);
    const bool positive = name == "log" || name == "sqrt" || name == "rsqrt";
    TestMachine m;
    const int32_t x = m.sbuf("x", Dtype::f32, {4, 64});
    const int32_t y = m.sbuf("y", Dtype::f32, {4, 64});
    for (int p = 0; p < 4; ++p)
      for (int i = 0; i < 64; ++i) {
        float v = static_cast<float>(i - 32) * 0.37f + static_cast<float>(p) * 0.05f;
        if (positive) v = std::fabs(v) + 0.01f;
        m.set<float>(x, p, i, v);
      }
    m.add("activation", {{"dst", m.whole(y)}, {"op", f}, {"data", m.whole(x)}});
    m.run();
    for (int p = 0; p < 4; ++p)
      for (int i = 0; i < 64; ++i) {
        const float in = m.get<float>(x, p, i), got = m.get<float>(y, p, i);
        const double want = reference(name, in, 0.0);
        CAPTURE(in);
        CAPTURE(got);
        CAPTURE(want);
        CHECK(close(got, want));
      }
  }
}

TEST_CASE("activation: dst = op(data*scale + bias) with a [P,1] scale, scalar bias; add reduction (S4.6)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::bf16, {64, 10});
  const int32_t scale = m.psum("scale", Dtype::f32, {64, 1});
  const int32_t y = m.sbuf("y", Dtype::f32, {64, 10});
  const int32_t res = m.sbuf("res", Dtype::f32, {64, 1});
  for (int p = 0; p < 64; ++p) {
    m.set<float>(scale, p, 0, static_cast<float>(p) * 0.5f);
    for (int i = 0; i < 10; ++i) m.set<uint16_t>(x, p, i, static_cast<uint16_t>(0x3F80 + i * 0x08));  // bf16 1 + i/16
  }
  m.add("activation", {{"dst", m.whole(y)}, {"op", "square"}, {"data", m.whole(x)}, {"scale", m.whole(scale)},
                       {"bias", number(-1.0f)}, {"reduce_cmd", "reset_reduce"}, {"reduce_op", "add"},
                       {"reduce_res", m.whole(res)}});
  m.run();
  for (int p = 0; p < 64; ++p) {
    double sum = 0;
    for (int i = 0; i < 10; ++i) {
      const double xv = 1.0 + i / 16.0;
      const float t = static_cast<float>(xv * p * 0.5) - 1.0f;
      CAPTURE(p);
      CAPTURE(i);
      CHECK(m.get<float>(y, p, i) == t * t);
      sum += static_cast<double>(t * t);
    }
    CHECK(close(m.get<float>(res, p, 0), sum));
    CHECK(close(m.machine().scalar_accumulator[static_cast<std::size_t>(p)], sum));
  }
}

TEST_CASE("activate2: NKI docstring example gelu(2x + 0.5)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {128, 32});
  const int32_t y = m.sbuf("y", Dtype::f32, {128, 32});
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 32; ++i) m.set<float>(x, p, i, static_cast<float>(p - 64) * 0.03f + static_cast<float>(i) * 0.01f);
  m.add("activate2", {{"dst", m.whole(y)}, {"op", "gelu"}, {"data", m.whole(x)}, {"imm0", number(2.0f)},
                      {"imm1", number(0.5f)}, {"op0", "multiply"}, {"op1", "add"}});
  m.run();
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 32; ++i) {
      const float v = m.get<float>(x, p, i) * 2.0f + 0.5f;  // stage 1 in float32
      CHECK(close(m.get<float>(y, p, i), reference("gelu", v, 0)));
    }
}

TEST_CASE("activate2: the six op pairs, reverse flags, [P,1] immediates, prelu's relu_param") {
  struct Case {
    const char* op0;
    const char* op1;
    bool reverse0, reverse1;
  };
  const Case cases[] = {{"multiply", "add", false, false},    {"multiply", "subtract", false, true},
                        {"multiply", "bypass", true, false},  {"add", "bypass", false, false},
                        {"subtract", "bypass", true, false},  {"bypass", "bypass", false, false},
                        {"multiply", "subtract", true, false}};
  for (const Case& c : cases) {
    const std::string op0 = c.op0, op1 = c.op1;
    CAPTURE(op0);
    CAPTURE(op1);
    CAPTURE(c.reverse0);
    CAPTURE(c.reverse1);
    TestMachine m;
    const int32_t x = m.sbuf("x", Dtype::f32, {16, 8});
    const int32_t imm0 = m.sbuf("imm0", Dtype::f32, {16, 1});
    const int32_t y = m.sbuf("y", Dtype::f32, {16, 8});
    for (int p = 0; p < 16; ++p) {
      m.set<float>(imm0, p, 0, static_cast<float>(p) - 3.0f);
      for (int i = 0; i < 8; ++i) m.set<float>(x, p, i, static_cast<float>(i) - 4.5f);
    }
    m.add("activate2", {{"dst", m.whole(y)}, {"op", "prelu"}, {"data", m.whole(x)}, {"imm0", m.whole(imm0)},
                        {"imm1", number(0.25f)}, {"op0", c.op0}, {"op1", c.op1}, {"relu_param", number(0.1f)},
                        {"reverse0", boolean(c.reverse0)}, {"reverse1", boolean(c.reverse1)}});
    m.run();
    auto apply = [](const std::string& op, float a, float b, bool reverse) {
      if (reverse) std::swap(a, b);
      if (op == "multiply") return a * b;
      if (op == "add") return a + b;
      if (op == "subtract") return a - b;
      return reverse ? b : a;  // bypass keeps the data
    };
    for (int p = 0; p < 16; ++p)
      for (int i = 0; i < 8; ++i) {
        float v = m.get<float>(x, p, i);
        v = apply(c.op0, v, static_cast<float>(p) - 3.0f, c.reverse0);
        v = apply(c.op1, v, 0.25f, c.reverse1);
        const float want = v >= 0 ? v : 0.1f * v;
        CHECK(m.get<float>(y, p, i) == want);
      }
  }
}

TEST_CASE("activate2: all five reduce ops, reduce_cmd chain on the shared Scalar accumulator (S3)") {
  struct Case {
    const char* op;
    double expected_first, expected_chain;  // over row {-3, 1, 2} then {-5, 0.5}
  };
  // reset_reduce over {-3,1,2}; then reduce over {-5, 0.5}.
  const Case cases[] = {{"add", 0, -4.5},          {"maximum", 2, 2},   {"minimum", -3, -5},
                        {"abs_max", 3, 5},         {"abs_min", 1, 0.5}};
  for (const Case& c : cases) {
    const std::string op = c.op;
    CAPTURE(op);
    TestMachine m;
    const int32_t a = m.sbuf("a", Dtype::f32, {1, 3});
    const int32_t b = m.sbuf("b", Dtype::f32, {1, 2});
    const int32_t ya = m.sbuf("ya", Dtype::f32, {1, 3});
    const int32_t yb = m.sbuf("yb", Dtype::f32, {1, 2});
    const int32_t r1 = m.sbuf("r1", Dtype::f32, {1, 1});
    const int32_t r2 = m.sbuf("r2", Dtype::f32, {1, 1});
    const float av[3] = {-3, 1, 2}, bv[2] = {-5, 0.5f};
    for (int i = 0; i < 3; ++i) m.set<float>(a, 0, i, av[i]);
    for (int i = 0; i < 2; ++i) m.set<float>(b, 0, i, bv[i]);
    m.add("activate2", {{"dst", m.whole(ya)}, {"op", "copy"}, {"data", m.whole(a)}, {"imm0", number(0)},
                        {"imm1", number(0)}, {"op0", "bypass"}, {"op1", "bypass"}, {"reduce_op", c.op},
                        {"reduce_cmd", "reset_reduce"}, {"reduce_res", m.whole(r1)}});
    m.add("activate2", {{"dst", m.whole(yb)}, {"op", "copy"}, {"data", m.whole(b)}, {"imm0", number(0)},
                        {"imm1", number(0)}, {"op0", "bypass"}, {"op1", "bypass"}, {"reduce_op", c.op},
                        {"reduce_cmd", "reduce"}, {"reduce_res", m.whole(r2)}});
    m.run();
    CHECK(m.get<float>(r1, 0, 0) == static_cast<float>(c.expected_first));
    CHECK(m.get<float>(r2, 0, 0) == static_cast<float>(c.expected_chain));
  }
}

TEST_CASE("activation and activate2 share the Scalar accumulator; reset sets 0 (S1.3, S3)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {2, 4});
  const int32_t y = m.sbuf("y", Dtype::f32, {2, 4});
  const int32_t r = m.sbuf("r", Dtype::f32, {2, 1});
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 4; ++i) m.set<float>(x, p, i, static_cast<float>(i + p));
  CHECK(m.machine().scalar_accumulator[0] == 0.0f);  // S1.3: starts at 0
  m.add("activation", {{"dst", m.whole(y)}, {"op", "copy"}, {"data", m.whole(x)}, {"reduce_op", "add"},
                       {"reduce_cmd", "reduce"}});
  m.add("activate2", {{"dst", m.whole(y)}, {"op", "copy"}, {"data", m.whole(x)}, {"imm0", number(2)},
                      {"imm1", number(0)}, {"op0", "multiply"}, {"op1", "bypass"}, {"reduce_op", "add"},
                      {"reduce_cmd", "reduce"}, {"reduce_res", m.whole(r)}});
  m.run();
  CHECK(m.get<float>(r, 0, 0) == 6.0f + 12.0f);
  CHECK(m.get<float>(r, 1, 0) == 10.0f + 20.0f);
  m.add("activation", {{"dst", m.whole(y)}, {"op", "copy"}, {"data", m.whole(x)}, {"reduce_op", "add"},
                       {"reduce_cmd", "reset"}, {"reduce_res", m.whole(r)}});
  m.run();
  CHECK(m.get<float>(r, 0, 0) == 0.0f);
  CHECK(m.get<float>(r, 1, 0) == 0.0f);
}

// The activation kernels computed in float32 (exp, tanh, sigmoid) and their
// float64 neighbours (silu, gelu_apprx_sigmoid)
// against float64 math rounded to float32 (S5: rtol 1e-5 of a float64
// reference), over a dense sweep of float32 bit patterns: every 1009th pattern of
// both signs, which covers every binade, the subnormals, overflow, inf and NaN.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "activation_functions.hpp"

namespace nisa {
namespace {

double reference(ActivationFn f, double x) {
  const double sig = 1.0 / (1.0 + std::exp(-x));
  switch (f) {
    case ActivationFn::exp: return std::exp(x);
    case ActivationFn::tanh: return std::tanh(x);
    case ActivationFn::sigmoid: return sig;
    case ActivationFn::silu: return x * sig;
    case ActivationFn::gelu_apprx_sigmoid: return x / (1.0 + std::exp(-1.702 * x));
    default: return 0;
  }
}

void check_function(ActivationFn f) {
  std::vector<float> xs;
  for (uint64_t b = 0; b <= 0xFFFFFFFFull; b += 1009) xs.push_back(std::bit_cast<float>(static_cast<uint32_t>(b)));
  std::vector<float> ys = xs;
  apply_activation(f, ys.data(), static_cast<int64_t>(ys.size()), 0.0f);
  int64_t bad = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const float want = static_cast<float>(reference(f, static_cast<double>(xs[i])));
    const float got = ys[i];
    if (std::isnan(want)) {
      bad += !std::isnan(got);
      continue;
    }
    // rtol 1e-6 (ten times tighter than S5), plus the float32 subnormal spacing.
    const bool ok = got == want || std::fabs(static_cast<double>(got) - want) <= 1e-6 * std::fabs(static_cast<double>(want)) + 0x1p-149;
    if (!ok && bad < 5) MESSAGE(std::string(activation_name(f)), " x=", double(xs[i]), " got ", double(got), " want ", double(want), " rel ", (double(got) - want) / want);
    bad += !ok;
  }
  CHECK_MESSAGE(bad == 0, std::string(activation_name(f)));
}

TEST_CASE("activation kernels: exp, tanh, sigmoid (float32), silu, gelu_apprx_sigmoid within rtol 1e-6 (S5)") {
  for (ActivationFn f : {ActivationFn::exp, ActivationFn::tanh, ActivationFn::sigmoid, ActivationFn::silu,
                         ActivationFn::gelu_apprx_sigmoid})
    check_function(f);
}

// S5 sign is np.sign: a zero of either sign gives +0.0 (issue 26: nisa kept -0.0,
// which the lockstep differential found against the model).
TEST_CASE("activation sign: -1, +0 for both zeros, 1; NaN stays NaN") {
  std::vector<float> v = {-0.0f, 0.0f, -2.5f, 3.0f, std::nanf(""), -INFINITY, 0x1p-149f};
  apply_activation(ActivationFn::sign, v.data(), static_cast<int64_t>(v.size()), 0.0f);
  CHECK(std::bit_cast<uint32_t>(v[0]) == 0u);
  CHECK(std::bit_cast<uint32_t>(v[1]) == 0u);
  CHECK(v[2] == -1.0f);
  CHECK(v[3] == 1.0f);
  CHECK(std::isnan(v[4]));
  CHECK(v[5] == -1.0f);
  CHECK(v[6] == 1.0f);
}

// gelu_apprx_tanh keeps its relative accuracy for negative x, where 1 + tanh
// cancels (issue 26: nisa gave -0.0 for x < -6.5, the function is ~-1e-17 there).
TEST_CASE("activation gelu_apprx_tanh: relative accuracy for large negative x") {
  std::vector<float> xs = {-3.0f, -6.0f, -8.0f, -10.0f, -20.0f, 2.0f};
  std::vector<float> v = xs;
  apply_activation(ActivationFn::gelu_apprx_tanh, v.data(), static_cast<int64_t>(v.size()), 0.0f);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const long double x = xs[i];
    const long double y = 0.7978845608028653558798921198687637L * (x + 0.044715L * x * x * x);
    const long double e = std::exp(2 * y);  // 1 + tanh y = 2 e^2y / (1 + e^2y)
    const auto want = static_cast<float>(0.5L * x * (2 * e / (1 + e)));
    CHECK_MESSAGE(std::fabs(static_cast<double>(v[i]) - want) <= 1e-6 * std::fabs(static_cast<double>(want)),
                  "x=", double(xs[i]), " got ", double(v[i]), " want ", double(want));
  }
}

}  // namespace
}  // namespace nisa

#include "activation_functions.hpp"

#include "activation_exp.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace nisa {
namespace {

constexpr double kSqrt1_2 = 0.70710678118654752440;
constexpr double kSqrt2OverPi = 0.79788456080286535588;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;    // 1/sqrt(2 pi)
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;  // 2/sqrt(pi)

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double softplus(double x) { return x > 30 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

template <class F>
void each(float* v, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(f(static_cast<double>(v[i])));
}

// float32 versions of the exp family, branch-free so that the loops over a
// batch vectorise (S5 allows any implementation within rtol 1e-5 of float64;
// these are within a few ulp, checked by tests/interp/activation_accuracy_test).

// cond ? a : b on the bits: under the default -ftrapping-math a select between
// float results would otherwise become a branch and block vectorisation.
inline float pick(bool cond, float a, float b) {
  const uint32_t mask = 0u - static_cast<uint32_t>(cond);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & mask) | (std::bit_cast<uint32_t>(b) & ~mask));
}

using cephes::exp_f32;  // activation_exp.hpp

// Cephes tanhf: an odd polynomial below 0.625, else 1 - 2 / (e^2|x| + 1).
inline float tanh_f32(float x) {
  const float ax = std::fabs(x);
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = p * z * x + x;
  const float big = std::copysign(1.0f - 2.0f / (exp_f32(2.0f * ax) + 1.0f), x);
  return pick(ax < 0.625f, small, big);
}

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below: no overflow, and
// relative accuracy down to the subnormal results of large negative x.
inline float sigmoid_f32(float x) {
  const float e = exp_f32(-std::fabs(x));
  const float s = 1.0f / (1.0f + e);
  return pick(x >= 0.0f, s, e * s);
}

template <class F>
void each_f32(float* v, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) v[i] = f(v[i]);
}

}  // namespace

void apply_activation(ActivationFn f, float* v, int64_t n, float relu_param) {
  switch (f) {
    case ActivationFn::copy:
    case ActivationFn::identity: return;
    case ActivationFn::exp: return each_f32(v, n, exp_f32);
    case ActivationFn::log: return each(v, n, [](double x) { return std::log(x); });
    case ActivationFn::tanh: return each_f32(v, n, tanh_f32);
    case ActivationFn::sigmoid: return each_f32(v, n, sigmoid_f32);
    case ActivationFn::relu:
      // NaN propagates (S2.1): max(NaN, 0) is NaN.
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] < 0.0f ? 0.0f : v[i];
      return;
    // Exact gelu x*Phi(x); erfc keeps the relative accuracy for negative x.
    case ActivationFn::gelu: return each(v, n, [](double x) { return 0.5 * x * std::erfc(-x * kSqrt1_2); });
    // 0.5x(1 + tanh y) as x*sigmoid(2y): 1 + tanh y cancels to 0 below y = -19
    // (x = -6.5), where the function is ~1e-17 and tiny but not zero.
    case ActivationFn::gelu_apprx_tanh:
      return each(v, n, [](double x) { return x * sigmoid(2.0 * kSqrt2OverPi * (x + 0.044715 * x * x * x)); });
    // In double: float32 would lose ~1e-6 relative where e^x is subnormal but
    // x*sigmoid(x) is not, and in rounding 1.702x.
    case ActivationFn::gelu_apprx_sigmoid: return each(v, n, [](double x) { return x * sigmoid(1.702 * x); });
    case ActivationFn::silu: return each(v, n, [](double x) { return x * sigmoid(x); });
    case ActivationFn::mish: return each(v, n, [](double x) { return x * std::tanh(softplus(x)); });
    case ActivationFn::square:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] * v[i];
      return;
    case ActivationFn::sqrt: return each(v, n, [](double x) { return std::sqrt(x); });
    case ActivationFn::rsqrt: return each(v, n, [](double x) { return 1.0 / std::sqrt(x); });
    case ActivationFn::reciprocal:
      for (int64_t i = 0; i < n; ++i) v[i] = 1.0f / v[i];
      return;
    case ActivationFn::sin: return each(v, n, [](double x) { return std::sin(x); });
    case ActivationFn::arctan: return each(v, n, [](double x) { return std::atan(x); });
    case ActivationFn::erf: return each(v, n, [](double x) { return std::erf(x); });
    case ActivationFn::softplus: return each(v, n, softplus);
    case ActivationFn::abs:
      for (int64_t i = 0; i < n; ++i) v[i] = std::fabs(v[i]);
      return;
    case ActivationFn::sign:
      // np.sign: -1, +0 (for either zero: np.sign(-0.0) is 0.0), 1; NaN stays NaN.
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] > 0.0f ? 1.0f : (v[i] < 0.0f ? -1.0f : (v[i] == 0.0f ? 0.0f : v[i]));
      return;
    // The derivatives of NKI 0.6's activation table (nki.api.shared.rst,
    // "Supported Activation Functions": gelu_dx, gelu_apprx_sigmoid_dx,
    // silu_dx, erf_dx; valid on [-inf, inf]). NKI names them without a
    // formula; these are the exact derivatives of the functions above, in
    // double. gelu' = Phi(x) + x*phi(x), phi the standard normal density.
    case ActivationFn::gelu_dx:
      return each(v, n, [](double x) { return 0.5 * std::erfc(-x * kSqrt1_2) + x * kInvSqrt2Pi * std::exp(-0.5 * x * x); });
    // (x*sigmoid(1.702x))' = s + 1.702x*s*(1 - s), s = sigmoid(1.702x), 1 - s = sigmoid(-1.702x).
    case ActivationFn::gelu_apprx_sigmoid_dx:
      return each(v, n, [](double x) { return sigmoid(1.702 * x) * (1.0 + 1.702 * x * sigmoid(-1.702 * x)); });
    // (x*sigmoid(x))' = sigmoid(x) * (1 + x*sigmoid(-x)).
    case ActivationFn::silu_dx: return each(v, n, [](double x) { return sigmoid(x) * (1.0 + x * sigmoid(-x)); });
    // erf' = 2/sqrt(pi) * e^(-x^2).
    case ActivationFn::erf_dx: return each(v, n, [](double x) { return kTwoOverSqrtPi * std::exp(-x * x); });
    case ActivationFn::prelu:
      // S5: x >= 0 ? x : relu_param * x (NaN: the comparison fails, NaN*p is NaN).
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] >= 0.0f ? v[i] : relu_param * v[i];
      return;
  }
}

bool activation_input_valid(ActivationFn f, float x) {
  const double a = std::fabs(static_cast<double>(x));
  switch (f) {
    case ActivationFn::log: return x >= 0x1p-64f && x <= 0x1p64f;
    case ActivationFn::sin: return a <= std::numbers::pi;
    case ActivationFn::arctan: return a <= std::numbers::pi / 2;
    case ActivationFn::sqrt: return x >= 0x1p-116f && x <= 0x1p118f;
    case ActivationFn::rsqrt: return x >= 0x1p-87f && x <= 0x1p97f;
    case ActivationFn::reciprocal: return a >= 0x1p-42 && a <= 0x1p42;
    default: return true;
  }
}

std::string_view activation_name(ActivationFn f) { return spec_enum::name(f); }

}  // namespace nisa

#include "activation_functions.hpp"

#include <cmath>
#include <numbers>

namespace nisa {
namespace {

constexpr double kSqrt1_2 = 0.70710678118654752440;
constexpr double kSqrt2OverPi = 0.79788456080286535588;

double softplus(double x) { return x > 30 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

template <class F>
void each(float* v, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(f(static_cast<double>(v[i])));
}

}  // namespace

void apply_activation(ActivationFn f, float* v, int64_t n, float relu_param) {
  switch (f) {
    case ActivationFn::copy:
    case ActivationFn::identity: return;
    case ActivationFn::exp: return each(v, n, [](double x) { return std::exp(x); });
    case ActivationFn::log: return each(v, n, [](double x) { return std::log(x); });
    case ActivationFn::tanh: return each(v, n, [](double x) { return std::tanh(x); });
    case ActivationFn::sigmoid: return each(v, n, sigmoid);
    case ActivationFn::relu:
      // NaN propagates (S2.1): max(NaN, 0) is NaN.
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] < 0.0f ? 0.0f : v[i];
      return;
    // Exact gelu x*Phi(x); erfc keeps the relative accuracy for negative x.
    case ActivationFn::gelu: return each(v, n, [](double x) { return 0.5 * x * std::erfc(-x * kSqrt1_2); });
    case ActivationFn::gelu_apprx_tanh:
      return each(v, n, [](double x) { return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x))); });
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
      // np.sign: -1, 0 (keeping a zero's sign), 1; NaN stays NaN.
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] > 0.0f ? 1.0f : (v[i] < 0.0f ? -1.0f : v[i]);
      return;
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

const char* activation_name(ActivationFn f) {
  static const char* const kNames[] = {
      "copy", "identity", "exp", "log", "tanh", "sigmoid", "relu", "gelu", "gelu_apprx_tanh", "gelu_apprx_sigmoid",
      "silu", "mish", "square", "sqrt", "rsqrt", "reciprocal", "sin", "arctan", "erf", "softplus", "abs", "sign",
      "prelu"};
  return kNames[static_cast<int>(f)];
}

}  // namespace nisa

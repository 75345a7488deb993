// The activation functions of S5, evaluated in float32 results (computed via
// double so that every function is within rtol 1e-5 of a float64 reference),
// and their hardware-valid input ranges (for --strict).
#pragma once
#include <cstdint>
#include <string_view>

#include "step.hpp"

namespace nisa {

// v[i] = f(v[i]) for i < n; relu_param feeds prelu.
void apply_activation(ActivationFn f, float* v, int64_t n, float relu_param);

// S5: the input range a function's hardware polynomial covers (true for the
// functions valid everywhere). NaN inputs are outside every finite range.
bool activation_input_valid(ActivationFn f, float x);
std::string_view activation_name(ActivationFn f);

}  // namespace nisa

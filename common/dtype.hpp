// Element types of the modeled machine (LANGUAGE.md 2.2). The ISA spec lists the
// same names with their sizes; the spec loader checks that both agree, so the
// C++ enum is only the handle the typed kernels dispatch on.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nisa {

enum class Dtype : uint8_t {
  f32, bf16, f16, tf32, fp8e4m3, fp8e4m3fn, fp8e5m2,
  i8, i16, i32, u8, u16, u32,
  // MX (OCP microscaling, NeuronCore-v4): packed element types holding four
  // values per element (fp8: 4 bytes, fp4: 2 bytes, value j in bits 8j / 4j
  // upward) and the e8m0 scale byte (2^(e-127), 0xFF = NaN). Only the MX
  // instructions read their values; elsewhere they are bits (S13).
  fp8e4m3fn_x4, fp8e5m2_x4, fp4e2m1fn_x4, fp8e8m0,
};
inline constexpr int kDtypeCount = 17;

std::string_view dtype_name(Dtype t);
std::optional<Dtype> dtype_from_name(std::string_view canonical_name);
std::size_t dtype_size(Dtype t);
bool dtype_is_float(Dtype t);
bool dtype_is_signed_int(Dtype t);
bool dtype_is_unsigned_int(Dtype t);
bool dtype_is_mx(Dtype t);  // the MX class above: neither float nor int
inline bool dtype_is_int(Dtype t) { return dtype_is_signed_int(t) || dtype_is_unsigned_int(t); }

}  // namespace nisa

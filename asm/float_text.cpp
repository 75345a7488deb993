#include "float_text.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace nisa {

namespace {

// Reads text the way the assembler does (decimal to double, then to float32)
// so double rounding cannot make a printed value read back differently.
bool reads_back(const std::string& s, float v) {
  float back = static_cast<float>(std::strtod(s.c_str(), nullptr));
  return std::bit_cast<uint32_t>(back) == std::bit_cast<uint32_t>(v);
}

// "1e+20" -> "1.0e20", "16777216" -> "16777216.0": always a float literal, no '+'.
std::string as_float_literal(std::string s) {
  std::size_t e = s.find('e');
  std::string mantissa = s.substr(0, e);
  std::string exponent = e == std::string::npos ? "" : s.substr(e + 1);
  if (mantissa.find('.') == std::string::npos) mantissa += ".0";
  if (exponent.empty()) return mantissa;
  if (exponent[0] == '+') exponent.erase(0, 1);
  bool negative = exponent[0] == '-';
  std::size_t digits = negative ? 1 : 0;
  while (exponent.size() > digits + 1 && exponent[digits] == '0') exponent.erase(digits, 1);
  return mantissa + "e" + exponent;
}

}  // namespace

std::string float32_text(float v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";  // the assembler's NaN, or its negation
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::numeric_limits<float>::max()) return "fp32.max";
  if (v == std::numeric_limits<float>::lowest()) return "fp32.min";
  if (std::bit_cast<uint32_t>(v) == 0x80000000u) return "-0.0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s = as_float_literal(std::string(buf, r.ptr));
  for (int precision = 9; !reads_back(s, v) && precision <= 17; ++precision) {
    r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v), std::chars_format::general, precision);
    s = as_float_literal(std::string(buf, r.ptr));
  }
  return s;
}

}  // namespace nisa

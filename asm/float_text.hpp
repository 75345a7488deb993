// float32 values as .nasm text that reads back to the same bits (LANGUAGE.md
// section 2: inf, -inf, nan, fp32.min, fp32.max are names; a literal is
// rounded to float32 once).
#pragma once
#include <string>

namespace nisa {

// The shortest decimal that parses back to exactly `v`, with a '.' or an
// exponent so it reads as a float; or one of the names above; "-0.0" for -0,
// "-nan" for a NaN with the sign bit. (NaN payloads other than the quiet NaN
// the assembler makes for `nan` have no text form.)
std::string float32_text(float v);

}  // namespace nisa

// An array as NumPy's str() prints it with its default print options
// (NumPy 1.14 and later: precision 8, floatmode "maxprec", linewidth 75,
// threshold 1000, edgeitems 3, no suppression): what device_print shows of a
// tile (docs/SEMANTICS.md S12.1), so that its text is the text a NumPy user
// gets from print() of the array `nisa run --dump` would write.
//
// Floats are written with Dragon4's shortest digits that identify the value
// among the floats of its own type (float32 or float16), at most 8 fraction
// digits in positional form, switching to the scientific form when a
// nonzero magnitude is >= 1e8 or < 1e-4 or the largest exceeds 1000 times
// the smallest; every element takes the width of the widest. Integers are
// right-aligned to the widest. An array of more than 1000 elements shows
// only the first and last 3 entries of each axis longer than 6, with "...",
// and lines wrap at 75 columns. Tests compare it with NumPy itself
// (tests/python/test_device_print.py).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "npy.hpp"

namespace nisa {

// Writes the element at row-major position `flat` of the array, as `type`'s
// little-endian bytes, to `out`.
using ArrayElementReader = std::function<void(int64_t flat, uint8_t* out)>;

// NumPy's str() of an array of `shape` (at least one dimension, no empty
// dimension) and element type `type`: float32, float16, or a signed or
// unsigned integer of 1, 2 or 4 bytes (npy_type_of's types; std::invalid_argument
// for another). Reads only the elements it shows.
std::string numpy_array_text(const NpyType& type, const std::vector<int64_t>& shape, const ArrayElementReader& element);

}  // namespace nisa

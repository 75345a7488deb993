// compare_arrays: the element rules of `nisa diff` (LANGUAGE.md section 1).
#include <doctest/doctest.h>

#include <cmath>

#include <cstring>
#include <limits>
#include <vector>

#include "tensor_compare.hpp"

using nisa::compare_arrays;
using nisa::NpyArray;
using nisa::NpyType;

namespace {

template <class T>
NpyArray array_of(NpyType type, std::vector<int64_t> shape, const std::vector<T>& values) {
  NpyArray a{type, std::move(shape), std::vector<uint8_t>(values.size() * sizeof(T))};
  std::memcpy(a.data.data(), values.data(), a.data.size());
  return a;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const NpyType kF32{'f', 4};

}  // namespace

TEST_CASE("index_text gives the full C-order index") {
  CHECK(nisa::index_text(0, {}) == "[]");
  CHECK(nisa::index_text(107, {20, 30}) == "[3, 17]");
  CHECK(nisa::index_text(23, {2, 3, 4}) == "[1, 2, 3]");
  CHECK(nisa::index_text(4, {5}) == "[4]");
}

TEST_CASE("floats: |a - e| <= atol + rtol * |e|, NaN equals NaN, inf only the same inf") {
  const auto e = array_of<float>(kF32, {6}, {100.0f, 0.0f, kNaN, kInf, -kInf, 1.0f});
  // 100 + 1e-3 is inside 1e-6 + 1e-5 * 100; 2e-6 is outside 1e-6 + 0.
  const auto a = array_of<float>(kF32, {6}, {100.001f, 2e-6f, kNaN, kInf, kInf, kNaN});
  const auto c = compare_arrays(e, a, {1e-5, 1e-6});
  CHECK(c.element_count == 6);
  CHECK(c.mismatch_count == 3);
  REQUIRE(c.first_mismatches.size() == 3);
  CHECK(c.first_mismatches[0].flat_index == 1);
  CHECK(c.first_mismatches[0].expected == "0");
  CHECK(c.first_mismatches[0].actual == "2e-06");
  CHECK(c.first_mismatches[1].flat_index == 4);
  CHECK(c.first_mismatches[1].actual == "inf");
  CHECK(c.first_mismatches[2].flat_index == 5);
  CHECK(c.first_mismatches[2].actual == "nan");
  // 1 vs NaN at [5]: the largest error is NaN, not hidden behind the infinite
  // one of -inf vs inf at [4] (issue 15: NaN against 0 reported "max abs error 0").
  CHECK(std::isnan(c.max_abs_error));
  CHECK(c.max_abs_index == 5);
  const auto no_nan = compare_arrays(array_of<float>(kF32, {2}, {kNaN, -kInf}), array_of<float>(kF32, {2}, {kNaN, kInf}), {});
  CHECK(no_nan.max_abs_index == 1);  // NaN against NaN is a match, error 0
  CHECK(std::isinf(no_nan.max_abs_error));
  CHECK(compare_arrays(e, e, {0, 0}).equal());
}

TEST_CASE("integers are exact; shape and dtype differences are whole-array differences") {
  const NpyType i64{'i', 8};
  const auto e = array_of<int64_t>(i64, {2}, {(int64_t{1} << 62) + 1, -3});
  const auto a = array_of<int64_t>(i64, {2}, {(int64_t{1} << 62), -3});
  const auto c = compare_arrays(e, a, {1, 1e30});
  CHECK(c.mismatch_count == 1);
  CHECK(c.first_mismatches.at(0).expected == "4611686018427387905");
  CHECK(compare_arrays(e, array_of<int64_t>(i64, {1, 2}, {1, 2}), {}).whole_difference == "shape (2,) vs (1, 2)");
  CHECK(compare_arrays(e, array_of<double>(NpyType{'f', 8}, {2}, {1, 2}), {}).whole_difference ==
        "dtype int64 vs float64");
}

TEST_CASE("at most max_listed mismatches are kept, all are counted") {
  const auto e = array_of<float>(kF32, {3, 4}, std::vector<float>(12, 1.0f));
  const auto a = array_of<float>(kF32, {3, 4}, std::vector<float>(12, 2.0f));
  const auto c = compare_arrays(e, a, {}, 5);
  CHECK(c.mismatch_count == 12);
  CHECK(c.first_mismatches.size() == 5);
  CHECK(c.max_rel_error == 1.0);
}

// The floats NumPy lacks (ml_dtypes' bfloat16, float8_*): by value, against
// themselves or float32; bits hand-derived from SEMANTICS S2.2's formats.
TEST_CASE("bf16 and fp8 compare by value with themselves and float32; a void side takes their format") {
  const NpyType bf16 = *nisa::npy_minifloat_named("bfloat16");
  const NpyType e4m3 = *nisa::npy_minifloat_named("float8_e4m3");
  // 1.0, -2.5, 3.3895314e38 (largest finite), -inf in bf16.
  const auto b = array_of<uint16_t>(bf16, {4}, {0x3F80, 0xC020, 0x7F7F, 0xFF80});
  const auto f = array_of<float>(kF32, {4}, {1.0f, -2.5f, 3.3895313892515355e38f, -kInf});
  CHECK(compare_arrays(f, b, {0, 0}).equal());
  CHECK(compare_arrays(b, f, {0, 0}).equal());
  CHECK(compare_arrays(b, f, {0, 0}).element_type == "bfloat16 vs float32");
  CHECK(compare_arrays(b, b, {0, 0}).element_type == "bfloat16");
  CHECK(compare_arrays(b, b, {0, 0}).floats);
  // 1.00390625 is no bf16: 1.0 differs from it by 2^-8.
  const auto near = compare_arrays(array_of<float>(kF32, {4}, {1.00390625f, -2.5f, 3.3895313892515355e38f, -kInf}), b, {0, 0});
  CHECK(near.mismatch_count == 1);
  CHECK(near.first_mismatches.at(0).expected == "1.0039062");
  CHECK(near.first_mismatches.at(0).actual == "1");
  CHECK(near.max_abs_error == 0.00390625);
  // fp8e4m3: 0x38 = 1.0, 0xC2 = -2.5, 0x77 = 240 (largest finite), 0x78 = inf, 0x79 = NaN.
  const auto e = array_of<uint8_t>(e4m3, {5}, {0x38, 0xC2, 0x77, 0x78, 0x79});
  CHECK(compare_arrays(array_of<float>(kF32, {5}, {1.0f, -2.5f, 240.0f, kInf, kNaN}), e, {0, 0}).equal());
  // np.save's void form of an ml_dtypes array is read as the other side's type.
  CHECK(compare_arrays(array_of<uint16_t>(NpyType{'V', 2}, {4}, {0x3F80, 0xC020, 0x7F7F, 0xFF80}), b, {0, 0}).equal());
  CHECK(compare_arrays(b, array_of<uint16_t>(NpyType{'V', 2}, {4}, {0x3F80, 0xC020, 0x7F7F, 0xFF81}), {0, 0}).mismatch_count ==
        1);
  const auto v = array_of<uint8_t>(NpyType{'V', 1}, {2}, {1, 2});
  CHECK(compare_arrays(v, array_of<uint8_t>(NpyType{'V', 1}, {2}, {1, 3}), {1, 1}).mismatch_count == 1);  // bits, exactly
  // Other pairs differ as a whole.
  CHECK(compare_arrays(b, array_of<uint16_t>(NpyType{'f', 2}, {4}, {0, 0, 0, 0}), {}).whole_difference ==
        "dtype bfloat16 vs float16");
  CHECK(compare_arrays(e, array_of<uint8_t>(*nisa::npy_minifloat_named("float8_e4m3fn"), {5}, {0, 0, 0, 0, 0}), {})
            .whole_difference == "dtype float8_e4m3 vs float8_e4m3fn");
  CHECK(compare_arrays(v, array_of<float>(kF32, {2}, {0, 0}), {}).whole_difference == "dtype void8 vs float32");
}

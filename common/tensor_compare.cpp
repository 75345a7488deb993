#include "tensor_compare.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "numbers.hpp"

namespace nisa {
namespace {

struct Float16 {};  // NumPy float16: read through Element<f16>

template <class T>
constexpr bool kIsFloat = std::is_same_v<T, Float16> || std::is_floating_point_v<T>;

template <class T>
auto load(const uint8_t* data, int64_t i) {
  if constexpr (std::is_same_v<T, Float16>) {
    uint16_t bits;
    std::memcpy(&bits, data + 2 * i, 2);
    return Element<Dtype::f16>::to_f32(bits);
  } else {
    T v;
    std::memcpy(&v, data + sizeof(T) * i, sizeof(T));
    return v;
  }
}

// Shortest text that reads back as the same value of its type.
template <class V>
std::string value_text(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, result.ptr);
  } else {
    return std::to_string(+v);
  }
}

struct ElementVerdict {
  bool equal;
  double abs_error;
  double rel_error;
};

ElementVerdict compare_floats(double e, double a, CompareTolerance tol) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(e) && std::isnan(a)) return {true, 0, 0};
  if (std::isnan(e) || std::isnan(a)) return {false, nan, nan};
  if (std::isinf(e) || std::isinf(a)) return e == a ? ElementVerdict{true, 0, 0} : ElementVerdict{false, inf, inf};
  const double abs_error = std::fabs(a - e);
  const double rel_error = e != 0 ? abs_error / std::fabs(e) : (abs_error == 0 ? 0 : inf);
  return {abs_error <= tol.atol + tol.rtol * std::fabs(e), abs_error, rel_error};
}

ElementVerdict compare_exact(double e, double a, bool equal) {
  const double abs_error = std::fabs(a - e);
  const double rel_error = e != 0 ? abs_error / std::fabs(e) : (abs_error == 0 ? 0 : std::numeric_limits<double>::infinity());
  return {equal, abs_error, rel_error};
}

template <class T>
void compare_elements(const uint8_t* expected, const uint8_t* actual, int64_t first, int64_t n, CompareTolerance tol,
                      std::size_t max_listed, ArrayComparison& out) {
  for (int64_t j = 0; j < n; ++j) {
    const int64_t i = first + j;
    const auto e = load<T>(expected, j);
    const auto a = load<T>(actual, j);
    ElementVerdict v;
    if constexpr (kIsFloat<T>) {
      v = compare_floats(static_cast<double>(e), static_cast<double>(a), tol);
    } else {
      v = compare_exact(static_cast<double>(e), static_cast<double>(a), e == a);
    }
    if (std::isnan(v.abs_error)) {  // NaN against a number: the summary says NaN
      if (!std::isnan(out.max_abs_error)) {
        out.max_abs_error = out.max_rel_error = v.abs_error;
        out.max_abs_index = out.max_rel_index = i;
      }
    } else {
      if (v.abs_error > out.max_abs_error) {  // false once the maximum is NaN
        out.max_abs_error = v.abs_error;
        out.max_abs_index = i;
      }
      if (v.rel_error > out.max_rel_error) {
        out.max_rel_error = v.rel_error;
        out.max_rel_index = i;
      }
    }
    if (v.equal) continue;
    ++out.mismatch_count;
    if (out.first_mismatches.size() < max_listed)
      out.first_mismatches.push_back({i, value_text(e), value_text(a), v.abs_error, v.rel_error});
  }
}

}  // namespace

std::string index_text(int64_t flat_index, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) break;
    index[d] = flat_index % shape[d];
    flat_index /= shape[d];
  }
  std::string s = "[";
  for (std::size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

namespace {

// A void side takes the format of an ml_dtypes side of its size (np.save
// writes an ml_dtypes array as void: bits of no stated format).
NpyType read_as(const NpyType& type, const NpyType& other) {
  return type.kind == 'V' && other.kind == 'm' && other.size == type.size ? other : type;
}

// Whether two element types compare by value: equal, or a float NumPy lacks
// (an ml_dtypes type) against float32, the form such values have in NumPy
// without ml_dtypes (and nisa's default dump of them, LANGUAGE.md 3).
bool comparable(const NpyType& e, const NpyType& a) {
  const NpyType f32{'f', 4};
  return e == a || (e.kind == 'm' && a == f32) || (e == f32 && a.kind == 'm');
}

// `n` elements of `type` (float32 or an ml_dtypes float) as float32: exact.
std::vector<float> widened(const NpyType& type, const uint8_t* data, int64_t n) {
  std::vector<float> out(static_cast<std::size_t>(n));
  if (type.kind != 'm') {
    if (n > 0) std::memcpy(out.data(), data, out.size() * 4);
    return out;
  }
  dispatch_dtype(type.minifloat, [&](auto e) {
    using E = decltype(e);
    using S = typename E::storage;
    for (std::size_t i = 0; i < out.size(); ++i) {
      S bits;
      std::memcpy(&bits, data + sizeof(S) * i, sizeof(S));
      out[i] = E::to_f32(bits);
    }
  });
  return out;
}

}  // namespace

ArrayComparer::ArrayComparer(const NpyArray& expected, const NpyArray& actual, CompareTolerance tolerance,
                             std::size_t max_listed)
    : type_(read_as(expected.type, actual.type)),
      actual_type_(read_as(actual.type, expected.type)),
      tolerance_(tolerance),
      max_listed_(max_listed) {
  if (expected.shape != actual.shape) {
    result_.whole_difference = "shape " + npy_shape_text(expected.shape) + " vs " + npy_shape_text(actual.shape);
    return;
  }
  if (!comparable(type_, actual_type_)) {
    result_.whole_difference = "dtype " + expected.type.name() + " vs " + actual.type.name();
    return;
  }
  result_.element_count = expected.element_count();
  result_.element_type = type_.name() + (actual_type_ == type_ ? "" : " vs " + actual_type_.name());
  result_.floats = type_.kind == 'f' || type_.kind == 'm';
}

void ArrayComparer::add(const uint8_t* expected, const uint8_t* actual, std::size_t elements) {
  const auto n = static_cast<int64_t>(elements);
  const auto run = [&]<class T>() {
    compare_elements<T>(expected, actual, next_index_, n, tolerance_, max_listed_, result_);
  };
  const NpyType t = type_;
  if (t.kind == 'm' || actual_type_.kind == 'm') {  // by value, as float32 (every value exact)
    const std::vector<float> e = widened(t, expected, n), a = widened(actual_type_, actual, n);
    compare_elements<float>(reinterpret_cast<const uint8_t*>(e.data()), reinterpret_cast<const uint8_t*>(a.data()),
                            next_index_, n, tolerance_, max_listed_, result_);
    next_index_ += n;
    return;
  }
  switch (t.kind) {
    case 'f':
      if (t.size == 2) run.operator()<Float16>();
      else if (t.size == 4) run.operator()<float>();
      else run.operator()<double>();
      break;
    case 'i':
      if (t.size == 1) run.operator()<int8_t>();
      else if (t.size == 2) run.operator()<int16_t>();
      else if (t.size == 4) run.operator()<int32_t>();
      else run.operator()<int64_t>();
      break;
    case 'u':
    case 'V':  // bits, exactly
      if (t.size == 1) run.operator()<uint8_t>();
      else if (t.size == 2) run.operator()<uint16_t>();
      else if (t.size == 4) run.operator()<uint32_t>();
      else run.operator()<uint64_t>();
      break;
    default: run.operator()<uint8_t>(); break;  // bool: bytes 0 and 1
  }
  next_index_ += n;
}

ArrayComparison compare_arrays(const NpyArray& expected, const NpyArray& actual, CompareTolerance tolerance,
                               std::size_t max_listed) {
  ArrayComparer comparer(expected, actual, tolerance, max_listed);
  if (comparer.compares_elements())
    comparer.add(expected.data.data(), actual.data.data(), static_cast<std::size_t>(expected.element_count()));
  return comparer.result();
}

}  // namespace nisa

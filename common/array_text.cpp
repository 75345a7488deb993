// NumPy's str() of an array (array_text.hpp). The parts follow NumPy's
// arrayprint.py of 1.14 and later, written again here: which elements are
// shown (_leading_trailing), how one element is written (FloatingFormat,
// IntegerFormat) with the digits of the Dragon4 algorithm (Steele & White,
// as NumPy implements it after Ryan Juckett), and how rows and lines are laid
// out (_formatArray, _extendLine).
#include "array_text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace nisa {
namespace {

// NumPy's default print options.
constexpr int kPrecision = 8;
constexpr int64_t kLineWidth = 75;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

// --- Dragon4 ----------------------------------------------------------------

// A nonnegative integer of up to 640 bits: enough for Dragon4 on float32
// (values and scales below 2^200).
class BigNumber {
 public:
  explicit BigNumber(uint64_t v = 0) {
    words_[0] = static_cast<uint32_t>(v);
    words_[1] = static_cast<uint32_t>(v >> 32);
    size_ = words_[1] != 0 ? 2 : words_[0] != 0 ? 1 : 0;
  }
  void multiply(uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < size_; ++i) {
      const uint64_t p = uint64_t{words_[i]} * m + carry;
      words_[i] = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry != 0) push(static_cast<uint32_t>(carry));
  }
  void shift_left(int bits) {
    if (size_ == 0 || bits == 0) return;
    const int whole = bits / 32, rest = bits % 32;
    if (size_ + whole + 1 > kWords) throw std::logic_error("array_text: number too large");
    if (rest != 0) {
      words_[size_] = 0;
      for (int i = size_; i > 0; --i) words_[i] = (words_[i] << rest) | (words_[i - 1] >> (32 - rest));
      words_[0] <<= rest;
      if (words_[size_] != 0) ++size_;
    }
    for (int i = size_ - 1; i >= 0; --i) words_[i + whole] = words_[i];
    for (int i = 0; i < whole; ++i) words_[i] = 0;
    size_ += whole;
  }
  void add(const BigNumber& o) {
    uint64_t carry = 0;
    const int n = std::max(size_, o.size_);
    for (int i = 0; i < n; ++i) {
      const uint64_t s = uint64_t{i < size_ ? words_[i] : 0} + (i < o.size_ ? o.words_[i] : 0) + carry;
      words_[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
    }
    size_ = n;
    if (carry != 0) push(static_cast<uint32_t>(carry));
  }
  // *this >= o.
  void subtract(const BigNumber& o) {
    int64_t borrow = 0;
    for (int i = 0; i < size_; ++i) {
      int64_t d = int64_t{words_[i]} - (i < o.size_ ? o.words_[i] : 0) - borrow;
      borrow = d < 0 ? 1 : 0;
      words_[i] = static_cast<uint32_t>(d + (borrow << 32));
    }
    while (size_ > 0 && words_[size_ - 1] == 0) --size_;
  }
  friend int compare(const BigNumber& a, const BigNumber& b) {
    if (a.size_ != b.size_) return a.size_ < b.size_ ? -1 : 1;
    for (int i = a.size_ - 1; i >= 0; --i)
      if (a.words_[i] != b.words_[i]) return a.words_[i] < b.words_[i] ? -1 : 1;
    return 0;
  }

 private:
  static constexpr int kWords = 20;
  void push(uint32_t w) {
    if (size_ == kWords) throw std::logic_error("array_text: number too large");
    words_[size_++] = w;
  }
  std::array<uint32_t, kWords> words_{};
  int size_ = 0;
};

// A binary float type: float32 or float16.
struct FloatType {
  int mantissa_bits;
  int exponent_bits;
};
constexpr FloatType kFloat32{23, 8};
constexpr FloatType kFloat16{10, 5};

// A finite float's magnitude as mantissa * 2^exponent; `unequal_margins`: a
// power of two above the smallest normal, whose neighbour below is half as
// far as the one above.
struct Decomposed {
  uint64_t mantissa = 0;
  int exponent = 0;
  bool unequal_margins = false;
};

Decomposed decompose(uint32_t bits, FloatType t) {
  const uint32_t fraction = bits & ((1u << t.mantissa_bits) - 1);
  const uint32_t biased = (bits >> t.mantissa_bits) & ((1u << t.exponent_bits) - 1);
  const int bias = (1 << (t.exponent_bits - 1)) - 1;
  if (biased == 0) return {fraction, 1 - bias - t.mantissa_bits, false};
  return {fraction | (1u << t.mantissa_bits), static_cast<int>(biased) - bias - t.mantissa_bits,
          biased != 1 && fraction == 0};
}

// Digits d1 d2 ... of a value d1.d2... x 10^exponent.
struct Digits {
  std::string digits;
  int exponent = 0;
};

enum class Notation { positional, scientific };

// Dragon4 in NumPy's "unique" mode: the fewest digits that still single the
// value out among the floats of its type (a digit string strictly inside the
// half-way points to its neighbours, or on one of them when the mantissa is
// even, which round-to-nearest-even maps back to it), but never past the
// cutoff of `precision` digits after the point (positional) or after the
// first digit (scientific), and, with `min_digits` >= 0, never short of that
// many digits after the point (positional: the whole part always in full) or
// after the first digit (scientific), those further digits being the
// value's own. The last digit is rounded by what is left (half to even).
Digits dragon4(const Decomposed& d, double magnitude, Notation notation, int precision, int min_digits) {
  if (d.mantissa == 0) return {"0", 0};
  const int shift = d.unequal_margins ? 2 : 1;
  BigNumber value(d.mantissa), scale(1), low(1);
  if (d.exponent >= 0) {
    value.shift_left(d.exponent + shift);
    scale.shift_left(shift);
    low.shift_left(d.exponent);
  } else {
    value.shift_left(shift);
    scale.shift_left(-d.exponent + shift);
  }
  BigNumber high = low;
  if (d.unequal_margins) high.shift_left(1);
  // value / scale is the magnitude; low and high (over scale) the distances
  // to the half-way points below and above. Make value / scale lie in [1, 10).
  int k = static_cast<int>(std::floor(std::log10(magnitude)));
  for (int i = 0; i < std::abs(k); ++i) {
    if (k > 0) {
      scale.multiply(10);
    } else {
      value.multiply(10);
      low.multiply(10);
      high.multiply(10);
    }
  }
  while (compare(value, scale) < 0) {
    value.multiply(10);
    low.multiply(10);
    high.multiply(10);
    --k;
  }
  for (;;) {
    BigNumber ten = scale;
    ten.multiply(10);
    if (compare(value, ten) < 0) break;
    scale = ten;
    ++k;
  }
  const bool inclusive = d.mantissa % 2 == 0;
  const bool positional = notation == Notation::positional;
  const int cutoff = positional ? -precision : k - precision;  // the last digit's exponent
  // Uniqueness may end the digits only at or below this exponent.
  const int shortest_from = min_digits < 0 ? k : positional ? std::min(k, -min_digits) : k - min_digits;
  Digits out{{}, k};
  int position = k, digit = 0;
  bool below = false, above = false;
  for (;;) {
    digit = 0;
    while (compare(value, scale) >= 0) {
      value.subtract(scale);
      ++digit;
    }
    BigNumber value_high = value;
    value_high.add(high);
    const int c_low = compare(value, low), c_high = compare(value_high, scale);
    below = inclusive ? c_low <= 0 : c_low < 0;   // the digits so far (rounded down) are close enough
    above = inclusive ? c_high >= 0 : c_high > 0;  // so is the last digit rounded up
    if (((below || above) && position <= shortest_from) || position == cutoff) break;
    out.digits += static_cast<char>('0' + digit);
    value.multiply(10);
    low.multiply(10);
    high.multiply(10);
    --position;
  }
  bool round_down = below;
  if (below == above) {  // both or neither: the nearer one, ties to an even digit
    BigNumber twice = value;
    twice.shift_left(1);
    const int c = compare(twice, scale);
    round_down = c < 0 || (c == 0 && digit % 2 == 0);
  }
  if (round_down) {
    out.digits += static_cast<char>('0' + digit);
  } else if (digit < 9) {
    out.digits += static_cast<char>('0' + digit + 1);
  } else {
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits.assign(1, '1');
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

// --- one float ----------------------------------------------------------------

struct FloatValue {
  double value = 0;  // exact
  uint32_t bits = 0;  // in its type
  bool negative() const { return std::signbit(value); }
};

// "ddd." / "0.00ddd": whole and fraction parts of the positional form.
struct Positional {
  std::string whole, fraction;
};

Positional positional_parts(const Digits& g) {
  Positional p;
  if (g.exponent >= 0) {
    const auto whole = static_cast<std::size_t>(g.exponent) + 1;
    p.whole = g.digits.substr(0, std::min(whole, g.digits.size()));
    p.whole.append(whole - p.whole.size(), '0');
    if (g.digits.size() > whole) p.fraction = g.digits.substr(whole);
  } else {
    p.whole.assign(1, '0');
    p.fraction.assign(static_cast<std::size_t>(-g.exponent - 1), '0');
    p.fraction += g.digits;
  }
  while (!p.fraction.empty() && p.fraction.back() == '0') p.fraction.pop_back();  // NumPy's trim='.'
  return p;
}

std::string exponent_text(int exponent, int digits) {
  const std::string magnitude = std::to_string(std::abs(exponent));
  std::string e(exponent < 0 ? "e-" : "e+");
  e.append(static_cast<std::size_t>(std::max(digits - static_cast<int>(magnitude.size()), 0)), '0');
  e += magnitude;
  return e;
}

// NumPy's FloatingFormat: the notation and paddings every element of the
// array shares, from the shown elements.
class FloatFormat {
 public:
  FloatFormat(const std::vector<FloatValue>& values, FloatType type) : type_(type) {
    bool any_finite = false, any_nonfinite = false, negative_inf = false, any_nonzero = false;
    double largest = 0, smallest = 0;
    for (const FloatValue& v : values) {
      if (!std::isfinite(v.value)) {
        any_nonfinite = true;
        negative_inf = negative_inf || v.value < 0;
        continue;
      }
      any_finite = true;
      if (v.value == 0) continue;
      const double a = std::fabs(v.value);
      largest = any_nonzero ? std::max(largest, a) : a;
      smallest = any_nonzero ? std::min(smallest, a) : a;
      any_nonzero = true;
    }
    // NumPy compares the largest and smallest magnitudes with 1e8 and 1e-4
    // as float64, but divides them in the array's own type.
    if (any_nonzero) scientific_ = largest >= 1e8 || smallest < 1e-4 || ratio_exceeds_1000(largest, smallest);
    if (any_finite) {
      for (const FloatValue& v : values) {
        if (!std::isfinite(v.value)) continue;
        // NumPy's first pass: the shortest digits (no minimum), trailing zeros trimmed.
        const Digits g = digits(v, kPrecision, -1);
        const int sign = v.negative() ? 1 : 0;
        if (scientific_) {
          const std::size_t last = g.digits.find_last_not_of('0');
          const std::size_t fraction = last == std::string::npos || last == 0 ? 0 : last;
          pad_left_ = std::max(pad_left_, 1 + sign);
          precision_ = std::max(precision_, static_cast<int>(fraction));
          exponent_digits_ = std::max(exponent_digits_, static_cast<int>(std::to_string(std::abs(g.exponent)).size()));
        } else {
          const Positional p = positional_parts(g);
          pad_left_ = std::max(pad_left_, static_cast<int>(p.whole.size()) + sign);
          pad_right_ = std::max(pad_right_, static_cast<int>(p.fraction.size()));
        }
      }
      if (scientific_) pad_right_ = exponent_digits_ + 2 + precision_;
    }
    if (any_nonfinite) {  // "nan", "inf", "-inf" right-aligned in the same width
      const int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + (negative_inf ? 1 : 0) - offset});
    }
  }

  std::string operator()(const FloatValue& v) const {
    if (!std::isfinite(v.value)) {
      const std::string text = std::isnan(v.value) ? "nan" : v.value < 0 ? "-inf" : "inf";
      return pad(pad_left_ + pad_right_ + 1 - static_cast<int>(text.size())) + text;
    }
    const std::string sign = v.negative() ? "-" : "";
    if (scientific_) {
      // Exactly precision_ digits after the first: the value's own digits
      // past its shortest ones, zeros past its end.
      const Digits g = digits(v, precision_, precision_);
      std::string fraction = g.digits.substr(1);
      fraction.append(static_cast<std::size_t>(precision_) - std::min<std::size_t>(fraction.size(), precision_), '0');
      return pad(pad_left_ - 1 - static_cast<int>(sign.size())) + sign + g.digits[0] + "." + fraction +
             exponent_text(g.exponent, exponent_digits_);
    }
    const Positional p = positional_parts(digits(v, kPrecision, 0));  // the whole part in full
    return pad(pad_left_ - static_cast<int>(p.whole.size() + sign.size())) + sign + p.whole + "." + p.fraction +
           pad(pad_right_ - static_cast<int>(p.fraction.size()));
  }

 private:
  static std::string pad(int n) { return std::string(static_cast<std::size_t>(std::max(n, 0)), ' '); }

  Digits digits(const FloatValue& v, int precision, int min_digits) const {
    return dragon4(decompose(v.bits, type_), std::fabs(v.value),
                   scientific_ ? Notation::scientific : Notation::positional, precision, min_digits);
  }

  // Whether the quotient of two magnitudes, divided in the array's own type
  // (rounded to nearest even), exceeds 1000. The float64 quotient is
  // rounded once more: exact for these operands (the quotient of two 24-bit
  // significands is never within 2^-53 of a tie of 24 bits without being on it).
  bool ratio_exceeds_1000(double largest, double smallest) const {
    const double q = largest / smallest;
    if (q > 2000) return true;  // whatever the rounding (and no float overflow below)
    if (type_.exponent_bits == kFloat32.exponent_bits) return static_cast<float>(q) > 1000.0f;
    int e = 0;
    std::frexp(q, &e);
    const double unit = std::ldexp(1.0, e - 11);  // float16: 11 significant bits
    return std::nearbyint(q / unit) * unit > 1000;
  }

  FloatType type_;
  bool scientific_ = false;
  int pad_left_ = 0, pad_right_ = 0;
  int precision_ = 0;  // scientific: fraction digits of every element
  int exponent_digits_ = 2;
};

// --- elements -----------------------------------------------------------------

// The positions shown along one axis: all, or the first and last kEdgeItems.
std::vector<int64_t> shown_positions(int64_t length, bool summarized) {
  std::vector<int64_t> positions;
  const bool cut = summarized && length > 2 * kEdgeItems;
  for (int64_t i = 0; i < length; ++i)
    if (!cut || i < kEdgeItems || i >= length - kEdgeItems) positions.push_back(i);
  return positions;
}

double half_value(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int fraction = bits & 0x3FF;
  double v = exponent == 0    ? std::ldexp(fraction, -24)
             : exponent == 31 ? (fraction == 0 ? INFINITY : NAN)
                              : std::ldexp(fraction | 0x400, exponent - 25);
  return (bits & 0x8000) != 0 ? -v : v;
}

// The shown elements, written as words of one width (NumPy's format function).
std::vector<std::string> element_words(const NpyType& type, const std::vector<std::array<uint8_t, 8>>& raw) {
  std::vector<std::string> words;
  words.reserve(raw.size());
  if (type.kind == 'f') {
    std::vector<FloatValue> values;
    values.reserve(raw.size());
    for (const auto& r : raw) {
      FloatValue v;
      if (type.size == 4) {
        std::memcpy(&v.bits, r.data(), 4);
        v.value = std::bit_cast<float>(v.bits);
      } else {
        uint16_t h;
        std::memcpy(&h, r.data(), 2);
        v.bits = h;
        v.value = half_value(h);
      }
      values.push_back(v);
    }
    const FloatFormat format(values, type.size == 4 ? kFloat32 : kFloat16);
    for (const FloatValue& v : values) words.push_back(format(v));
    return words;
  }
  std::vector<std::string> digits;
  std::size_t width = 0;
  for (const auto& r : raw) {
    uint32_t u = 0;
    std::memcpy(&u, r.data(), type.size);
    int64_t v = u;
    if (type.kind == 'i' && type.size < 8) {
      const int bits = 8 * type.size;
      if ((u >> (bits - 1)) & 1u) v -= int64_t{1} << bits;  // sign-extend
    }
    digits.push_back(std::to_string(v));
    width = std::max(width, digits.back().size());
  }
  for (std::string& d : digits) words.push_back(std::string(width - d.size(), ' ') + d);
  return words;
}

// --- layout ---------------------------------------------------------------------

// NumPy's _extendLine: appends `word` to `line`, first moving `line` into
// `text` and starting a new one when the word would pass `width` (unless the
// line holds nothing but its indent).
void extend_line(std::string& text, std::string& line, const std::string& word, int64_t width, const std::string& indent) {
  if (static_cast<int64_t>(line.size() + word.size()) > width && line.size() > indent.size()) {
    const std::size_t end = line.find_last_not_of(' ');
    text += line.substr(0, end == std::string::npos ? 0 : end + 1);
    text += '\n';
    line = indent;
  }
  line += word;
}

// NumPy's _formatArray over the shown elements (`words`, row-major over the
// shown positions of each axis).
class Layout {
 public:
  Layout(const std::vector<int64_t>& shape, const std::vector<std::size_t>& shown, std::vector<bool> cut,
         std::vector<std::string> words)
      : shape_(shape), shown_(shown), cut_(std::move(cut)), words_(std::move(words)) {
    strides_.assign(shape_.size(), 1);
    for (std::size_t a = shape_.size(); a-- > 1;) strides_[a - 1] = strides_[a] * shown_[a];
  }

  std::string text() const { return recurse(0, 0, " ", kLineWidth); }

 private:
  std::string recurse(std::size_t axis, std::size_t offset, const std::string& indent, int64_t width) const {
    if (axis == shape_.size()) return words_[offset];
    const std::string inner_indent = indent + " ";
    const int64_t inner_width = width - 1;
    const std::size_t shown = shown_[axis];
    const bool cut = cut_[axis];
    const std::size_t leading = cut ? static_cast<std::size_t>(kEdgeItems) : 0;
    const std::size_t trailing = cut ? static_cast<std::size_t>(kEdgeItems) : shown;
    auto child = [&](std::size_t position) {
      return recurse(axis + 1, offset + position * strides_[axis], inner_indent, inner_width);
    };
    std::string text;
    if (axis + 1 == shape_.size()) {  // the last axis: elements on lines of at most `width`
      const int64_t element_width = width - 1;  // room for the closing ']'
      std::string line = indent;
      for (std::size_t i = 0; i < leading; ++i) {
        extend_line(text, line, child(i), element_width, indent);
        line += ' ';
      }
      if (cut) {
        extend_line(text, line, "...", element_width, indent);
        line += ' ';
      }
      for (std::size_t i = trailing; i > 1; --i) {
        extend_line(text, line, child(shown - i), element_width, indent);
        line += ' ';
      }
      extend_line(text, line, child(shown - 1), element_width, indent);
      text += line;
    } else {  // rows of rows: one per line, a blank line more per axis left
      const std::string separator(shape_.size() - axis - 1, '\n');
      for (std::size_t i = 0; i < leading; ++i) text += indent + child(i) + separator;
      if (cut) text += indent + "..." + separator;
      for (std::size_t i = trailing; i > 1; --i) text += indent + child(shown - i) + separator;
      text += indent + child(shown - 1);
    }
    std::string bracketed(1, '[');
    bracketed.append(text, indent.size());
    bracketed += ']';
    return bracketed;
  }

  const std::vector<int64_t>& shape_;
  const std::vector<std::size_t>& shown_;
  std::vector<bool> cut_;
  std::vector<std::string> words_;
  std::vector<std::size_t> strides_;
};

}  // namespace

std::string numpy_array_text(const NpyType& type, const std::vector<int64_t>& shape, const ArrayElementReader& element) {
  const bool supported = (type.kind == 'f' && (type.size == 4 || type.size == 2)) ||
                         ((type.kind == 'i' || type.kind == 'u') && (type.size == 1 || type.size == 2 || type.size == 4));
  if (!supported) throw std::invalid_argument("numpy_array_text: unsupported element type " + type.name());
  if (shape.empty()) throw std::invalid_argument("numpy_array_text: a 0-d array");
  int64_t size = 1;
  for (int64_t d : shape) {
    if (d < 1) throw std::invalid_argument("numpy_array_text: an empty dimension");
    size *= d;
  }
  const bool summarized = size > kThreshold;
  std::vector<std::vector<int64_t>> positions;
  std::vector<std::size_t> shown;
  std::vector<bool> cut;
  for (int64_t d : shape) {
    positions.push_back(shown_positions(d, summarized));
    shown.push_back(positions.back().size());
    cut.push_back(summarized && d > 2 * kEdgeItems);
  }
  // Read the shown elements in row-major order of their positions.
  std::vector<std::array<uint8_t, 8>> raw;
  std::vector<std::size_t> index(shape.size(), 0);
  for (;;) {
    int64_t flat = 0;
    for (std::size_t a = 0; a < shape.size(); ++a) flat = flat * shape[a] + positions[a][index[a]];
    raw.emplace_back();
    element(flat, raw.back().data());
    std::size_t a = shape.size();
    while (a > 0 && ++index[a - 1] == shown[a - 1]) index[--a] = 0;
    if (a == 0) break;
  }
  return Layout(shape, shown, std::move(cut), element_words(type, raw)).text();
}

}  // namespace nisa

// .npy reading and writing (format description: numpy.lib.format). A file is
// the magic "\x93NUMPY", a major and minor version byte, the header length
// (2 bytes in 1.0, 4 in 2.0/3.0, little-endian), a header that is a Python dict
// literal {'descr': ..., 'fortran_order': ..., 'shape': (...), } padded with
// spaces and a newline, then the raw data.
#include "npy.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "error.hpp"
#include "file_io.hpp"

namespace nisa {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kMaxHeaderBytes = 65536;  // numpy itself refuses more than 10000 by default
constexpr std::size_t kMaxDims = 64;              // NumPy's own limit (NPY_MAXDIMS in NumPy 2)
constexpr int64_t kMaxDim = int64_t{1} << 62;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw InputError(file_error(path, message));
}

// The header dict, read with just enough of Python's literal syntax for what
// numpy writes: 'strings' / "strings", True, False, and tuples of integers.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  NpyArray parse() {
    NpyArray array;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    skip_space();
    expect('{');
    while (true) {
      skip_space();
      if (take('}')) break;
      const std::string key = parse_string();
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        mark_seen(seen_descr, key);
        if (peek() == '[') bad("structured dtypes are not supported");
        array.type = parse_descr(parse_string());
      } else if (key == "fortran_order") {
        mark_seen(seen_order, key);
        if (parse_bool()) bad("Fortran-order arrays are not supported (save the array in C order)");
      } else if (key == "shape") {
        mark_seen(seen_shape, key);
        array.shape = parse_shape();
      } else {
        bad("unexpected key '" + key + "' in the header");
      }
      skip_space();
      if (take('}')) break;
      expect(',');
    }
    skip_space();
    if (pos_ != text_.size()) bad("unexpected text after the header dict");
    if (!seen_descr) bad("header has no 'descr'");
    if (!seen_order) bad("header has no 'fortran_order'");
    if (!seen_shape) bad("header has no 'shape'");
    return array;
  }

 private:
  [[noreturn]] void bad(const std::string& message) { fail(path_, message); }
  [[noreturn]] void malformed(const std::string& what) {
    bad("malformed .npy header: " + what + " at offset " + std::to_string(pos_));
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool take(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!take(c)) malformed(std::string("expected '") + c + "'");
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  void mark_seen(bool& seen, const std::string& key) {
    if (seen) bad("header repeats key '" + key + "'");
    seen = true;
  }

  std::string parse_string() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') malformed("expected a quoted string");
    ++pos_;
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) malformed("unterminated string");
    std::string s(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return s;
  }

  bool parse_bool() {
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    malformed("expected True or False");
  }

  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> shape;
    bool trailing_comma = false;
    expect('(');
    skip_space();
    while (!take(')')) {
      if (peek() == '-') bad("negative dimension in shape");
      if (peek() < '0' || peek() > '9') malformed("expected a dimension");
      int64_t dim = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (dim > kMaxDim / 10) bad("dimension too large in shape");
        dim = dim * 10 + (peek() - '0');
        if (dim > kMaxDim) bad("dimension too large in shape");
        ++pos_;
      }
      (void)take('L');  // Python 2 long literal, as old numpy wrote
      shape.push_back(dim);
      if (shape.size() > kMaxDims) bad("shape has more than " + std::to_string(kMaxDims) + " dimensions");
      skip_space();
      trailing_comma = false;
      if (take(')')) break;
      expect(',');
      trailing_comma = true;
      skip_space();
    }
    // Python needs a trailing comma for a 1-tuple: "(5)" is the integer 5.
    if (shape.size() == 1 && !trailing_comma) malformed("shape is not a tuple");
    return shape;
  }

  NpyType parse_descr(const std::string& descr) {
    if (descr.size() >= 2 && descr[1] == 'O') bad("object arrays are not supported");
    if (descr.size() < 3) bad("unsupported dtype '" + descr + "'");
    const char order = descr[0];
    const char kind = descr[1];
    const std::string size_text = descr.substr(2);
    if (order != '<' && order != '>' && order != '|' && order != '=')
      bad("unsupported dtype '" + descr + "'");
    int size = 0;
    for (char c : size_text) {
      if (c < '0' || c > '9' || size > 100) bad("unsupported dtype '" + descr + "'");
      size = size * 10 + (c - '0');
    }
    const bool known = (kind == 'f' && (size == 2 || size == 4 || size == 8)) ||
                       ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                       (kind == 'b' && size == 1);
    if (!known) bad("unsupported dtype '" + descr + "'");
    if (order == '>' && size > 1) bad("big-endian data is not supported (dtype '" + descr + "')");
    return NpyType{kind, static_cast<uint8_t>(size)};
  }

  std::string_view text_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

uint32_t read_le(std::span<const uint8_t> bytes, std::size_t offset, std::size_t count) {
  uint32_t v = 0;
  for (std::size_t i = 0; i < count; ++i) v |= static_cast<uint32_t>(bytes[offset + i]) << (8 * i);
  return v;
}

}  // namespace

std::string NpyType::descr() const {
  return std::string(size == 1 ? "|" : "<") + kind + std::to_string(size);
}

std::string NpyType::name() const {
  if (kind == 'b') return "bool";
  const char* base = kind == 'f' ? "float" : kind == 'i' ? "int" : "uint";
  return base + std::to_string(8 * size);
}

int64_t NpyArray::element_count() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string npy_shape_text(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace {

// Everything before the data: the array without its data, where the data
// starts and how many bytes it must have. `head` is the file's start (at
// least the whole header, if the file has one); `file_size` the whole
// file's size, so that the data size is checked before the data is read.
struct NpyLayout {
  NpyArray array;
  std::size_t data_offset = 0;
};

NpyLayout parse_layout(std::span<const uint8_t> head, std::size_t file_size, const std::string& path) {
  if (head.size() < kMagic.size() + 2 || std::memcmp(head.data(), kMagic.data(), kMagic.size()) != 0)
    fail(path, "not a .npy file (no \\x93NUMPY magic)");
  const int major = head[6], minor = head[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  const std::size_t prefix = 8 + length_bytes;
  if (head.size() < prefix) fail(path, "truncated .npy header");
  const std::size_t header_len = read_le(head, 8, length_bytes);
  if (header_len > kMaxHeaderBytes)
    fail(path, "header length " + std::to_string(header_len) + " exceeds the limit of " +
                   std::to_string(kMaxHeaderBytes) + " bytes");
  if (head.size() - prefix < header_len) fail(path, "truncated .npy header");
  const std::string_view header(reinterpret_cast<const char*>(head.data() + prefix), header_len);
  for (char c : header)
    if (c == '\0') fail(path, "malformed .npy header: NUL byte");

  NpyLayout layout{HeaderParser(header, path).parse(), prefix + header_len};
  const NpyArray& array = layout.array;
  const std::size_t data_bytes = file_size - layout.data_offset;
  uint64_t needed = array.type.size;
  bool too_large = false;
  for (int64_t d : array.shape) too_large = too_large || __builtin_mul_overflow(needed, static_cast<uint64_t>(d), &needed);
  const std::string what = "shape " + npy_shape_text(array.shape) + " of " + array.type.name();
  if (too_large) fail(path, what + " is too large");
  if (needed != data_bytes)
    fail(path, "data is " + std::to_string(data_bytes) + " bytes, but " + what + " needs " + std::to_string(needed));
  return layout;
}

}  // namespace

NpyArray parse_npy(std::span<const uint8_t> bytes, const std::string& path) {
  NpyLayout layout = parse_layout(bytes, bytes.size(), path);
  layout.array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(layout.data_offset), bytes.end());
  return std::move(layout.array);
}

NpyArray read_npy(const std::string& path, const std::function<void(const NpyArray&)>& check_header) {
  // The header first (at most kMaxHeaderBytes past the prefix), then the data
  // only once its size matches the file and check_header accepted the array:
  // a huge or hostile file costs no more memory than the data it really holds.
  const std::optional<std::size_t> file_size = regular_file_size(path);
  if (!file_size) {  // a pipe or device: no size to check first
    NpyArray array = parse_npy(read_file_bytes(path), path);
    if (check_header) check_header(array);
    return array;
  }
  std::vector<uint8_t> head = read_file_part(path, 0, std::min(*file_size, 12 + kMaxHeaderBytes));
  NpyLayout layout = parse_layout(head, *file_size, path);
  if (check_header) check_header(layout.array);
  if (*file_size == head.size())
    layout.array.data.assign(head.begin() + static_cast<std::ptrdiff_t>(layout.data_offset), head.end());
  else
    layout.array.data = read_file_part(path, layout.data_offset, *file_size - layout.data_offset);
  return std::move(layout.array);
}

std::vector<uint8_t> encode_npy(const NpyArray& array) {
  std::string header = "{'descr': '" + array.type.descr() + "', 'fortran_order': False, 'shape': " +
                       npy_shape_text(array.shape) + ", }";
  // Pad with spaces and end with a newline so the data starts at a multiple of 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 0xFFFF) throw std::invalid_argument("encode_npy: header too long for format 1.0");
  std::vector<uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<uint8_t>(header.size() & 0xFF));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

void write_npy(const std::string& path, const NpyArray& array) { write_file_atomically(path, encode_npy(array)); }

}  // namespace nisa

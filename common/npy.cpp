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
        array.fortran_order = parse_bool();
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
    if (const std::optional<NpyType> named = npy_minifloat_named(descr)) return *named;  // as ml_dtypes names it
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
    const bool known = (kind == 'f' && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                       ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                       (kind == 'b' && size == 1) || (kind == 'V' && (size == 1 || size == 2));
    if (!known) bad("unsupported dtype '" + descr + "'");
    if (order == '>' && size > 1) bad("big-endian data is not supported (dtype '" + descr + "')");
    // ml_dtypes gives float8_e5m2 (alone of its types) the kind 'f', so that
    // np.save writes its arrays as '<f1', a descr NumPy has no other type for.
    if (kind == 'f' && size == 1) return *npy_minifloat_named("float8_e5m2");
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

// The floats NumPy lacks, as the ml_dtypes package names its types (the
// names NKI 0.6 spells these dtypes with too); each holds the same bits as
// the nisa dtype (SEMANTICS S2.2: bias, largest finite, inf and NaN codes).
struct MinifloatName {
  std::string_view name;
  Dtype dtype;
};
constexpr MinifloatName kMinifloatNames[] = {
    {"bfloat16", Dtype::bf16},       {"float8_e4m3", Dtype::fp8e4m3}, {"float8_e4m3fn", Dtype::fp8e4m3fn},
    {"float8_e5m2", Dtype::fp8e5m2}, {"float8_e8m0fnu", Dtype::fp8e8m0},
};

}  // namespace

std::optional<NpyType> npy_minifloat_named(std::string_view name) {
  for (const MinifloatName& m : kMinifloatNames)
    if (m.name == name) return NpyType{'m', static_cast<uint8_t>(dtype_size(m.dtype)), m.dtype};
  return std::nullopt;
}

std::string NpyType::descr() const {
  if (kind == 'm') return name();
  return std::string(size == 1 || kind == 'V' ? "|" : "<") + kind + std::to_string(size);
}

std::string NpyType::name() const {
  if (kind == 'b') return "bool";
  if (kind == 'm') {
    for (const MinifloatName& m : kMinifloatNames)
      if (m.dtype == minifloat) return std::string(m.name);
  }
  const char* base = kind == 'f' ? "float" : kind == 'i' ? "int" : kind == 'V' ? "void" : "uint";
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

// The fixed start: magic, version, and the header length's first 2 bytes.
constexpr std::size_t kPrefixStart = 10;

// Everything before the data, from the file's first bytes: the format version
// fixes how many bytes the header length takes, which fixes where the header
// and the data start. Each step checks what it read before the next is read.
struct NpyHeadReader {
  const std::string& path;

  // The magic and version (the first kPrefixStart bytes): how many bytes the
  // header length takes.
  std::size_t length_bytes(std::span<const uint8_t> start) const {
    if (start.size() < kMagic.size() + 2 || std::memcmp(start.data(), kMagic.data(), kMagic.size()) != 0)
      fail(path, "not a .npy file (no \\x93NUMPY magic)");
    const int major = start[6], minor = start[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
      fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
    return major == 1 ? 2 : 4;
  }
  std::size_t header_length(std::span<const uint8_t> prefix, std::size_t length_bytes) const {
    if (prefix.size() < 8 + length_bytes) fail(path, "truncated .npy header");
    const std::size_t header_len = read_le(prefix, 8, length_bytes);
    if (header_len > kMaxHeaderBytes)
      fail(path, "header length " + std::to_string(header_len) + " exceeds the limit of " +
                     std::to_string(kMaxHeaderBytes) + " bytes");
    return header_len;
  }
  NpyArray header(std::span<const uint8_t> text) const {
    const std::string_view header(reinterpret_cast<const char*>(text.data()), text.size());
    for (char c : header)
      if (c == '\0') fail(path, "malformed .npy header: NUL byte");
    return HeaderParser(header, path).parse();
  }
};

// The data size the header's shape and type need.
uint64_t data_bytes_needed(const NpyArray& array, const std::string& path) {
  uint64_t needed = array.type.size;
  bool too_large = false;
  for (int64_t d : array.shape) too_large = too_large || __builtin_mul_overflow(needed, static_cast<uint64_t>(d), &needed);
  if (too_large) fail(path, "shape " + npy_shape_text(array.shape) + " of " + array.type.name() + " is too large");
  return needed;
}

[[noreturn]] void wrong_data_size(const NpyArray& array, uint64_t have, uint64_t needed, const std::string& path,
                                  const char* more = "") {
  fail(path, "data is " + std::string(more) + std::to_string(have) + " bytes, but shape " + npy_shape_text(array.shape) +
                 " of " + array.type.name() + " needs " + std::to_string(needed));
}

// Fortran order (column-major) -> C order: element (i0, ..., in-1) sits at
// sum(ik * fstride[k]) in the file, fstride[0] = 1, fstride[k] = fstride[k-1] * shape[k-1].
void to_c_order(NpyArray& array) {
  array.fortran_order = false;
  if (array.shape.size() < 2) return;
  const std::size_t rank = array.shape.size();
  const std::size_t size = array.type.size;
  std::vector<std::size_t> fstride(rank, 1);
  for (std::size_t k = 1; k < rank; ++k) fstride[k] = fstride[k - 1] * static_cast<std::size_t>(array.shape[k - 1]);
  std::vector<uint8_t> c_order(array.data.size());
  std::vector<int64_t> index(rank, 0);
  std::size_t from = 0;  // the file offset, in elements, of `index`
  const auto count = static_cast<std::size_t>(array.element_count());
  for (std::size_t i = 0; i < count; ++i) {
    std::memcpy(c_order.data() + i * size, array.data.data() + from * size, size);
    for (std::size_t k = rank; k-- > 0;) {  // C order: the last index moves fastest
      if (++index[k] < array.shape[k]) {
        from += fstride[k];
        break;
      }
      from -= fstride[k] * static_cast<std::size_t>(index[k] - 1);
      index[k] = 0;
    }
  }
  array.data = std::move(c_order);
}

}  // namespace

NpyArray parse_npy(std::span<const uint8_t> bytes, const std::string& path) {
  const NpyHeadReader head{path};
  const std::size_t length_bytes = head.length_bytes(bytes.first(std::min(bytes.size(), kPrefixStart)));
  const std::size_t header_len = head.header_length(bytes, length_bytes);
  const std::size_t data_offset = 8 + length_bytes + header_len;
  if (bytes.size() < data_offset) fail(path, "truncated .npy header");
  NpyArray array = head.header(bytes.subspan(8 + length_bytes, header_len));
  const uint64_t needed = data_bytes_needed(array, path);
  if (needed != bytes.size() - data_offset) wrong_data_size(array, bytes.size() - data_offset, needed, path);
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_offset), bytes.end());
  if (array.fortran_order) to_c_order(array);
  return array;
}

NpyReader::NpyReader(const std::string& path) : file_(path) {
  // Each part of the head is checked before the next is read, and the data
  // size against the header before any data is read: /dev/zero is "not a
  // .npy file" after 10 bytes, and a huge or hostile file costs no more
  // memory than the data it really holds.
  const NpyHeadReader head{path};
  uint8_t prefix[12];
  const std::size_t got = file_.read(prefix, kPrefixStart);
  const std::size_t length_bytes = head.length_bytes({prefix, got});
  const std::size_t more = file_.read(prefix + kPrefixStart, length_bytes - 2);
  const std::size_t header_len = head.header_length({prefix, kPrefixStart + more}, length_bytes);
  std::vector<uint8_t> header(header_len);
  if (file_.read(header.data(), header_len) != header_len) fail(path, "truncated .npy header");
  array_ = head.header(header);
  data_bytes_ = data_bytes_needed(array_, path);
  const std::size_t data_offset = 8 + length_bytes + header_len;
  if (file_.regular_size() && *file_.regular_size() < data_offset) fail(path, "truncated .npy header");
  if (file_.regular_size() && *file_.regular_size() - data_offset != data_bytes_)
    wrong_data_size(array_, *file_.regular_size() - data_offset, data_bytes_, path);
}

std::size_t NpyReader::read_data(uint8_t* out, std::size_t count) {
  count = static_cast<std::size_t>(std::min<uint64_t>(count, data_bytes_ - data_read_));
  const std::size_t got = file_.read(out, count);
  data_read_ += got;
  if (got < count) wrong_data_size(array_, data_read_, data_bytes_, file_.path());
  if (data_read_ == data_bytes_ && !file_.regular_size() && !file_.at_end())
    wrong_data_size(array_, data_bytes_ + 1, data_bytes_, file_.path(), "at least ");
  return got;
}

NpyArray read_npy(const std::string& path, const std::function<void(const NpyArray&)>& check_header) {
  NpyReader reader(path);
  if (check_header) check_header(reader.header());
  NpyArray array = reader.header();
  // In steps for a pipe, so that a header announcing more than the pipe
  // delivers costs only what was delivered.
  const uint64_t total = reader.data_bytes();
  const std::size_t step = reader.is_regular() ? static_cast<std::size_t>(total) : std::size_t{1} << 24;
  while (array.data.size() < total) {
    const std::size_t used = array.data.size();
    const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(step, total - used));
    array.data.resize(used + n);
    reader.read_data(array.data.data() + used, n);
  }
  if (total == 0) reader.read_data(nullptr, 0);  // a pipe must end here too
  if (array.fortran_order) to_c_order(array);
  return array;
}

std::vector<uint8_t> encode_npy(const NpyArray& array) {
  std::vector<uint8_t> out = encode_npy_header(array.type, array.shape);
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

std::vector<uint8_t> encode_npy_header(const NpyType& type, const std::vector<int64_t>& shape) {
  std::string header = "{'descr': '" + type.descr() + "', 'fortran_order': False, 'shape': " +
                       npy_shape_text(shape) + ", }";
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
  return out;
}

void write_npy(const std::string& path, const NpyArray& array) { write_file_atomically(path, encode_npy(array)); }

}  // namespace nisa

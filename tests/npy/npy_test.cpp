// .npy reading and writing (LANGUAGE.md section 3) on hand-built byte strings:
// every header version, and every malformation refused with a one-line
// "FILE: error: ..." message.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include "error.hpp"
#include "file_io.hpp"
#include "npy.hpp"

using nisa::Dtype;
using nisa::InputError;
using nisa::NpyArray;
using nisa::NpyType;

namespace {

// Magic, version, header length (2 bytes for 1.x, 4 otherwise), header, data.
std::vector<uint8_t> npy_bytes(int major, const std::string& header, std::size_t data_bytes, int minor = 0) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), static_cast<uint8_t>(minor)};
  const std::size_t n = header.size();
  out.push_back(static_cast<uint8_t>(n));
  out.push_back(static_cast<uint8_t>(n >> 8));
  if (major != 1) {
    out.push_back(static_cast<uint8_t>(n >> 16));
    out.push_back(static_cast<uint8_t>(n >> 24));
  }
  out.insert(out.end(), header.begin(), header.end());
  for (std::size_t i = 0; i < data_bytes; ++i) out.push_back(static_cast<uint8_t>(i));
  return out;
}

std::string header(const std::string& descr, const std::string& shape, const std::string& order = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }\n";
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    nisa::parse_npy(bytes, "t.npy");
  } catch (const InputError& e) {
    CHECK(e.exit_status() == 2);
    return e.what();
  }
  return "";
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() / ("nisa_npy_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

std::vector<uint8_t> f32_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

}  // namespace

TEST_CASE("npy: version 1.0, 2.0 and 3.0 headers") {
  for (int major : {1, 2, 3}) {
    CAPTURE(major);
    const NpyArray a = nisa::parse_npy(npy_bytes(major, header("<f4", "(2, 3)"), 24), "t.npy");
    CHECK(a.type == NpyType{'f', 4});
    CHECK(a.shape == std::vector<int64_t>{2, 3});
    REQUIRE(a.data.size() == 24);
    CHECK(a.data[5] == 5);
  }
}

TEST_CASE("npy: header syntax variations numpy or Python could produce") {
  auto parse = [](const std::string& h, std::size_t n) { return nisa::parse_npy(npy_bytes(1, h, n), "t.npy"); };
  CHECK(parse("{\"descr\": \"<i2\", \"fortran_order\": False, \"shape\": (4,)}", 8).shape ==
        std::vector<int64_t>{4});
  CHECK(parse("{'shape':(1,2,3),'fortran_order':False,'descr':'|u1'}   \n", 6).type == NpyType{'u', 1});
  CHECK(parse(header("<f8", "()"), 8).shape.empty());  // 0-d: one element
  CHECK(parse(header("<f4", "(0,)"), 0).element_count() == 0);
  CHECK(parse(header("<f4", "(3, 0, 2)"), 0).element_count() == 0);
  CHECK(parse(header("|b1", "(3,)"), 3).type.name() == "bool");
  CHECK(parse(header("<i8", "(1,)"), 8).type.name() == "int64");
  CHECK(parse(header("<u1", "(2,)"), 2).type.name() == "uint8");  // byte order of 1 byte is moot
  CHECK(parse(header(">i1", "(2,)"), 2).type.name() == "int8");
  CHECK(parse(header("<f2", "(2L, 3L)"), 12).shape == std::vector<int64_t>{2, 3});  // Python 2 longs
}

TEST_CASE("npy: every malformation is refused with FILE: error:") {
  using B = std::vector<uint8_t>;
  CHECK(error_of(B{}) == "t.npy: error: not a .npy file (no \\x93NUMPY magic)");
  CHECK(error_of(B{'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}) == "t.npy: error: not a .npy file (no \\x93NUMPY magic)");
  CHECK(error_of(npy_bytes(4, header("<f4", "(1,)"), 4)) == "t.npy: error: unsupported .npy format version 4.0");
  CHECK(error_of(npy_bytes(1, header("<f4", "(1,)"), 4, 1)) == "t.npy: error: unsupported .npy format version 1.1");
  CHECK(error_of(B{0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 1}) == "t.npy: error: truncated .npy header");
  auto cut = npy_bytes(1, header("<f4", "(1,)"), 0);
  cut.resize(cut.size() - 5);
  CHECK(error_of(cut) == "t.npy: error: truncated .npy header");
  CHECK(error_of(npy_bytes(2, std::string(200000, ' '), 0)) ==
        "t.npy: error: header length 200000 exceeds the limit of 65536 bytes");
  CHECK(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False}", 0)) == "t.npy: error: header has no 'shape'");
  CHECK(error_of(npy_bytes(1, "{'descr': '<f4', 'shape': (1,)}", 4)) == "t.npy: error: header has no 'fortran_order'");
  CHECK(error_of(npy_bytes(1, "{'fortran_order': False, 'shape': (1,)}", 4)) == "t.npy: error: header has no 'descr'");
  CHECK(error_of(npy_bytes(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4)) ==
        "t.npy: error: header repeats key 'descr'");
  CHECK(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4)) ==
        "t.npy: error: unexpected key 'x' in the header");
  CHECK(error_of(npy_bytes(1, header(">f4", "(1,)"), 4)) ==
        "t.npy: error: big-endian data is not supported (dtype '>f4')");
  CHECK(error_of(npy_bytes(1, header("|O", "(1,)"), 8)) == "t.npy: error: object arrays are not supported");
  CHECK(error_of(npy_bytes(1, header("<c8", "(1,)"), 8)) == "t.npy: error: unsupported dtype '<c8'");
  CHECK(error_of(npy_bytes(1, header("<U3", "(1,)"), 12)) == "t.npy: error: unsupported dtype '<U3'");
  CHECK(error_of(npy_bytes(1, header("<f3", "(1,)"), 3)) == "t.npy: error: unsupported dtype '<f3'");
  CHECK(error_of(npy_bytes(1, header("f4", "(1,)"), 4)) == "t.npy: error: unsupported dtype 'f4'");
  CHECK(error_of(npy_bytes(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", 4)) ==
        "t.npy: error: structured dtypes are not supported");
  CHECK(error_of(npy_bytes(1, header("<f4", "(-1,)"), 4)) == "t.npy: error: negative dimension in shape");
  CHECK(error_of(npy_bytes(1, header("<f4", "(5)"), 20)).starts_with("t.npy: error: malformed .npy header: shape is not a tuple"));
  CHECK(error_of(npy_bytes(1, header("<f4", "(a,)"), 4)).starts_with("t.npy: error: malformed .npy header: expected a dimension"));
  CHECK(error_of(npy_bytes(1, header("<f4", "(99999999999999999999,)"), 4)) == "t.npy: error: dimension too large in shape");
  CHECK(error_of(npy_bytes(1, header("<f4", "(4611686018427387904, 4611686018427387904)"), 4)) ==
        "t.npy: error: shape (4611686018427387904, 4611686018427387904) of float32 is too large");
  CHECK(error_of(npy_bytes(1, header("<f4", "(2, 3)"), 23)) ==
        "t.npy: error: data is 23 bytes, but shape (2, 3) of float32 needs 24");
  CHECK(error_of(npy_bytes(1, header("<f4", "(2, 3)"), 25)) ==
        "t.npy: error: data is 25 bytes, but shape (2, 3) of float32 needs 24");
  CHECK(error_of(npy_bytes(1, "['descr']", 0)).starts_with("t.npy: error: malformed .npy header: expected '{'"));
  CHECK(error_of(npy_bytes(1, "{'descr: '<f4'}", 0)).starts_with("t.npy: error: malformed .npy header: expected ':'"));
  CHECK(error_of(npy_bytes(1, "{'descr': '<f4", 0)).starts_with("t.npy: error: malformed .npy header: unterminated string"));
  CHECK(error_of(npy_bytes(1, header("<f4", "(1,)") + "x", 4)) == "t.npy: error: unexpected text after the header dict");
  CHECK(error_of(npy_bytes(1, "{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}", 4))
            .starts_with("t.npy: error: malformed .npy header: expected True or False"));
  CHECK(error_of(npy_bytes(1, std::string("{'descr': '<f4'\0", 16), 0)) == "t.npy: error: malformed .npy header: NUL byte");
  std::string many = "(";
  for (int i = 0; i < 65; ++i) many += "1,";
  CHECK(error_of(npy_bytes(1, header("<f4", many + ")"), 4)) == "t.npy: error: shape has more than 64 dimensions");
}

TEST_CASE("npy: writes version 1.0 exactly as numpy.save does") {
  NpyArray a{NpyType{'f', 4}, {2, 3}, std::vector<uint8_t>(24, 7)};
  const auto bytes = nisa::encode_npy(a);
  // numpy.save(np.zeros((2, 3), np.float32)): header length 118, data at 128.
  const std::string expected_header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
                                      std::string(58, ' ') + "\n";
  REQUIRE(bytes.size() == 128 + 24);
  CHECK(std::string(bytes.begin(), bytes.begin() + 8) == std::string("\x93NUMPY\x01\x00", 8));
  CHECK(bytes[8] == 118);
  CHECK(bytes[9] == 0);
  CHECK(std::string(bytes.begin() + 10, bytes.begin() + 128) == expected_header);
  const NpyArray back = nisa::parse_npy(bytes, "t.npy");
  CHECK(back.type == a.type);
  CHECK(back.shape == a.shape);
  CHECK(back.data == a.data);

  const auto scalar = nisa::encode_npy(NpyArray{NpyType{'i', 1}, {5}, std::vector<uint8_t>(5, 1)});
  CHECK(std::string(scalar.begin() + 10, scalar.begin() + 128).starts_with("{'descr': '|i1', 'fortran_order': False, 'shape': (5,), }"));
  CHECK(nisa::npy_shape_text({}) == "()");
}

TEST_CASE("npy tensors: dtype and shape must match the declaration") {
  TempDir dir;
  const std::string f64 = dir.file("x.npy");
  nisa::write_npy(f64, NpyArray{NpyType{'f', 8}, {3, 4}, std::vector<uint8_t>(96)});
  auto error_loading = [](const std::string& path, Dtype t, std::vector<int64_t> shape) -> std::string {
    try {
      nisa::load_tensor_npy(path, t, shape, "x", 3);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error_loading(f64, Dtype::f32, {3, 4}) == f64 + ": error: dtype float64 does not match tensor x declared f32 (line 3)");
  CHECK(error_loading(f64, Dtype::bf16, {3, 4}) ==
        f64 + ": error: dtype float64 does not match tensor x declared bf16 (line 3); bf16 tensors take bfloat16 (ml_dtypes) "
              "or float32 arrays");
  const std::string f32 = dir.file("y.npy");
  nisa::write_npy(f32, NpyArray{NpyType{'f', 4}, {3, 5}, std::vector<uint8_t>(60)});
  CHECK(error_loading(f32, Dtype::f32, {3, 4}) == f32 + ": error: shape (3, 5) does not match tensor x declared [3, 4] (line 3)");
  CHECK(error_loading(f32, Dtype::i32, {3, 5}) == f32 + ": error: dtype float32 does not match tensor x declared i32 (line 3)");
  CHECK(error_loading(dir.file("missing.npy"), Dtype::f32, {1}).starts_with(dir.file("missing.npy") + ": error: cannot read"));
  CHECK(nisa::load_tensor_npy(f32, Dtype::f32, {3, 5}, "x", 3).size() == 60);
}

TEST_CASE("npy tensors: dtypes NumPy has are their own bits") {
  TempDir dir;
  for (Dtype t : {Dtype::f32, Dtype::f16, Dtype::i8, Dtype::i16, Dtype::i32, Dtype::u8, Dtype::u16, Dtype::u32}) {
    CAPTURE(nisa::dtype_name(t));
    std::vector<uint8_t> raw(6 * nisa::dtype_size(t));
    for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<uint8_t>(i * 37 + 1);
    const std::string path = dir.file("t.npy");
    nisa::save_tensor_npy(path, t, {2, 3}, raw);
    const NpyArray a = nisa::read_npy(path);
    CHECK(a.type == nisa::npy_type_of(t));
    CHECK(a.data == raw);
    CHECK(nisa::load_tensor_npy(path, t, {2, 3}, "t", 1) == raw);
  }
  CHECK(nisa::npy_type_of(Dtype::i32).descr() == "<i4");
  CHECK(nisa::npy_type_of(Dtype::u8).descr() == "|u1");
  CHECK(nisa::npy_type_of(Dtype::f16).descr() == "<f2");
}

TEST_CASE("npy tensors: bf16, tf32 and fp8 are read from float32 (RNE, S2.2) and written as float32 or as themselves") {
  TempDir dir;
  const std::string path = dir.file("b.npy");
  const std::vector<float> in = {1.0f, std::bit_cast<float>(0x3F808000u), std::bit_cast<float>(0x3F818000u), -3.4028234663852886e38f};
  nisa::write_npy(path, NpyArray{NpyType{'f', 4}, {4}, f32_bytes(in)});

  const auto bf16 = nisa::load_tensor_npy(path, Dtype::bf16, {4}, "b", 1);
  const std::vector<uint8_t> bf16_expected = {0x80, 0x3F, 0x80, 0x3F, 0x82, 0x3F, 0x80, 0xFF};  // ties to even; S2.4
  CHECK(bf16 == bf16_expected);
  const auto fp8 = nisa::load_tensor_npy(path, Dtype::fp8e4m3fn, {4}, "b", 1);
  CHECK(fp8 == std::vector<uint8_t>{0x38, 0x38, 0x38, 0xFE});  // -448: saturated (S2.2)
  const auto tf32 = nisa::load_tensor_npy(path, Dtype::tf32, {4}, "b", 1);
  CHECK(tf32 == f32_bytes({1.0f, std::bit_cast<float>(0x3F808000u), std::bit_cast<float>(0x3F818000u), -std::numeric_limits<float>::infinity()}));

  // Written as float32 by default (LANGUAGE.md 3), widened exactly: bf16 bits
  // << 16; fp8e4m3fn 0x38 is 1.0, 0xFE is -448 (S.1111.110: -2^8 * 1.75).
  const std::string out = dir.file("out.npy");
  nisa::save_tensor_npy(out, Dtype::bf16, {2, 2}, bf16);
  CHECK(nisa::read_npy(out).type == NpyType{'f', 4});
  CHECK(nisa::read_npy(out).shape == std::vector<int64_t>{2, 2});
  CHECK(nisa::read_npy(out).data ==
        f32_bytes({1.0f, 1.0f, std::bit_cast<float>(0x3F820000u), -std::numeric_limits<float>::infinity()}));
  CHECK(nisa::load_tensor_npy(out, Dtype::bf16, {2, 2}, "b", 1) == bf16_expected);  // and back, exactly
  nisa::save_tensor_npy(out, Dtype::fp8e4m3fn, {4}, fp8);
  CHECK(nisa::read_npy(out).data == f32_bytes({1.0f, 1.0f, 1.0f, std::bit_cast<float>(0xC3E00000u)}));
  CHECK(nisa::npy_type_of(Dtype::fp8e5m2) == NpyType{'f', 4});

  // In the ml_dtypes form: their bits under ml_dtypes' names, which read back bit for bit.
  const auto ml_dtypes = nisa::MinifloatForm::ml_dtypes;
  nisa::save_tensor_npy(out, Dtype::bf16, {2, 2}, bf16, ml_dtypes);
  const NpyArray a = nisa::read_npy(out);
  CHECK(a.type.descr() == "bfloat16");
  CHECK(a.shape == std::vector<int64_t>{2, 2});
  CHECK(a.data == bf16_expected);
  CHECK(nisa::load_tensor_npy(out, Dtype::bf16, {2, 2}, "b", 1) == bf16_expected);
  const auto raw = nisa::encode_tensor_npy(Dtype::fp8e5m2, {2}, std::vector<uint8_t>{0x7B, 0x01}, ml_dtypes);
  CHECK(std::string(raw.begin() + 10, raw.begin() + 64).starts_with("{'descr': 'float8_e5m2', 'fortran_order': False"));
  CHECK(std::vector<uint8_t>(raw.end() - 2, raw.end()) == std::vector<uint8_t>{0x7B, 0x01});
  // tf32, which ml_dtypes lacks, is written as float32 (exactly) in both forms.
  for (nisa::MinifloatForm form : {nisa::MinifloatForm::float32, ml_dtypes}) {
    nisa::save_tensor_npy(out, Dtype::tf32, {1}, f32_bytes({std::bit_cast<float>(0x3F818000u)}), form);
    CHECK(nisa::read_npy(out).type == NpyType{'f', 4});
    CHECK(nisa::read_npy(out).data == f32_bytes({std::bit_cast<float>(0x3F818000u)}));
  }
  CHECK_THROWS_AS(nisa::save_tensor_npy(out, Dtype::f32, {2}, std::vector<uint8_t>(7)), std::invalid_argument);
}

// What np.save writes for ml_dtypes arrays (ml_dtypes 0.5 and 0.6): 'bfloat16'
// is '<V2', the fp8 types '<V1', except float8_e5m2: '<f1'. np.load reads a
// descr naming the type ('bfloat16') once ml_dtypes is imported.
TEST_CASE("npy tensors: ml_dtypes' files fill bf16 and fp8 tensors bit for bit") {
  TempDir dir;
  // A file of `descr` holding `data` as `count` elements.
  auto file = [&](const std::string& descr, std::size_t count, const std::vector<uint8_t>& data) {
    std::string shape = std::to_string(count);  // (n,), built so that g++ 12 sees no overlap (-Wrestrict)
    shape.insert(0, 1, '(');
    shape += ",)";
    std::vector<uint8_t> bytes = npy_bytes(1, header(descr, shape), 0);
    bytes.insert(bytes.end(), data.begin(), data.end());
    const std::string path = dir.file("m.npy");
    nisa::write_file_atomically(path, bytes);
    return path;
  };
  // 1.0, -2.5 in bf16: 0x3F80, 0xC020 (little-endian bytes).
  const std::vector<uint8_t> bf16 = {0x80, 0x3F, 0x20, 0xC0};
  CHECK(nisa::load_tensor_npy(file("<V2", 2, bf16), Dtype::bf16, {2}, "x", 1) == bf16);
  CHECK(nisa::load_tensor_npy(file("|V2", 2, bf16), Dtype::bf16, {2}, "x", 1) == bf16);
  CHECK(nisa::load_tensor_npy(file("bfloat16", 2, bf16), Dtype::bf16, {2}, "x", 1) == bf16);
  // 1.0, -2.5: e4m3 and e4m3fn 0x38, 0xC2; e5m2 0x3C, 0xC1; NaN codes kept.
  for (Dtype t : {Dtype::fp8e4m3, Dtype::fp8e4m3fn, Dtype::fp8e8m0}) {
    CAPTURE(nisa::dtype_name(t));
    CHECK(nisa::load_tensor_npy(file("<V1", 3, {0x38, 0xC2, 0x7F}), t, {3}, "x", 1) == std::vector<uint8_t>{0x38, 0xC2, 0x7F});
  }
  CHECK(nisa::load_tensor_npy(file("<f1", 2, {0x3C, 0xC1}), Dtype::fp8e5m2, {2}, "x", 1) == std::vector<uint8_t>{0x3C, 0xC1});
  CHECK(nisa::load_tensor_npy(file("float8_e4m3fn", 2, {0x7E, 0xFF}), Dtype::fp8e4m3fn, {2}, "x", 1) ==
        std::vector<uint8_t>{0x7E, 0xFF});
  CHECK(nisa::load_tensor_npy(file("float8_e8m0fnu", 2, {0x7F, 0xFF}), Dtype::fp8e8m0, {2}, "x", 1) ==
        std::vector<uint8_t>{0x7F, 0xFF});
  // A named type fills only its own dtype; a void array only a bf16/fp8 tensor of its size.
  auto error = [&](const std::string& path, Dtype t, int64_t n) -> std::string {
    try {
      nisa::load_tensor_npy(path, t, {n}, "x", 4);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string fn = file("float8_e4m3fn", 1, {0x38});
  CHECK(error(fn, Dtype::fp8e4m3, 1) == fn + ": error: dtype float8_e4m3fn does not match tensor x declared fp8e4m3 (line 4); "
                                             "fp8e4m3 tensors take float8_e4m3 (ml_dtypes) or float32 arrays");
  const std::string e5 = file("<f1", 1, {0x3C});
  CHECK(error(e5, Dtype::fp8e4m3fn, 1).starts_with(e5 + ": error: dtype float8_e5m2 does not match tensor x declared fp8e4m3fn"));
  const std::string v2 = file("<V2", 2, bf16);
  CHECK(error(v2, Dtype::f16, 2).starts_with(v2 + ": error: dtype void16 does not match tensor x declared f16"));
  CHECK(error(v2, Dtype::u16, 2).starts_with(v2 + ": error: dtype void16 does not match"));
  const std::string v1 = file("<V1", 2, {1, 2});
  CHECK(error(v1, Dtype::u8, 2).starts_with(v1 + ": error: dtype void8 does not match"));
  CHECK(error(v1, Dtype::bf16, 1).starts_with(v1 + ": error: dtype void8 does not match"));
  CHECK(error(file("bfloat16", 2, bf16), Dtype::f32, 2).find("dtype bfloat16 does not match tensor x declared f32") !=
        std::string::npos);
  const std::string v4 = file("<V4", 1, {1, 2, 3, 4});
  CHECK(error(v4, Dtype::f32, 1) == v4 + ": error: unsupported dtype '<V4'");
  CHECK(error(file(">V2", 2, bf16), Dtype::bf16, 2).find("big-endian data is not supported") != std::string::npos);
}

// LANGUAGE.md section 3: a Fortran-order file holds the array column by column;
// it is read as the array it holds, in C order. Bytes derived by hand: the
// 2x3 array [[0, 1, 2], [3, 4, 5]] is stored as 0, 3, 1, 4, 2, 5 in Fortran
// order, and the 2x2x2 array of value 100*i + 10*j + k has file order
// (k slowest, i fastest): 0, 100, 10, 110, 1, 101, 11, 111.
TEST_CASE("npy: Fortran-order arrays are read in C order") {
  std::vector<uint8_t> bytes = npy_bytes(1, header("<f4", "(2, 3)", "True"), 0);
  const std::vector<uint8_t> column_major = f32_bytes({0, 3, 1, 4, 2, 5});
  bytes.insert(bytes.end(), column_major.begin(), column_major.end());
  const NpyArray a = nisa::parse_npy(bytes, "t.npy");
  CHECK(a.shape == std::vector<int64_t>{2, 3});
  CHECK(!a.fortran_order);
  CHECK(a.data == f32_bytes({0, 1, 2, 3, 4, 5}));

  std::vector<uint8_t> cube = npy_bytes(1, header("<i2", "(2, 2, 2)", "True"), 0);
  for (int v : {0, 100, 10, 110, 1, 101, 11, 111}) {
    cube.push_back(static_cast<uint8_t>(v & 0xFF));
    cube.push_back(static_cast<uint8_t>(v >> 8));
  }
  const NpyArray c = nisa::parse_npy(cube, "t.npy");
  std::vector<uint8_t> expected;
  for (int v : {0, 1, 10, 11, 100, 101, 110, 111}) {
    expected.push_back(static_cast<uint8_t>(v & 0xFF));
    expected.push_back(static_cast<uint8_t>(v >> 8));
  }
  CHECK(c.data == expected);

  // Rank 0 and 1 are the same in both orders; through a file as nisa run reads it.
  TempDir dir;
  const std::string path = dir.file("f.npy");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  CHECK(nisa::load_tensor_npy(path, Dtype::f32, {2, 3}, "t", 1) == f32_bytes({0, 1, 2, 3, 4, 5}));
  const std::vector<uint8_t> vector = npy_bytes(1, header("<f4", "(3,)", "True"), 12);
  CHECK(nisa::parse_npy(vector, "t.npy").data == std::vector<uint8_t>(vector.end() - 12, vector.end()));
}

// LANGUAGE.md section 3: a NumPy bool array (descr '|b1', one byte 0 or 1 per
// element) fills a u8 tensor; other integer tensors still need their own dtype.
TEST_CASE("npy tensors: a bool array fills a u8 tensor") {
  TempDir dir;
  const std::string path = dir.file("b.npy");
  nisa::write_npy(path, NpyArray{NpyType{'b', 1}, {2, 2}, {1, 0, 0, 1}});
  CHECK(nisa::load_tensor_npy(path, Dtype::u8, {2, 2}, "m", 1) == std::vector<uint8_t>{1, 0, 0, 1});
  try {
    nisa::load_tensor_npy(path, Dtype::i8, {2, 2}, "m", 4);
    FAIL("a bool array filled an i8 tensor");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == path + ": error: dtype bool does not match tensor m declared i8 (line 4)");
  }
}

// NumPy .npy files (LANGUAGE.md section 3): read format versions 1.0, 2.0 and
// 3.0 (little-endian or byte-order-free element types, C or Fortran order:
// a Fortran-order array is returned in C order), write 1.0 (C order).
// Every problem with a file is an InputError "FILE: error: MESSAGE" (exit 2).
//
// Two levels:
//   - NpyArray: a whole file's element type, shape and raw data, for `nisa diff`
//     and tests (read_npy / parse_npy / encode_npy / write_npy).
//   - Tensors: an .npy file as the value of a declared nisa tensor, for
//     `nisa run` (load_tensor_npy / encode_tensor_npy / save_tensor_npy). The
//     file's dtype must equal the tensor's (npy_fill says what else fills it:
//     float32 rounded into bf16, tf32 and the fp8 types, S2.2; the bits of a
//     void array, as np.save writes an ml_dtypes array, or a file under
//     ml_dtypes' name). bf16, tf32 and the fp8 types are written as float32
//     (exactly), or, asked for (MinifloatForm::ml_dtypes), bf16 and the fp8
//     types as their bits under ml_dtypes' names ('bfloat16', 'float8_e4m3',
//     ...), which np.load reads back as that dtype once ml_dtypes is imported.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dtype.hpp"
#include "file_io.hpp"

namespace nisa {

// A NumPy element type nisa understands: bool, int8..int64, uint8..uint64,
// float16, float32, float64; the floats NumPy lacks under the names the
// ml_dtypes package gives them (kind 'm'); and void of 1 or 2 bytes (kind
// 'V': what np.save writes for most ml_dtypes arrays, bits of no stated
// format).
struct NpyType {
  char kind = 'f';    // 'f' float, 'i' signed int, 'u' unsigned int, 'b' bool, 'm' ml_dtypes float, 'V' void
  uint8_t size = 4;   // bytes per element
  Dtype minifloat = Dtype::f32;  // kind 'm' only: the nisa dtype it is (same storage bits)
  std::string descr() const;  // as written in a header: "<f4", "|i1", "|b1", "bfloat16", "|V2"
  std::string name() const;   // NumPy's name: "float32", "int8", "bool", "bfloat16", "void16"
  bool operator==(const NpyType&) const = default;
};

// The ml_dtypes type named `name` ("bfloat16", "float8_e4m3", "float8_e4m3fn",
// "float8_e5m2", "float8_e8m0fnu": each the nisa dtype of the same bits,
// SEMANTICS S2.2), or nothing.
std::optional<NpyType> npy_minifloat_named(std::string_view name);

struct NpyArray {
  NpyType type;
  std::vector<int64_t> shape;  // empty: a 0-d array of one element
  std::vector<uint8_t> data;   // C order, little-endian
  // As the file's header says; data is in C order whatever it says once read
  // by parse_npy or read_npy (only NpyReader::header() shows true).
  bool fortran_order = false;
  int64_t element_count() const;
};

// Parses a whole .npy file's bytes; `path` names it in errors. Refuses big-endian and unsupported element types (object, complex, strings,
// structured), malformed or oversized headers, absurd shapes, and data whose
// length is not exactly what the shape needs.
NpyArray parse_npy(std::span<const uint8_t> bytes, const std::string& path);
// Reads the header first and the data only when its size matches the file
// and `check_header` (given the array without its data) did not throw, so a
// large or hostile file is refused before its data is read.
NpyArray read_npy(const std::string& path, const std::function<void(const NpyArray&)>& check_header = {});

// An .npy file read in parts (`nisa diff` compares in bounded memory): the
// header is read and checked on construction (the data size against a regular
// file's size), then read_data() hands out the data in file order (Fortran
// order if header().fortran_order). A short file or, for a pipe, bytes past
// the data are an InputError when read_data() meets them.
class NpyReader {
 public:
  explicit NpyReader(const std::string& path);
  const NpyArray& header() const { return array_; }  // no data
  uint64_t data_bytes() const { return data_bytes_; }
  bool is_regular() const { return file_.regular_size().has_value(); }
  // Reads the next min(count, bytes left) data bytes into `out`; returns how many.
  std::size_t read_data(uint8_t* out, std::size_t count);

 private:
  InputFile file_;
  NpyArray array_;
  uint64_t data_bytes_ = 0;
  uint64_t data_read_ = 0;
};

// Version 1.0 bytes (header padded so the data starts at a multiple of 64).
std::vector<uint8_t> encode_npy(const NpyArray& array);
// The magic, version and header of such a file: its data follows.
std::vector<uint8_t> encode_npy_header(const NpyType& type, const std::vector<int64_t>& shape);
void write_npy(const std::string& path, const NpyArray& array);  // atomic

// "(3, 4)", "(5,)", "()": a shape as NumPy prints it.
std::string npy_shape_text(const std::vector<int64_t>& shape);

// How bf16 and the fp8 types, which NumPy lacks, leave nisa as arrays
// (LANGUAGE.md 1 `--dump-dtypes`, 3, 4). tf32, which ml_dtypes lacks too, is
// float32 in both.
enum class MinifloatForm {
  float32,    // widened to float32, exactly: what NumPy alone reads (the default)
  ml_dtypes,  // their bits, under ml_dtypes' names ('bfloat16', 'float8_e4m3', ...)
};

// The .npy element type a tensor of `dtype` is written as: its own bits (the
// mx types as unsigned integers of their size), except bf16, tf32 and the
// fp8 types: float32, or in the ml_dtypes form bf16 and the fp8 types as
// their bits under their ml_dtypes names.
NpyType npy_type_of(Dtype dtype, MinifloatForm form = MinifloatForm::float32);

// True for the dtypes whose .npy form in `form` is float32 rather than their
// own bits: bf16, tf32 and the fp8 types; in the ml_dtypes form tf32 only.
bool travels_as_f32(Dtype dtype, MinifloatForm form = MinifloatForm::float32);

// How an array of one .npy element type fills a tensor (LANGUAGE.md 3).
enum class NpyFill {
  bits,       // the array's bytes are the storage: the tensor's own dtype (bf16/fp8: by ml_dtypes' name, or void)
  bools,      // a bool array into a u8 tensor: each byte 0 or 1
  round_f32,  // a float32 array into bf16, tf32 or an fp8 type: each value rounded to nearest even (S2.2)
};
// How an array of `type` fills a tensor of `dtype`, or nothing if it cannot.
std::optional<NpyFill> npy_fill(const NpyType& type, Dtype dtype);
// The end of a dtype mismatch message naming the arrays a bf16 or fp8
// tensor takes ("; bf16 TENSORS take bfloat16 (ml_dtypes) or float32
// arrays", `tensors` naming what is filled), or "" for other dtypes.
std::string npy_fill_hint(Dtype dtype, const std::string& tensors);
// A tensor's storage from `data`, the C-order elements of an array that
// fills it as `fill` says (element count: the tensor's), written to `out`.
void storage_from_npy_data(Dtype dtype, NpyFill fill, std::span<const uint8_t> data, uint8_t* out);
// The inverse (exact): writes raw.size() / dtype_size(dtype) elements of
// npy_type_of(dtype, form) to `out`.
void npy_data_from_storage(Dtype dtype, std::span<const uint8_t> raw, uint8_t* out,
                           MinifloatForm form = MinifloatForm::float32);

// Reads `path` as the value of tensor `tensor_name` (declared with `dtype` and
// `shape` on source line `decl_line`; a NumPy bool array fills a u8 tensor) and returns its raw bytes in nisa
// storage (Element<dtype>::storage, C order, dtype_size(dtype) bytes each).
// A dtype or shape mismatch names both sides, e.g.
//   x.npy: error: dtype float64 does not match tensor x declared f32 (line 3)
//   x.npy: error: shape (3, 5) does not match tensor x declared [3, 4] (line 3)
std::vector<uint8_t> load_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                                     const std::string& tensor_name, uint32_t decl_line);

// load_tensor_npy into the tensor's storage (its exact size): a C-order file
// of the tensor's own dtype is read straight into place, with no copy.
void load_tensor_npy_into(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                          const std::string& tensor_name, uint32_t decl_line, std::span<uint8_t> storage);

// The .npy file (version 1.0) for a tensor of `dtype` and `shape` whose raw
// bytes in nisa storage are `raw` (size must be the element count times
// dtype_size; std::invalid_argument otherwise), its elements of
// npy_type_of(dtype, form). encode_tensor_npy returns the bytes (to write
// several files only once all are ready); save_tensor_npy writes them
// atomically.
std::vector<uint8_t> encode_tensor_npy(Dtype dtype, const std::vector<int64_t>& shape, std::span<const uint8_t> raw,
                                       MinifloatForm form = MinifloatForm::float32);
void save_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                     std::span<const uint8_t> raw, MinifloatForm form = MinifloatForm::float32);

}  // namespace nisa

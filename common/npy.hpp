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
//     file's dtype must equal the tensor's, except that bf16, tf32 and the fp8
//     types are read from float32 arrays (rounded to nearest even, S2.2) and
//     written as float32 (exactly).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "file_io.hpp"

namespace nisa {

// A NumPy element type nisa understands: bool, int8..int64, uint8..uint64,
// float16, float32, float64.
struct NpyType {
  char kind = 'f';    // 'f' float, 'i' signed int, 'u' unsigned int, 'b' bool
  uint8_t size = 4;   // bytes per element
  std::string descr() const;  // as written in a header: "<f4", "|i1", "|b1"
  std::string name() const;   // NumPy's name: "float32", "int8", "bool"
  bool operator==(const NpyType&) const = default;
};

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

// The .npy element type that holds tensors of `dtype` (float32 for bf16, tf32
// and the fp8 types).
NpyType npy_type_of(Dtype dtype);

// True for the dtypes NumPy lacks (bf16, tf32, fp8), whose .npy form is
// float32 rather than their own bits.
bool travels_as_f32(Dtype dtype);
// A tensor's storage from its .npy element data (npy_type_of(dtype), C
// order), written to `out` (the tensor's bytes): a copy, or each float32
// rounded to nearest even (S2.2).
void storage_from_npy_data(Dtype dtype, std::span<const uint8_t> data, uint8_t* out);
// The inverse (exact): writes raw.size() / dtype_size(dtype) elements of
// npy_type_of(dtype) to `out`.
void npy_data_from_storage(Dtype dtype, std::span<const uint8_t> raw, uint8_t* out);

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
// dtype_size; std::invalid_argument otherwise). encode_tensor_npy returns the
// bytes (to write several files only once all are ready); save_tensor_npy
// writes them atomically.
std::vector<uint8_t> encode_tensor_npy(Dtype dtype, const std::vector<int64_t>& shape, std::span<const uint8_t> raw);
void save_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                     std::span<const uint8_t> raw);

}  // namespace nisa

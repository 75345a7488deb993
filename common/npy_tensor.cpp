// .npy files as values of declared nisa tensors (LANGUAGE.md section 3):
// dtypes NumPy has are stored as themselves; bf16, tf32 and the fp8 types,
// which it lacks, travel as float32 (rounded on the way in, S2.2; exact on the
// way out).
#include <cstring>
#include <stdexcept>

#include "error.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "numbers.hpp"

namespace nisa {

bool travels_as_f32(Dtype dtype) {
  switch (dtype) {
    case Dtype::bf16:
    case Dtype::tf32:
    case Dtype::fp8e4m3:
    case Dtype::fp8e4m3fn:
    case Dtype::fp8e5m2: return true;
    default: return false;
  }
}

void storage_from_npy_data(Dtype dtype, std::span<const uint8_t> data, uint8_t* out) {
  if (!travels_as_f32(dtype)) {
    if (!data.empty()) std::memcpy(out, data.data(), data.size());
    return;
  }
  // Round each float32 to the tensor's dtype (S2.2).
  const std::size_t count = data.size() / 4;
  dispatch_dtype(dtype, [&](auto e) {
    using E = decltype(e);
    using S = typename E::storage;
    for (std::size_t i = 0; i < count; ++i) {
      float x;
      std::memcpy(&x, data.data() + 4 * i, 4);
      const S s = E::from_f32(x);
      std::memcpy(out + sizeof(S) * i, &s, sizeof(S));
    }
  });
}

void npy_data_from_storage(Dtype dtype, std::span<const uint8_t> raw, uint8_t* out) {
  if (!travels_as_f32(dtype)) {
    if (!raw.empty()) std::memcpy(out, raw.data(), raw.size());
    return;
  }
  // Widening to float32 is exact for every one of these dtypes.
  dispatch_dtype(dtype, [&](auto e) {
    using E = decltype(e);
    using S = typename E::storage;
    const std::size_t count = raw.size() / sizeof(S);
    for (std::size_t i = 0; i < count; ++i) {
      S s;
      std::memcpy(&s, raw.data() + sizeof(S) * i, sizeof(S));
      const float x = E::to_f32(s);
      std::memcpy(out + 4 * i, &x, 4);
    }
  });
}

namespace {

std::string declared_shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace

NpyType npy_type_of(Dtype dtype) {
  if (travels_as_f32(dtype)) return NpyType{'f', 4};
  const char kind = dtype_is_float(dtype) ? 'f' : dtype_is_signed_int(dtype) ? 'i' : 'u';
  return NpyType{kind, static_cast<uint8_t>(dtype_size(dtype))};
}

namespace {
// The header checks of a tensor's .npy: dtype (bool for u8, LANGUAGE.md 3;
// float32 for the travelling dtypes) and shape, naming both sides.
void check_tensor_header(const NpyArray& header, const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                         const std::string& tensor_name, uint32_t decl_line) {
  const std::string tensor = "tensor " + tensor_name + " declared ";
  const std::string line = " (line " + std::to_string(decl_line) + ")";
  const NpyType expected = npy_type_of(dtype);
  const bool bool_for_u8 = dtype == Dtype::u8 && header.type == NpyType{'b', 1};
  if (header.type != expected && !bool_for_u8) {
    std::string message = "dtype " + header.type.name() + " does not match " + tensor + std::string(dtype_name(dtype)) + line;
    if (travels_as_f32(dtype)) message += "; " + std::string(dtype_name(dtype)) + " tensors are read from float32 arrays";
    throw InputError(file_error(path, message));
  }
  if (header.shape != shape)
    throw InputError(file_error(path, "shape " + npy_shape_text(header.shape) + " does not match " + tensor +
                                          declared_shape_text(shape) + line));
}

void normalize_bools(std::span<uint8_t> data) {  // NumPy writes 0 and 1; any other byte is true too
  for (uint8_t& b : data) b = b != 0;
}
}  // namespace

std::vector<uint8_t> load_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                                     const std::string& tensor_name, uint32_t decl_line) {
  // Checked on the header, before the data is read.
  NpyArray array = read_npy(path, [&](const NpyArray& header) { check_tensor_header(header, path, dtype, shape, tensor_name, decl_line); });
  if (array.type.kind == 'b') normalize_bools(array.data);
  if (!travels_as_f32(dtype)) return std::move(array.data);
  std::vector<uint8_t> raw(array.data.size() / 4 * dtype_size(dtype));
  storage_from_npy_data(dtype, array.data, raw.data());
  return raw;
}

void load_tensor_npy_into(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                          const std::string& tensor_name, uint32_t decl_line, std::span<uint8_t> storage) {
  NpyReader reader(path);
  const NpyArray& header = reader.header();
  check_tensor_header(header, path, dtype, shape, tensor_name, decl_line);
  if (header.fortran_order || travels_as_f32(dtype) || reader.data_bytes() != storage.size()) {
    // Reordered or rounded on the way: through a copy.
    const std::vector<uint8_t> bytes = load_tensor_npy(path, dtype, shape, tensor_name, decl_line);
    if (bytes.size() != storage.size()) throw std::invalid_argument("load_tensor_npy_into: storage of the wrong size");
    if (!bytes.empty()) std::memcpy(storage.data(), bytes.data(), bytes.size());
    return;
  }
  // The file's bytes are the storage: read them straight into place.
  std::size_t done = 0;
  do {
    done += reader.read_data(storage.data() + done, storage.size() - done);
  } while (done < storage.size());
  if (header.type.kind == 'b') normalize_bools(storage);
}

std::vector<uint8_t> encode_tensor_npy(Dtype dtype, const std::vector<int64_t>& shape, std::span<const uint8_t> raw) {
  const auto count = static_cast<std::size_t>(element_count(shape));
  if (raw.size() != count * dtype_size(dtype))
    throw std::invalid_argument("encode_tensor_npy: " + std::to_string(raw.size()) + " bytes for " +
                                std::to_string(count) + " elements of " + std::string(dtype_name(dtype)));
  NpyArray array{npy_type_of(dtype), shape, {}};
  array.data.resize(count * array.type.size);
  npy_data_from_storage(dtype, raw, array.data.data());
  return encode_npy(array);
}

void save_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                     std::span<const uint8_t> raw) {
  write_file_atomically(path, encode_tensor_npy(dtype, shape, raw));
}

}  // namespace nisa

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
namespace {

// True for the dtypes whose .npy form is float32 rather than their own bits.
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

std::vector<uint8_t> load_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                                     const std::string& tensor_name, uint32_t decl_line) {
  const std::string tensor = "tensor " + tensor_name + " declared ";
  const std::string line = " (line " + std::to_string(decl_line) + ")";
  // Checked on the header, before the data is read.
  NpyArray array = read_npy(path, [&](const NpyArray& header) {
    const NpyType expected = npy_type_of(dtype);
    const bool bool_for_u8 = dtype == Dtype::u8 && header.type == NpyType{'b', 1};  // LANGUAGE.md 3
    if (header.type != expected && !bool_for_u8) {
      std::string message = "dtype " + header.type.name() + " does not match " + tensor + std::string(dtype_name(dtype)) + line;
      if (travels_as_f32(dtype)) message += "; " + std::string(dtype_name(dtype)) + " tensors are read from float32 arrays";
      throw InputError(file_error(path, message));
    }
    if (header.shape != shape)
      throw InputError(file_error(path, "shape " + npy_shape_text(header.shape) + " does not match " + tensor +
                                            declared_shape_text(shape) + line));
  });
  if (array.type.kind == 'b')  // NumPy writes 0 and 1; any other byte is true too
    for (uint8_t& b : array.data) b = b != 0;
  if (!travels_as_f32(dtype)) return std::move(array.data);

  // Round each float32 to the tensor's dtype (S2.2).
  const std::size_t count = array.data.size() / 4;
  return dispatch_dtype(dtype, [&](auto e) {
    using E = decltype(e);
    using S = typename E::storage;
    std::vector<uint8_t> raw(count * sizeof(S));
    for (std::size_t i = 0; i < count; ++i) {
      float x;
      std::memcpy(&x, array.data.data() + 4 * i, 4);
      const S s = E::from_f32(x);
      std::memcpy(raw.data() + sizeof(S) * i, &s, sizeof(S));
    }
    return raw;
  });
}

std::vector<uint8_t> encode_tensor_npy(Dtype dtype, const std::vector<int64_t>& shape, std::span<const uint8_t> raw) {
  const auto count = static_cast<std::size_t>(element_count(shape));
  if (raw.size() != count * dtype_size(dtype))
    throw std::invalid_argument("encode_tensor_npy: " + std::to_string(raw.size()) + " bytes for " +
                                std::to_string(count) + " elements of " + std::string(dtype_name(dtype)));
  NpyArray array{npy_type_of(dtype), shape, {}};
  if (!travels_as_f32(dtype)) {
    array.data.assign(raw.begin(), raw.end());
  } else {
    // Widening to float32 is exact for every one of these dtypes.
    array.data.resize(count * 4);
    dispatch_dtype(dtype, [&](auto e) {
      using E = decltype(e);
      using S = typename E::storage;
      for (std::size_t i = 0; i < count; ++i) {
        S s;
        std::memcpy(&s, raw.data() + sizeof(S) * i, sizeof(S));
        const float x = E::to_f32(s);
        std::memcpy(array.data.data() + 4 * i, &x, 4);
      }
    });
  }
  return encode_npy(array);
}

void save_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                     std::span<const uint8_t> raw) {
  write_file_atomically(path, encode_tensor_npy(dtype, shape, raw));
}

}  // namespace nisa

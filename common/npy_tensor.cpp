// .npy files as values of declared nisa tensors (LANGUAGE.md section 3):
// each dtype is written as its own bits except bf16, tf32 and the fp8 types,
// which NumPy lacks: float32, exactly (or, asked for, bf16 and the fp8 types
// as their bits under their ml_dtypes names). A float32 array is rounded into
// bf16, tf32 or an fp8 type (S2.2); a file under ml_dtypes' name, or a void
// array (np.save of an ml_dtypes array), gives a bf16 or fp8 tensor its bits.
#include <cstring>
#include <stdexcept>

#include "error.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "numbers.hpp"

namespace nisa {

namespace {

// The dtypes a float32 array fills by rounding (S2.2): the narrower floats,
// whose every value a float32 holds (fp8e8m0 is an mx scale: bits only).
bool rounds_from_f32(Dtype dtype) {
  switch (dtype) {
    case Dtype::bf16:
    case Dtype::tf32:
    case Dtype::fp8e4m3:
    case Dtype::fp8e4m3fn:
    case Dtype::fp8e5m2: return true;
    default: return false;
  }
}

// The dtypes ml_dtypes has (npy_minifloat_named): a void array of their size,
// as np.save writes their arrays, is taken as their bits.
bool has_ml_dtype(Dtype dtype) {
  switch (dtype) {
    case Dtype::bf16:
    case Dtype::fp8e4m3:
    case Dtype::fp8e4m3fn:
    case Dtype::fp8e5m2:
    case Dtype::fp8e8m0: return true;
    default: return false;
  }
}

}  // namespace

bool travels_as_f32(Dtype dtype, MinifloatForm form) {
  return dtype == Dtype::tf32 || (rounds_from_f32(dtype) && form == MinifloatForm::float32);
}

std::optional<NpyFill> npy_fill(const NpyType& type, Dtype dtype) {
  // First: float32 fills bf16, tf32 and fp8 by rounding (though it is their .npy form by default).
  if (type == NpyType{'f', 4} && rounds_from_f32(dtype)) return NpyFill::round_f32;
  if (type == npy_type_of(dtype)) return NpyFill::bits;
  if (type.kind == 'm' && type.minifloat == dtype) return NpyFill::bits;  // bf16, fp8 (and fp8e8m0) by ml_dtypes' name
  if (type == NpyType{'b', 1} && dtype == Dtype::u8) return NpyFill::bools;
  if (type.kind == 'V' && type.size == dtype_size(dtype) && has_ml_dtype(dtype)) return NpyFill::bits;
  return std::nullopt;
}

std::string npy_fill_hint(Dtype dtype, const std::string& tensors) {
  if (!rounds_from_f32(dtype) || dtype == Dtype::tf32) return "";
  return "; " + std::string(dtype_name(dtype)) + " " + tensors + " take " +
         npy_type_of(dtype, MinifloatForm::ml_dtypes).name() + " (ml_dtypes) or float32 arrays";
}

void storage_from_npy_data(Dtype dtype, NpyFill fill, std::span<const uint8_t> data, uint8_t* out) {
  if (fill != NpyFill::round_f32) {
    if (!data.empty() && out != data.data()) std::memcpy(out, data.data(), data.size());  // or in place
    if (fill == NpyFill::bools)  // NumPy writes 0 and 1; any other byte is true too
      for (std::size_t i = 0; i < data.size(); ++i) out[i] = out[i] != 0;
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

void npy_data_from_storage(Dtype dtype, std::span<const uint8_t> raw, uint8_t* out, MinifloatForm form) {
  if (!travels_as_f32(dtype, form)) {
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

NpyType npy_type_of(Dtype dtype, MinifloatForm form) {
  if (travels_as_f32(dtype, form)) return NpyType{'f', 4};
  if (rounds_from_f32(dtype)) return NpyType{'m', static_cast<uint8_t>(dtype_size(dtype)), dtype};  // bf16, fp8
  const char kind = dtype_is_float(dtype) ? 'f' : dtype_is_signed_int(dtype) ? 'i' : 'u';
  return NpyType{kind, static_cast<uint8_t>(dtype_size(dtype))};
}

namespace {
// The header checks of a tensor's .npy: dtype (npy_fill) and shape, naming
// both sides. Returns how the file fills the tensor.
NpyFill check_tensor_header(const NpyArray& header, const std::string& path, Dtype dtype,
                            const std::vector<int64_t>& shape, const std::string& tensor_name, uint32_t decl_line) {
  const std::string tensor = "tensor " + tensor_name + " declared ";
  const std::string line = " (line " + std::to_string(decl_line) + ")";
  const std::optional<NpyFill> fill = npy_fill(header.type, dtype);
  if (!fill)
    throw InputError(file_error(path, "dtype " + header.type.name() + " does not match " + tensor +
                                          std::string(dtype_name(dtype)) + line + npy_fill_hint(dtype, "tensors")));
  if (header.shape != shape)
    throw InputError(file_error(path, "shape " + npy_shape_text(header.shape) + " does not match " + tensor +
                                          declared_shape_text(shape) + line));
  return *fill;
}
}  // namespace

std::vector<uint8_t> load_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                                     const std::string& tensor_name, uint32_t decl_line) {
  // Checked on the header, before the data is read.
  NpyFill fill = NpyFill::bits;
  NpyArray array = read_npy(path, [&](const NpyArray& header) {
    fill = check_tensor_header(header, path, dtype, shape, tensor_name, decl_line);
  });
  if (fill == NpyFill::round_f32) {
    std::vector<uint8_t> raw(static_cast<std::size_t>(element_count(shape)) * dtype_size(dtype));
    storage_from_npy_data(dtype, fill, array.data, raw.data());
    return raw;
  }
  storage_from_npy_data(dtype, fill, array.data, array.data.data());  // in place (bools made 0 or 1)
  return std::move(array.data);
}

void load_tensor_npy_into(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                          const std::string& tensor_name, uint32_t decl_line, std::span<uint8_t> storage) {
  NpyReader reader(path);
  const NpyArray& header = reader.header();
  const NpyFill fill = check_tensor_header(header, path, dtype, shape, tensor_name, decl_line);
  if (header.fortran_order || fill == NpyFill::round_f32 || reader.data_bytes() != storage.size()) {
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
  if (fill == NpyFill::bools) storage_from_npy_data(dtype, fill, storage, storage.data());
}

std::vector<uint8_t> encode_tensor_npy(Dtype dtype, const std::vector<int64_t>& shape, std::span<const uint8_t> raw,
                                       MinifloatForm form) {
  const auto count = static_cast<std::size_t>(element_count(shape));
  if (raw.size() != count * dtype_size(dtype))
    throw std::invalid_argument("encode_tensor_npy: " + std::to_string(raw.size()) + " bytes for " +
                                std::to_string(count) + " elements of " + std::string(dtype_name(dtype)));
  NpyArray array{npy_type_of(dtype, form), shape, {}};
  array.data.resize(count * array.type.size);
  npy_data_from_storage(dtype, raw, array.data.data(), form);
  return encode_npy(array);
}

void save_tensor_npy(const std::string& path, Dtype dtype, const std::vector<int64_t>& shape,
                     std::span<const uint8_t> raw, MinifloatForm form) {
  write_file_atomically(path, encode_tensor_npy(dtype, shape, raw, form));
}

}  // namespace nisa

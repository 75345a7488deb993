#include "tensor_init.hpp"

#include <cstring>

#include "lanes.hpp"

namespace nisa {

void fill_from_init(const TensorDecl& t, std::span<uint8_t> bytes) {
  const std::size_t size = dtype_size(t.dtype);
  const std::size_t count = bytes.size() / size;
  if (t.init == InitKind::iota) {
    for (std::size_t i = 0; i < count; ++i) {
      const uint32_t bits = bits_from_i64(t.dtype, static_cast<int64_t>(i));
      std::memcpy(bytes.data() + i * size, &bits, size);
    }
    return;
  }
  const uint32_t bits = t.init_value.state == OperandState::integer ? bits_from_i64(t.dtype, t.init_value.integer)
                                                                    : bits_from_f32(t.dtype, t.init_value.scalar);
  for (std::size_t i = 0; i < count; ++i) std::memcpy(bytes.data() + i * size, &bits, size);
}

}  // namespace nisa

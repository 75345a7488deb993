#include "instructions.hpp"

namespace nisa {

StepDecoder find_step_decoder(std::string_view name) {
  struct Entry {
    std::string_view name;
    StepDecoder decode;
  };
  static constexpr Entry kTable[] = {
      {"dma_copy", decode_dma_copy},
      {"memset", decode_memset},
      {"iota", decode_iota},
      {"nonzero_with_count", decode_nonzero_with_count},
      {"tensor_copy_predicated", decode_tensor_copy_predicated},
      {"select_reduce", decode_select_reduce},
      {"range_select", decode_range_select},
      {"activation", decode_activation},
      {"activate2", decode_activate2},
      {"tensor_scalar", decode_tensor_scalar},
      {"tensor_tensor", decode_tensor_tensor},
      {"tensor_reduce", decode_tensor_reduce},
  };
  for (const Entry& e : kTable)
    if (e.name == name) return e.decode;
  return nullptr;
}

}  // namespace nisa

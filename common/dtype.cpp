#include "dtype.hpp"

#include <array>

namespace nisa {
namespace {

struct DtypeInfo {
  std::string_view name;
  std::size_t size;
  char cls;  // 'f' float, 's' signed int, 'u' unsigned int, 'm' MX (packed or scale)
};

constexpr std::array<DtypeInfo, kDtypeCount> kInfo{{
    {"f32", 4, 'f'}, {"bf16", 2, 'f'}, {"f16", 2, 'f'}, {"tf32", 4, 'f'},
    {"fp8e4m3", 1, 'f'}, {"fp8e4m3fn", 1, 'f'}, {"fp8e5m2", 1, 'f'},
    {"i8", 1, 's'}, {"i16", 2, 's'}, {"i32", 4, 's'},
    {"u8", 1, 'u'}, {"u16", 2, 'u'}, {"u32", 4, 'u'},
    {"fp8e4m3fn_x4", 4, 'm'}, {"fp8e5m2_x4", 4, 'm'}, {"fp4e2m1fn_x4", 2, 'm'}, {"fp8e8m0", 1, 'm'},
}};

const DtypeInfo& info(Dtype t) { return kInfo[static_cast<std::size_t>(t)]; }

}  // namespace

std::string_view dtype_name(Dtype t) { return info(t).name; }
std::size_t dtype_size(Dtype t) { return info(t).size; }
bool dtype_is_float(Dtype t) { return info(t).cls == 'f'; }
bool dtype_is_signed_int(Dtype t) { return info(t).cls == 's'; }
bool dtype_is_unsigned_int(Dtype t) { return info(t).cls == 'u'; }
bool dtype_is_mx(Dtype t) { return info(t).cls == 'm'; }

std::optional<Dtype> dtype_from_name(std::string_view canonical_name) {
  for (std::size_t i = 0; i < kInfo.size(); ++i)
    if (kInfo[i].name == canonical_name) return static_cast<Dtype>(i);
  return std::nullopt;
}

}  // namespace nisa

// quantize_mx dst, src, dst_scale (Vector Engine, NeuronCore-v4; NKI 0.6
// docstring; S13.1): each group of 32 src values, 8 partitions x 4 elements
// (partitions 8b..8b+7, elements 4c..4c+3), shares one e8m0 scale
// X = 2^(floor(log2 amax) - (Emax - 1)) (Emax 8 for e4m3fn, 15 for e5m2: the
// docstring's block scale, twice OCP's), biased exponent clamped to [0, 254]
// (0 for an all-zero group); value 4c+j of partition p becomes value j of
// dst[p, c] = fp8(src / X), saturated to the fp8 type's largest finite value,
// rounded to nearest even (NaN: 0x7F, 0xFF if negative); the scale byte goes to dst_scale[s(b), c] with
// s(b) = 32 * (b / 4) + b % 4 (mx_values.hpp).
#include <algorithm>
#include <bit>
#include <cmath>

#include "matmul_psum.hpp"
#include "mx_values.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::quantize_mx;

struct Params {
  const TileAccess* scale;
  float* scratch;  // src as float32 [P x F]
};

// The scale's biased exponent for a group whose largest |value| is amax.
int scale_exponent(float amax, int emax) {
  if (!(amax > 0.0f) && !std::isnan(amax)) return 0;  // all zeros: 2^-127
  const int field = static_cast<int>((std::bit_cast<uint32_t>(amax) >> 23) & 0xFF);  // floor(log2) + 127 for normals; 255 inf/NaN
  return std::clamp(field - (emax - 1), 0, 254);
}

template <Dtype Fp8>
uint8_t quantized(float v, int exponent, float largest) {
  if (std::isnan(v)) return std::signbit(v) ? 0xFF : 0x7F;  // one NaN code per sign (S13.1), whatever the payload
  double q = std::ldexp(static_cast<double>(v), 127 - exponent);  // exact: v has at most 11 significant bits
  q = std::clamp(q, -static_cast<double>(largest), static_cast<double>(largest));
  return Element<Fp8>::from_f32(static_cast<float>(q));
}

template <Dtype Fp8>
void quantize(const TileAccess& dst, const TileAccess& scale, const float* src, int emax, float largest) {
  const int64_t f = dst.elements * 4;  // src elements per partition
  for (int64_t b = 0; b < dst.partitions / 8; ++b)
    for (int64_t c = 0; c < dst.elements; ++c) {
      float amax = 0.0f;
      for (int64_t p = 8 * b; p < 8 * b + 8; ++p)
        for (int j = 0; j < 4; ++j) {
          const float a = std::fabs(src[p * f + 4 * c + j]);
          if (std::isnan(a) || a > amax) amax = std::isnan(amax) ? amax : a;
        }
      const int e = scale_exponent(amax, emax);
      *element_address(scale, mx_scale_partition(b), c) = static_cast<uint8_t>(e);
      for (int64_t p = 8 * b; p < 8 * b + 8; ++p) {
        uint8_t* out = element_address(dst, p, c);
        for (int j = 0; j < 4; ++j) out[j] = quantized<Fp8>(src[p * f + 4 * c + j], e, largest);
      }
    }
}

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  load_matrix(*s.in[0], k.scratch);
  if (s.dst->dtype == Dtype::fp8e4m3fn_x4)
    quantize<Dtype::fp8e4m3fn>(*s.dst, *k.scale, k.scratch, 8, 448.0f);
  else
    quantize<Dtype::fp8e5m2>(*s.dst, *k.scale, k.scratch, 15, 57344.0f);
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* src = c.tile(slot::src);
  Params k{};
  k.scale = c.tile(slot::dst_scale);
  k.scratch = reinterpret_cast<float*>(c.tiles.buffer(static_cast<std::size_t>(src->partitions * src->elements) * sizeof(float)));
  s.set_params(k);
  s.dst = dst;
  s.inputs = 0;
  s.in[s.inputs++] = src;
  s.reduce_res = k.scale;  // --strict marks the scale tile written (no accumulator: S3 does not apply)
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = dst->row_length;
  s.run = run;
}

}  // namespace

const InstructionSemantics quantize_mx_semantics{decode};

}  // namespace nisa

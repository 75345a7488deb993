// tensor_tensor_scan dst, data0, data1, initial, op0, op1, reverse0, reverse1
// (Vector; S4.20, NKI 0.6 docstring): per partition, along its free elements
// in flat row-major order, r = initial[p], then for each i
//   r = op1(op0(data0[i], r), data1[i]);  dst[i] = r
// with op0's inputs swapped when reverse0 (op0(r, data0[i])) and op1's when
// reverse1 (op1(data1[i], .)). float32 throughout (S2.1): the carried r is the
// float32 result, before dst's conversion.
#include "alu.hpp"
#include "lanes.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::tensor_tensor_scan;

struct Params {
  AluOp op0, op1;
  bool reverse0, reverse1;
};
enum : int { kInitial };  // Step::scalar

// Batches of kLaneBatch elements: data0 and data1 are read before dst's batch
// is written, so dst may be either input (S1.6; stream_tiles stages dst when
// their layouts differ).
void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  float a[kLaneBatch], b[kLaneBatch], out[kLaneBatch];
  const TileAccess& data0 = *s.in[0];
  const TileAccess& data1 = *s.in[1];
  const TileAccess& dst = *s.dst;
  for (int64_t p = 0; p < s.partitions; ++p) {
    float r = s.scalar[kInitial].at(p);
    for (int64_t row = 0; row < s.rows(); ++row) {
      const auto ri = static_cast<std::size_t>(row);
      for (int64_t c = 0; c < s.row_length; c += kLaneBatch) {
        const int64_t n = s.row_length - c < kLaneBatch ? s.row_length - c : kLaneBatch;
        data0.load(data0.partition(p) + data0.row_offsets[ri] + c * data0.element_stride, data0.element_stride, n, a);
        data1.load(data1.partition(p) + data1.row_offsets[ri] + c * data1.element_stride, data1.element_stride, n, b);
        for (int64_t i = 0; i < n; ++i) {
          const float first = k.reverse0 ? alu(k.op0, r, a[i]) : alu(k.op0, a[i], r);
          r = k.reverse1 ? alu(k.op1, b[i], first) : alu(k.op1, first, b[i]);
          out[i] = r;
        }
        dst.store(dst.partition(p) + dst.row_offsets[ri] + c * dst.element_stride, dst.element_stride, n, out);
      }
    }
  }
}

void decode(const DecodeContext& c, Step& s) {
  stream_tiles(c, s, c.tile(slot::dst), {c.tile(slot::data0), c.tile(slot::data1)});
  s.set_params(Params{c.enum_value<AluOp>(slot::op0), c.enum_value<AluOp>(slot::op1), c.boolean(slot::reverse0),
                      c.boolean(slot::reverse1)});
  s.scalar[kInitial] = c.partition_scalar(slot::initial, 0.0f);
  s.run = run;
}

}  // namespace

const InstructionSemantics tensor_tensor_scan_semantics{decode};

}  // namespace nisa

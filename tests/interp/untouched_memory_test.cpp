// Every instruction writes exactly its dst view (and reduce_res): all other
// SBUF bytes keep their contents (SingleStepTests' rule; S1.4 views).
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("instructions write only their dst view and reduce_res") {
  struct Case {
    std::string name;
    std::function<void(TestMachine&, const Operand& dst, const Operand& src, const Operand& column,
                        const Operand& pred)>
        add;
  };
  const std::vector<Case> cases = {
      {"memset", [](TestMachine& m, const Operand& d, const Operand&, const Operand&, const Operand&) {
         m.add("memset", {{"dst", d}, {"value", number(5)}});
       }},
      {"iota", [](TestMachine& m, const Operand& d, const Operand&, const Operand&, const Operand&) {
         m.add("iota", {{"dst", d}, {"base", number(1)}});
       }},
      {"dma_copy", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("dma_copy", {{"dst", d}, {"src", s}});
       }},
      {"dma_compute", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         Operand srcs;  // a tensor_list: dst = s + s
         srcs.state = OperandState::tensor_list;
         srcs.views = {s.view, s.view};
         m.add("dma_compute", {{"dst", d}, {"srcs", srcs}, {"reduce_op", "add"}});
       }},
      {"tensor_scalar", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_scalar", {{"dst", d}, {"data", s}, {"op0", "add"}, {"operand0", c}});
       }},
      {"tensor_tensor", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("tensor_tensor", {{"dst", d}, {"data1", s}, {"data2", s}, {"op", "multiply"}});
       }},
      {"tensor_reduce", [](TestMachine& m, const Operand&, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_reduce", {{"dst", c}, {"data", s}, {"op", "add"}});
       }},
      {"activation", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("activation", {{"dst", d}, {"op", "exp"}, {"data", s}, {"bias", c}, {"reduce_op", "add"},
                              {"reduce_cmd", "reset_reduce"}, {"reduce_res", c}});
       }},
      {"activate2", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("activate2", {{"dst", d}, {"op", "relu"}, {"data", s}, {"imm0", c}, {"imm1", number(1)},
                             {"op0", "multiply"}, {"op1", "add"}});
       }},
      {"select_reduce", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand& p) {
         m.add("select_reduce", {{"dst", d}, {"predicate", p}, {"on_true", s}, {"on_false", c},
                                 {"reduce_cmd", "reset_reduce"}, {"reduce_res", c}});
       }},
      {"range_select", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("range_select", {{"dst", d}, {"on_true_tile", s}, {"comp_op0", "greater"}, {"comp_op1", "less"},
                                {"bound0", c}, {"bound1", c}, {"reduce_cmd", "reset_reduce"}, {"reduce_res", c}});
       }},
      {"tensor_copy_predicated",
       [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand& p) {
         m.add("tensor_copy_predicated", {{"dst", d}, {"src", s}, {"predicate", p}});
       }},
      {"tensor_copy", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("tensor_copy", {{"dst", d}, {"src", s}, {"engine", "gpsimd"}});
       }},
      // issue 13, vecops batch
      {"tensor_tensor_scan", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_tensor_scan", {{"dst", d}, {"data0", s}, {"data1", s}, {"initial", c}, {"op0", "multiply"},
                                      {"op1", "add"}});
       }},
      {"affine_select", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         Operand pattern;
         pattern.state = OperandState::list;
         pattern.list = {-1, 4};
         m.add("affine_select", {{"dst", d}, {"pattern", pattern}, {"channel_multiplier", integer(1)},
                                 {"on_true_tile", s}, {"on_false_value", number(-9)}, {"cmp_op", "greater"}});
       }},
      {"tensor_scalar_cumulative",
       [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_scalar_cumulative", {{"dst", d}, {"src", s}, {"op0", "multiply"}, {"op1", "add"}, {"imm0", c}});
       }},
      {"scalar_tensor_tensor", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("scalar_tensor_tensor", {{"dst", d}, {"data", s}, {"op0", "multiply"}, {"operand0", c}, {"op1", "add"},
                                        {"operand1", s}});
       }},
      {"tensor_scalar_reduce", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("tensor_scalar_reduce", {{"dst", d}, {"data", s}, {"op0", "add"}, {"operand0", number(1)},
                                        {"reduce_op", "add"}, {"reduce_res", c}, {"reduce_cmd", "load_reduce"},
                                        {"reduce_init", number(2)}, {"reduce_res_negate", boolean(true)}});
       }},
      {"activation_reduce", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("activation_reduce", {{"dst", d}, {"op", "exp"}, {"data", s}, {"reduce_op", "add"}, {"reduce_res", c}});
       }},
      {"exponential", [](TestMachine& m, const Operand& d, const Operand& s, const Operand& c, const Operand&) {
         m.add("exponential", {{"dst", d}, {"src", s}, {"max_value", number(4)}, {"reduce_res", c},
                               {"reduce_cmd", "reset_reduce"}});
       }},
      {"reciprocal", [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         m.add("reciprocal", {{"dst", d}, {"data", s}});
       }},
      // dst is the view's first partition only: every other partition of it keeps its bytes
      {"tensor_partition_reduce",
       [](TestMachine& m, const Operand& d, const Operand& s, const Operand&, const Operand&) {
         Operand first = d;
         first.view.dims[0] = DimSlice{32, 1, 1};
         m.add("tensor_partition_reduce", {{"dst", first}, {"op", "add"}, {"data", s}});
       }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestMachine m;
    // One 128 x 64-byte block of f32 [128, 16] holds every operand; all views
    // are on partitions 32..63 (S1.5), disjoint columns.
    const int32_t block = m.sbuf("block", Dtype::f32, {128, 16});
    const int32_t pred = m.sbuf("pred", Dtype::u8, {128, 4}, 64);
    for (int p = 0; p < 128; ++p) {
      for (int i = 0; i < 16; ++i) m.set<float>(block, p, i, 0.5f + static_cast<float>(i));
      for (int i = 0; i < 4; ++i) m.set<uint8_t>(pred, p, i, static_cast<uint8_t>(i % 2));
    }
    auto view = [&](int64_t col, int64_t width) {
      Operand o = m.rows(block, 32, 32);
      o.view.dims[1] = DimSlice{col, width, 1};
      return o;
    };
    Operand dst = view(2, 4), src = view(8, 4), column = view(13, 1), predicate = m.rows(pred, 32, 32);
    c.add(m, dst, src, column, predicate);
    m.run();
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 16; ++i) {
        const bool in_lanes = p >= 32 && p < 64;
        const bool written = in_lanes && ((i >= 2 && i < 6) || i == 13);
        if (!written) {
          CAPTURE(p);
          CAPTURE(i);
          CHECK(m.get<float>(block, p, i) == 0.5f + static_cast<float>(i));
        }
      }
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 4; ++i) CHECK(m.get<uint8_t>(pred, p, i) == i % 2);
  }
}

// "nonzero_with_count" (S4.1): dst has one more element than src, and only the
// partitions whose physical number is a multiple of 16 are written: on
// partitions 32..63 that is 32 and 48, columns 2..6 of the block; every other
// byte keeps its value.
TEST_CASE("nonzero_with_count writes only its dst view, on partitions 16k") {
  TestMachine m;
  const int32_t block = m.sbuf("block", Dtype::i32, {128, 16});
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 16; ++i) m.set<int32_t>(block, p, i, 1000 + i);
  auto view = [&](int64_t col, int64_t width) {
    Operand o = m.rows(block, 32, 32);
    o.view.dims[1] = DimSlice{col, width, 1};
    return o;
  };
  m.add("nonzero_with_count", {{"dst", view(2, 5)}, {"src", view(8, 4)}});
  m.run();
  for (int p = 0; p < 128; ++p)
    for (int i = 0; i < 16; ++i) {
      CAPTURE(p);
      CAPTURE(i);
      const bool written = (p == 32 || p == 48) && i >= 2 && i < 7;
      // src 1008..1011 is all nonzero: indices 0..3, then the count 4.
      CHECK(m.get<int32_t>(block, p, i) == (written ? i - 2 : 1000 + i));
    }
}

// The Tensor Engine instructions (S8.3, S8.4) read SBUF and write a PSUM
// view: "nc_matmul" [4, 4] = [32, 4].T @ [32, 4], "nc_transpose" [4, 32] of a
// [32, 4] tile; every other PSUM and SBUF byte keeps its value.
TEST_CASE("nc_matmul and nc_transpose write only their dst view") {
  for (const std::string name : {"nc_matmul", "nc_transpose"}) {
    CAPTURE(name);
    TestMachine m;
    const int32_t block = m.sbuf("block", Dtype::f32, {128, 16});
    const int32_t acc = m.psum("acc", Dtype::f32, {128, 48});
    for (int p = 0; p < 128; ++p) {
      for (int i = 0; i < 16; ++i) m.set<float>(block, p, i, 0.5f + static_cast<float>(i));
      for (int i = 0; i < 48; ++i) m.set<float>(acc, p, i, 7.0f + static_cast<float>(i));
    }
    auto view = [&](int32_t t, int64_t p0, int64_t parts, int64_t col, int64_t width) {
      Operand o = m.rows(t, p0, parts);
      o.view.dims[1] = DimSlice{col, width, 1};
      return o;
    };
    const int64_t dst_parts = 4, dst_cols = name == "nc_matmul" ? 4 : 32;
    if (name == "nc_matmul")
      m.add("nc_matmul", {{"dst", view(acc, 0, 4, 2, 4)}, {"stationary", view(block, 32, 32, 0, 4)}, {"moving", view(block, 32, 32, 8, 4)}});
    else
      m.add("nc_transpose", {{"dst", view(acc, 0, 4, 2, 32)}, {"data", view(block, 32, 32, 0, 4)}});
    m.run();
    for (int p = 0; p < 128; ++p) {
      CAPTURE(p);
      for (int i = 0; i < 16; ++i) CHECK(m.get<float>(block, p, i) == 0.5f + static_cast<float>(i));
      for (int i = 0; i < 48; ++i) {
        CAPTURE(i);
        const bool written = p < dst_parts && i >= 2 && i < 2 + dst_cols;
        if (!written) CHECK(m.get<float>(acc, p, i) == 7.0f + static_cast<float>(i));
      }
    }
  }
}
// Statistics and selection (S4.30-S4.35): each writes exactly its dst columns
// (and nc_match_replace8's dst_idx), on its partitions; a float block and an
// index block hold every operand, on partitions 32..63 (sequence_bounds: 32).
TEST_CASE("bn_stats, bn_aggr, max8, nc_find_index8, nc_match_replace8, sequence_bounds write only their dst views") {
  struct Case {
    std::string name;
    int64_t partitions;                   // from 32
    int64_t dst_first, dst_count;         // written columns of the float block
    int64_t idx_first, idx_count;         // written columns of the index block
  };
  const std::vector<Case> cases = {
      {"bn_stats", 32, 2, 6, 0, 0},          {"bn_aggr", 32, 2, 2, 0, 0},
      {"max8", 32, 2, 8, 0, 0},              {"nc_find_index8", 32, 0, 0, 4, 8},
      {"nc_match_replace8", 32, 5, 10, 4, 8}, {"sequence_bounds", 1, 0, 20, 0, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestMachine m;
    const int32_t block = m.sbuf("block", Dtype::f32, {128, 40});
    const int32_t index = m.sbuf("index", Dtype::u32, {128, 16});
    for (int p = 0; p < 128; ++p) {
      for (int i = 0; i < 40; ++i) m.set<float>(block, p, i, 0.5f + static_cast<float>(i));
      for (int i = 0; i < 16; ++i) m.set<uint32_t>(index, p, i, 7000u + static_cast<uint32_t>(i));
    }
    auto cols = [&](int32_t t, int64_t first, int64_t count) {
      Operand o = m.rows(t, 32, c.partitions);
      o.view.dims[1] = DimSlice{first, count, 1};
      return o;
    };
    if (c.name == "bn_stats") m.add("bn_stats", {{"dst", cols(block, 2, 6)}, {"data", cols(block, 10, 20)}});
    if (c.name == "bn_aggr") m.add("bn_aggr", {{"dst", cols(block, 2, 2)}, {"data", cols(block, 10, 12)}});
    if (c.name == "max8") m.add("max8", {{"dst", cols(block, 2, 8)}, {"src", cols(block, 10, 30)}});
    if (c.name == "nc_find_index8")
      m.add("nc_find_index8", {{"dst", cols(index, 4, 8)}, {"data", cols(block, 10, 30)}, {"vals", cols(block, 0, 8)}});
    if (c.name == "nc_match_replace8")
      m.add("nc_match_replace8", {{"dst", cols(block, 5, 10)}, {"data", cols(block, 20, 10)}, {"vals", cols(block, 30, 8)},
                                  {"imm", number(-1)}, {"dst_idx", cols(index, 4, 8)}});
    if (c.name == "sequence_bounds") m.add("sequence_bounds", {{"dst", cols(block, 0, 20)}, {"segment_ids", cols(block, 20, 10)}});
    m.run();
    for (int p = 0; p < 128; ++p) {
      CAPTURE(p);
      const bool in_lanes = p >= 32 && p < 32 + c.partitions;
      for (int i = 0; i < 40; ++i)
        if (!(in_lanes && i >= c.dst_first && i < c.dst_first + c.dst_count)) {
          CAPTURE(i);
          CHECK(m.get<float>(block, p, i) == 0.5f + static_cast<float>(i));
        }
      for (int i = 0; i < 16; ++i)
        if (!(in_lanes && i >= c.idx_first && i < c.idx_first + c.idx_count)) {
          CAPTURE(i);
          CHECK(m.get<uint32_t>(index, p, i) == 7000u + static_cast<uint32_t>(i));
        }
    }
  }
}

// "topk" (S4.36): val_dst and idx_dst on partitions 32..63 (two 16-partition
// groups), nothing else.
TEST_CASE("topk writes only its val_dst and idx_dst views") {
  TestMachine m;
  const int32_t block = m.sbuf("block", Dtype::bf16, {128, 16});
  const int32_t index = m.sbuf("index", Dtype::u32, {128, 8});
  for (int p = 0; p < 128; ++p) {
    for (int i = 0; i < 16; ++i) m.set<uint16_t>(block, p, i, static_cast<uint16_t>(0x3F80 + i));  // bf16 1.0, 1.0078, ...
    for (int i = 0; i < 8; ++i) m.set<uint32_t>(index, p, i, 9000u + static_cast<uint32_t>(i));
  }
  auto cols = [&](int32_t t, int64_t first, int64_t count) {
    Operand o = m.rows(t, 32, 32);
    o.view.dims[1] = DimSlice{first, count, 1};
    return o;
  };
  m.add("topk", {{"val_dst", cols(block, 1, 3)}, {"idx_dst", cols(index, 2, 3)}, {"src", cols(block, 8, 4)}, {"n", integer(50)}});
  m.run();
  for (int p = 0; p < 128; ++p) {
    CAPTURE(p);
    const bool in_lanes = p >= 32 && p < 64;
    for (int i = 0; i < 16; ++i)
      if (!(in_lanes && i >= 1 && i < 4)) {
        CAPTURE(i);
        CHECK(m.get<uint16_t>(block, p, i) == 0x3F80 + i);
      }
    for (int i = 0; i < 8; ++i)
      if (!(in_lanes && i >= 2 && i < 5)) {
        CAPTURE(i);
        CHECK(m.get<uint32_t>(index, p, i) == 9000u + static_cast<uint32_t>(i));
      }
  }
}

// Issue 13 data movement (S11): each writes its dst view only. One u32 block
// [128, 20] holds every operand (dtypes reinterpreted per instruction through
// @ aliases); views on partitions 32..63, dst at columns 2..5.
TEST_CASE("issue 13 data movement writes only its dst view") {
  struct Case {
    std::string name;
    int64_t dst_columns;  // dst view: partitions 32..63, 32-bit columns 2 .. 2 + dst_columns
    std::function<void(TestMachine&, int32_t u32, int32_t u16, int32_t f32)> add;
  };
  auto rows = [](TestMachine& m, int32_t t, int64_t col, int64_t width) {
    Operand o = m.rows(t, 32, 32);
    o.view.dims[1] = DimSlice{col, width, 1};
    return o;
  };
  const std::vector<Case> cases = {
      {"dma_transpose", 4,
       [&](TestMachine& m, int32_t, int32_t u16, int32_t) {
         // u16 [32, 8] at 16-bit columns 4..11 (= 32-bit columns 2..5) from a [8, 32] HBM source
         const int32_t src = m.tensor("src", Memory::hbm, Dtype::u16, {8, 32});
         m.add("dma_transpose", {{"dst", rows(m, u16, 4, 8)}, {"src", m.whole(src)}});
       }},
      {"nc_stream_shuffle", 4,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) {
         Operand mask;
         mask.state = OperandState::list;
         for (int i = 0; i < 32; ++i) mask.list.push_back(31 - i);
         m.add("nc_stream_shuffle", {{"dst", rows(m, u32, 2, 4)}, {"src", rows(m, u32, 8, 4)}, {"shuffle_mask", mask}});
       }},
      {"local_gather", 4,
       [&](TestMachine& m, int32_t, int32_t u16, int32_t f32) {
         // index: 16-bit column 26 (zeros: 32-bit column 13 holds 0 in its low half)
         m.add("local_gather", {{"dst", rows(m, f32, 2, 4)}, {"src_buffer", rows(m, f32, 8, 4)}, {"index", rows(m, u16, 26, 1)},
                                {"num_valid_indices", integer(4)}});
       }},
      {"nc_n_gather", 4,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) {
         m.add("nc_n_gather", {{"dst", rows(m, u32, 2, 4)}, {"data", rows(m, u32, 8, 4)}, {"indices", rows(m, u32, 13, 4)}});
       }},
      // S11.5 random numbers: the state instructions write no memory (0 columns).
      {"rng", 4, [&](TestMachine& m, int32_t u32, int32_t, int32_t) { m.add("rng", {{"dst", rows(m, u32, 2, 4)}}); }},
      {"rand2", 4,
       [&](TestMachine& m, int32_t, int32_t, int32_t f32) {
         m.add("rand2", {{"dst", rows(m, f32, 2, 4)}, {"min", number(-1)}, {"max", rows(m, f32, 8, 1)}});
       }},
      {"dropout", 4,
       [&](TestMachine& m, int32_t, int32_t, int32_t f32) {
         m.add("dropout", {{"dst", rows(m, f32, 2, 4)}, {"data", rows(m, f32, 8, 4)}, {"prob", number(0.5)}});
       }},
      {"set_rng_seed", 0,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) {
         Operand seed = m.rows(u32, 32, 1);
         seed.view.dims[1] = DimSlice{8, 1, 1};
         m.add("set_rng_seed", {{"src_seeds", seed}});
       }},
      {"rand_set_state", 0,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) { m.add("rand_set_state", {{"src_seeds", rows(m, u32, 2, 6)}}); }},
      {"rand_get_state", 6,
       [&](TestMachine& m, int32_t u32, int32_t, int32_t) { m.add("rand_get_state", {{"dst", rows(m, u32, 2, 6)}}); }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    TestMachine m;
    const int32_t u32 = m.sbuf("block", Dtype::u32, {128, 20}, 0);
    const int32_t u16 = m.sbuf("block16", Dtype::u16, {128, 40}, 0);
    const int32_t f32 = m.sbuf("blockf", Dtype::f32, {128, 20}, 0);
    c.add(m, u32, u16, f32);  // first: it may declare an HBM tensor, before the machine exists
    // Values 7000 + i, except columns 13.. (indices): 0 so every gather index is in range.
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 20; ++i) m.set<uint32_t>(u32, p, i, i >= 13 ? 0u : 7000u + static_cast<uint32_t>(i));
    m.run();
    for (int p = 0; p < 128; ++p)
      for (int i = 0; i < 20; ++i) {
        const bool written = p >= 32 && p < 64 && i >= 2 && i < 2 + c.dst_columns;
        if (written) continue;
        CAPTURE(p);
        CAPTURE(i);
        CHECK(m.get<uint32_t>(u32, p, i) == (i >= 13 ? 0u : 7000u + static_cast<uint32_t>(i)));
      }
  }
}

// MX (S13): quantize_mx writes exactly its dst view and its dst_scale view
// (32 data partitions: scale partitions 0..3 of the view); nc_matmul_mx
// exactly its dst view.
TEST_CASE("quantize_mx and nc_matmul_mx write only their dst views") {
  auto view = [](TestMachine& m, int32_t t, int64_t p0, int64_t parts, int64_t col, int64_t width) {
    Operand o = m.rows(t, p0, parts);
    o.view.dims[1] = DimSlice{col, width, 1};
    return o;
  };
  for (const std::string name : {"quantize_mx", "nc_matmul_mx"}) {
    CAPTURE(name);
    TestMachine m;
    const int32_t src = m.sbuf("src", Dtype::bf16, {128, 16});
    const int32_t packed = m.sbuf("packed", Dtype::fp8e4m3fn_x4, {128, 12});
    const int32_t scale = m.sbuf("scale", Dtype::fp8e8m0, {128, 12});
    const int32_t acc = m.psum("acc", Dtype::f32, {128, 48});
    for (int p = 0; p < 128; ++p) {
      for (int i = 0; i < 16; ++i) m.set<uint16_t>(src, p, i, 0x3FC0);  // 1.5
      for (int i = 0; i < 12; ++i) m.set<uint32_t>(packed, p, i, 0x3A3A3A3Au + static_cast<uint32_t>(i));
      for (int i = 0; i < 12; ++i) m.set<uint8_t>(scale, p, i, static_cast<uint8_t>(100 + i));
      for (int i = 0; i < 48; ++i) m.set<float>(acc, p, i, 7.0f + static_cast<float>(i));
    }
    const bool quantize = name == "quantize_mx";
    if (quantize)
      m.add("quantize_mx", {{"dst", view(m, packed, 32, 32, 2, 4)}, {"src", m.rows(src, 32, 32)}, {"dst_scale", view(m, scale, 32, 4, 2, 4)}});
    else
      m.add("nc_matmul_mx", {{"dst", view(m, acc, 0, 4, 2, 4)}, {"stationary", view(m, packed, 32, 32, 0, 4)}, {"moving", view(m, packed, 32, 32, 6, 4)},
                             {"stationary_scale", view(m, scale, 32, 4, 0, 4)}, {"moving_scale", view(m, scale, 32, 4, 6, 4)}});
    m.run();
    for (int p = 0; p < 128; ++p) {
      CAPTURE(p);
      for (int i = 0; i < 12; ++i) {
        CAPTURE(i);
        const bool in_cols = i >= 2 && i < 6;
        if (!(quantize && in_cols && p >= 32 && p < 64)) CHECK(m.get<uint32_t>(packed, p, i) == 0x3A3A3A3Au + static_cast<uint32_t>(i));
        if (!(quantize && in_cols && p >= 32 && p < 36)) CHECK(m.get<uint8_t>(scale, p, i) == static_cast<uint8_t>(100 + i));
      }
      for (int i = 0; i < 48; ++i) {
        CAPTURE(i);
        if (!(!quantize && p < 4 && i >= 2 && i < 6)) CHECK(m.get<float>(acc, p, i) == 7.0f + static_cast<float>(i));
      }
    }
    if (quantize) CHECK(m.get<uint8_t>(scale, 32, 2) == 127 + 0 - 7);  // 1.5: exponent 0, e4m3fn: 2^(0 - 7) -> byte 120
  }
}

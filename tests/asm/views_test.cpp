// Tensor operands (LANGUAGE.md 2.3): NAME or NAME[slices], stored full rank.
#include "asm_test_support.hpp"

namespace {

using nisa::DimSlice;

std::vector<DimSlice> tile_view(const std::string& v) {
  auto p = asm_test::assemble_ok(".sbuf t f32 [128, 64]\nmemset dst=" + v + ", value=0\n");
  return p.instructions[0].operands[0].view.dims;
}

}  // namespace

TEST_CASE("slice forms: a:b, a:, :b, a:b:step, :, single index, missing trailing dims") {
  CHECK(tile_view("t") == std::vector<DimSlice>{{0, 128, 1}, {0, 64, 1}});
  CHECK(tile_view("t[]") == std::vector<DimSlice>{{0, 128, 1}, {0, 64, 1}});
  CHECK(tile_view("t[0:32]") == std::vector<DimSlice>{{0, 32, 1}, {0, 64, 1}});
  CHECK(tile_view("t[64:, 8]") == std::vector<DimSlice>{{64, 64, 1}, {8, 1, 1}});
  CHECK(tile_view("t[:, :16]") == std::vector<DimSlice>{{0, 128, 1}, {0, 16, 1}});
  CHECK(tile_view("t[0:64, 1:64:2]") == std::vector<DimSlice>{{0, 64, 1}, {1, 32, 2}});
  CHECK(tile_view("t[0:64, 0:63:2]") == std::vector<DimSlice>{{0, 64, 1}, {0, 32, 2}});  // ceil((63-0)/2)
  CHECK(tile_view("t[:, 2*8:4*8]") == std::vector<DimSlice>{{0, 128, 1}, {16, 16, 1}});
}

TEST_CASE("HBM views take steps on every dimension") {
  auto p = asm_test::assemble_ok(".hbm x f32 [8, 16, 32] input\n.sbuf t f32 [4, 32]\ndma_copy dst=t, src=x[0:8:2, 0:16:4, 0:32:4]\n");
  CHECK(p.instructions[0].operands[1].view.dims == std::vector<DimSlice>{{0, 4, 2}, {0, 4, 4}, {0, 8, 4}});
}

TEST_CASE("slice errors") {
  const std::string decl = ".sbuf t f32 [128, 64]\n";
  CHECK(asm_test::first_error(decl + "memset dst=t[0:128, 0:65], value=0\n") == "'dst': dimension 1 of 't': slice 0:65 is out of range (size 64)");
  CHECK(asm_test::first_error(decl + "memset dst=t[0:128:2], value=0\n") == "'dst': dimension 0 of 't' is the partition dimension and cannot take a step (2)");
  CHECK(asm_test::first_error(decl + "memset dst=t[4:4], value=0\n") == "empty slice 4:4");
  CHECK(asm_test::first_error(decl + "memset dst=t[:, 0:8:0], value=0\n") == "slice step 0 must be positive");
  CHECK(asm_test::first_error(decl + "memset dst=t[-1], value=0\n") == "slice start -1 is negative");
  CHECK(asm_test::first_error(decl + "memset dst=t[0, 0, 0], value=0\n") == "tensor 't' has 2 dimensions, got more slices");
  CHECK(asm_test::first_error(decl + "memset dst=t[0:2.5], value=0\n") == "slice stop must be an integer, got 2.5");
}

TEST_CASE("S1.5 partition alignment for compute engines, not for DMA") {
  const std::string decl = ".hbm x f32 [128, 64] input\n.sbuf t f32 [128, 64]\n";
  asm_test::assemble_ok(decl + "memset dst=t[64:128], value=0\nmemset dst=t[96:128], value=0\nmemset dst=t[32:48], value=0\n");
  CHECK(asm_test::first_error(decl + "memset dst=t[16:48], value=0\n") ==
        "'dst' spans 32 partitions starting at 16; memset needs a start of 0, 32, 64 or 96 (S1.5 partition alignment)");
  CHECK(asm_test::first_error(decl + "memset dst=t[32:96], value=0\n") ==
        "'dst' spans 64 partitions starting at 32; memset needs a start of 0 or 64 (S1.5 partition alignment)");
  CHECK(asm_test::first_error(decl + "memset dst=t[1:128], value=0\n") ==
        "'dst' spans 127 partitions starting at 1; memset needs a start of 0 (S1.5 partition alignment)");
  asm_test::assemble_ok(decl + "dma_copy dst=t[3:10], src=x[3:10]\n");  // DMA: no alignment rule
}

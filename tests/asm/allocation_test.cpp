// SBUF/PSUM placement (LANGUAGE.md 2.1): first fit, 64-byte aligned, clear of
// explicit `@ OFFSET` tensors, which may alias each other.
#include "asm_test_support.hpp"

TEST_CASE("automatic tensors are packed at 64-byte boundaries in declaration order") {
  auto p = asm_test::assemble_ok(".sbuf a f32 [128, 3]\n.sbuf b bf16 [64, 100]\n.sbuf c u8 [128, 1]\n.psum d f32 [128, 16]\n.psum e f32 [128, 1]\n");
  CHECK(p.tensors[0].offset == 0);    // 12 bytes
  CHECK(p.tensors[1].offset == 64);   // 200 bytes -> next at 320
  CHECK(p.tensors[2].offset == 320);
  CHECK(p.tensors[3].offset == 0);    // PSUM is its own memory
  CHECK(p.tensors[4].offset == 64);
}

TEST_CASE("automatic tensors avoid explicit ones, even those declared later; explicit ones may alias") {
  auto p = asm_test::assemble_ok(".sbuf a f32 [128, 16]\n.sbuf b f32 [128, 32]\n.sbuf x f32 [128, 8] @ 0\n.sbuf y f32 [128, 8] @ 16\n.sbuf z u8 [128, 4] @ 200\n");
  CHECK(p.tensors[0].offset == 64);   // 0..48 is taken by x and y
  CHECK(p.tensors[1].offset == 256);  // 128..256 would overlap z at 200..204
  CHECK(p.tensors[3].offset == 16);
}

TEST_CASE("a gap between explicit tensors is used when it fits") {
  auto p = asm_test::assemble_ok(".sbuf x u8 [128, 10] @ 0\n.sbuf y u8 [128, 10] @ 1000\n.sbuf a f32 [128, 100]\n.sbuf b f32 [128, 200]\n");
  CHECK(p.tensors[2].offset == 64);
  CHECK(p.tensors[3].offset == 1024);
}

TEST_CASE("sizes come from the arch: a tensor that fits trn2's SBUF does not fit trn1's") {
  const std::string big = ".sbuf t f32 [128, 50000]\n";  // 200000 bytes per partition
  asm_test::assemble_ok(big);
  CHECK(asm_test::first_error(".arch trn1\n" + big) == "tensor 't' needs 200000 bytes per partition; sbuf has 196608 on trn1");
  CHECK(asm_test::first_error(".psum p f32 [128, 4097]\n") == "tensor 'p' needs 16388 bytes per partition; psum has 16384 on trn2");
  asm_test::assemble_ok(".psum p f32 [128, 4096]\n");  // PSUM tensors may span banks
  CHECK(asm_test::first_error(".sbuf t u8 [128, 100] @ 229300\n") ==
        "tensor 't' at offset 229300 ends at byte 229400, past the 229376 bytes of a sbuf partition on trn2");
}

TEST_CASE("no room left for an automatic tensor") {
  CHECK(asm_test::first_error(".psum a f32 [128, 3000]\n.psum b f32 [128, 2000]\n") ==
        "no room for tensor 'b' (8000 bytes per partition): psum has 16384 bytes per partition on trn2, 12000 already in use");
}

TEST_CASE("declaration rules") {
  CHECK(asm_test::first_error(".sbuf t f32 [129, 4]\n") == "tensor 't' has 129 partitions; sbuf has 128");
  CHECK(asm_test::first_error(".sbuf t f32 [128]\n") == "tensor 't' needs a partition and at least one free dimension, got 1");
  CHECK(asm_test::first_error(".hbm x f32 [4, 0] input\n") == "tensor 'x' dimension 1 is 0; dimensions must be at least 1");
  CHECK(asm_test::first_error(".hbm x f32 [4] output = 1\n") == "tensor 'x' is output; only input and inout tensors take '= INIT'");
  CHECK(asm_test::first_error(".hbm x f32 [4] inputt\n") == "unknown role 'inputt'; did you mean 'input'?");
  CHECK(asm_test::first_error(".hbm x f33 [4] input\n") == "unknown dtype 'f33'; did you mean 'f32'?");
  CHECK(asm_test::first_error(".hbm x f32 [4] input\n.sbuf x f32 [4, 4]\n") == "tensor 'x' is already declared at line 1");
  auto p = asm_test::assemble_ok(".hbm a bfloat16 [4] input = 1.5\n.hbm b int32 [2, 3] inout = iota\n.hbm c bool [4] input = 7\n");
  CHECK(p.tensors[0].dtype == nisa::Dtype::bf16);
  CHECK(p.tensors[0].init == nisa::InitKind::fill);
  CHECK(p.tensors[0].init_value.scalar == 1.5f);
  CHECK(p.tensors[1].init == nisa::InitKind::iota);
  CHECK(p.tensors[1].role == nisa::Role::inout);
  CHECK(p.tensors[2].dtype == nisa::Dtype::u8);
  CHECK(p.tensors[2].init_value.state == nisa::OperandState::integer);
  CHECK(p.tensors[2].init_value.integer == 7);
}

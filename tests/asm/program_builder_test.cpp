// ProgramBuilder (asm/program_builder.hpp): a program given as values builds
// the Program its text assembles to, and whatever the assembler refuses (or
// does not read as the value says) is refused. Expected programs come from
// assembling the equivalent hand-written text.
#include <string>
#include <vector>

#include "asm_test_support.hpp"
#include "program_builder.hpp"

using namespace nisa;

namespace {

TensorDecl decl(const std::string& name, Memory memory, Dtype dtype, std::vector<int64_t> shape, Role role, int64_t offset, uint32_t line) {
  TensorDecl d;
  d.name = name;
  d.memory = memory;
  d.dtype = dtype;
  d.shape = std::move(shape);
  d.role = role;
  d.offset = offset;
  d.line = line;
  return d;
}

// The declarations of kText, as values.
const char* kText =
    ".arch trn2\n"
    ".file \"k.py\"\n"
    ".hbm a f32 [256, 64] input\n"
    ".hbm o f32 [256, 64] output\n"
    ".sbuf t f32 [128, 32] @ 0\n"
    ".sbuf u f32 [128, 32] @ 128\n"
    ".sbuf c f32 [128, 1] @ 256\n"
    ".sbuf ix i32 [128, 1] @ 320\n";

void declare_all(ProgramBuilder& b) {
  REQUIRE(b.set_arch("trn2"));
  b.set_file("k.py");
  REQUIRE(b.declare(decl("a", Memory::hbm, Dtype::f32, {256, 64}, Role::input, 0, 3)));
  REQUIRE(b.declare(decl("o", Memory::hbm, Dtype::f32, {256, 64}, Role::output, 0, 4)));
  REQUIRE(b.declare(decl("t", Memory::sbuf, Dtype::f32, {128, 32}, Role::none, 0, 5)));
  REQUIRE(b.declare(decl("u", Memory::sbuf, Dtype::f32, {128, 32}, Role::none, 128, 6)));
  REQUIRE(b.declare(decl("c", Memory::sbuf, Dtype::f32, {128, 1}, Role::none, 256, 7)));
  REQUIRE(b.declare(decl("ix", Memory::sbuf, Dtype::i32, {128, 1}, Role::none, 320, 8)));
}

// A view as nisa.nki hands it over: offset and (stride, count) pairs.
GivenValue view(int32_t tensor, int64_t offset, std::vector<PatternDim> pattern) {
  GivenValue g;
  g.kind = GivenValue::Kind::view;
  g.view.tensor = tensor;
  g.view.is_pattern = true;
  g.view.offset = offset;
  g.view.pattern = std::move(pattern);
  return g;
}
GivenValue name(const std::string& text) {
  GivenValue g;
  g.kind = GivenValue::Kind::name;
  g.text = text;
  return g;
}
GivenValue number(const std::string& text) {
  GivenValue g;
  g.kind = GivenValue::Kind::written;
  g.text = text;
  return g;
}
GivenValue integer(int64_t v) {
  GivenValue g;
  g.kind = GivenValue::Kind::integer;
  g.integer = v;
  return g;
}
GivenValue boolean(bool v) {
  GivenValue g;
  g.kind = GivenValue::Kind::boolean;
  g.integer = v;
  return g;
}

// Adds `mnemonic` with `keys` = `values` at `line`; whether it was taken.
bool add(ProgramBuilder& b, const char* mnemonic, std::vector<std::string_view> keys, std::vector<GivenValue> values, uint64_t line) {
  const auto form = b.form(mnemonic, keys);
  return form && b.add(*form, values, line);
}

const PatternDim kTileRows{32, 128}, kUnit{1, 32}, kHbmRows{64, 128};

}  // namespace

TEST_CASE("program builder: the Program of the same text, views as slices where they say the same") {
  ProgramBuilder b(asm_test::spec(), nullptr);
  declare_all(b);
  // a[128:256, 32:64] -> slices; t whole -> slices; a with a column step of 2 -> slices with a step;
  // a broadcast row (stride 0) -> an access pattern.
  CHECK(add(b, "dma_copy", {"dst", "src", "oob_mode"}, {view(2, 0, {kTileRows, kUnit}), view(0, 128 * 64 + 32, {kHbmRows, kUnit}), name("error")}, 40));
  CHECK(add(b, "dma_copy", {"dst", "src"}, {view(3, 0, {kTileRows, kUnit}), view(0, 0, {kHbmRows, {2, 32}})}, 41));
  CHECK(add(b, "dma_copy", {"dst", "src"}, {view(3, 0, {kTileRows, kUnit}), view(0, 0, {{0, 128}, kUnit})}, 42));
  CHECK(add(b, "tensor_tensor", {"dst", "data1", "data2", "op"}, {view(2, 0, {kTileRows, kUnit}), view(2, 0, {kTileRows, kUnit}), view(3, 0, {kTileRows, kUnit}), name("add")}, 50));
  // Scalars: an integer, number texts as render_value writes them (fp32.min, nan, a decimal, a negative).
  CHECK(add(b, "tensor_scalar", {"dst", "data", "op0", "operand0"}, {view(3, 0, {kTileRows, kUnit}), view(2, 0, {kTileRows, kUnit}), name("multiply"), integer(3)}, 51));
  CHECK(add(b, "tensor_scalar", {"dst", "data", "op0", "operand0"}, {view(3, 0, {kTileRows, kUnit}), view(2, 0, {kTileRows, kUnit}), name("maximum"), number("fp32.min")}, 52));
  CHECK(add(b, "tensor_scalar", {"dst", "data", "op0", "operand0", "reverse0"}, {view(3, 0, {kTileRows, kUnit}), view(2, 0, {kTileRows, kUnit}), name("subtract"), number("0.1"), boolean(true)}, 53));
  CHECK(add(b, "memset", {"dst", "value"}, {view(3, 0, {kTileRows, kUnit}), number("-2.5e-07")}, 54));
  // A list (a bare integer for a flat list) and the column tile.
  GivenValue axis;
  axis.kind = GivenValue::Kind::list;
  axis.items = {1};
  axis.entries = {-1};
  CHECK(add(b, "tensor_reduce", {"dst", "op", "data", "axis", "keepdims"}, {view(4, 0, {{1, 128}, {1, 1}}), name("max"), view(2, 0, {kTileRows, kUnit}), axis, boolean(true)}, 55));
  CHECK(add(b, "tensor_reduce", {"dst", "op", "data", "axis", "keepdims"}, {view(4, 0, {{1, 128}, {1, 1}}), name("add"), view(2, 0, {kTileRows, kUnit}), integer(1), boolean(true)}, 56));
  // A gather: vector_offset on an HBM pattern, the index tile whole.
  GivenValue gather = view(0, 0, {{64, 128}, kUnit});
  gather.view.indirect = IndirectKind::vector;
  gather.view.index = {view(5, 0, {{1, 128}, {1, 1}}).view};
  CHECK(add(b, "dma_copy", {"dst", "src"}, {view(2, 0, {kTileRows, kUnit}), gather}, 57));
  CHECK(add(b, "dma_copy", {"dst", "src"}, {view(1, 32, {kHbmRows, kUnit}), view(3, 0, {kTileRows, kUnit})}, 60));
  const std::optional<Program> built = b.finish();
  REQUIRE(built);

  const Program text = asm_test::assemble_ok(std::string(kText) +
                                             ".loc 40\n"
                                             "dma_copy dst=t, src=a[128:256, 32:64], oob_mode=error\n"
                                             "dma_copy dst=u, src=a[0:128, 0:64:2]\n"
                                             "dma_copy dst=u, src=a.ap(pattern=[[0, 128], [1, 32]], offset=0)\n"
                                             ".loc 50\n"
                                             "tensor_tensor dst=t, data1=t, data2=u, op=add\n"
                                             "tensor_scalar dst=u, data=t, op0=multiply, operand0=3\n"
                                             "tensor_scalar dst=u, data=t, op0=maximum, operand0=fp32.min\n"
                                             "tensor_scalar dst=u, data=t, op0=subtract, operand0=0.1, reverse0=true\n"
                                             "memset dst=u, value=-2.5e-07\n"
                                             "tensor_reduce dst=c, op=max, data=t, axis=[1], keepdims=true\n"
                                             "tensor_reduce dst=c, op=add, data=t, axis=1, keepdims=true\n"
                                             "dma_copy dst=t, src=a.ap(pattern=[[64, 128], [1, 32]], offset=0, vector_offset=ix, indirect_dim=0)\n"
                                             ".loc 60\n"
                                             "dma_copy dst=o[0:128, 32:64], src=u\n");
  CHECK(built->tensors == text.tensors);
  REQUIRE(built->instructions.size() == text.instructions.size());
  for (std::size_t i = 0; i < text.instructions.size(); ++i) {
    INFO("instruction " << i);
    CHECK(built->instructions[i] == text.instructions[i]);
    for (std::size_t k = 0; k < text.instructions[i].operands.size(); ++k) {
      INFO("operand " << k);
      CHECK(built->instructions[i].operands[k] == text.instructions[i].operands[k]);
    }
  }
  CHECK(*built == text);
}

TEST_CASE("program builder: what the assembler would refuse is refused") {
  // An instruction the builder does not take, after which it builds nothing.
  auto refuses = [](auto&& add_one) {
    ProgramBuilder b(asm_test::spec(), nullptr);
    declare_all(b);
    const bool taken = add_one(b);
    return !taken && !b.finish();
  };
  const GivenValue t = view(2, 0, {kTileRows, kUnit}), u = view(3, 0, {kTileRows, kUnit});
  // Mnemonic and keys: no form.
  ProgramBuilder forms(asm_test::spec(), nullptr);
  CHECK_FALSE(forms.form("dma_cpy", std::vector<std::string_view>{"dst", "src"}));
  CHECK_FALSE(forms.form("dma_copy", std::vector<std::string_view>{"dst", "source"}));
  CHECK_FALSE(forms.form("dma_copy", std::vector<std::string_view>{"dst", "dst"}));
  CHECK(forms.form("dma_copy", std::vector<std::string_view>{"src", "dst"}));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "dma_copy", {"dst"}, {t}, 1); }));  // src is required
  // A value of the wrong kind for its key.
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "tensor_tensor", {"dst", "data1", "data2", "op"}, {t, t, u, name("plus")}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "tensor_tensor", {"dst", "data1", "data2", "op"}, {t, t, u, integer(0)}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "memset", {"dst", "value"}, {t, name("add")}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "memset", {"dst", "value"}, {t, boolean(true)}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "memset", {"dst", "value"}, {integer(0), integer(0)}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "memset", {"dst", "value"}, {t, number("1.5.5")}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "memset", {"dst", "value"}, {t, number("a_name")}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) {
    return add(b, "tensor_reduce", {"dst", "op", "data", "axis"}, {view(4, 0, {{1, 128}, {1, 1}}), name("add"), t, number("1.0")}, 1);
  }));
  // The checker's rules: shapes that differ, a view outside its tensor, a bad source line.
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "tensor_tensor", {"dst", "data1", "data2", "op"}, {t, t, view(4, 0, {{1, 128}, {1, 1}}), name("add")}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "dma_copy", {"dst", "src"}, {t, view(0, 200 * 64, {kHbmRows, kUnit})}, 1); }));
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "dma_copy", {"dst", "src"}, {t, u}, 0); }));
  // A pattern the text could not write: a count of 0.
  CHECK(refuses([&](ProgramBuilder& b) { return add(b, "dma_copy", {"dst", "src"}, {t, view(0, 0, {kHbmRows, {1, 0}})}, 1); }));
  // Declarations: a name the text could not write, a name taken, a shape the checker refuses, a role on a tile.
  for (const TensorDecl& bad : {decl("a b", Memory::hbm, Dtype::f32, {4}, Role::input, 0, 9), decl("a", Memory::hbm, Dtype::f32, {4}, Role::input, 0, 9),
                                decl("z", Memory::sbuf, Dtype::f32, {129, 4}, Role::none, 0, 9), decl("z", Memory::sbuf, Dtype::f32, {4, 4}, Role::input, 0, 9)}) {
    ProgramBuilder b(asm_test::spec(), nullptr);
    declare_all(b);
    CHECK_FALSE(b.declare(bad));
    CHECK_FALSE(b.finish());
  }
  ProgramBuilder b(asm_test::spec(), nullptr);
  CHECK_FALSE(b.set_arch("trn9"));
}

TEST_CASE("slices_of_pattern: slices exactly where they name the same elements (nisa.nki's rule for its text)") {
  std::vector<DimSlice> s;
  const std::vector<int64_t> hbm{256, 64}, tile{128, 32};
  CHECK(slices_of_pattern(hbm, false, 0, std::vector<PatternDim>{{64, 256}, {1, 64}}, s));
  CHECK(s == std::vector<DimSlice>{{0, 256, 1}, {0, 64, 1}});
  CHECK(slices_of_pattern(hbm, false, 130 * 64 + 8, std::vector<PatternDim>{{128, 10}, {3, 5}}, s));
  CHECK(s == std::vector<DimSlice>{{130, 10, 2}, {8, 5, 3}});
  CHECK(slices_of_pattern(hbm, false, 5, std::vector<PatternDim>{{999, 1}, {1, 1}}, s));  // a count of 1 takes any stride
  CHECK(s == std::vector<DimSlice>{{0, 1, 1}, {5, 1, 1}});
  CHECK(slices_of_pattern(tile, true, 4 * 32, std::vector<PatternDim>{{32, 8}, {2, 16}}, s));
  CHECK(s == std::vector<DimSlice>{{4, 8, 1}, {0, 16, 2}});
  // Only a pattern says these: a step on a tile's partitions, a broadcast,
  // a backward step, a stride that is not a whole number of rows, a view past
  // the end of a dimension, a rank other than the tensor's, a negative offset.
  CHECK_FALSE(slices_of_pattern(tile, true, 0, std::vector<PatternDim>{{64, 64}, {1, 32}}, s));
  CHECK(slices_of_pattern(hbm, false, 0, std::vector<PatternDim>{{128, 128}, {1, 64}}, s));  // HBM rows may step
  CHECK_FALSE(slices_of_pattern(hbm, false, 0, std::vector<PatternDim>{{0, 128}, {1, 64}}, s));
  CHECK_FALSE(slices_of_pattern(hbm, false, 63, std::vector<PatternDim>{{64, 4}, {-1, 64}}, s));
  CHECK_FALSE(slices_of_pattern(hbm, false, 0, std::vector<PatternDim>{{96, 2}, {1, 64}}, s));
  CHECK_FALSE(slices_of_pattern(hbm, false, 8, std::vector<PatternDim>{{64, 4}, {1, 57}}, s));
  CHECK_FALSE(slices_of_pattern(hbm, false, 0, std::vector<PatternDim>{{1, 64 * 256}}, s));
  CHECK_FALSE(slices_of_pattern(hbm, false, -64, std::vector<PatternDim>{{64, 4}, {1, 64}}, s));
}

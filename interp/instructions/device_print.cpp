// device_print print_prefix, tensor (DMA; SEMANTICS S15.1): writes to the
// machine's print output one line "FILE:LINE: PREFIX DTYPE [SHAPE]", then the
// tensor's values as NumPy prints the array that `nisa run --dump` would write
// of them (array_text.hpp: bf16, tf32 and fp8 as float32, the mx types as
// their bits), then an empty line. It runs in program order like every step,
// so it shows the values at its place in the program; it reads the tensor
// (dead stores count it, --strict checks the read) and writes nothing.
#include <string>

#include "array_text.hpp"
#include "instructions.hpp"
#include "npy.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::device_print;

// Pointers into the program, which outlives its steps. The line is the
// step's own: steps at different lines are then different bytes, never
// shared (SharedSteps), so each prints its own line.
struct PrintParams {
  const std::string* prefix = nullptr;
  const std::string* file = nullptr;
  const TensorView* view = nullptr;  // its shape is the printed one
  uint32_t line = 0;
  uint32_t unused = 0;  // no padding bytes (steps are compared byte for byte)
};

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s(1, '[');
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

void run(const Step& s, Machine& m) {
  if (m.print_output == nullptr) return;
  const PrintParams& p = s.params<PrintParams>();
  const TileAccess& t = *s.in[0];
  const std::vector<int64_t> shape = view_counts(*p.view);
  std::string text = *p.file;
  text += ':';
  text += std::to_string(p.line);
  text += ": ";
  if (!p.prefix->empty()) {
    text += *p.prefix;
    text += ' ';
  }
  text += dtype_name(t.dtype);
  text += ' ';
  text += shape_text(shape);
  text += '\n';
  // Element `flat` of the view in row-major order: partition (dimension 0)
  // flat / elements, free element flat % elements.
  const auto size = static_cast<std::size_t>(t.element_size);
  text += numpy_array_text(npy_type_of(t.dtype), shape, [&](int64_t flat, uint8_t* out) {
    npy_data_from_storage(t.dtype, {element_address(t, flat / t.elements, flat % t.elements), size}, out);
  });
  text += "\n\n";
  m.print_output->write(text);
}

// --strict: the tensor is read (S1.1 applies to it); nothing is written.
const TileAccess* no_result(const Step& s) { return s.in[0]; }
void writes_nothing(const Step&, std::vector<uint8_t*>&) {}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* t = c.tile(slot::tensor);
  s.in[0] = t;
  s.inputs = 1;
  s.partitions = t->partitions;
  s.elements = t->elements;
  s.row_length = t->row_length;
  PrintParams p;
  p.prefix = &c.program.strings[static_cast<std::size_t>(c.operand(slot::print_prefix).integer)];
  p.file = &c.program.file;
  p.view = &c.operand(slot::tensor).view;
  p.line = c.instruction.line;
  s.set_params(p);
  s.run = run;
}

}  // namespace

const InstructionSemantics device_print_semantics{decode, {.written_elements = writes_nothing, .result_tile = no_result}};

}  // namespace nisa

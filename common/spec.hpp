// The ISA spec (isa-spec/isa.json) loaded into plain structs. This is the one
// description of every instruction: the assembler's checks, the encoder, the
// decoder, the disassembler and `nisa isa` all walk these tables. Loading
// validates the JSON and names the JSON path of any defect (SpecError).
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cost_formula.hpp"
#include "dtype.hpp"

namespace nisa {

class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Memory : uint8_t { hbm, sbuf, psum };
enum class Engine : uint8_t { tensor, vector, scalar, gpsimd, dma };
inline constexpr int kEngineCount = 5;
std::string_view memory_name(Memory m);
std::string_view engine_name(Engine e);

// tensor_list: a bracketed list of tensor views (NKI 0.6 dma_compute's srcs),
// each checked like a tensor operand; its count range is list_min/max_count.
// string: a quoted text of one line (device_print's print_prefix), kept in
// the program's string table (Program::strings); never has a default.
// reg: a sequencer register (SEMANTICS S17, `.reg`); reg_or_int: a register
// or an integer in [int_min, int_max] (NKI: "int or VirtualRegister").
enum class OperandKind : uint8_t { tensor, scalar, tensor_or_scalar, enumeration, boolean, integer, list, tensor_list, string, reg, reg_or_int };
std::string_view operand_kind_name(OperandKind k);

struct ArchSpec {
  std::string name;
  int version = 0;               // NeuronCore-vN
  std::string neuroncore;        // "NeuronCore-v3"
  int64_t sbuf_partition_bytes = 0;
  int64_t psum_partition_bytes = 0;
  int64_t psum_bank_bytes = 0;
  double clock_ghz[kEngineCount] = {};  // indexed by Engine
  // Physical NeuronCores one logical core (LNC) may have: trn2 and trn3 run
  // LNC=2 (two cores with private SBUF/PSUM sharing HBM), the others one.
  int max_cores = 1;

  bool operator==(const ArchSpec&) const = default;
};

struct EngineSpec {
  Engine engine{};
  std::vector<Memory> memories;
  bool partition_alignment = false;  // S1.5

  bool operator==(const EngineSpec&) const = default;
};

// NKI's operator classes (nki.api.shared.rst, "Supported Math Operators"):
// bitvec operators act on the integer bit patterns of integer tiles, the
// arithmetic ones in float32 (S2.1); `none` (bypass) goes with either.
enum class OpClass : uint8_t { arithmetic, bitvec, none };

struct EnumValueSpec {
  std::string name;
  std::vector<std::string> aliases;
  OpClass op_class = OpClass::arithmetic;
  bool unary = false;  // an operator that ignores its second input (abs, invert, ...)

  bool operator==(const EnumValueSpec&) const = default;
};

struct EnumSpec {
  std::string name;  // "compare", "alu", "reduce", "reduce_cmd", "activation"
  std::vector<EnumValueSpec> values;
  // Index of a value by its name or alias, or -1.
  int find(std::string_view name_or_alias) const;

  bool operator==(const EnumSpec&) const = default;
};

// Scalar/int/enum/bool default of an optional operand, already resolved.
struct DefaultValue {
  double number = 0;  // scalar (float32-rounded) or integer
  int enum_index = -1;
  bool boolean = false;

  bool operator==(const DefaultValue&) const = default;
};

// One position of a list operand's entries: `axis=[1, 2]` has entries of one
// item ("axis"); `pattern=[[1, 64]]` entries of two ("step", "num").
struct ListItemSpec {
  std::string name;
  int64_t min = 0, max = 0;  // range of every integer at this position

  bool operator==(const ListItemSpec&) const = default;
};

struct OperandSpec {
  std::string name;
  OperandKind kind{};
  bool required = false;
  std::optional<DefaultValue> default_value;  // optional operand with a default
  std::vector<Memory> memories;               // tensor kinds
  uint32_t dtype_mask = 0;                    // tensor kinds: bit i = Dtype i allowed
  int enum_id = -1;                           // enumeration: index into Spec::enums
  uint64_t enum_allowed_mask = 0;             // enumeration: allowed value indices
  std::optional<float> only_scalar;           // scalar that may take just this value
  int64_t int_min = 0, int_max = 0;           // integer range
  int integer_if_dtype_of = -1;  // scalar is an exact int32 when this operand's dtype is an integer
  int integer_if_bitvec = -1;    // ... or when this enum operand is a bitvec operator
  uint64_t bitvec_mask = 0;      // integer_if_bitvec: that enum's bitvec value indices
  bool indirect = false;         // tensor: may be an HBM access pattern with vector_offset/scalar_offset
  bool tensor_indirect = false;  // tensor: may be an .indirect(IDX) view (NKI 0.6 Tensor Indirection, NeuronCore-v4)
  std::vector<ListItemSpec> list_items;  // list: the items of one entry (1: a flat list)
  int64_t list_min_count = 0, list_max_count = 0;  // list: number of entries
  std::string description;
  std::string dtypes_text;       // as written in the spec, for `nisa isa`
  // "since": the NKI version (index into Spec::nki_versions) that added the
  // operand; a program for an older version may not give it (LANGUAGE.md 2.1 `.nki`).
  int since_nki = 0;

  bool optional_without_default() const { return !required && !default_value; }
  bool allows_dtype(Dtype t) const { return (dtype_mask >> static_cast<int>(t)) & 1u; }
  bool allows_memory(Memory m) const;
  bool allows_enum_value(int index) const { return (enum_allowed_mask >> index) & 1u; }

  bool operator==(const OperandSpec&) const = default;
};

// Cross-operand checks; which ones apply to an instruction is data in the spec.
enum class CheckKind : uint8_t {
  same_shape,            // a, b: equal partition count and elements per partition (S1.4)
  same_partitions,       // a, b: equal physical partition start and count (accumulator lanes)
  same_dtype,            // a, b: equal dtype (b may be a scalar: then no check)
  same_dtype_if_tensors, // a, b: equal dtype when both are tensors
  same_dtype_if_mx,      // a, b: equal dtype when either is an MX dtype (bits, never converted)
  column_of,             // a is [P, 1] with b's partition count (when a is a tensor)
  one_more_element,      // a has exactly one more element per partition than b
  not_both_in,           // a and b not both in `memory`
  allowed_pairs,         // (a, b) enum values among `pairs`
  requires_operand,      // if a is/is_not one of `values`, then b is present (and not `then_not`)
  index_below,           // |a + i| < limit for every free index i of b
  op_class,              // `ops` (enum operands) share one OpClass; bitvec: `integer_if_bitvec` tensors are
                         // integer and `false_if_bitvec` bools false; arithmetic: `float_if_arithmetic` are float
  exclusive,             // no operand of `group_a` given together with one of `group_b`
  pattern_covers,        // list a of [step, num] entries: product of num = elements per partition of b
  reduced_by_axes,       // a is b reduced over the free axes in list operand `axes` (all free axes if absent)
  on_engine,             // when the selected engine is one of `values` (Engine): `group_a` tensors in `memory`
                         // (if memory_given), each at most `limit` partitions and elements (if limit > 0), and the
                         // arch at least version `then_not` (if > 0)
  transpose_of,          // a is b transposed: a's partitions = b's elements per partition and the reverse
  matmul,                // group_a = dst, stationary, moving, tile_position, tile_size, perf_mode, is_transpose:
                         // NKI 0.6 nc_matmul's shape, tiling, PSUM and dtype rules (program_check.cpp)
  partition_reduced,     // a is [1, ...] with b's elements per partition (b reduced across its partitions)
  element_count,         // a (one operand, "operand"): elements per partition in [min, max], a multiple of
                         // `multiple_of`, and (when `partitions` > 0) exactly that many partitions
  elements_times,        // a has `factor` times as many elements per partition as b
  int_at_least_elements, // int a >= elements per partition of b
  int_at_most_elements,  // int a <= `factor` * elements per partition of b
  transposed_by_axes,    // a is b with its axes permuted by list operand `axes` (dma_transpose: by b's rank if absent)
  shuffle_quadrants,     // a, b: nc_stream_shuffle's quadrant starts, equal free elements, list `axes` (the mask) in range
  local_gather_layout,   // a (dst), b (index): 16-partition cores, a's elements = int `count` * int `width`
  dma_compute_sources,   // a (dst), b (tensor_list srcs): every src has a's shape; list `axes` (scales) has one entry per
                         // src; bool `count` (unique_indices) is true; with a vector_offset/scalar_offset view, exactly 2 srcs
  rng_state_shape,       // a holds XORWOW states: [P, 6] gpsimd / [P, 24] vector by enum `engine`; [1, 1] (a seed) without
  // issue 13, MX (S13):
  mx_scale,              // a (packed data, P a multiple of 32), b (its scales): b has a's elements and covers partition 32 * (P/32 - 1) + 3
  mx_matmul,             // a (dst), b (stationary): a's partitions = b's elements, b's elements even and <= 128
  tensor_indirection,    // a (dst), b (the input that may be indirect): NKI 0.6's base-partition rules for
                         // .indirect() views, NeuronCore-v4 only, on the engines `values` lists, no Scalar scatter to PSUM
};

struct CheckSpec {
  CheckKind kind{};
  int a = -1, b = -1;                       // operand indices
  Memory memory{};                          // not_both_in
  std::vector<std::pair<int, int>> pairs;   // allowed_pairs: enum indices
  std::vector<int> values;                  // requires_operand: enum index or bool (0/1) of a; on_engine, tensor_indirection: engines
  bool values_negated = false;              // requires_operand: "is_not" instead of "is"
  int then_not = -1;                        // requires_operand: enum index b must not take
  int64_t limit = 0;                        // index_below
  std::vector<int> ops, integer_if_bitvec, float_if_arithmetic, false_if_bitvec;  // op_class
  bool if_given = false;                    // requires_operand: "if a is given" (any value)
  std::vector<int> then_is;                 // requires_operand: enum indices b must take (any if empty)
  std::vector<int> group_a, group_b;        // exclusive; on_engine: operands (a), operands refused (b)
  int axes = -1;                            // reduced_by_axes, transposed_by_axes: the list operand; shuffle_quadrants: the mask
  bool memory_given = false;                // on_engine: `memory` applies
  int64_t min = 1, max = 1, multiple_of = 1, partitions = 0, partitions_multiple_of = 1;  // element_count
  int64_t factor = 1;                       // elements_times
  int count = -1, width = -1;               // local_gather_layout: the int operands
  int engine = -1;                          // rng_state_shape: the engine enum operand (-1: a [1, 1] seed)

  bool operator==(const CheckSpec&) const = default;
};

struct FieldSpec {
  int operand = -1;  // index into InstructionSpec::operands
  int bits = 0;      // list: bits of each integer
  int count_bits = 0;  // list, tensor_list: bits of the entry count before the integers / views

  bool operator==(const FieldSpec&) const = default;
};

struct CostCase {
  std::vector<int> operands;  // all of these in `memory`
  Memory memory{};
  std::string cycles;
  CostFormula formula;  // `cycles` compiled

  bool operator==(const CostCase&) const = default;
};

struct CostSpec {
  std::string cycles;  // formula over N, BYTES, P and the spec's cost constants
  bool estimate = false;
  std::vector<CostCase> cases;
  std::vector<std::pair<int, std::string>> extra_if_present;  // operand, extra cycles
  // Compiled at load (S6), so nothing parses formulas per instruction.
  CostFormula formula;                      // `cycles`
  std::vector<CostFormula> extra_formulas;  // parallel to extra_if_present
  int size_of = -1;  // operand whose view gives N, BYTES and P; -1: none (a sequencer instruction without a tensor)
  // Data dependencies for the timeline, resolved from the spec's
  // "cost"/"timeline" section: operands written (all other tensors are read),
  // the accumulator command operand and its idle value, the accumulator result.
  std::vector<int> written;
  int accumulator_command = -1;
  int accumulator_idle = -1;
  int accumulator_result = -1;

  bool operator==(const CostSpec&) const = default;
};

enum class CrossCore : uint8_t { none, pair, barrier };

// SEMANTICS S17: an instruction of the engine sequencers rather than of an
// engine's datapath: a register operation, or the start or end of a runtime
// loop (the only instructions that change what runs next).
enum class Sequencer : uint8_t { none, reg, fori_loop, while_loop, end_loop };
// NKI 0.6 register_alloc: "64x 32-bit registers per engine sequencer"; each
// register a program declares lives in every sequencer, so a core has 64.
inline constexpr int kMaxRegisters = 64;
inline bool starts_loop(Sequencer s) { return s == Sequencer::fori_loop || s == Sequencer::while_loop; }

struct InstructionSpec {
  std::string name;
  int opcode = 0;
  Engine engine{};
  int first_arch_version = 0;
  std::string first_arch;  // arch name as written in the spec
  std::string description;
  std::vector<OperandSpec> operands;
  std::vector<CheckSpec> checks;
  std::vector<FieldSpec> encoding;  // every operand exactly once, in encoding order
  CostSpec cost;
  // An instruction that runs on the engine its program names (NKI's engine=
  // operand of tensor_copy, nc_transpose): that enum operand, and per value
  // of its enum the Engine it selects (-1: `engine`, the default).
  int engine_operand = -1;
  std::vector<int> engine_of_value;
  // "writes_whole_outputs": every written operand (cost.written) is written in
  // full whatever the data, and the instruction has no other effect than
  // those writes and its accumulator command (no runtime fault, no engine
  // state such as the random generators). A run may then skip it when all it
  // writes is overwritten before anything reads it (interp/schedule/dead_stores.hpp).
  bool writes_whole_outputs = false;
  // "partitions_independent": partition p of what it writes depends only on
  // partition p of what it reads and on accumulator lane p, so a run may
  // compute partition ranges apart (interp/schedule/partition_split.hpp).
  bool partitions_independent = false;
  // "cross_core": how the instruction meets the program's other cores
  // (SEMANTICS S16): pair = sendrecv (one exchange between two cores, matched
  // in program order), barrier = core_barrier (every core named waits for the
  // others). none for everything else.
  CrossCore cross_core = CrossCore::none;
  // "sequencer": register (register_move/load/store/op), fori_loop,
  // while_loop, end_loop; none for the engines' instructions.
  Sequencer sequencer = Sequencer::none;

  int find_operand(std::string_view name) const;  // -1 if none

  bool operator==(const InstructionSpec&) const = default;
};

struct DtypeSpec {
  Dtype dtype{};
  std::string name;
  std::vector<std::string> aliases;
  std::size_t size = 0;

  bool operator==(const DtypeSpec&) const = default;
};

struct SliceEncoding {
  int start_bits = 0, count_bits = 0, step_bits = 0;

  bool operator==(const SliceEncoding&) const = default;
};

// An access pattern (LANGUAGE.md 2.3): offset, then (entries - 1) in
// dims_bits, then per entry a signed step and a num.
struct PatternEncoding {
  int offset_bits = 0, dims_bits = 0, step_bits = 0, num_bits = 0, indirect_dim_bits = 0;

  bool operator==(const PatternEncoding&) const = default;
};

struct Spec {
  int format = 0;
  std::string name;
  std::vector<ArchSpec> archs;
  int default_arch = 0;
  // The NKI versions whose instruction forms the spec describes, oldest first
  // ("0.6", "0.7"): a program targets one (`.nki`, LANGUAGE.md 2.1), and an
  // instruction's form may depend on it (an operand's "since").
  std::vector<std::string> nki_versions;
  int default_nki = 0;  // for a .nasm program without `.nki`
  int partitions = 128;
  std::vector<EngineSpec> engines;  // indexed by Engine
  std::vector<DtypeSpec> dtypes;    // indexed by Dtype
  std::vector<EnumSpec> enums;
  std::vector<InstructionSpec> instructions;
  // nki.isa (NKI 0.6) functions that nisa does not model yet: the assembler
  // names them as such instead of suggesting a different instruction.
  std::vector<std::string> nki_not_modeled;
  // nki.isa names that .nasm spells otherwise ("register_alloc" -> ".reg
  // NAME"): the assembler says how, rather than suggesting a near name.
  std::vector<std::pair<std::string, std::string>> nki_spelled_otherwise;
  int opcode_bits = 0;
  SliceEncoding slice_encoding;
  PatternEncoding pattern_encoding;
  std::vector<std::pair<std::string, double>> cost_constants;  // MIN_II, FIXED, ...
  // Cycles (of the waiting engine) an instruction pays before it starts when it
  // waits for a result of another engine (S6: "dependent instructions").
  CostFormula cross_engine_wait;
  uint64_t id = 0;     // FNV-1a 64 of the canonical JSON text; stamped into every .nbin
  std::string json;    // the canonical JSON text (for `nisa isa --json`)

  int find_arch(std::string_view name) const;              // -1 if none
  int find_nki_version(std::string_view name) const;       // -1 if none
  int find_instruction(std::string_view name) const;       // -1 if none
  bool is_nki_not_modeled(std::string_view name) const;
  int find_opcode(int opcode) const;                       // -1 if none
  int find_enum(std::string_view name) const;              // -1 if none
  std::optional<Dtype> find_dtype(std::string_view name_or_alias) const;
  const EngineSpec& engine(Engine e) const { return engines[static_cast<int>(e)]; }
  std::optional<double> cost_constant(std::string_view name) const;

  bool operator==(const Spec&) const = default;
};

// Parses and validates a spec. Throws SpecError("isa-spec: <json path>: <reason>").
Spec load_spec(std::string_view json_text);

// The spec compiled into the executable (isa-spec/isa.json at build time).
std::string_view embedded_spec_text();

// The active spec: the embedded one, or the file named by --spec / NISA_SPEC.
const Spec& active_spec();
void set_active_spec_file(const std::string& path);  // throws SpecError

// The spec id (recorded in every .nbin): FNV-1a 64 of the spec's canonical JSON dump.
uint64_t spec_id_of(std::string_view canonical_json);
std::string spec_id_hex(uint64_t id);

}  // namespace nisa

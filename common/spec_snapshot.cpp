// Spec <-> snapshot bytes (spec_snapshot.hpp). One field list per struct,
// walked by the writer and by the reader, so the two cannot disagree; a
// field missing from a list shows up as a difference in the test that
// compares the snapshot with load_spec (tests/common/spec_test.cpp).
#include "spec_snapshot.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace nisa {

namespace {

// Bumped whenever a field list changes; the reader refuses other versions.
constexpr uint64_t kSnapshotMagic = 0x3350414e53534e4eull;  // "NNSSNAP3"

template <class V> void fields(V& v, CostFormula::Step& s) { v(s.op), v(s.value), v(s.arity); }
template <class V> void fields(V& v, CostFormula& f) { v(f.text), v(f.code); }
template <class V> void fields(V& v, ArchSpec& a) {
  v(a.name), v(a.version), v(a.neuroncore), v(a.sbuf_partition_bytes), v(a.psum_partition_bytes), v(a.psum_bank_bytes), v(a.clock_ghz), v(a.max_cores);
}
template <class V> void fields(V& v, EngineSpec& e) { v(e.engine), v(e.memories), v(e.partition_alignment); }
template <class V> void fields(V& v, EnumValueSpec& e) { v(e.name), v(e.aliases), v(e.op_class), v(e.unary); }
template <class V> void fields(V& v, EnumSpec& e) { v(e.name), v(e.values); }
template <class V> void fields(V& v, DefaultValue& d) { v(d.number), v(d.enum_index), v(d.boolean); }
template <class V> void fields(V& v, ListItemSpec& l) { v(l.name), v(l.min), v(l.max); }
template <class V> void fields(V& v, OperandSpec& o) {
  v(o.name), v(o.kind), v(o.required), v(o.default_value), v(o.memories), v(o.dtype_mask), v(o.enum_id), v(o.enum_allowed_mask),
      v(o.only_scalar), v(o.int_min), v(o.int_max), v(o.integer_if_dtype_of), v(o.integer_if_bitvec), v(o.bitvec_mask), v(o.indirect), v(o.tensor_indirect), v(o.list_items),
      v(o.list_min_count), v(o.list_max_count), v(o.description), v(o.dtypes_text), v(o.since_nki);
}
template <class V> void fields(V& v, CheckSpec& c) {
  v(c.kind), v(c.a), v(c.b), v(c.memory), v(c.pairs), v(c.values), v(c.values_negated), v(c.then_not), v(c.limit);
  v(c.ops), v(c.integer_if_bitvec), v(c.float_if_arithmetic), v(c.false_if_bitvec);
  v(c.if_given), v(c.then_is), v(c.group_a), v(c.group_b), v(c.axes), v(c.memory_given);
  v(c.min), v(c.max), v(c.multiple_of), v(c.partitions), v(c.partitions_multiple_of), v(c.factor);  // element_count, elements_times, int_*
  v(c.count), v(c.width), v(c.engine);  // issue 13: local_gather_layout, rng_state_shape
}
template <class V> void fields(V& v, FieldSpec& f) { v(f.operand), v(f.bits), v(f.count_bits); }
template <class V> void fields(V& v, CostCase& c) { v(c.operands), v(c.memory), v(c.cycles), v(c.formula); }
template <class V> void fields(V& v, CostSpec& c) {
  v(c.cycles), v(c.estimate), v(c.cases), v(c.extra_if_present), v(c.formula), v(c.extra_formulas), v(c.size_of), v(c.written),
      v(c.accumulator_command), v(c.accumulator_idle), v(c.accumulator_result);
}
template <class V> void fields(V& v, InstructionSpec& i) {
  v(i.name), v(i.opcode), v(i.engine), v(i.first_arch_version), v(i.first_arch), v(i.description), v(i.operands), v(i.checks),
      v(i.encoding), v(i.cost), v(i.engine_operand), v(i.engine_of_value), v(i.writes_whole_outputs), v(i.partitions_independent), v(i.cross_core),
      v(i.sequencer);
}
template <class V> void fields(V& v, DtypeSpec& d) { v(d.dtype), v(d.name), v(d.aliases), v(d.size); }
template <class V> void fields(V& v, SliceEncoding& s) { v(s.start_bits), v(s.count_bits), v(s.step_bits); }
template <class V> void fields(V& v, PatternEncoding& s) { v(s.offset_bits), v(s.dims_bits), v(s.step_bits), v(s.num_bits), v(s.indirect_dim_bits); }
template <class V> void fields(V& v, Spec& s) {
  v(s.format), v(s.name), v(s.archs), v(s.default_arch), v(s.nki_versions), v(s.default_nki), v(s.partitions), v(s.engines), v(s.dtypes), v(s.enums), v(s.instructions),
      v(s.nki_not_modeled),
      v(s.opcode_bits), v(s.slice_encoding), v(s.pattern_encoding), v(s.cost_constants), v(s.cross_engine_wait), v(s.id), v(s.json);
}

template <class T>
constexpr bool kPlain = std::is_arithmetic_v<T> || std::is_enum_v<T>;

struct Writer {
  std::string out;

  template <class T>
  void raw(const T& value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void operator()(const std::string& s) {
    raw(static_cast<uint64_t>(s.size()));
    out.append(s);
  }
  template <class T>
    requires kPlain<T>
  void operator()(const T& value) {
    raw(value);
  }
  template <class T, std::size_t N>
  void operator()(const T (&a)[N]) {
    for (const T& x : a) (*this)(x);
  }
  template <class T>
  void operator()(const std::vector<T>& v) {
    raw(static_cast<uint64_t>(v.size()));
    for (const T& x : v) (*this)(x);
  }
  template <class T>
  void operator()(const std::optional<T>& o) {
    (*this)(o.has_value());
    if (o) (*this)(*o);
  }
  template <class A, class B>
  void operator()(const std::pair<A, B>& p) {
    (*this)(p.first);
    (*this)(p.second);
  }
  template <class T>
    requires(!kPlain<T>)
  void operator()(const T& s) {
    fields(*this, const_cast<T&>(s));  // the writer only reads
  }
};

struct Reader {
  std::string_view in;
  bool ok = true;

  template <class T>
  void raw(T& value) {
    if (in.size() < sizeof value) {
      ok = false;
      value = T{};
      return;
    }
    std::memcpy(&value, in.data(), sizeof value);
    in.remove_prefix(sizeof value);
  }
  // A count no larger than the bytes left (every element takes at least one).
  std::size_t count() {
    uint64_t n = 0;
    raw(n);
    if (n > in.size()) {
      ok = false;
      return 0;
    }
    return static_cast<std::size_t>(n);
  }
  void operator()(std::string& s) {
    const std::size_t n = count();
    s.assign(in.substr(0, n));
    in.remove_prefix(n);
  }
  template <class T>
    requires kPlain<T>
  void operator()(T& value) {
    raw(value);
  }
  template <class T, std::size_t N>
  void operator()(T (&a)[N]) {
    for (T& x : a) (*this)(x);
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    v.resize(count());
    for (T& x : v) (*this)(x);
  }
  template <class T>
  void operator()(std::optional<T>& o) {
    bool present = false;
    (*this)(present);
    if (present) (*this)(o.emplace());
    else o.reset();
  }
  template <class A, class B>
  void operator()(std::pair<A, B>& p) {
    (*this)(p.first);
    (*this)(p.second);
  }
  template <class T>
    requires(!kPlain<T>)
  void operator()(T& s) {
    fields(*this, s);
  }
};

}  // namespace

std::string write_spec_snapshot(const Spec& spec) {
  Writer w;
  w(kSnapshotMagic);
  w(spec);
  return std::move(w.out);
}

std::optional<Spec> read_spec_snapshot(std::string_view bytes) {
  Reader r{bytes};
  uint64_t magic = 0;
  r(magic);
  if (!r.ok || magic != kSnapshotMagic) return std::nullopt;
  Spec spec;
  r(spec);
  if (!r.ok || !r.in.empty()) return std::nullopt;
  return spec;
}

}  // namespace nisa

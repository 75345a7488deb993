// `MNEMONIC key=value, ...` resolved against the spec's operand list
// (LANGUAGE.md 2.3), then checked by check_instruction. Every error of the
// line is reported: each bad key at its column, instruction-level problems
// at the mnemonic.
#include "diagnostics.hpp"
#include "line_parsers.hpp"
#include "operand_values.hpp"
#include "program_check.hpp"

namespace nisa {

namespace {

// Splits the tokens after the mnemonic at top-level commas into `items`. A
// malformed item is reported and skipped.
void split_key_values(const std::vector<Token>& tokens, DiagnosticList& diags, int line, std::vector<KeyValue>& items) {
  items.clear();
  std::size_t i = 1;
  while (tokens[i].kind != TokenKind::end) {
    const std::size_t item_start = i;
    int depth = 0;
    std::size_t stop = i;
    for (; tokens[stop].kind != TokenKind::end; ++stop) {
      if (tokens[stop].kind != TokenKind::punct) continue;
      const char p = tokens[stop].text[0];
      if (p == ',' && depth == 0) break;
      if (p == '[' || p == '(') ++depth;
      if (p == ']' || p == ')') --depth;
    }
    const Token& key = tokens[item_start];
    if (key.kind != TokenKind::identifier) {
      diags.error(line, key.column, key.kind == TokenKind::punct && key.is(',') ? "expected key=value before ','" : "expected a key, got '" + std::string(key.text) + "'");
    } else if (!tokens[item_start + 1].is('=')) {
      diags.error(line, tokens[item_start + 1].column, "expected '=' after key '" + std::string(key.text) + "'");
      items.push_back(KeyValue{&key, 0, 0, Token{}, true});
    } else if (item_start + 2 == stop) {
      diags.error(line, key.column, "key '" + std::string(key.text) + "' has no value");
      items.push_back(KeyValue{&key, 0, 0, Token{}, true});
    } else {
      items.push_back(KeyValue{&key, item_start + 2, stop, Token{TokenKind::end, {}, 0, 0, tokens[stop].column}, false});
    }
    i = stop;
    if (tokens[i].is(',')) {
      ++i;
      if (tokens[i].kind == TokenKind::end) diags.error(line, tokens[i].column, "expected key=value after ','");
    }
  }
}

// "(keys: dst, data1, data2, op)", optional keys after "; optional:", so that
// a key error teaches the instruction's whole signature.
std::string accepted_keys(const InstructionSpec& is) {
  std::string required, optional;
  for (const auto& o : is.operands) {
    std::string& list = o.required ? required : optional;
    if (!list.empty()) list += ", ";
    list += o.name;
  }
  if (optional.empty()) return " (keys: " + required + ")";
  if (required.empty()) return " (optional keys: " + optional + ")";
  return " (keys: " + required + "; optional: " + optional + ")";
}

// An unknown mnemonic: an nki.isa name that nisa does not model yet is said
// to be one (a did-you-mean to a different instruction would mislead), a typo
// gets the nearest name, modeled ones first.
std::string unknown_instruction_message(const Spec& spec, std::string_view name) {
  const std::string not_modeled = "an NKI 0.6 instruction that nisa does not model yet";
  for (const auto& [nki_name, spelling] : spec.nki_spelled_otherwise)
    if (nki_name == name) return "NKI's " + nki_name + " is written " + spelling + " in .nasm";
  if (spec.is_nki_not_modeled(name)) {
    std::string message(1, '\'');
    message += name;
    message += "' is " + not_modeled + " (`nisa isa` lists the modeled ones)";
    return message;
  }
  std::vector<std::string> names;
  for (const auto& is : spec.instructions) names.push_back(is.name);
  names.insert(names.end(), spec.nki_not_modeled.begin(), spec.nki_not_modeled.end());
  for (const auto& spelled : spec.nki_spelled_otherwise) names.push_back(spelled.first);
  const std::string best = closest_name(name, names);
  std::string message = "unknown instruction '" + std::string(name) + "'";
  if (best.empty()) return message;
  message += "; did you mean '";
  message += best;
  message += "'?";
  if (spec.is_nki_not_modeled(best)) message += " (" + not_modeled + ")";
  for (const auto& [nki_name, spelling] : spec.nki_spelled_otherwise)
    if (nki_name == best) message += " (NKI's; written " + spelling + " in .nasm)";
  return message;
}

}  // namespace

void parse_instruction(AssemblyState& state, DiagnosticList& diags, const std::vector<Token>& tokens, int line) {
  const Spec& spec = state.spec;
  const Token& mnemonic = tokens[0];
  state.body_started = true;
  if (mnemonic.kind != TokenKind::identifier) {
    diags.error(line, mnemonic.column, "expected an instruction or a directive, got '" + std::string(mnemonic.text) + "'");
    return;
  }
  if (core_count(state.program) > 1 && state.current_core == TensorDecl::kShared) {
    diags.error(line, mnemonic.column, "an instruction of a program for " + std::to_string(core_count(state.program)) +
                                           " cores goes in the .core section of the core that runs it");
    return;
  }
  const int spec_index = spec.find_instruction(mnemonic.text);
  if (spec_index < 0) {
    // A .rept body repeats its unknown name every iteration: search for the
    // closest mnemonic (a comparison with every one) only the first time.
    if (!diags.reported_at(line, mnemonic.column)) diags.error(line, mnemonic.column, unknown_instruction_message(spec, mnemonic.text));
    return;
  }
  const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(spec_index)];
  bool ok = true;
  auto error = [&](int column, std::string message) {
    diags.error(line, column, std::move(message));
    ok = false;
  };
  // A refused loop still opens (S17.2), so that its end_loop is not a second error.
  auto refused = [&] {
    if (starts_loop(is.sequencer)) state.sequencer.open_refused(static_cast<uint32_t>(line));
  };

  // Keys to operand slots.
  std::vector<KeyValue>& items = state.scratch_key_values;
  split_key_values(tokens, diags, line, items);
  std::vector<int>& item_of = state.scratch_item_of;
  item_of.assign(is.operands.size(), -1);
  int previous = -1;
  for (std::size_t k = 0; k < items.size(); ++k) {
    // A full list takes no more errors: building them (a did-you-mean each)
    // for a generated line of a million bad keys only cost time.
    if (diags.full()) return;
    // Keys mostly come in spec order: try the operand after the last one first.
    const std::string_view key = items[k].key->text;
    const auto guess = static_cast<std::size_t>(previous + 1);
    const int op = guess < is.operands.size() && is.operands[guess].name == key ? static_cast<int>(guess) : is.find_operand(key);
    previous = op;
    if (op < 0) {
      std::vector<std::string> keys;
      for (const auto& o : is.operands) keys.push_back(o.name);
      error(items[k].key_column(),
            "unknown key '" + std::string(items[k].key->text) + "' for " + is.name + did_you_mean(items[k].key->text, keys) + accepted_keys(is));
    } else if (item_of[static_cast<std::size_t>(op)] >= 0) {
      error(items[k].key_column(), "duplicated key '" + std::string(items[k].key->text) + "', first given at column " +
                                     std::to_string(items[static_cast<std::size_t>(item_of[static_cast<std::size_t>(op)])].key_column()) +
                                     accepted_keys(is));
    } else {
      item_of[static_cast<std::size_t>(op)] = static_cast<int>(k);
    }
  }

  // Values in spec order, so integer_if_dtype_of sees its tensor first. The
  // scratch instruction keeps its operands' buffers from line to line.
  Instruction& ins = state.scratch_instruction;
  ins.spec_index = spec_index;
  ins.operands.resize(is.operands.size());
  bool uses_poisoned = false;
  for (std::size_t i = 0; i < is.operands.size(); ++i) {
    const OperandSpec& os = is.operands[i];
    Operand& o = ins.operands[i];
    if (item_of[i] < 0) {
      if (os.required) error(mnemonic.column, "missing required key '" + os.name + "' for " + is.name + accepted_keys(is));
      set_default_operand(state, is, static_cast<int>(i), ins.operands, o);
      continue;
    }
    const KeyValue& kv = items[static_cast<std::size_t>(item_of[i])];
    if (kv.malformed) {
      ok = false;
      reset_operand(o);
      continue;
    }
    TokenCursor cur{tokens, kv.value_begin, kv.value_end, kv.value_stop};
    try {
      resolve_operand(state, is, static_cast<int>(i), ins.operands, cur, o);
      if (o.state == OperandState::tensor && state.tensor_sites[static_cast<std::size_t>(o.view.tensor)].poisoned) uses_poisoned = true;
    } catch (const SourceError& e) {
      // LANGUAGE.md 2.3: an operand's error points at its key.
      error(kv.key_column(), e.message);
      reset_operand(o);
    }
  }
  if (!ok) return refused();

  // .loc N: this instruction records N, the next N+1, ...
  ins.line = state.next_loc ? *state.next_loc : static_cast<uint32_t>(line);
  if (state.next_loc && *state.next_loc < 0xFFFFFFFFu) ++*state.next_loc;
  if (!uses_poisoned) {
    const auto report = [&](const std::vector<CheckFailure>& failures) {
      for (const CheckFailure& f : failures) {
        const bool written = f.operand >= 0 && item_of[static_cast<std::size_t>(f.operand)] >= 0;
        error(written ? items[static_cast<std::size_t>(item_of[static_cast<std::size_t>(f.operand)])].key_column() : mnemonic.column, f.message);
      }
    };
    report(check_instruction(spec, state.program, ins));
    if (ok) report(check_on_core(spec, state.program, ins, state.instruction_core()));
    if (ok)
      if (const std::optional<CheckFailure> f = state.sequencer.add(state.instruction_core(), ins, static_cast<uint32_t>(line))) report({*f});
  }
  if (!ok) return refused();
  state.take_instruction(ins, static_cast<uint32_t>(line));
}

}  // namespace nisa

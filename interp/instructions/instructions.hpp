// One decoder per instruction (Spike style: instructions/<name>.cpp holds the
// instruction's element body and the decoder that builds its Step), and the
// table that finds them by the spec's instruction name.
#pragma once
#include <string_view>

#include "../decode_context.hpp"

namespace nisa {

using StepDecoder = void (*)(const DecodeContext&, Step&);

void decode_dma_copy(const DecodeContext& c, Step& s);
void decode_memset(const DecodeContext& c, Step& s);
void decode_iota(const DecodeContext& c, Step& s);
void decode_nonzero_with_count(const DecodeContext& c, Step& s);
void decode_tensor_copy_predicated(const DecodeContext& c, Step& s);
void decode_select_reduce(const DecodeContext& c, Step& s);
void decode_range_select(const DecodeContext& c, Step& s);
void decode_activation(const DecodeContext& c, Step& s);
void decode_activate2(const DecodeContext& c, Step& s);
void decode_tensor_scalar(const DecodeContext& c, Step& s);
void decode_tensor_tensor(const DecodeContext& c, Step& s);
void decode_tensor_reduce(const DecodeContext& c, Step& s);

// nullptr for an instruction the interpreter does not implement.
StepDecoder find_step_decoder(std::string_view instruction_name);

}  // namespace nisa

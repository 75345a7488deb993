// core_barrier data, cores, engine (SEMANTICS S16.3): the cores named wait
// for each other. Waiting is the multi-core run's business (core_run.cpp:
// the cores meet in the order cross_core.hpp found); the step itself does
// nothing, and reads or writes no memory (data only names the shared tensor).
#include "instructions.hpp"

namespace nisa {
namespace {

void waits_elsewhere(const Step&, Machine&) {}

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext&, Step& s) { s.run = waits_elsewhere; }

}  // namespace

const InstructionSemantics core_barrier_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa

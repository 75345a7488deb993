// _nisa.build_recorded: nisa.nki's recording of a kernel call made into a
// program without writing or reading .nasm text (recorded_program.cpp).
#pragma once
#include <pybind11/pybind11.h>

namespace nisa {

void define_build_recorded(pybind11::module_& m);

}  // namespace nisa

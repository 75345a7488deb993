# nisa run end to end: NumPy writes the inputs and computes the expected
# outputs independently (tests/interp/test_run.py).
add_test(NAME run_end_to_end COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_run.py ${NISA_EXE})
# The benchmark programs stay valid (run them with /usr/bin/time on a Release build).
file(GLOB bench_programs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/*.nasm)
foreach(bench ${bench_programs})
  get_filename_component(bench_name ${bench} NAME_WE)
  add_test(NAME bench_assembles_${bench_name}
           COMMAND ${NISA_EXE} asm ${bench} -o ${CMAKE_CURRENT_BINARY_DIR}/bench_${bench_name}.nbin)
endforeach()
# The AVX-512 exp against the portable one on every float32 (tests/interp/fast_kernels_test.cpp).
add_test(NAME exp_exhaustive COMMAND nisa_unit_tests --no-skip -tc=*exp16*)
# bf16 narrowing by AVX512-BF16's instruction against numbers.hpp's on every
# float32 (skipped where the CPU lacks the instruction).
add_test(NAME bf16_exhaustive COMMAND nisa_unit_tests --no-skip "-tc=*bf16 stores by instruction*")

# Golden diagnostics of `nisa asm` (tests/asm/bad/*.nasm with *.stderr).
add_test(NAME asm_golden_diagnostics
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_golden.py ${NISA_EXE} ${CMAKE_CURRENT_LIST_DIR}/bad)
# The example programs assemble.
file(GLOB example_programs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/programs/examples/*/prog.nasm)
foreach(example ${example_programs})
  get_filename_component(example_dir ${example} DIRECTORY)
  get_filename_component(example_name ${example_dir} NAME)
  add_test(NAME asm_example_${example_name}
           COMMAND ${NISA_EXE} asm ${example} -o ${CMAKE_CURRENT_BINARY_DIR}/example_${example_name}.nbin)
endforeach()

# .nbin format tests that drive the nisa executable (the in-process ones are
# the doctests in nbin_test.cpp).
add_test(NAME nbin_spec_variant COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/spec_variant.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})
add_test(NAME nbin_dis_cli COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/dis_cli.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})
add_test(NAME nbin_encoding_sizes COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/encoding_sizes.py ${NISA_EXE})

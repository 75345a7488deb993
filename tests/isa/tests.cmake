# `nisa isa`: reference generated from the spec; --json prints the spec.
add_test(NAME isa_reference COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/isa_reference.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})

# `nisa isa`: reference generated from the spec; --json prints the spec.
add_test(NAME isa_reference COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/isa_reference.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})
# docs/ISA.md is generated; this fails when it was not regenerated after a spec change.
add_test(NAME isa_docs_current COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/docs_current.py ${NISA_EXE} ${PROJECT_SOURCE_DIR}/docs/ISA.md)

# Every spec instruction has its kernel, reference module (semantics, rule,
# random emitter), SEMANTICS.md entry and NKI signature
# (instruction_coverage.py); the NKI signature is checked with the built
# Python package, when the build has one.
add_test(NAME instruction_coverage
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/instruction_coverage.py ${PROJECT_SOURCE_DIR})
if(NISA_PYTHON_PACKAGE)
  set_tests_properties(instruction_coverage PROPERTIES ENVIRONMENT "NISA_PYTHON_DIR=${CMAKE_BINARY_DIR}/python")
else()
  set_tests_properties(instruction_coverage PROPERTIES ENVIRONMENT "NISA_PYTHON_DIR=")
endif()

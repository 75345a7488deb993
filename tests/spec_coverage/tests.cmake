# Every spec instruction has its kernel, reference function, round-trip form,
# untouched-memory case and docs entry (instruction_coverage.py).
add_test(NAME instruction_coverage
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/instruction_coverage.py ${PROJECT_SOURCE_DIR})

# Runtime faults of sequencer registers and loops (SEMANTICS S17): exit 3 and
# the exact message, from .nasm and from .nbin (tests/loops/run_faults.py).
add_test(NAME loop_runtime_faults COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_faults.py ${NISA_EXE})

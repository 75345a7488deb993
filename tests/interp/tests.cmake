# nisa run end to end: NumPy writes the inputs and computes the expected
# outputs independently (tests/interp/test_run.py).
add_test(NAME run_end_to_end COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_run.py ${NISA_EXE})

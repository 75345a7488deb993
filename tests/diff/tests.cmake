# nisa diff end to end: NumPy writes the .npy pairs (tests/diff/test_diff.py).
add_test(NAME diff COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_diff.py ${NISA_EXE})

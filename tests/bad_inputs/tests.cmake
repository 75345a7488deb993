# The bad-input catalogue (tests/bad_inputs/catalogue.py): every case checks
# the exit status, the message and that no output file was left behind.
add_test(NAME bad_inputs COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/catalogue.py ${NISA_EXE})

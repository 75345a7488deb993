# The bad-input catalogue (tests/bad_inputs/catalogue.py): every case checks
# the exit status, the message and that no output file was left behind.
add_test(NAME bad_inputs COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/catalogue.py ${NISA_EXE})
# Issue 15, "outputs you can trust": what outputs do to the files they name,
# bounded reads, checked stdout (outputs.py); concurrent dumps into one folder
# (concurrent_dumps.py, 20 rounds of 10 runs); signals during a dump
# (signal_cleanup.py). Each takes under ~20 s.
add_test(NAME bad_inputs_outputs COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/outputs.py ${NISA_EXE})
add_test(NAME bad_inputs_concurrent_dumps COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/concurrent_dumps.py ${NISA_EXE} 20)
add_test(NAME bad_inputs_signal_cleanup COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/signal_cleanup.py ${NISA_EXE})
set_tests_properties(bad_inputs_concurrent_dumps bad_inputs_signal_cleanup PROPERTIES TIMEOUT 120)
# Issue 24, "a tool that never lies, hangs or destroys a file": bounded
# messages, the limits of LANGUAGE.md 2.6 counted as documented, -o - and
# a directory given as an output (limits_and_stdout.py, ~2 s; ~35 s under ASan).
add_test(NAME bad_inputs_limits_and_stdout COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/limits_and_stdout.py ${NISA_EXE})
set_tests_properties(bad_inputs_limits_and_stdout PROPERTIES TIMEOUT 300)

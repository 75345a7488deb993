# device_print from the command line (issue 27): the hand-written expected
# text of prints.nasm under every scheduling speed-up, --print-to, faults.
add_test(NAME device_print_cli COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_prints.py ${NISA_EXE})

# `nisa run --profile` / `--trace` (SEMANTICS S6): trace structure on workload
# programs, profile table, exit statuses (tests/profile/test_trace.py).
add_test(NAME profile_trace COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_trace.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})
# Runtime loops in --profile/--trace (S17.4) and --max-steps (S17.2).
add_test(NAME profile_loops COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_loop_profile.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})

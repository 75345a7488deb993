# Races on shared HBM between cores under --strict, and the fixed order's
# bytes without it (tests/races/run_races.py; SEMANTICS S16.5).
add_test(NAME core_races COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_races.py ${NISA_EXE})

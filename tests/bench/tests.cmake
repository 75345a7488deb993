# The benchmark script in its quick mode (every program with REPS = 2, one nisa
# run each): keeps bench/*.nasm, the NumPy model and the table from rotting.
# Speed is not checked here; scripts/bench does that on a quiet machine.
add_test(NAME bench_quick
         COMMAND ${NISA_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run.py --nisa ${NISA_EXE} --reps 2 --repeat 1)
set_tests_properties(bench_quick PROPERTIES TIMEOUT 60)

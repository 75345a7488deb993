# The benchmark script in its quick mode (every program with REPS = 2, one nisa
# run each): keeps bench/*.nasm, the NumPy model and the table from rotting.
# Speed is not checked here; scripts/bench does that on a quiet machine.
add_test(NAME bench_quick
         COMMAND ${NISA_PYTHON} ${PROJECT_SOURCE_DIR}/bench/run.py --nisa ${NISA_EXE} --reps 2 --repeat 1)
set_tests_properties(bench_quick PROPERTIES TIMEOUT 60)
# The bench NumPy model runs the reference model's functions (nki_ref.py) for
# what it has no fast closure for: bit for bit through its adapter, and its
# fast closures within the bench tolerance (numpy_model_reference.py).
add_test(NAME bench_model_reference
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/numpy_model_reference.py)
# Kernel calls at scale (bench/kernel_scaling.py, issue 25) at 1k instructions:
# the per-instruction NumPy simulator matches nisa's outputs, the script runs.
if(NISA_PYTHON_PACKAGE)
  add_test(NAME bench_kernel_scaling_smoke
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/kernel_scaling_smoke.py)
  set_tests_properties(bench_kernel_scaling_smoke PROPERTIES TIMEOUT 60
                       ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python")
endif()

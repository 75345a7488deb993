# The independent NumPy reference model (tests/reference): its self-tests, and
# random programs run through nisa and compared with the model's results.
add_test(NAME reference_model_selftest
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_reference_model.py)
foreach(shard RANGE 1 4)
  math(EXPR shard_seed "1000 * ${shard}")
  add_test(NAME reference_random_${shard}
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_random.py
                   --count 125 --seed ${shard_seed} --nisa ${NISA_EXE})
endforeach()

# The independent NumPy reference model (tests/reference): its self-tests, and
# random programs run through nisa and compared with the model's results.
add_test(NAME reference_model_selftest
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_reference_model.py)
# The CLI paths (.nasm, .nbin, `nisa dis` text, --strict) against the model's
# outputs. In a build with the Python package the lockstep below compares every
# instruction's values bit for bit, so these run fewer programs there; the
# sanitizer build (no package) runs them all.
if(NISA_PYTHON_PACKAGE)
  set(reference_random_count 30)
else()
  set(reference_random_count 125)
endif()
foreach(shard RANGE 1 4)
  math(EXPR shard_seed "1000 * ${shard}")
  add_test(NAME reference_random_${shard}
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_random.py
                   --count ${reference_random_count} --seed ${shard_seed} --nisa ${NISA_EXE})
endforeach()
# Issue 26: nisa (in process, _nisa.lockstep) and the model compared after
# every instruction, bit for bit (an ulp budget only for transcendental
# activations); each shard writes its coverage, and reference_lockstep_coverage
# checks that every instruction of the spec was compared with nonzero results
# at least 200 times over the shards.
if(NISA_PYTHON_PACKAGE)
  set(lockstep_files)
  foreach(shard RANGE 1 4)
    math(EXPR shard_seed "2600 + ${shard}")
    set(coverage_file ${CMAKE_BINARY_DIR}/reference_lockstep_${shard}.json)
    list(APPEND lockstep_files ${coverage_file})
    add_test(NAME reference_lockstep_${shard}
             COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lockstep.py
                     --count 160 --seed ${shard_seed} --coverage-out ${coverage_file})
    set_tests_properties(reference_lockstep_${shard} PROPERTIES
                         ENVIRONMENT "NISA_PYTHON_DIR=${CMAKE_BINARY_DIR}/python"
                         FIXTURES_SETUP reference_lockstep)
  endforeach()
  add_test(NAME reference_lockstep_coverage
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lockstep.py --check-coverage ${lockstep_files} --min 200)
  set_tests_properties(reference_lockstep_coverage PROPERTIES FIXTURES_REQUIRED reference_lockstep)
endif()
# SEMANTICS S16: random programs for two cores (gen_multicore.py: random
# bodies on each core, sendrecv exchanges and core_barrier hand-overs between
# them) through nisa against the two-core model (multicore.py); the event
# outputs bit for bit. It stands in for the lockstep and the random programs
# for sendrecv and core_barrier (their modules' MULTI_CORE), which run one core.
# The hand-written programs for two cores go with them: the workloads of
# programs/ that declare `.cores 2` and the round-trip forms tests/dis/good/cores_*.
file(GLOB multicore_forms CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/dis/good/cores_*.nasm)
file(GLOB workload_programs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/programs/*/prog.nasm)
foreach(program ${workload_programs})
  file(STRINGS ${program} cores_line REGEX "^\\.cores[ \t]+[2-9]")
  if(cores_line)
    list(APPEND multicore_forms ${program})
  endif()
endforeach()
add_test(NAME reference_multicore
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_multicore.py
                 --count 60 --seed 28 --check-features --nisa ${NISA_EXE} --programs ${multicore_forms})

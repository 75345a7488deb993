# Bit-identical outputs across performance work (issue 16; tests/identity/output_identity.py):
# every workload, round-trip form and benchmark program against the hashes
# recorded before the speed work, and random programs run with the fast paths
# against the plain ones (NISA_PLAIN_PATHS=1).
add_test(NAME output_identity
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/output_identity.py --nisa ${NISA_EXE})
if(NOT NISA_SANITIZE)
  add_test(NAME output_identity_plain
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/output_identity.py --nisa ${NISA_EXE}
                   --plain-random 60 --seed 16)
endif()

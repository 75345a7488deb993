# Re-expressed public NKI 0.6 unit tests (aws-neuron-sdk nki/test/test_nki_isa_*.py):
# each file's cases run through nisa and are checked against that test's own
# golden formula (tests/nki_isa/harness.py).
file(GLOB nki_isa_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/test_nki_isa_*.py)
foreach(nki_test ${nki_isa_tests})
  get_filename_component(nki_test_name ${nki_test} NAME_WE)
  string(REPLACE "test_nki_isa_" "" nki_test_name ${nki_test_name})
  add_test(NAME nki_isa_${nki_test_name} COMMAND ${NISA_PYTHON} ${nki_test} ${NISA_EXE})
endforeach()

# The Python package (LANGUAGE.md 4), with Debian's pytest, against the
# package the build made in build/python (not built under the sanitizers).
# The Ctrl-C latency test measures wall time: it runs alone (RUN_SERIAL), so
# ctest's other job does not compete with it for a CPU.
if(NISA_PYTHON_PACKAGE)
  set(python_env "PYTHONPATH=${CMAKE_BINARY_DIR}/python;NISA_SOURCE_DIR=${PROJECT_SOURCE_DIR};NISA_EXE=${NISA_EXE}")
  add_test(NAME python_package
           COMMAND ${NISA_PYTHON} -m pytest -q -p no:cacheprovider -k "not ctrl_c" ${CMAKE_CURRENT_LIST_DIR})
  add_test(NAME python_ctrl_c
           COMMAND ${NISA_PYTHON} -m pytest -q -p no:cacheprovider -k ctrl_c ${CMAKE_CURRENT_LIST_DIR})
  set_tests_properties(python_package python_ctrl_c PROPERTIES ENVIRONMENT "${python_env}")
  set_tests_properties(python_ctrl_c PROPERTIES RUN_SERIAL TRUE)
endif()

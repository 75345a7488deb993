# The Python package (LANGUAGE.md 4), with Debian's pytest, against the
# package the build made in build/python (not built under the sanitizers).
if(NISA_PYTHON_PACKAGE)
  add_test(NAME python_package
           COMMAND ${NISA_PYTHON} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_LIST_DIR})
  set_tests_properties(python_package PROPERTIES
                       ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python;NISA_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
endif()

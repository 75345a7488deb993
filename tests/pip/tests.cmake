# `pip install .` into a new virtual environment from a copy of the sources,
# then the installed package and command (check_pip_install.py). Needs PyPI
# (pip's isolated build); cold, the build takes ~2 minutes on 2 cores, warm in
# ccache ~20 s. `ctest -L pip` runs it alone.
if(NISA_PYTHON_PACKAGE)
  add_test(NAME pip_install
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_pip_install.py --python ${Python3_EXECUTABLE}
                   --source ${PROJECT_SOURCE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/pip_install)
  set_tests_properties(pip_install PROPERTIES LABELS pip TIMEOUT 900)
endif()

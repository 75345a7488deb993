# Workload programs (programs/<name>/ with prog.nasm and make_data.py): each runs
# end to end through nisa and is diffed with its expected/ outputs, and each has
# its committed data checked against a fresh run of its make_data.py.
file(GLOB workload_makers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/programs/*/make_data.py)
foreach(maker ${workload_makers})
  get_filename_component(workload_dir ${maker} DIRECTORY)
  get_filename_component(workload ${workload_dir} NAME)
  add_test(NAME program_${workload}
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_programs.py --nisa ${NISA_EXE} ${workload_dir})
  add_test(NAME program_${workload}_data_current
           COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_data_current.py ${workload_dir})
endforeach()
# Issue 28: every program for several cores gives the same bytes in 100 runs on
# one host thread and 100 with a second (scripts/check-determinism; ~4 s in
# Release; fewer runs under the sanitizers).
if(NISA_SANITIZE)
  set(determinism_runs 10)
else()
  set(determinism_runs 100)
endif()
add_test(NAME programs_determinism
         COMMAND ${NISA_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/check-determinism --nisa ${NISA_EXE} --runs ${determinism_runs})
# Issue 29: programs/dynamic_row_tiles at other runtime row counts, as .nasm
# and .nbin, against its direct formula; counts no run can take fault (exit 3).
add_test(NAME program_dynamic_row_tiles_counts
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/dynamic_row_counts.py ${NISA_EXE})

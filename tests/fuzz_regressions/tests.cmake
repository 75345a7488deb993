# Fuzz findings (scripts/fuzz): each file of tests/fuzz_regressions/TARGET/
# once crashed, hung or upset a sanitizer; it is replayed through the fuzz
# target's own entry function (fuzz/fuzz_entries.cpp) in every build.
add_executable(nisa_fuzz_replay ${CMAKE_CURRENT_LIST_DIR}/replay.cpp ${PROJECT_SOURCE_DIR}/fuzz/fuzz_entries.cpp)
target_include_directories(nisa_fuzz_replay PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
target_link_libraries(nisa_fuzz_replay PRIVATE nisa_asm nisa_interp nisa_common nisa_warnings)
foreach(target asm nbin npy)
  add_test(NAME fuzz_regressions_${target}
           COMMAND nisa_fuzz_replay ${target} ${CMAKE_CURRENT_LIST_DIR}/${target})
endforeach()

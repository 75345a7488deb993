# Exhaustive check of the dtype conversions (common/numbers.hpp) against an
# independent NumPy model: make_reference.py writes the inputs, runs
# nisa_conversion_dump on them and compares every result (SEMANTICS.md S2).
add_executable(nisa_conversion_dump ${CMAKE_CURRENT_LIST_DIR}/conversion_dump.cpp)
target_link_libraries(nisa_conversion_dump PRIVATE nisa_common nisa_warnings)
add_test(NAME numbers_reference
         COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/make_reference.py $<TARGET_FILE:nisa_conversion_dump>)

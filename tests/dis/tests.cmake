# Disassembler round trip over every good program (tests/dis/roundtrip.py).
add_test(NAME dis_roundtrip COMMAND ${NISA_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/roundtrip.py ${NISA_EXE} ${PROJECT_SOURCE_DIR})

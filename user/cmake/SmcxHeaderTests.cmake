# SPDX-License-Identifier: GPL-2.0
# smcx_header_tests(<name> HEADERS h... SOURCES src... [C11_FLAGS flag...])
#
# One GoogleTest binary <name>_test for header-only C that the kernel, the
# tests and the fuzzers share (include/smcx/...), built with ASan + UBSan so
# that every test also checks "never reads past the buffer".  Besides the
# SOURCES (GoogleTest, C++20) it compiles:
#  - compile_c11.c of the calling directory as plain C11 (not gnu11) with
#    kernel-style warnings plus C11_FLAGS, linked into the test binary;
#  - every header of HEADERS (paths relative to include/) on its own, first
#    in a translation unit, as C11 and as C++20.
# The tests are registered with ctest as "<name>.<Suite>.<Test>".
include(GoogleTest)

function(smcx_header_tests name)
  cmake_parse_arguments(A "" "" "HEADERS;SOURCES;C11_FLAGS" ${ARGN})
  set(san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

  add_library(${name}_c11 OBJECT compile_c11.c)
  set_target_properties(${name}_c11 PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF)
  target_include_directories(${name}_c11 PRIVATE ${SMCX_INCLUDE})
  target_compile_options(${name}_c11 PRIVATE -Wpedantic -Wdeclaration-after-statement
    -Wno-unused-function -Wstrict-prototypes -Wmissing-prototypes -Wshadow
    -Wpointer-arith -Wvla -Wundef ${A_C11_FLAGS} ${san})

  set(standalone_srcs)
  foreach(h ${A_HEADERS})
    string(MAKE_C_IDENTIFIER ${h} id)
    foreach(lang c cc)
      set(f ${CMAKE_CURRENT_BINARY_DIR}/standalone/${id}.${lang})
      file(WRITE ${f}.new "#include <${h}>\n")
      file(COPY_FILE ${f}.new ${f} ONLY_IF_DIFFERENT)
      list(APPEND standalone_srcs ${f})
    endforeach()
  endforeach()
  add_library(${name}_standalone OBJECT ${standalone_srcs})
  set_target_properties(${name}_standalone PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF
    CXX_STANDARD 20 CXX_EXTENSIONS OFF)
  target_include_directories(${name}_standalone PRIVATE ${SMCX_INCLUDE})
  target_compile_options(${name}_standalone PRIVATE -Wpedantic -Wno-unused-function
    $<$<COMPILE_LANGUAGE:C>:-Wdeclaration-after-statement -Wstrict-prototypes>)

  add_executable(${name}_test ${A_SOURCES} $<TARGET_OBJECTS:${name}_c11>)
  target_include_directories(${name}_test PRIVATE ${SMCX_INCLUDE})
  target_compile_options(${name}_test PRIVATE ${san})
  target_link_options(${name}_test PRIVATE ${san})
  target_link_libraries(${name}_test PRIVATE GTest::gtest GTest::gtest_main)
  add_dependencies(${name}_test ${name}_standalone)
  gtest_discover_tests(${name}_test TEST_PREFIX "${name}." DISCOVERY_TIMEOUT 60)
endfunction()

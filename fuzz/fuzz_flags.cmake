# SLUICE_FUZZ: every module is instrumented for libFuzzer's coverage and checked by ASan and UBSan (a UBSan
# finding aborts, so the fuzzer reports it as a crash); fuzz/CMakeLists.txt links the targets. -O1 with
# assertions on (scripts/fuzz.sh configures CMAKE_BUILD_TYPE=None): -O3 with three instrumentations compiles
# much longer, and a fuzzer wants the assertions.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SLUICE_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++ (scripts/fuzz.sh sets it)")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -gline-tables-only -O1)
add_link_options(-fsanitize=address,undefined)

# SLUICE_FUZZ: every module is instrumented for libFuzzer's coverage and checked by ASan and UBSan (a UBSan
# finding aborts, so the fuzzer reports it as a crash); fuzz/CMakeLists.txt links the targets. -O1 with
# assertions on (scripts/fuzz.sh configures CMAKE_BUILD_TYPE=None): -O3 with three instrumentations compiles
# much longer, and a fuzzer wants the assertions.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SLUICE_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++ (scripts/fuzz.sh sets it)")
endif()
# SLUICE_FUZZ_OPT: -O1 for fuzzing runs; the CI's build (scripts/test.sh), which also runs every unit test
# with these sanitizers and fuzzes only briefly, takes -O0: it compiles in about 60% of the time.
set(SLUICE_FUZZ_OPT "-O1" CACHE STRING "Optimization of the SLUICE_FUZZ build (-O1, or -O0 to compile faster)")
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -gline-tables-only ${SLUICE_FUZZ_OPT})
add_link_options(-fsanitize=address,undefined)

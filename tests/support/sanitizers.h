#pragma once
// SLUICE_TEST_ASAN is 1 in a build with AddressSanitizer, whichever the compiler: GCC defines
// __SANITIZE_ADDRESS__, clang (the CI's sanitizer and fuzz build) answers __has_feature(address_sanitizer).
// Tests whose measure means nothing under a sanitizer (resident memory, speed) skip or loosen on it.
#if defined(__SANITIZE_ADDRESS__)
#define SLUICE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLUICE_TEST_ASAN 1
#endif
#endif
#ifndef SLUICE_TEST_ASAN
#define SLUICE_TEST_ASAN 0
#endif
// SLUICE_TEST_TSAN likewise for ThreadSanitizer (scripts/tsan.sh), whose shadow memory also inflates RSS.
#if defined(__SANITIZE_THREAD__)
#define SLUICE_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SLUICE_TEST_TSAN 1
#endif
#endif
#ifndef SLUICE_TEST_TSAN
#define SLUICE_TEST_TSAN 0
#endif

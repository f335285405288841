#pragma once
// Stable codes of the methodology warnings (the lint). Shared by job validation, which checks the static
// rules so --parse-only shows them, and method/lint, which checks the rules that need targets or results.
#include <string_view>

namespace sluice {

inline constexpr std::string_view kLintSmallTestArea = "small-test-area";
inline constexpr std::string_view kLintBufferedIo = "buffered-io";
inline constexpr std::string_view kLintUnwrittenReads = "unwritten-reads";
inline constexpr std::string_view kLintCompressibleBuffers = "compressible-buffers";
inline constexpr std::string_view kLintSyncEngineIodepth = "sync-engine-iodepth";
inline constexpr std::string_view kLintShortRuntime = "short-runtime";
inline constexpr std::string_view kLintNoRampTime = "no-ramp-time";

}  // namespace sluice

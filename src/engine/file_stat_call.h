#pragma once
// The system call filestat times (fio's stat_type option). Header-only: job/ parses it, engine/ uses it.
#include <cstdint>

namespace sluice {

enum class FileStatCall : std::uint8_t { kStat, kLstat, kStatx };

}  // namespace sluice

#pragma once
// Writing a report file so that a failure never costs the results: the report goes to a temporary file next
// to --output (journaled, so a killed run leaves nothing), is synced, and replaces the file only when
// complete. A file that was there stays whole until then, and keeps its mode and owner.
#include <functional>
#include <iosfwd>
#include <string>

namespace sluice {

// Writes what `write` produces to `path`: through a temporary file renamed over it when `path` is a regular
// file or does not exist; in place for anything else (a device, a FIFO, /dev/stdout, a symlink). Returns ""
// on success, else why not ("No space left on device"); a temporary file is removed on failure.
std::string write_report_file(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace sluice

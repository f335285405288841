#pragma once
// What the journals (created files, kernel knobs) share to make a file's existence durable: a directory's
// entries reach the disk only when the directory itself is synced.
#include <string>

namespace sluice {

// strerror(errno), read at the call.
std::string errno_text();
// The directory that holds `path` ("." for a bare name).
std::string directory_of(const std::string& path);
// fsync(2) of the directory `dir`, so a file created, renamed or removed in it stays so after a crash. Throws
// UserError naming the directory and the reason when it cannot be opened or synced.
void fsync_directory(const std::string& dir);
// The same, best effort, for cleanups that must go on whatever happens (a replay of a dead run's journal):
// false when it failed.
bool try_fsync_directory(const std::string& dir) noexcept;

}  // namespace sluice

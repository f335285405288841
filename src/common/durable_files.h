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
//
// What a failed directory sync means is the caller's to decide, and there are two cases, one function each:
// - A journal being written (created, or an entry renamed into place) before the action it guards: a file
//   created, a kernel knob changed, a lab set up. A journal whose entry is not durable must not be trusted,
//   so fsync_directory throws and the caller does not act (created_files, knob_journal's persist,
//   lab_record).
// - A journal removed once its work is done (a dead run's journal replayed, a session's knobs all restored, a
//   lab taken apart): a removal lost in a crash only brings the journal back, and replaying it again is
//   harmless (files are removed only if still the same inode and birth time; knobs get their originals
//   again). try_fsync_directory is best effort there: a finished cleanup is never turned into a failure.
void fsync_directory(const std::string& dir);
// The best-effort sync of the second case: false when `dir` could not be opened or synced.
bool try_fsync_directory(const std::string& dir) noexcept;

}  // namespace sluice

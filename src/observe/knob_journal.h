#pragma once
// The restore journal of kernel knobs: the original value of every knob a KnobSession changed, written and
// fsync'd before the change. A journal left behind by a killed run is replayed by the next sluice start and
// by `sluice restore`.
//
// File format (text, one entry a line, tab-separated; values never hold tabs or newlines):
//   # sluice knob journal v1 pid=<pid of the writer>
//   <knob>\t<device or empty>\t<absolute path>\t<original value>
// Entries are in the order they were recorded; restore walks them newest first.
//
// Ownership: the writing process holds an flock on "<journal>.lock" for the session's lifetime. The kernel
// drops it when the process dies, so a journal whose lock is free belongs to a dead run and may be replayed,
// and one whose lock is held belongs to a running sluice and is left alone.
#include <string>
#include <vector>

#include "observe/knobs.h"

namespace sluice {

struct JournalEntry {
  std::string knob;
  std::string device;
  std::string path;
  std::string original;
};

// Throws UserError naming the journal on a malformed line.
std::vector<JournalEntry> parse_journal(const std::string& text, const std::string& journal_path);
std::string format_journal(const std::vector<JournalEntry>& entries);

// Writes the originals back newest first. A ratio/bytes pair is restored as a unit by writing the member
// that was in force (the *_bytes one when its original is non-zero, else the ratio); both members count as
// restored. Continues past failures; returns them (one message each). Paths restored are appended to
// `restored` when given.
std::vector<std::string> restore_entries(const std::vector<JournalEntry>& entries, KnobIo& io,
                                         std::vector<JournalEntry>* restored = nullptr);

// The journal a live session owns. Not thread-safe.
class KnobJournal {
 public:
  // Takes the lock; throws UserError when another running process holds it. A journal already there (from a
  // dead run) is replayed first, so its originals, not the values it left, become this session's originals;
  // throws UserError if that replay fails.
  KnobJournal(std::string path, KnobIo& io);
  ~KnobJournal();  // releases the lock; keeps the file (remove() deletes it)
  KnobJournal(const KnobJournal&) = delete;
  KnobJournal& operator=(const KnobJournal&) = delete;

  bool contains(const std::string& knob_file) const;
  // Appends and persists: temp file, fsync, rename over the journal, fsync of the directory.
  void add(const std::vector<JournalEntry>& entries);
  // Deletes the journal once every original is back. Throws UserError when it cannot be unlinked; a directory
  // that cannot be synced afterwards is not an error (durable_files.h says why).
  void remove();
  const std::vector<JournalEntry>& entries() const { return entries_; }

 private:
  void persist();

  std::string path_;
  int lock_fd_ = -1;
  std::vector<JournalEntry> entries_;
};

struct ReplayResult {
  bool found = false;  // a journal was there
  bool busy = false;   // ... held by a running sluice (busy_pid), left alone
  long busy_pid = 0;
  std::vector<JournalEntry> restored;
  std::vector<std::string> failures;  // when non-empty the journal is kept
};

// Restores from a journal left by a dead run, then deletes it. No journal: found=false, nothing done.
// Throws UserError only for an unreadable or malformed journal.
ReplayResult replay_journal(const std::string& path = default_knob_journal_path(), KnobIo* io = nullptr);

// For `sluice restore` and the start-up replay: "restored vm.dirty_ratio = 20 (/proc/sys/vm/dirty_ratio)"
// lines, "nothing to restore (no journal at PATH)", or what could not be done and what to do about it.
std::string describe_replay(const ReplayResult& result, const std::string& path);

// Cheap check for the start-up replay (one stat).
bool knob_journal_exists(const std::string& path = default_knob_journal_path());

}  // namespace sluice

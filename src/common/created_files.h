#pragma once
// The journal of files and directories sluice creates, so that none is left behind by a killed run.
//
// Each process that creates a file keeps its own journal, "<state dir>/created-files.<pid>.<ns>.journal"
// (the state dir is the knob journal's: $SLUICE_STATE_DIR, else /var/lib/sluice; a user who cannot write
// there gets $XDG_STATE_HOME/sluice or ~/.local/state/sluice). It holds an flock on the journal for its
// lifetime; the kernel drops it when the process dies, so a journal whose lock is free belongs to a dead run.
// Records are appended, one a line, tab-separated, the path last; the "+" one is fdatasync'd before the create:
//   # sluice created-files journal v1 pid=<pid>
//   +\t<path>                                    before sluice creates path
//   =\t<dev>\t<inode>\t<birth ns or 0>\t<path>     once it exists: what tells it from a file made later
//   -\t<path>                                    sluice removed it (or did not create it after all)
//   T\t<path>                                    the directory and everything in it is sluice's (a tree:
//                                                filetree's work directory, postmark's subdirectories)
// A normal end deletes the journal (files a run keeps on purpose stay). The next start and `sluice restore`
// remove what a dead run's journal lists, newest first, but only a path that is still the very file sluice
// created (same device, inode and birth time): a file the user put there later is kept.
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

struct FileIdentity {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint64_t birth_ns = 0;  // 0 when the filesystem does not say
  bool operator==(const FileIdentity&) const = default;
};

// The identity of the file or directory at path (not following a final symlink); false if there is none.
bool file_identity(const std::string& path, FileIdentity& out);

// One journal, written by the process that owns it. Not thread-safe (the process-wide functions below lock).
class CreatedFilesJournal {
 public:
  // Creates the journal under a temporary name, locks it, then renames it to `path`, so a replay never sees
  // it unlocked. Throws UserError when it cannot.
  explicit CreatedFilesJournal(std::string path);
  ~CreatedFilesJournal();  // releases the lock; keeps the file
  CreatedFilesJournal(const CreatedFilesJournal&) = delete;
  CreatedFilesJournal& operator=(const CreatedFilesJournal&) = delete;

  void creating(const std::vector<std::string>& paths);  // before the create calls: one sync for them all
  void created(const std::string& path);                 // after it succeeded: records the identity
  void tree(const std::string& path);                    // after created(): a replay removes the directory recursively
  void removed(const std::string& path);  // after sluice removed it, or the create failed or found it there
  void discard();                         // deletes the journal (a normal end)
  const std::string& path() const { return path_; }

 private:
  void append(const std::string& line, bool sync);

  std::string path_;
  int fd_ = -1;
};

// Where journals are written and looked for, in order: the knob journal's directory, then the per-user one.
std::vector<std::string> created_files_dirs();

// Process-wide journal, opened at the first creation. These never throw: when no journal can be written
// they say so once on stderr and the run goes on. Paths are made absolute; a path holding a newline is not
// journaled. Thread-safe.
void journal_creating(const std::string& path);
void journal_creating(const std::vector<std::string>& paths);  // one sync for a batch about to be created
void journal_created(const std::string& path);
// A directory sluice just created and fills with a tree only it writes: journaled as created, and a replay
// removes it with everything in it (only while it is still the directory sluice created).
void journal_created_tree(const std::string& path);
void journal_removed(const std::string& path);
// Creates a new directory PARENT/PREFIX + 6 random characters (mode 0700), journaled before it exists, so a
// kill at any moment leaves nothing a replay does not find (mkdtemp picks the name itself, too late for
// that). tree: journaled with journal_created_tree, else journal_created. Returns the path, or "" with errno
// set when it cannot be created.
std::string create_journaled_directory(const std::string& parent, const std::string& prefix, bool tree);
// A normal end: deletes this process's journal. Idempotent.
void end_created_files_journal();

struct LeftoverReport {
  int journals = 0;                   // dead runs' journals handled (and deleted)
  std::vector<std::string> removed;   // "PATH (left by sluice pid N)"
  std::vector<std::string> kept;      // a listed path that was kept, and why
  std::vector<std::string> failures;  // could not remove, or could not read a journal (which is then kept)
  bool empty() const { return journals == 0 && failures.empty(); }
};

// Removes what the journals of dead processes in `dirs` list, then deletes those journals. Journals of
// running processes are left alone. Never throws.
LeftoverReport remove_leftovers(const std::vector<std::string>& dirs = created_files_dirs());

// One line per removed, kept or failed path: "removed /x/f.sluice-bg (left by sluice pid 42)".
std::string describe_leftovers(const LeftoverReport& report);

}  // namespace sluice

#pragma once
// Kernel knobs that sluice may change for a trial (`sluice interfere --try`), and their safe restore.
//
// Names are written as users write them: "vm.dirty_bytes" (-> <proc_root>/sys/vm/dirty_bytes) and, for one
// block device, "queue.scheduler" (-> <sys_root>/block/<dev>/queue/scheduler). A KnobSession records every
// original value in a journal file, fsync'd, BEFORE it writes a knob, and writes the originals back when it
// ends (restore_all() or the destructor). A run killed before that leaves the journal behind; the next sluice
// start and `sluice restore` replay it (see knob_journal.h).
//
// Signals: SIGINT/SIGTERM only set the stop flag (run/stop_signal.h) and the program unwinds normally, so the
// session's destructor restores on that path too. SIGKILL, a crash or a second signal skip the destructor;
// the journal covers those.
//
// The vm ratio/bytes pairs (dirty_ratio/dirty_bytes, dirty_background_ratio/dirty_background_bytes) interact
// in the kernel: writing one member zeroes the other, and writing 0 to a *_bytes knob is invalid. When either
// member is changed both originals are journalled, and restore writes back only the member that was in force
// (the non-zero one), which brings back exactly the original pair.
#include <sys/types.h>
#include <unistd.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

struct KnobRoots {
  std::string proc_root = "/proc";
  std::string sys_root = "/sys";
};

// The knobs sluice knows, in users' spelling ("vm.dirty_bytes", ..., "queue.wbt_lat_usec", ...).
const std::vector<std::string>& known_knobs();
bool is_queue_knob(const std::string& knob);

// Checks that `knob` is known; throws UserError naming the nearest known knob otherwise
// ("unknown kernel knob 'vm.dirty_byte'; did you mean vm.dirty_bytes?").
void check_knob_name(const std::string& knob);

// The file behind a knob. Queue knobs need a device ("sda", "nvme0n1"); vm knobs ignore it.
// Throws UserError for an unknown knob or a queue knob without a device.
std::string knob_path(const std::string& knob, const std::string& device, const KnobRoots& roots);

// The value to write for a user's value: sizes with suffixes for *_bytes ("15M" -> "15728640"), plain
// integers for the others (ratios 0..100; wbt_lat_usec also -1 = kernel default), a scheduler name as is.
// Throws UserError with the knob in the message.
std::string normalize_knob_value(const std::string& knob, const std::string& value);

// The schedulers a queue/scheduler file offers ("[mq-deadline] kyber none" -> mq-deadline, kyber, none).
std::vector<std::string> scheduler_choices(const std::string& file_text);

// The current value as it would be written back: the trimmed file, except queue.scheduler, whose value is
// the bracketed entry ("[mq-deadline] kyber none" -> "mq-deadline").
std::string knob_value_from_file(const std::string& knob, const std::string& file_text);

// The file access behind knobs, injectable so tests emulate the kernel's rules in a synthetic tree.
// Both throw UserError naming the path and the errno text on failure.
class KnobIo {
 public:
  virtual ~KnobIo() = default;
  virtual std::string read(const std::string& path) = 0;  // whole file
  virtual void write(const std::string& path, const std::string& value) = 0;
};

// Plain open/write/close, as the kernel expects for /proc/sys and sysfs (one write of the whole value).
class FileKnobIo : public KnobIo {
 public:
  std::string read(const std::string& path) override;
  void write(const std::string& path, const std::string& value) override;
};

// Reads a knob's current value (see knob_value_from_file). Throws UserError when unreadable.
std::string read_knob(const std::string& knob, const std::string& device = {}, const KnobRoots& roots = {},
                      KnobIo* io = nullptr);

// $SLUICE_STATE_DIR/knobs.journal, else /var/lib/sluice/knobs.journal.
std::string default_knob_journal_path();

// One knob the session changed, for the report. `original` is the value before the first change,
// `applied` the last value written; `restored` turns true once the original is back.
struct KnobChange {
  std::string knob;
  std::string device;  // empty for vm knobs
  std::string path;    // the file written
  std::string original;
  std::string applied;
  bool restored = false;
};

struct KnobSessionOptions {
  std::string journal_path = default_knob_journal_path();
  KnobRoots roots;
  std::shared_ptr<KnobIo> io;  // null: FileKnobIo
  std::function<uid_t()> euid = [] { return ::geteuid(); };
};

class KnobJournal;

// Changes knobs and guarantees their restore. Not thread-safe; one session per process at a time (a second
// process's session refuses to start while the journal is held, see KnobJournal).
class KnobSession {
 public:
  explicit KnobSession(KnobSessionOptions options = {});
  ~KnobSession();  // restore_all(); failures are printed to stderr and the journal is kept for `sluice restore`
  KnobSession(const KnobSession&) = delete;
  KnobSession& operator=(const KnobSession&) = delete;

  // Journals the original(s) (fsync'd) and then writes the knob. Throws UserError when not root ("changing
  // vm.dirty_bytes needs root"), for an unknown knob or a bad value, or when the write fails (the journal
  // then still holds the original, and restore_all() writes it back).
  void set(const std::string& knob, const std::string& value, const std::string& device = {});

  // Writes every original back, newest first, and removes the journal when all succeeded. Returns the
  // failures (empty when everything is restored). Idempotent.
  std::vector<std::string> restore_all();

  const std::vector<KnobChange>& changes() const { return changes_; }
  const std::string& journal_path() const { return options_.journal_path; }

 private:
  KnobIo& io();
  void journal_original(const std::string& knob, const std::string& device);

  KnobSessionOptions options_;
  std::unique_ptr<KnobJournal> journal_;
  std::vector<KnobChange> changes_;
};

}  // namespace sluice

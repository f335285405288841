#pragma once
// The registry of labs (sluice lab up/down/list, sluice restore): one record per lab,
// "<state dir>/labs/<id>.lab", the state dir being the journals' (common/created_files.h). The record is the
// lab's journal: `lab up` writes it before it creates anything and appends one line, fsync'd, before each
// thing it creates, so a kill at any moment leaves a record that names everything there may be to remove:
//   # sluice lab v1
//   up <pid> <start ticks>        the lab up process (start ticks tell it from a later process with its pid)
//   mountpoint <DIR>              where the user asked for the lab
//   dir <PRIVATE>                 sluice's own directory for the lab (backing file, FUSE mount, daemon log)
//   model <MODEL>, fs <ext4|xfs|none|fuse>, size <bytes>
//   daemon <pid> <start ticks>    the lab daemon (sluice lab serve), once started
//   fuse <id>                     its FUSE connection (/sys/fs/fuse/connections/<id>), once mounted
//   loop <device>                 the loop device over <fuse mount>/device, once attached
//   mount                         about to mount the filesystem at DIR
//   ready                         lab up finished; the lab is up
// `lab down` and `sluice restore` take a lab apart from its record and the kernel's tables, then delete the
// record. A loop device is also found by its backing file (inside PRIVATE), so one attached just before a kill,
// before its line, is found too.
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sluice {

struct LabRecord {
  std::string file;  // the record's path
  pid_t up_pid = 0;
  std::uint64_t up_start = 0;
  std::string mountpoint;
  std::string dir;
  std::string model;
  std::string fs;  // ext4, xfs, none (the raw loop device) or fuse (no loop device: the FUSE file at DIR)
  std::uint64_t size = 0;
  pid_t daemon_pid = 0;
  std::uint64_t daemon_start = 0;
  std::optional<unsigned> fuse_connection;
  std::string loop_device;
  bool mounting = false;
  bool ready = false;

  // Where the daemon's filesystem is mounted: DIR itself without a loop device, else PRIVATE/fuse.
  std::string fuse_mount() const { return fs == "fuse" ? mountpoint : dir + "/fuse"; }
  // The model's file, served by the daemon.
  std::string device_file() const { return fuse_mount() + "/device"; }
  // What the user works with: the loop device, or the FUSE file.
  std::string device() const { return fs == "fuse" ? device_file() : loop_device; }
};

// Parses a record's text. Unknown lines are skipped (a newer sluice's); a record without its up, mountpoint
// and dir lines throws UserError (it is not a lab record, and nothing in it can be trusted to be removed).
LabRecord parse_lab_record(const std::string& text, const std::string& file);

// What a lab is now, from its record and whether its two processes are alive.
enum class LabState {
  kUp,          // ready, daemon alive
  kStarting,    // lab up is still running
  kDaemonGone,  // ready, but the daemon has ended (killed): sluice restore removes it
  kUpKilled,    // lab up ended before the lab was ready: sluice restore removes what it made
};
LabState classify_lab(const LabRecord& record, bool up_alive, bool daemon_alive);
// "up", "starting", "daemon gone", "lab up killed".
const char* lab_state_name(LabState state);

// Where records are looked for: "<dir>/labs" for each of created_files_dirs().
std::vector<std::string> lab_registry_dirs();
// The registry directory to write a new record to: the first of lab_registry_dirs() that exists or can be
// made and is writable. Throws UserError naming the places tried.
std::string writable_lab_registry();
// Every record in `dirs`; an unreadable or malformed record is skipped and named in `problems`.
std::vector<LabRecord> read_lab_records(const std::vector<std::string>& dirs, std::vector<std::string>& problems);

// The drafts of records ("<id>.lab.tmp") in `dirs`: a lab up killed while it wrote its first lines, before it
// created anything; sluice restore deletes those whose lab up is gone. A draft without its lines has only
// `file` and `up_pid` (from its name) set.
std::vector<LabRecord> read_lab_record_drafts(const std::vector<std::string>& dirs);

// A new record, written by lab up. Each line is fsync'd before append returns.
class LabJournal {
 public:
  // Creates "<registry>/<id>.lab" with its header and `first_lines` (key, value) at once: written and synced
  // as "<id>.lab.tmp", then renamed (never over an existing record), so a record is never seen without its
  // up, mountpoint and dir lines. Throws UserError.
  LabJournal(const std::string& registry, const std::string& id,
             const std::vector<std::pair<std::string, std::string>>& first_lines);
  ~LabJournal();
  LabJournal(const LabJournal&) = delete;
  LabJournal& operator=(const LabJournal&) = delete;

  // Appends "key value" and syncs it. Throws UserError (the caller then takes apart what it made).
  void append(const std::string& key, const std::string& value = "");
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace sluice

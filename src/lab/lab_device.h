#pragma once
// The model block device (sluice lab up/down/list, sluice restore): the lab daemon (sluice lab serve) started
// as a process of its own on a backing file, a loop device with direct I/O over the daemon's file (a buffered
// loop serializes requests: ARCHITECTURE.md section 8), a filesystem made on it and mounted at the user's
// directory.
// Everything is journaled in the lab's record (lab/lab_record.h) before it is created, so a killed lab up or
// a killed daemon leaves a record from which lab down or sluice restore removes every part.
//
// Without root or without loop devices (or with SLUICE_LAB_WITHOUT_LOOP=1, the tests' hook): the daemon is
// mounted at DIR itself and DIR/device is the model's file: no block layer, so no filesystem, no page cache
// of a device, no I/O scheduler and no writeback throttling.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/lab_record.h"
#include "lab/model.h"
#include "lab/path_calibration.h"

namespace sluice {

struct LabUpOptions {
  std::string model_arg;   // as the user gave it: a preset's name or a model file (passed to the daemon)
  ModelSpec model;         // loaded from model_arg (already checked)
  std::string mountpoint;  // DIR: an existing empty directory
  std::uint64_t size = std::uint64_t{4} << 30;
  std::string fs = "ext4";  // ext4, xfs or none
  bool compensate = true;   // measure the path and have the daemon send replies that much earlier
  // Where the lab's own directory (backing file, FUSE mount, daemon log) is made; "" = beside the record in
  // sluice's state directory. A tmpfs keeps the model's data off the disk under test (docs/lab.md).
  std::string state_dir;
};

struct LabUpResult {
  LabRecord record;
  std::string note;                     // without a loop device: what that changes; "" otherwise
  std::optional<PathMeasurement> path;  // the path measured before the filesystem was made (compensate)
};

// Checks everything it can before creating anything (DIR, /dev/fuse, loop devices, mkfs, the space for the
// backing file), then builds the lab; with `compensate`, measures the path on the device (before any
// filesystem) and sets the daemon to absorb it. Throws UserError with a clear message; when a step fails after the
// first creation, takes apart what it made first (the user's DIR is never written to, only mounted on).
LabUpResult lab_up(const LabUpOptions& options);

// Measures the path of the lab that is up (`record`, serving `model`) again, as lab up did, and has its daemon
// absorb the new median: the path drifts after lab up measured it (docs/lab.md, "Fidelity, measured"). Nothing
// else may use the device meanwhile (about 1 s). Throws UserError when the device or the daemon cannot be used.
PathMeasurement recalibrate_path(const LabRecord& record, const ModelSpec& model);

struct LabTeardown {
  std::vector<std::string> done;      // "unmounted /mnt/lab", "detached /dev/loop3", ...
  std::vector<std::string> failures;  // what could not be undone; the record is then kept
};

// Takes the lab apart: unmounts DIR (only a mount of the lab's own loop device), detaches the loop devices
// over the lab's file, stops the daemon (SIGTERM, then SIGKILL after 5 s; only the very process recorded),
// aborts its FUSE connection when the daemon is gone (so nothing waits on it), unmounts the daemon's
// filesystem, removes the lab's directory and its record. With `restoring` (sluice restore), a busy DIR is
// detached lazily (MNT_DETACH); without, a busy DIR is a failure and nothing further is undone.
LabTeardown take_lab_down(const LabRecord& record, bool restoring);

struct LabStatus {
  LabRecord record;
  LabState state = LabState::kUp;
};

// Every lab recorded in `dirs` and its state; unreadable records in `problems`.
std::vector<LabStatus> list_labs(std::vector<std::string>& problems,
                                 const std::vector<std::string>& dirs = lab_registry_dirs());

// The lab whose DIR is `mountpoint` (compared after making it absolute and canonical); nullptr when none.
const LabStatus* find_lab(const std::vector<LabStatus>& labs, const std::string& mountpoint);

struct LabRestoreReport {
  std::vector<std::string> removed;  // one line per lab taken apart, saying what was undone
  std::vector<std::string> failures;
};

// sluice restore: takes apart every lab recorded in `dirs` whose daemon is gone or whose lab up was killed;
// labs that are up or starting are left alone.
LabRestoreReport restore_dead_labs(const std::vector<std::string>& dirs = lab_registry_dirs());

}  // namespace sluice

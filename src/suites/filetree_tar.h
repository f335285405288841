#pragma once
// The archive steps of `sluice filetree`, with libarchive: `tar cf tree.tar tree` and reading it back.
// The archive is in GNU tar format (libarchive's gnutar writer), so GNU tar lists and extracts it. Every
// read of the tree and the archive and every write of the archive is a plain read/write system call timed
// into the step's latencies (libarchive gets them through its callbacks). Single-threaded, as tar is.
#include <string>

#include "suites/filetree_plan.h"
#include "suites/filetree_steps.h"

namespace sluice {

// Archives the tree at `root` into `archive` (which must not exist); entries are named "<basename of root>/...",
// directories before their files. bytes = the archive's size; files = regular files archived. Ends with syncfs.
StepResult write_tar(const FiletreePlan& plan, const std::string& root, const std::string& archive);

// Reads the archive to its end through libarchive, every entry's data included. bytes = the archive's bytes
// read; files = regular-file entries. Throws IoError when the archive is unreadable or damaged.
StepResult read_tar(const std::string& archive);

}  // namespace sluice

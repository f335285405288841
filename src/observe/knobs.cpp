#include "observe/knobs.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/error.h"
#include "common/nearest.h"
#include "job/units.h"
#include "observe/knob_journal.h"

namespace sluice {
namespace {

enum class KnobKind { kBytes, kRatio, kUnsigned, kSignedUsec, kScheduler };

struct KnobInfo {
  const char* name;
  KnobKind kind;
  const char* partner;  // the other member of a ratio/bytes pair, or nullptr
};

constexpr KnobInfo kKnobs[] = {
    {"vm.dirty_bytes", KnobKind::kBytes, "vm.dirty_ratio"},
    {"vm.dirty_background_bytes", KnobKind::kBytes, "vm.dirty_background_ratio"},
    {"vm.dirty_ratio", KnobKind::kRatio, "vm.dirty_bytes"},
    {"vm.dirty_background_ratio", KnobKind::kRatio, "vm.dirty_background_bytes"},
    {"vm.dirty_expire_centisecs", KnobKind::kUnsigned, nullptr},
    {"vm.dirty_writeback_centisecs", KnobKind::kUnsigned, nullptr},
    {"queue.wbt_lat_usec", KnobKind::kSignedUsec, nullptr},
    {"queue.scheduler", KnobKind::kScheduler, nullptr},
    {"queue.nr_requests", KnobKind::kUnsigned, nullptr},
    {"queue.read_ahead_kb", KnobKind::kUnsigned, nullptr},
};

const KnobInfo* find_knob(const std::string& knob) {
  for (const KnobInfo& info : kKnobs) {
    if (knob == info.name) return &info;
  }
  return nullptr;
}

// "vm.dirty_bytes" -> "dirty_bytes": users often leave the prefix out.
std::string short_name(const std::string& knob) { return knob.substr(knob.find('.') + 1); }

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string normalize_unsigned(const std::string& knob, const std::string& value, std::uint64_t max) {
  auto n = parse_unsigned(value);
  if (!n || *n > max) {
    throw UserError(fmt::format("{}={}: not a whole number{}", knob, value,
                                max == 100 ? " from 0 to 100 (percent of memory)" : ""));
  }
  return std::to_string(*n);
}

}  // namespace

const std::vector<std::string>& known_knobs() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const KnobInfo& info : kKnobs) out.emplace_back(info.name);
    return out;
  }();
  return names;
}

bool is_queue_knob(const std::string& knob) { return knob.rfind("queue.", 0) == 0; }

void check_knob_name(const std::string& knob) {
  if (find_knob(knob)) return;
  const KnobInfo* nearest = &kKnobs[0];
  std::size_t best = std::string::npos;
  for (const KnobInfo& info : kKnobs) {
    const std::size_t d = std::min(edit_distance(knob, info.name), edit_distance(knob, short_name(info.name)));
    if (d < best) {
      best = d;
      nearest = &info;
    }
  }
  std::string all;
  for (const KnobInfo& info : kKnobs) all += (all.empty() ? "" : ", ") + std::string(info.name);
  throw UserError(fmt::format("unknown kernel knob '{}'; did you mean {}? (known: {})", knob, nearest->name, all));
}

std::string knob_path(const std::string& knob, const std::string& device, const KnobRoots& roots) {
  check_knob_name(knob);
  if (!is_queue_knob(knob)) return roots.proc_root + "/sys/vm/" + short_name(knob);
  if (device.empty() || device.find('/') != std::string::npos || device == "." || device == "..") {
    throw UserError(fmt::format("{} needs a block device name such as sda or nvme0n1 (got '{}')", knob, device));
  }
  return roots.sys_root + "/block/" + device + "/queue/" + short_name(knob);
}

std::string normalize_knob_value(const std::string& knob, const std::string& value) {
  check_knob_name(knob);
  std::string v = trim(value);  // not const: returned by move
  switch (find_knob(knob)->kind) {
    case KnobKind::kBytes: {
      auto bytes = parse_size(v);
      if (!bytes) throw UserError(fmt::format("{}={}: not a size; sizes look like 15M, 512k, 1g", knob, value));
      // The kernel refuses 0 here; going back to a ratio is done by setting the ratio.
      if (*bytes == 0) {
        throw UserError(fmt::format("{}=0: the kernel refuses 0; set {} instead", knob, find_knob(knob)->partner));
      }
      return std::to_string(*bytes);
    }
    case KnobKind::kRatio:
      return normalize_unsigned(knob, v, 100);
    case KnobKind::kUnsigned:
      return normalize_unsigned(knob, v, UINT32_MAX);
    case KnobKind::kSignedUsec:
      if (v == "-1") return v;  // the kernel's "back to the default"
      return normalize_unsigned(knob, v, INT32_MAX);
    case KnobKind::kScheduler:
      if (v.empty() || v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos) {
        throw UserError(
            fmt::format("{}={}: not a scheduler name (such as none, mq-deadline, bfq, kyber)", knob, value));
      }
      return v;
  }
  return v;
}

std::vector<std::string> scheduler_choices(const std::string& file_text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  const std::string text = trim(file_text);
  while (pos < text.size()) {
    const auto end = std::min(text.find(' ', pos), text.size());
    std::string word = text.substr(pos, end - pos);
    if (word.size() >= 2 && word.front() == '[' && word.back() == ']') word = word.substr(1, word.size() - 2);
    if (!word.empty()) out.push_back(word);
    pos = end + 1;
  }
  return out;
}

std::string knob_value_from_file(const std::string& knob, const std::string& file_text) {
  std::string text = trim(file_text);  // not const: returned by move
  if (knob != "queue.scheduler") return text;
  const auto open = text.find('[');
  const auto close = text.find(']', open == std::string::npos ? 0 : open);
  if (open != std::string::npos && close != std::string::npos) return text.substr(open + 1, close - open - 1);
  return text;  // a single scheduler is shown without brackets on some kernels
}

std::string FileKnobIo::read(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) throw UserError(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  std::string text;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw UserError(fmt::format("cannot read {}", path));
  return text;
}

void FileKnobIo::write(const std::string& path, const std::string& value) {
  // /proc/sys and sysfs take a value in one write(); O_TRUNC matters only for ordinary files (tests).
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) throw UserError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  const std::string line = value + "\n";
  const ssize_t written = ::write(fd, line.data(), line.size());
  const int write_errno = errno;
  const int close_result = ::close(fd);
  if (written != static_cast<ssize_t>(line.size()) || close_result != 0) {
    throw UserError(
        fmt::format("cannot write {} to {}: {}", value, path, std::strerror(written < 0 ? write_errno : errno)));
  }
}

std::string read_knob(const std::string& knob, const std::string& device, const KnobRoots& roots, KnobIo* io) {
  FileKnobIo file_io;
  KnobIo& use = io ? *io : file_io;
  return knob_value_from_file(knob, use.read(knob_path(knob, device, roots)));
}

std::string default_knob_journal_path() {
  const char* dir = std::getenv("SLUICE_STATE_DIR");
  return std::string(dir && *dir ? dir : "/var/lib/sluice") + "/knobs.journal";
}

// ---- KnobSession ----

KnobSession::KnobSession(KnobSessionOptions options) : options_(std::move(options)) {
  if (!options_.io) options_.io = std::make_shared<FileKnobIo>();
  if (!options_.euid) options_.euid = [] { return ::geteuid(); };
}

KnobSession::~KnobSession() {
  try {
    for (const std::string& failure : restore_all()) {
      std::fprintf(stderr, "sluice: %s\n", failure.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice: restoring kernel knobs: %s\n", e.what());
  }
  if (journal_) {
    std::fprintf(stderr,
                 "sluice: some kernel knobs are not restored; the journal %s keeps their original "
                 "values: run 'sluice restore' as root\n",
                 options_.journal_path.c_str());
  }
}

KnobIo& KnobSession::io() { return *options_.io; }

void KnobSession::journal_original(const std::string& knob, const std::string& device) {
  if (!journal_) journal_ = std::make_unique<KnobJournal>(options_.journal_path, io());
  std::vector<std::string> members = {knob};
  // Both members of a ratio/bytes pair, ratio first, so restore (newest first) meets the pair at its end.
  if (const char* partner = find_knob(knob)->partner) {
    members = find_knob(knob)->kind == KnobKind::kRatio ? std::vector<std::string>{knob, partner}
                                                        : std::vector<std::string>{partner, knob};
  }
  std::vector<JournalEntry> fresh;
  for (const std::string& member : members) {
    const std::string path = knob_path(member, device, options_.roots);
    if (journal_->contains(path)) continue;
    fresh.push_back({member, is_queue_knob(member) ? device : "", path, knob_value_from_file(member, io().read(path))});
  }
  if (!fresh.empty()) journal_->add(fresh);
}

void KnobSession::set(const std::string& knob, const std::string& value, const std::string& device) {
  check_knob_name(knob);
  if (options_.euid() != 0) throw UserError(fmt::format("changing {} needs root", knob));
  const std::string applied = normalize_knob_value(knob, value);
  const std::string path = knob_path(knob, device, options_.roots);
  if (knob == "queue.scheduler") {
    const auto choices = scheduler_choices(io().read(path));
    if (std::find(choices.begin(), choices.end(), applied) == choices.end()) {
      throw UserError(fmt::format("queue.scheduler={}: {} offers {}", applied, device, fmt::join(choices, ", ")));
    }
  }
  journal_original(knob, device);
  io().write(path, applied);
  const std::string dev = is_queue_knob(knob) ? device : "";
  for (KnobChange& change : changes_) {
    if (change.path == path) {
      change.applied = applied;
      change.restored = false;
      return;
    }
  }
  std::string original;
  for (const JournalEntry& entry : journal_->entries()) {
    if (entry.path == path) original = entry.original;
  }
  changes_.push_back({knob, dev, path, original, applied, false});
}

std::vector<std::string> KnobSession::restore_all() {
  if (!journal_) return {};
  std::vector<JournalEntry> restored;
  std::vector<std::string> failures = restore_entries(journal_->entries(), io(), &restored);
  for (KnobChange& change : changes_) {
    for (const JournalEntry& entry : restored) {
      if (entry.path == change.path) change.restored = true;
    }
  }
  if (failures.empty()) {
    journal_->remove();
    journal_.reset();
  }
  return failures;
}

}  // namespace sluice

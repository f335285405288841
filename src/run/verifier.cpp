#include "run/verifier.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "job/validate_verify.h"

namespace sluice {
namespace {

constexpr std::uint64_t kMaxPrinted = 10;  // failures printed per job; the rest are counted

std::vector<FileRegion> verify_regions_of(const std::vector<TargetFile>& targets) {
  std::vector<FileRegion> regions;
  regions.reserve(targets.size());
  for (const TargetFile& t : targets) regions.push_back({t.region_start, t.region_length});
  return regions;
}

TrimSettings trim_settings_of(const VerifyOptions& verification, std::uint64_t seed) {
  if (!verification.trims_written_blocks()) return {};
  return {verification.trim_percentage, verification.trim_backlog, verification.trim_backlog_batch,
          verification.trim_verify_zero,
          seed ^ 0x7472696d76657269ull};  // "trimveri": draws apart from the data's seeds
}

}  // namespace

std::unique_ptr<Verifier> Verifier::create(const VerifyOptions& verification, const ErrorOptions& errors,
                                           const VerifierJob& job, const std::vector<TargetFile>& targets,
                                           std::uint32_t units) {
  if (verification.verify == VerifyKind::kNone) return nullptr;
  return std::make_unique<Verifier>(verification, errors, job, targets, units);
}

Verifier::Verifier(const VerifyOptions& verification, const ErrorOptions& errors, const VerifierJob& job,
                   const std::vector<TargetFile>& targets, std::uint32_t units)
    : job_name_(job.name),
      format_{verification.verify, job.chunk, verification.verify_pattern, verification.verify_pattern_offset_slots,
              verify_header_bytes(verification.verify) == 0 ? 0 : verification.verify_offset},
      map_(verify_regions_of(targets), job.chunk, verification.verify_backlog, verification.verify_backlog_batch,
           trim_settings_of(verification, job.seed)),
      seed_(job.seed),
      check_all_reads_(!job.writes),
      fatal_(verification.verify_fatal),
      dump_(verification.verify_dump),
      passed_(error_is_non_fatal(errors, ErrorClass::kVerify, EILSEQ)),
      aux_dir_(verification.aux_path),
      marked_(units, 0),
      unit_write_(units, 0),
      fsynced_only_(verification.verify_policy == VerifyPolicy::kFsynced),
      unit_sync_threshold_(fsynced_only_ ? units : 0, 0) {
  for (const TargetFile& t : targets) paths_.push_back(t.path);
}

void Verifier::on_sync_submitted(const IoUnit& unit) noexcept {
  if (fsynced_only_) unit_sync_threshold_[unit.index] = writes_issued_;
}

void Verifier::on_sync_completed(const IoUnit& unit) noexcept {
  if (!fsynced_only_) return;
  fsynced_writes_ = std::max(fsynced_writes_, unit_sync_threshold_[unit.index]);
  while (unsynced_head_ < unsynced_.size() && unsynced_[unsynced_head_].number < fsynced_writes_) ++unsynced_head_;
  if (unsynced_head_ == unsynced_.size()) {  // all covered: the list starts over instead of growing
    unsynced_.clear();
    unsynced_head_ = 0;
  }
}

void Verifier::skip_unsynced_writes() noexcept {
  for (std::size_t i = unsynced_head_; i < unsynced_.size(); ++i) {
    const UnsyncedWrite& w = unsynced_[i];
    if (w.number >= fsynced_writes_) map_.skip(w.file, w.offset, w.length);
  }
}

void Verifier::fill_write(IoUnit& unit) {
  std::uint64_t& in_flight = unit_write_[unit.index];
  if (in_flight != 0) incomplete_.push_back(in_flight - 1);  // the unit's last write never completed
  in_flight = ++writes_issued_;
  if (fsynced_only_) unsynced_.push_back({unit.file_index, unit.offset, unit.length, writes_issued_ - 1});
  auto* base = static_cast<unsigned char*>(unit.buffer);
  const int file = unit.file_index;
  const std::uint64_t start = unit.offset;
  map_.begin_write(file, start, unit.length, [&](std::uint64_t offset, std::uint64_t generation) {
    fill_chunk(base + (offset - start), format_, {offset, generation, chunk_seed(seed_, file, offset, generation)});
  });
}

bool Verifier::on_complete(const IoUnit& unit, JobResult& result) {
  if (unit.op == IoOp::kWrite) {
    if (static_cast<std::uint64_t>(unit.result) == unit.length) unit_write_[unit.index] = 0;
    map_.write_completed(unit.file_index, unit.offset, unit.length);
    return true;
  }
  if (unit.op != IoOp::kRead || (!check_all_reads_ && !marked_[unit.index])) return true;
  marked_[unit.index] = 0;
  const auto* base = static_cast<const unsigned char*>(unit.buffer);
  const std::uint32_t chunk = format_.chunk;
  const auto got = static_cast<std::uint64_t>(unit.result);
  bool ok = true;
  for (std::uint64_t at = 0; at + chunk <= unit.length; at += chunk) {
    ChunkExpectation expect;
    expect.offset = unit.offset + at;
    expect.generation = check_all_reads_ ? 0 : map_.generation(unit.file_index, expect.offset);
    if (expect.generation != 0) expect.seed = chunk_seed(seed_, unit.file_index, expect.offset, expect.generation);
    expect.zeros = !check_all_reads_ && map_.trimmed(unit.file_index, expect.offset);
    const auto valid = static_cast<std::uint32_t>(got > at ? std::min<std::uint64_t>(got - at, chunk) : 0);
    if (auto failure = check_chunk(base + at, valid, format_, expect)) {
      ok = false;
      report(*failure, unit.file_index, result);
      if (dump_ && failures_ <= kMaxPrinted) dump(base + at, valid, *failure, unit.file_index);
      if (fatal_) {
        result.error = EILSEQ;
        result.error_message = first_failure_ + " (verify_fatal=1: job stopped)";
        return false;
      }
    }
  }
  if (ok) result.verified_ios++;
  return true;
}

void Verifier::report(const VerifyFailure& failure, int file, JobResult& result) {
  ++failures_;
  result.verify_failures++;
  const std::string& path = paths_[static_cast<std::size_t>(file)];
  const std::string text = describe_failure(failure, format_, path);
  if (first_failure_.empty()) first_failure_ = text;
  if (failures_ <= kMaxPrinted) {
    std::fprintf(stderr, "sluice: job %s: %s\n", job_name_.c_str(), text.c_str());
  } else if (failures_ == kMaxPrinted + 1) {
    std::fprintf(stderr, "sluice: job %s: further verification failures are counted, not printed\n", job_name_.c_str());
  }
}

namespace {

// Writes `length` bytes to `name` (created or truncated) and says so on stderr, as fio's dump_buf.
void write_dump(const std::string& job, const std::string& name, const char* kind, const unsigned char* data,
                std::size_t length) {
  std::FILE* out = std::fopen(name.c_str(), "wb");
  const bool written = out != nullptr && std::fwrite(data, 1, length, out) == length;
  const bool closed = out != nullptr && std::fclose(out) == 0;
  if (written && closed) {
    std::fprintf(stderr, "sluice: job %s: %s data dumped as %s\n", job.c_str(), kind, name.c_str());
  } else {
    std::fprintf(stderr, "sluice: job %s: cannot dump the %s data to %s: %s\n", job.c_str(), kind, name.c_str(),
                 std::strerror(errno));
  }
}

}  // namespace

void Verifier::dump(const unsigned char* received, std::uint32_t valid, const VerifyFailure& failure, int file) const {
  const std::string& path = paths_[static_cast<std::size_t>(file)];
  const std::size_t slash = path.rfind('/');
  // In --aux-path's directory when given, as fio's dumps.
  const std::string directory = aux_dir_.empty() || aux_dir_.back() == '/' ? aux_dir_ : aux_dir_ + "/";
  const std::string prefix = directory + (slash == std::string::npos ? path : path.substr(slash + 1)) + "." +
                             std::to_string(failure.offset) + ".";
  write_dump(job_name_, prefix + "received", "received", received, valid);  // a short read: what came back
  // What was expected: this run's own write, else (a job that only reads) what the chunk's intact header
  // says it holds; a chunk without a usable header has no known content, unless it is a plain pattern.
  ChunkExpectation expect = failure.expected;
  if (expect.generation == 0 && failure.found && failure.diagnosis != VerifyDiagnosis::kHeaderDamaged) {
    expect.generation = failure.found->generation;
    expect.seed = failure.found->seed;
  }
  if (expect.generation == 0 && format_.kind != VerifyKind::kPattern) {
    std::fprintf(stderr, "sluice: job %s: the expected data of offset %llu is not known (no intact header)\n",
                 job_name_.c_str(), static_cast<unsigned long long>(failure.offset));
    return;
  }
  std::vector<unsigned char> expected(format_.chunk);
  fill_chunk(expected.data(), format_, expect);
  write_dump(job_name_, prefix + "expected", "expected", expected.data(), expected.size());
}

void Verifier::finish(JobResult& result) const {
  if (failures_ == 0 || result.error != 0) return;
  if (passed_) {  // as fio: each failure counts in total_err, and first_error is EILSEQ
    result.dirs[static_cast<std::size_t>(index_of(Direction::kRead))].errors += failures_;
    if (result.error_message.empty()) result.error_message = first_failure_ + ": " + std::strerror(EILSEQ);
    return;
  }
  result.error = EILSEQ;
  result.error_message = fmt::format("{} verification failure{} ({} reads verified fine); first: {}", failures_,
                                     failures_ == 1 ? "" : "s", result.verified_ios, first_failure_);
}

VerifyState Verifier::state() const {
  VerifyState state{job_name_, writes_issued_, incomplete_, std::nullopt};
  if (fsynced_only_) state.fsynced_writes = fsynced_writes_;
  for (std::uint64_t in_flight : unit_write_) {
    if (in_flight != 0) state.incomplete.push_back(in_flight - 1);
  }
  std::sort(state.incomplete.begin(), state.incomplete.end());
  return state;
}

}  // namespace sluice

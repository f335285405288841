// fio's data verification options: verify, verify_pattern, do_verify, verify_only, verify_fatal,
// verify_backlog, verify_interval, verify_offset, the verify state and fio's trim verification. The on-disk
// format and the checks live in src/workload/verify_*.
#include <cctype>

#include "job/option_builders.h"

namespace sluice::detail {
namespace {

VerifyKind verify_kind_value(std::string_view value, const SourcePos& where) {
  static const std::vector<std::string> kChoices = {
      "0",    "none",  "crc32c", "crc32c-intel", "crc32",  "crc64",    "xxhash",   "md5",      "sha256",   "pattern",
      "meta", "crc16", "crc7",   "sha1",         "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "null"};
  static constexpr VerifyKind kKinds[] = {
      VerifyKind::kNone,     VerifyKind::kNone,     VerifyKind::kCrc32c,   VerifyKind::kCrc32c,   VerifyKind::kCrc32,
      VerifyKind::kCrc64,    VerifyKind::kXxhash,   VerifyKind::kMd5,      VerifyKind::kSha256,   VerifyKind::kPattern,
      VerifyKind::kMeta,     VerifyKind::kCrc16,    VerifyKind::kCrc7,     VerifyKind::kSha1,     VerifyKind::kSha512,
      VerifyKind::kSha3_224, VerifyKind::kSha3_256, VerifyKind::kSha3_384, VerifyKind::kSha3_512, VerifyKind::kNull};
  static_assert(std::size(kKinds) == 20);
  return kKinds[choice_value("verify", value, where, kChoices)];
}

// fio's trim verification (fio 3.40 and later: fio 3.33 aborts when a write job trims).
void add_trim_verify_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {u32_option("trim_percentage", &VerifyOptions::trim_percentage, 0, 100, "0",
                  {.unit = "%",
                   .category = "verify",
                   .help = "With verify= and trim_backlog: this share of the completed writes is drawn to be trimmed "
                           "(discarded) after it lands; the trimmed blocks are checked by the verify phase (zeros with "
                           "trim_verify_zero=1) and the trims are reported as the job's trims, as fio."}),
       bool_option(
           "trim_verify_zero", &VerifyOptions::trim_verify_zero, "1",
           {.category = "verify",
            .help = "The trimmed blocks must read back as zeros (a punched hole, or a device that zeroes discarded "
                    "blocks); 0 = they are not read back at all."}),
       u64_option(
           "trim_backlog", &VerifyOptions::trim_backlog, "0",
           {.unit = "blocks",
            .category = "verify",
            .help = "Trim the drawn writes in rounds, one every N completed writes (0 = no trims, as fio); the drawn "
                    "writes still waiting when the writes end are trimmed before the verify phase."}),
       u32_option("trim_backlog_batch", &VerifyOptions::trim_backlog_batch, 0, UINT32_MAX, "",
                  {.unit = "blocks",
                   .category = "verify",
                   .help = "Drawn writes trimmed per round, the oldest first (default trim_backlog).",
                   .reason = "trim_backlog"})});
}

// fio's verify_policy is a list of flags ("completed,fsynced" or with ':'); completed adds nothing, so any
// fsynced in it makes the policy fsynced.
void apply_verify_policy(JobSpec& job, std::string_view value, const SourcePos& where) {
  static const std::vector<std::string> kChoices = {"completed", "fsynced"};
  VerifyPolicy policy = VerifyPolicy::kCompleted;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = value.find_first_of(",:", start);
    const std::size_t length = end == std::string_view::npos ? std::string_view::npos : end - start;
    const std::string_view word = value.substr(start, length);
    if (choice_value("verify_policy", word, where, kChoices) == 1) policy = VerifyPolicy::kFsynced;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  job.verification.verify_policy = policy;
}

}  // namespace

void add_verify_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "verify",
           .type = OptionType::kChoice,
           .default_text = std::string(1, '0'),
           .range = "0|crc7|crc16|crc32c|crc32c-intel|crc32|crc64|xxhash|md5|sha1|sha256|sha512|sha3-224|sha3-256|sha3-"
                    "384|sha3-512|pattern|meta|null",
           .category = "verify",
           .help =
               "Write every block (or verify_interval chunk) with a header (offset, generation, seed) and a checksum, "
               "and read it back to check it; failures name the file and offset and tell lost, torn and misdirected "
               "writes apart. sluice's own format: fio cannot check sluice's files. meta checks the header only, "
               "pattern the verify_pattern bytes, and null reads the data back without checking it (fio's). 0 = off.",
           .apply = [](JobSpec& job, std::string_view value,
                       const SourcePos& where) { job.verification.verify = verify_kind_value(value, where); },
       },
       {
           .name = "verify_pattern",
           .type = OptionType::kString,
           .category = "verify",
           .help =
               "Data to write and expect instead of random bytes, repeated over the block, as fio: \"text\", 'file' "
               "(its contents), 0x hex bytes (0xdeadbeef), decimal numbers (66 = one byte 0x42, -12 = f4 ff ff ff) and "
               "%o (the chunk's offset, 8 bytes little-endian), concatenated. Implies verify=pattern unless verify is "
               "given.",
           .reason = "no pattern unless given",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 DataPattern pattern = decode_data_pattern(value, where, "verify_pattern", true);
                 job.verification.verify_pattern = std::move(pattern.bytes);
                 job.verification.verify_pattern_offset_slots = std::move(pattern.offset_slots);
                 if (job.verification.verify == VerifyKind::kNone && !job.given_options.count("verify"))
                   job.verification.verify = VerifyKind::kPattern;
               },
       },
       bool_option(
           "do_verify", &VerifyOptions::do_verify, "1",
           {.category = "verify",
            .help = "After a size-based write job finishes writing, read back everything it wrote and check it."}),
       bool_option("verify_only", &VerifyOptions::verify_only, "0",
                   {.category = "verify",
                    .help = "Write nothing: replay the job's writes (same job options and randseed) to know what a "
                            "previous run wrote, then read it back and check it."}),
       bool_option("verify_fatal", &VerifyOptions::verify_fatal, "0",
                   {.category = "verify",
                    .help = "Stop the job at the first verification failure; otherwise count failures and go on."}),
       bool_option(
           "verify_dump", &VerifyOptions::verify_dump, "0",
           {.category = "verify",
            .help = "On a verification failure, write the chunk read to FILE.OFFSET.received and the chunk expected to "
                    "FILE.OFFSET.expected in the current directory (FILE: the target's base name), as fio; the first "
                    "10 failures of a job."}),
       u32_option(
           "verify_backlog", &VerifyOptions::verify_backlog, 0, UINT32_MAX, "0",
           {.unit = "blocks",
            .category = "verify",
            .help = "Verify during the write phase: after every N completed writes, read back and check those N."}),
       u32_option(
           "verify_backlog_batch", &VerifyOptions::verify_backlog_batch, 0, UINT32_MAX, "",
           {.unit = "blocks",
            .category = "verify",
            .help = "With verify_backlog: how many of the written blocks waiting to be checked each backlog round "
                    "reads back, the oldest first, as fio (fewer than verify_backlog leaves the rest waiting for later "
                    "rounds and the verify phase; more goes on checking each write as it completes until the batch is "
                    "used up).",
            .reason = "verify_backlog"}),
       bool_option(
           "verify_state_save", &VerifyOptions::verify_state_save, "1",
           {.category = "verify",
            .help = "A writing job with verify saves, when it ends, how many writes it issued and which did not "
                    "complete, to local-JOB-INDEX-verify.state (INDEX: the clone's number in the run from 0; in "
                    "--aux-path's directory when given), as fio; a later verify_only run with verify_state_load=1 then "
                    "checks only those writes."}),
       bool_option("verify_state_load", &VerifyOptions::verify_state_load, "0",
                   {.category = "verify",
                    .help = "With verify_only: read the state a writing run of the job saved (verify_state_save) and "
                            "verify only the writes it completed, e.g. after a crash or an interrupted run. A missing "
                            "state file fails the job."}),
       {
           .name = "verify_policy",
           .type = OptionType::kChoice,
           .default_text = "completed",
           .range = "completed|fsynced",
           .category = "verify",
           .help = "Which writes a later verify counts on, as fio master: completed (every completed write) or "
                   "fsynced (only the writes issued before the submission of the last fsync, fdatasync or "
                   "sync_file_range that completed: the others may be lost in a crash). It decides what "
                   "verify_state_save records for a verify_only run with verify_state_load=1, and what the job's own "
                   "verify phase reads back (with no completed sync, nothing).",
           .apply = apply_verify_policy,
       }});

  add_trim_verify_options(table);

  table.insert(
      table.end(),
      {{
           .name = "verify_interval",
           .type = OptionType::kSize,
           .default_text = std::string(1, '0'),
           .unit = "bytes",
           .category = "verify",
           .help = "Bytes covered by one verify header; must divide the block sizes and be at least 72 (the header). 0 "
                   "= the block size (with variable block sizes: the largest size that divides them all).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 const std::uint64_t bytes = size_value("verify_interval", value, where, job.report.kb_base);
                 if (bytes > UINT32_MAX) value_error(where, "verify_interval", value, "at most 4g");
                 job.verification.verify_interval = static_cast<std::uint32_t>(bytes);
               },
       },
       // fio's minimum is its own header's size (40 bytes); sluice's header is 72, and the swap undoes itself
       // either way (verify_block.cpp), so fio's bound is kept.
       size32_option(
           "verify_offset", &VerifyOptions::verify_offset, 40, "0",
           {.category = "verify",
            .help = "Store each chunk's 72-byte verify header this many bytes into the chunk, trading places with the "
                    "data there (swapped back before the check), as fio; the header must end inside the chunk. Not "
                    "with verify=pattern (no header)."})});
}

}  // namespace sluice::detail

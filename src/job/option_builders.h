#pragma once
// Internal to the spec module: small builders that turn "this option is a size stored in JobSpec::x" into an
// OptionDef, so the per-category tables stay declarative. Every apply() throws UserError whose message
// starts with the option and value as the user wrote them (see value_error).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/nearest.h"
#include "job/option_table.h"

namespace sluice::detail {

// "--bs=4q" on the command line, "job.fio:12: bs=4q" in a job file.
std::string option_context(const SourcePos& where, std::string_view name, std::string_view value);

// Throws UserError("<context>: <what>").
[[noreturn]] void value_error(const SourcePos& where, std::string_view name, std::string_view value,
                              std::string_view what);

inline constexpr std::string_view kNotASize = "not a size; sizes look like 4k, 1m, 10%";

// fio's list of file names: "a:b\:c" -> {"a", "b:c"}; empty elements are dropped.
std::vector<std::string> split_filenames(std::string_view value);

// Value parsers that throw the standard messages.
std::uint64_t size_value(std::string_view name, std::string_view value, const SourcePos& where, std::uint32_t kb_base);
// A size inside a list: parses `part`, but a message quotes the whole value as the user wrote it.
std::uint64_t size_part(std::string_view name, std::string_view part, std::string_view whole, const SourcePos& where,
                        std::uint32_t kb_base);
std::uint64_t unsigned_value(std::string_view name, std::string_view value, const SourcePos& where, std::uint64_t min,
                             std::uint64_t max);
bool bool_value(std::string_view name, std::string_view value, const SourcePos& where);
std::chrono::nanoseconds duration_value(std::string_view name, std::string_view value, const SourcePos& where,
                                        std::chrono::nanoseconds bare_unit);
SizeOrPercent size_or_percent_value(std::string_view name, std::string_view value, const SourcePos& where,
                                    std::uint32_t kb_base);
// Index of `value` in `choices`; on failure lists the choices and suggests the nearest.
std::size_t choice_value(std::string_view name, std::string_view value, const SourcePos& where,
                         const std::vector<std::string>& choices);

// fio's per-direction lists "r[,w[,t]]": an empty element leaves that direction alone; a last element that is
// not followed by a comma also applies to the remaining directions ("4k,64k" -> trim 64k; ",64k," -> write only).
template <typename T, typename Parse>
void apply_per_direction(PerDirection<T>& target, std::string_view name, std::string_view value, const SourcePos& where,
                         Parse parse) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    parts.push_back(value.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (parts.size() > static_cast<std::size_t>(kNumDirections)) {
    value_error(where, name, value, "at most 3 comma-separated values (read,write,trim)");
  }
  PerDirection<T> result = target;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].empty()) result[i] = parse(parts[i]);
  }
  if (!parts.back().empty()) {
    for (std::size_t i = parts.size(); i < static_cast<std::size_t>(kNumDirections); ++i)
      result[i] = result[parts.size() - 1];
  }
  target = result;
}

// random_distribution=zoned:... or zoned_abs:... (zoned_distribution.cpp); throws the standard messages.
Distribution parse_zoned_distribution(std::string_view value, const SourcePos& where, std::uint32_t kb_base);
// random_distribution=sequence:I1,I2,... (sequence_distribution.cpp); throws the standard messages.
Distribution parse_sequence_distribution(std::string_view value, const SourcePos& where);

// A data pattern (verify_pattern, buffer_pattern) as fio parses it (data_pattern.cpp): its bytes, and where
// %o (the chunk offset, 8 bytes) goes. allow_offset: %o is accepted (verify_pattern only, as in fio).
struct DataPattern {
  std::string bytes;
  std::vector<std::uint32_t> offset_slots;
};
DataPattern decode_data_pattern(std::string_view value, const SourcePos& where, std::string_view option,
                                bool allow_offset);

// What a row says beyond what its builder derives from the field's type: the help (required), and where needed
// aliases, a unit (replaces the builder's), the category, and why there is no default (reason).
struct OptionText {
  std::vector<std::string> aliases = {};
  std::string unit = {};
  std::string category = {};
  std::string help;
  std::string reason = {};
  bool JobSpec::GivenOptions::*given_flag = nullptr;  // OptionDef::given_flag
};

// `def` with the text's fields set (a non-empty text.unit replaces def.unit).
OptionDef with_text(OptionDef def, OptionText text);

// The field of a JobSpec an option row stores into: one of JobSpec's own (&JobControlOptions::exitall) or one of a
// part's
// (&TargetOptions::size, &UringOptions::fixedbufs); job_part<Part>() (job/job_spec.h) finds the part. A row
// passes the member pointer as it is: the conversion is implicit.
template <typename T>
class JobField {
 public:
  template <typename Part>
  JobField(T Part::*member)  // NOLINT(google-explicit-constructor): rows pass member pointers
      : get_([member](JobSpec& job) -> T& { return job_part<Part>(job).*member; }) {}
  T& operator()(JobSpec& job) const { return get_(job); }

 private:
  std::function<T&(JobSpec&)> get_;
};

// Builders. Each returns a complete row: name, type, default, unit, range and an apply() that stores the value
// in the row's field, plus the text. A row reads
//   bool_option("exitall", &JobControlOptions::exitall, "0", {.help = "When this job ends, ..."}),
//   bool_option("direct", &TargetOptions::direct, "0", {.help = "..."}),
OptionDef bool_option(std::string name, const JobField<bool>& member, std::string default_text, OptionText text);
OptionDef u32_option(std::string name, const JobField<std::uint32_t>& member, std::uint64_t min, std::uint64_t max,
                     std::string default_text, OptionText text);
// A signed number from min to max ("-5" or "5").
OptionDef i32_option(std::string name, const JobField<std::int32_t>& member, std::int32_t min, std::int32_t max,
                     std::string default_text, OptionText text);
OptionDef u64_option(std::string name, const JobField<std::uint64_t>& member, std::string default_text,
                     OptionText text);
OptionDef size_option(std::string name, const JobField<std::uint64_t>& member, std::string default_text,
                      OptionText text);
// A size of 0 or at least `min` bytes, at most 4g (fio's int options take size suffixes too).
OptionDef size32_option(std::string name, const JobField<std::uint32_t>& member, std::uint64_t min,
                        std::string default_text, OptionText text);
OptionDef duration_option(std::string name, const JobField<std::chrono::nanoseconds>& member,
                          std::chrono::nanoseconds bare_unit, std::string default_text, OptionText text);
OptionDef string_option(std::string name, const JobField<std::string>& member, std::string default_text,
                        OptionText text);
// fio options sluice accepts because it always behaves the way they ask (category "compat"): a flag whose
// value is only checked, and a number checked against [min, max].
// Their category is "compat" unless the text names one.
OptionDef accepted_flag(std::string name, OptionText text);
OptionDef accepted_number(std::string name, std::uint64_t min, std::uint64_t max, std::string default_text,
                          OptionText text);
// A supported=false entry: refused by name with `reason`.
OptionDef unsupported_option(const std::string& name, std::string category, std::string help, const std::string& reason,
                             std::vector<std::string> aliases = {});

// Per-category tables, concatenated by option_table().
void add_target_options(std::vector<OptionDef>& table);
void add_workload_options(std::vector<OptionDef>& table);
void add_engine_options(std::vector<OptionDef>& table);
void add_time_rate_options(std::vector<OptionDef>& table);
void add_report_options(std::vector<OptionDef>& table);
void add_fio_engine_options(std::vector<OptionDef>& table);   // options of engines sluice lacks
void add_fio_control_options(std::vector<OptionDef>& table);  // wait_for, exitall, ss, hist logs, ...
void add_sluice_options(std::vector<OptionDef>& table);       // sluice extensions (role, open_loop)
void add_verify_options(std::vector<OptionDef>& table);       // verify, verify_pattern, do_verify, ...
void add_placement_options(std::vector<OptionDef>& table);    // cpus_allowed, prio, buffer_pattern, ...
void add_uring_options(std::vector<OptionDef>& table);        // io_uring: registerfiles, sqthread_poll, hipri, ...
void add_cmdprio_options(std::vector<OptionDef>& table);      // cmdprio_percentage, cmdprio_bssplit, log_prio
void add_memory_options(std::vector<OptionDef>& table);       // mem/iomem, iomem_align, hugepage-size
void add_numa_options(std::vector<OptionDef>& table);         // numa_cpu_nodes, numa_mem_policy (libnuma)
void add_sync_range_options(std::vector<OptionDef>& table);   // sync_file_range
void add_noio_engine_options(std::vector<OptionDef>& table);  // cpuio, exec
void add_zone_options(std::vector<OptionDef>& table);         // zonemode=strided, zonesize, zonerange, zoneskip
void add_iolog_options(std::vector<OptionDef>& table);        // write_iolog, read_iolog, replay_*
void add_sprandom_options(std::vector<OptionDef>& table);     // sprandom, spr_num_regions, spr_op, spr_cs

// What is settled only once all of a job's options are known; the command-line and job-file parsers call
// this after a job is complete: name_unnamed_logs, then apply_bs_is_seq_rand.
void finish_parsed_job(JobSpec& job);
// fio's "Nz" sizes (N zones of zonesize) for size, io_size, offset, offset_increment and zoneskip
// (options_zones.cpp): accept_zone_counts() lets the option take them, apply_zone_counts() turns them into
// bytes once the job's zonesize is known (finish_parsed_job). Throws UserError when there is no zonesize.
OptionDef accept_zone_counts(OptionDef def);
void apply_zone_counts(JobSpec& job);
// A log option given as a bare flag (write_lat_log with no prefix) is named after the job.
void name_unnamed_logs(JobSpec& job);
// bs_is_seq_rand: the block sizes given for reads are those of sequential ios, those for writes of random
// ios (fio's get_next_buflen); every direction of the job takes the set its mode uses.
void apply_bs_is_seq_rand(JobSpec& job);

// "Did you mean" lives in common/nearest.h; the option builders use it unqualified.
using sluice::edit_distance;
using sluice::nearest_of;

}  // namespace sluice::detail

// Options that shape the workload: direction and mix, block sizes, offsets' distribution, buffer contents.
#include <cmath>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

void apply_rw(JobSpec& job, std::string_view value, const SourcePos& where) {
  static const std::vector<std::string> kChoices = {"read",     "write",     "randread",  "randwrite",
                                                    "rw",       "readwrite", "randrw",    "trim",
                                                    "randtrim", "randrmw",   "trimwrite", "randtrimwrite"};
  static const RwMode kModes[] = {RwMode::kRead,      RwMode::kWrite,     RwMode::kRandRead,  RwMode::kRandWrite,
                                  RwMode::kReadWrite, RwMode::kReadWrite, RwMode::kRandRW,    RwMode::kTrim,
                                  RwMode::kRandTrim,  RwMode::kRandRmw,   RwMode::kTrimWrite, RwMode::kRandTrimWrite};
  const std::size_t colon = value.find(':');
  const std::string_view mode = value.substr(0, colon);
  std::uint32_t run = 0;
  bool backwards = false;
  if (colon != std::string_view::npos) {
    const std::string_view suffix = value.substr(colon + 1);
    // fio's modifier: for random modes a count of ios per random offset ("randread:8"); for sequential
    // modes a hole in bytes after each io ("write:4k"), or with a '-' a step back ("read:-8k").
    const bool sequential = !mode.starts_with("rand");
    backwards = suffix.starts_with('-');
    if (backwards && !sequential) {
      value_error(where, "rw", value, "a backwards modifier ':-N' needs a sequential mode (read, write, rw)");
    }
    const std::string_view magnitude = backwards ? suffix.substr(1) : suffix;
    const auto number = sequential ? parse_size(magnitude, job.report.kb_base) : parse_unsigned(magnitude);
    if (!number || (!sequential && *number == 0) || *number > 0xffffffffull) {
      value_error(where, "rw", value,
                  sequential ? "the ':N' suffix of a sequential mode is a hole size such as 4k"
                             : "the ':N' suffix needs a whole number from 1 to 4294967295");
    }
    run = static_cast<std::uint32_t>(*number);
  }
  job.workload.rw = kModes[choice_value("rw", mode, where, kChoices)];
  job.workload.rw_sequential_run = run;
  job.workload.rw_backwards = backwards && run != 0;
}

OptionDef rw_option() {
  return {
      .name = "rw",
      .aliases = {"readwrite"},
      .type = OptionType::kChoice,
      .default_text = "read",
      .range =
          "read|write|randread|randwrite|rw|readwrite|randrw|trim|randtrim|randrmw|trimwrite|randtrimwrite[:N|:-N]",
      .help =
          "I/O pattern. rw/readwrite and randrw mix reads and writes (see rwmixread). A ':N' suffix issues N ios per "
          "generated offset (fio's offset modifier); for sequential modes ':N' skips N bytes after each io and ':-N' "
          "moves the offset back by N bytes after each io (\"read:-8k\" with bs=4k reads the file backwards from its "
          "end, wrapping to the end again below the start). randrmw (sluice extension, dependent I/O): each "
          "transaction reads a random block and then writes the same block back before its chain starts the next; "
          "iodepth=N runs N independent chains; a pass reads and writes every block once; transactions/s is reported. "
          "trimwrite (randtrimwrite): trim a block (a random block), then write it; as fio, every byte is trimmed once "
          "and written once; the write waits for its trim.",
      .apply = apply_rw,
  };
}

OptionDef rwmix_option(const std::string& name, bool is_read) {
  return {
      .name = name,
      .type = OptionType::kUnsigned,
      .default_text = "50",
      .unit = "percent",
      .range = "0-100",
      .help = is_read ? "Percent of reads in a mixed workload; sets rwmixwrite to the rest."
                      : "Percent of writes in a mixed workload; sets rwmixread to the rest.",
      .apply =
          [is_read, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
            const auto percent = static_cast<std::uint32_t>(unsigned_value(n, value, where, 0, 100));
            job.workload.rwmixread = is_read ? percent : 100 - percent;
          },
  };
}

OptionDef per_direction_size_option(std::string name, const JobField<PerDirection<std::uint64_t>>& member,
                                    std::uint64_t min, std::string default_text, OptionText text) {
  auto apply = [member, min, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
    apply_per_direction(member(job), n, value, where, [&](std::string_view part) {
      const std::uint64_t parsed = size_part(n, part, value, where, job.report.kb_base);
      if (parsed < min) value_error(where, n, value, "must be at least " + std::to_string(min) + " byte");
      return parsed;
    });
  };
  return with_text({.name = std::move(name),
                    .type = OptionType::kSizeList,
                    .default_text = std::move(default_text),
                    .unit = "bytes",
                    .range = "read[,write[,trim]]",
                    .apply = std::move(apply)},
                   std::move(text));
}

BlockSizeRange parse_range(std::string_view part, std::string_view value, const SourcePos& where, std::uint32_t kb) {
  const std::size_t sep = part.find_first_of("-:");
  if (sep == std::string_view::npos) value_error(where, "bsrange", value, "a range looks like 4k-64k");
  BlockSizeRange range;
  range.min = size_part("bsrange", part.substr(0, sep), value, where, kb);
  range.max = size_part("bsrange", part.substr(sep + 1), value, where, kb);
  if (range.min == 0) value_error(where, "bsrange", value, "block sizes must be at least 1 byte");
  if (range.min > range.max) value_error(where, "bsrange", value, "the minimum is above the maximum");
  return range;
}

// "4k/50:64k:8k" -> entries; blank percentages share what the given ones leave of 100 equally.
std::vector<BlockSizeSplitEntry> parse_split(std::string_view part, std::string_view value, const SourcePos& where,
                                             std::uint32_t kb) {
  std::vector<BlockSizeSplitEntry> entries;
  std::vector<std::size_t> blanks;
  double given = 0;
  std::size_t start = 0;
  while (start <= part.size()) {
    const std::size_t colon = std::min(part.find(':', start), part.size());
    const std::string_view item = part.substr(start, colon - start);
    start = colon + 1;
    if (item.empty()) continue;
    const std::size_t slash = item.find('/');
    BlockSizeSplitEntry entry;
    entry.size = size_part("bssplit", item.substr(0, slash), value, where, kb);
    if (entry.size == 0) value_error(where, "bssplit", value, "block sizes must be at least 1 byte");
    const std::string_view percent = slash == std::string_view::npos ? "" : item.substr(slash + 1);
    if (percent.empty()) {
      blanks.push_back(entries.size());
    } else {
      const auto number = parse_double(percent);
      if (!number || *number < 0 || *number > 100) {
        value_error(where, "bssplit", value, "each percentage must be a number from 0 to 100");
      }
      entry.percent = *number;
      given += *number;
    }
    entries.push_back(entry);
  }
  if (entries.empty()) value_error(where, "bssplit", value, "a split looks like 4k/50:64k/50");
  if (given > 100.0 + 1e-9) value_error(where, "bssplit", value, "percentages add up to more than 100");
  for (std::size_t index : blanks) entries[index].percent = (100.0 - given) / static_cast<double>(blanks.size());
  return entries;
}

void add_block_sizes(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {per_direction_size_option(
           "bs", &WorkloadOptions::bs, 1, "4k",
           {.aliases = {"blocksize"},
            .help = "Block size per I/O: '4k' for all directions, '4k,64k' for reads,writes (trims follow writes), "
                    "'4k,64k,8k' for reads,writes,trims; an empty element (',64k,') keeps that direction's value."}),
       bool_option("bs_is_seq_rand", &WorkloadOptions::bs_is_seq_rand, "0",
                   {.help = "Read the bs, bsrange and bssplit values as sequential,random instead of read,write, as "
                            "fio: a random mode's ios (reads and writes) take the second value, a sequential mode's "
                            "the first."}),
       bool_option("bs_unaligned", &WorkloadOptions::bs_unaligned, "0",
                   {.aliases = {"blocksize_unaligned"},
                    .help = "bsrange draws any length between its bounds, not only multiples of the smallest (random "
                            "offsets stay aligned; an io then ends inside its last block), as fio. Not with direct=1 "
                            "(O_DIRECT needs sector multiples)."}),
       {
           .name = "bsrange",
           .aliases = {"blocksize_range"},
           .type = OptionType::kCustom,
           .unit = "bytes",
           .range = "min-max[,min-max[,min-max]]",
           .help = "Block sizes drawn between min and max ('4k-64k' or '4k:64k'), per direction like bs.",
           .reason = "by default every io uses bs",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.workload.bsrange, "bsrange", value, where, [&](std::string_view part) {
                   return parse_range(part, value, where, job.report.kb_base);
                 });
               },
       },
       {
           .name = "bssplit",
           .type = OptionType::kCustom,
           .unit = "bytes/percent",
           .range = "size/pct:size/pct...[,read-split[,trim-split]]",
           .help = "Weighted block sizes, e.g. '4k/50:64k/50'; entries without a percentage share the remainder; per "
                   "direction like bs.",
           .reason = "by default every io uses bs",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 apply_per_direction(job.workload.bssplit, "bssplit", value, where, [&](std::string_view part) {
                   return parse_split(part, value, where, job.report.kb_base);
                 });
               },
       },
       per_direction_size_option(
           "blockalign", &WorkloadOptions::blockalign, 0, "0",
           {.aliases = {"ba"},
            .help =
                "Alignment of random offsets, per direction like bs; 0 means the direction's minimum block size."})});
}

// random, zipf[:theta], pareto[:h] or normal[:sigma] with fio's defaults and ranges; `option` names the
// option in messages.
Distribution parse_distribution(std::string_view option, std::string_view value, const SourcePos& where) {
  static const std::vector<std::string> kChoices = {"random", "zipf", "pareto", "normal"};
  const std::size_t colon = value.find(':');
  const std::string_view kind = value.substr(0, colon);
  Distribution dist;
  dist.kind = static_cast<DistributionKind>(choice_value(option, kind, where, kChoices));
  // fio's defaults when no parameter is given.
  dist.parameter = dist.kind == DistributionKind::kZipf ? 1.1 : dist.kind == DistributionKind::kPareto ? 0.2 : 0.0;
  if (colon != std::string_view::npos) {
    if (dist.kind == DistributionKind::kRandom) value_error(where, option, value, "random takes no parameter");
    const auto number = parse_double(value.substr(colon + 1));
    if (!number) value_error(where, option, value, "the parameter after ':' must be a number");
    dist.parameter = *number;
  }
  const double p = dist.parameter;
  if (dist.kind == DistributionKind::kZipf && (p <= 0.0 || p == 1.0)) {
    value_error(where, option, value, "zipf theta must be above 0 and not 1.0");
  }
  if (dist.kind == DistributionKind::kPareto && (p <= 0.0 || p >= 1.0)) {
    value_error(where, option, value, "pareto h must be between 0 and 1 (exclusive)");
  }
  if (dist.kind == DistributionKind::kNormal && (p < 0.0 || p >= 100.0)) {
    value_error(where, option, value, "normal deviation must be from 0 up to (not including) 100");
  }
  return dist;
}

void apply_distribution(JobSpec& job, std::string_view value, const SourcePos& where) {
  const std::string_view kind = value.substr(0, value.find(':'));
  if (kind == "zoned" || kind == "zoned_abs") {
    job.workload.random_distribution = parse_zoned_distribution(value, where, job.report.kb_base);
    return;
  }
  if (kind == "sequence") {
    job.workload.random_distribution = parse_sequence_distribution(value, where);
    return;
  }
  job.workload.random_distribution = parse_distribution("random_distribution", value, where);
}

// fio's file_service_type: roundrobin|sequential|random[:N ios per file], zipf|pareto|normal|gauss[:param].
void apply_file_service(JobSpec& job, std::string_view value, const SourcePos& where) {
  static const std::vector<std::string> kChoices = {"roundrobin", "sequential", "random", "zipf",
                                                    "pareto",     "normal",     "gauss"};
  const std::size_t colon = value.find(':');
  const std::size_t choice = choice_value("file_service_type", value.substr(0, colon), where, kChoices);
  if (choice >= 3) {
    std::string spec(choice == 6 ? "normal" : kChoices[choice]);
    if (colon != std::string_view::npos) spec += value.substr(colon);
    job.target.file_distribution = parse_distribution("file_service_type", spec, where);
    job.target.file_service = FileService::kDistribution;
    job.target.file_service_ios = 1;
    return;
  }
  std::uint32_t ios = 1;
  if (colon != std::string_view::npos) {
    ios = static_cast<std::uint32_t>(
        unsigned_value("file_service_type", value.substr(colon + 1), where, 1, 0xffffffffull));
  }
  static const FileService kServices[] = {FileService::kRoundRobin, FileService::kSequential, FileService::kRandom};
  job.target.file_service = kServices[choice];
  job.target.file_service_ios = ios;
}

void add_randomness(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "random_distribution",
           .type = OptionType::kChoice,
           .default_text = "random",
           .range = "random|zipf[:theta]|pareto[:h]|normal[:sigma]|zoned:a/s:...|zoned_abs:a/size:...|sequence:i,...",
           .help = "Distribution of random offsets: uniform random; zipf (theta > 0, not 1, default 1.1); pareto (0 < "
                   "h < 1, default 0.2); normal (sigma in percent of the region, 0 <= sigma < 100, default 0); "
                   "zoned:60/10:30/20:10/70 (60% of the ios in the first 10% of the region, ...; access shares add up "
                   "to 100, per direction like bssplit); zoned_abs:60/20g:40/100g (absolute zone sizes); "
                   "sequence:2,0,1 (each direction's ios visit blocks 2, 0, 1, 2, 0, ... of the region, in units of "
                   "the block size; up to 64 indices, as fio master).",
           .apply = apply_distribution,
       },
       bool_option("random_sequence_stride", &WorkloadOptions::random_sequence_stride, "0",
                   {.help = "With random_distribution=sequence: each round of the sequence is shifted by its length "
                            "in blocks (2,0,1 then 5,3,4, 8,6,7 ...) until it leaves the region, where the job ends, "
                            "as fio master; 0 repeats the same blocks."}),
       {
           .name = "file_service_type",
           .type = OptionType::kChoice,
           .default_text = "roundrobin",
           .range = "roundrobin|sequential|random[:N]|zipf|pareto|normal|gauss[:param]",
           .help = "Which of the job's files the next io goes to: roundrobin (each in turn), sequential (one file to "
                   "its end, then the next), random (a random file not done yet); ':N' issues N ios to a file before "
                   "switching. zipf, pareto and normal (gauss) pick files by that distribution, with "
                   "random_distribution's parameters.",
           .apply = apply_file_service,
       },
       bool_option("randrepeat", &WorkloadOptions::randrepeat, "1",
                   {.help = "Seed the random generators predictably so that runs repeat the same offsets."}),
       u64_option("randseed", &WorkloadOptions::randseed, "0x89",
                  {.help = "Base seed of the random generators (used when randrepeat=1)."}),
       {
           .name = "rw_sequencer",
           .type = OptionType::kChoice,
           .default_text = "sequential",
           .range = "sequential|identical",
           .help = "With rw=randread:N (a new random offset every N ios): sequential continues after the random io for "
                   "the other N-1, identical repeats its offset N-1 times, as fio.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"sequential", "identical"};
                 job.workload.rw_sequencer_identical = choice_value("rw_sequencer", value, where, kChoices) == 1;
               },
       },
       bool_option("norandommap", &WorkloadOptions::norandommap, "0",
                   {.help = "Do not track covered blocks: random offsets may repeat and some blocks may be missed.",
                    .given_flag = &JobSpec::GivenOptions::norandommap})});
}

void add_buffers(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {bool_option("refill_buffers", &BufferOptions::refill_buffers, "0",
                   {.help = "Refill write buffers with new random data before every write.",
                    .given_flag = &JobSpec::GivenOptions::refill_buffers}),
       bool_option(
           "scramble_buffers", &BufferOptions::scramble_buffers, "1",
           {.help = "Without refill_buffers, change one word per 512 bytes of each write buffer before every write, so "
                    "deduplicating storage does not collapse the writes; 0 writes the same buffer again."}),
       bool_option("zero_buffers", &BufferOptions::zero_buffers, "0", {.help = "Fill write buffers with zeros."}),
       u32_option("buffer_compress_percentage", &BufferOptions::buffer_compress_percentage, 0, 100, "0",
                  {.unit = "percent", .help = "Make write buffers compressible by about this percentage."}),
       size32_option("buffer_compress_chunk", &BufferOptions::buffer_compress_chunk, 0, "512",
                     {.help = "With buffer_compress_percentage: each run of this many bytes is random first, then that "
                              "percentage of zeros, as fio lays them out (0 = one run per buffer). Compressors with "
                              "small windows see the ratio only when the runs are shorter than their window."}),
       u32_option("dedupe_percentage", &BufferOptions::dedupe_percentage, 0, 100, "0",
                  {.unit = "percent",
                   .help = "This share of write buffers repeats earlier content, byte for byte, so storage that "
                           "deduplicates stores them once (see dedupe_mode); each buffer is otherwise as "
                           "buffer_compress_percentage makes it, and every write gets a fresh buffer (fio's "
                           "refill_buffers). 0: every buffer is unique."}),
       {
           .name = "dedupe_mode",
           .type = OptionType::kChoice,
           .default_text = "repeat",
           .range = "repeat|working_set",
           .help = "repeat: a dedupe buffer copies the last unique one. working_set: it copies a random one of the "
                   "job's first unique buffers, as many as dedupe_working_set_percentage of size holds (needs size and "
                   "one file).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"repeat", "working_set"};
                 job.buffers.dedupe_working_set = choice_value("dedupe_mode", value, where, kChoices) == 1;
               },
       },
       u32_option("dedupe_working_set_percentage", &BufferOptions::dedupe_working_set_percentage, 0, 100, "5",
                  {.unit = "percent",
                   .help = "dedupe_mode=working_set: the working set's size, in percent of the job's size."}),
       bool_option("dedupe_global", &BufferOptions::dedupe_global, "0",
                   {.help = "dedupe_mode=working_set: the working set is spread evenly over every job clone of the "
                            "run, so jobs repeat each other's data (fio's rotation over its jobs; a clone's pages come "
                            "from the others' unique buffers when they share randseed, the default)."})});
}

}  // namespace

void apply_bs_is_seq_rand(JobSpec& job) {
  if (!job.workload.bs_is_seq_rand) return;
  const int source = job.is_random() ? index_of(Direction::kWrite) : index_of(Direction::kRead);
  for (int d = 0; d < kNumDirections; ++d) {
    job.workload.bs[d] = job.workload.bs[source];
    job.workload.bsrange[d] = job.workload.bsrange[source];
    job.workload.bssplit[d] = job.workload.bssplit[source];
  }
}

void add_workload_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  table.insert(table.end(), {rw_option(), rwmix_option("rwmixread", true), rwmix_option("rwmixwrite", false)});
  add_block_sizes(table);
  add_randomness(table);
  add_buffers(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "workload";
}

}  // namespace sluice::detail

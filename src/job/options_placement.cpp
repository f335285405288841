// fio options of CPU placement, I/O priority, buffer contents and a few corners that sluice either does for
// real (cpus_allowed, cpumask, cpus_allowed_policy, prio, prioclass, buffer_pattern, exitall_on_error) or
// accepts because sluice always behaves that way (create_serialize, verify_async, disable_bw_measurement,
// log_entries, gtod_cpu).
#include <charconv>
#include <thread>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {

namespace {

constexpr std::uint32_t kMaxCpu = 4095;

std::uint32_t cpu_number(std::string_view name, std::string_view text, std::string_view whole, const SourcePos& where) {
  std::uint32_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || n > kMaxCpu) {
    value_error(where, name, whole, "expected CPU numbers and ranges such as 0-3,6 (CPUs 0 to 4095)");
  }
  return n;
}

// "0-3,6,8-9" -> {0,1,2,3,6,8,9}, sorted and without repeats.
std::vector<std::uint32_t> parse_cpu_list(std::string_view name, std::string_view value, const SourcePos& where) {
  std::vector<bool> seen(kMaxCpu + 1, false);
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = value.find(',', start);
    const std::string_view part = value.substr(start, comma == std::string_view::npos ? value.npos : comma - start);
    const std::size_t dash = part.find('-');
    const std::uint32_t lo = cpu_number(name, part.substr(0, dash), value, where);
    const std::uint32_t hi =
        dash == std::string_view::npos ? lo : cpu_number(name, part.substr(dash + 1), value, where);
    if (hi < lo) value_error(where, name, value, "a range must go upwards (0-3, not 3-0)");
    for (std::uint32_t c = lo; c <= hi; ++c) seen[c] = true;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  std::vector<std::uint32_t> cpus;
  for (std::uint32_t c = 0; c <= kMaxCpu; ++c) {
    if (seen[c]) cpus.push_back(c);
  }
  return cpus;
}

OptionDef cpus_allowed_option() {
  return {
      .name = "cpus_allowed",
      .type = OptionType::kString,
      .range = "CPU list, e.g. 0-3,6",
      .category = "placement",
      .help =
          "CPUs the job's worker thread may run on (sched_setaffinity on the thread; each job clone is one thread). "
          "See cpus_allowed_policy.",
      .reason = "every CPU",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            job.placement.cpus_allowed = parse_cpu_list("cpus_allowed", value, where);
          },
  };
}

OptionDef cpumask_option() {
  return {
      .name = "cpumask",
      .type = OptionType::kString,
      .range = "bit mask, e.g. 0x3 or 3",
      .category = "placement",
      .help = "cpus_allowed as a bit mask: bit N set allows CPU N (0x5 = CPUs 0 and 2). The last of the two wins.",
      .reason = "every CPU",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            const auto mask = parse_unsigned(value);
            if (!mask || *mask == 0) value_error(where, "cpumask", value, "expected a non-zero bit mask such as 0x3");
            job.placement.cpus_allowed.clear();
            for (std::uint32_t c = 0; c < 64; ++c) {
              if ((*mask >> c) & 1u) job.placement.cpus_allowed.push_back(c);
            }
          },
  };
}

OptionDef cpus_allowed_policy_option() {
  return {
      .name = "cpus_allowed_policy",
      .type = OptionType::kChoice,
      .default_text = "shared",
      .range = "shared|split",
      .category = "placement",
      .help =
          "shared: every clone of the job may run on any CPU of cpus_allowed. split: clone N runs on the N-th CPU of "
          "the set only (wrapping around when there are more clones than CPUs).",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            job.placement.cpus_allowed_split =
                choice_value("cpus_allowed_policy", value, where, {"shared", "split"}) == 1;
          },
  };
}

OptionDef priority_option(bool is_class) {
  return {
      .name = is_class ? "prioclass" : "prio",
      .type = OptionType::kUnsigned,
      .range = is_class ? "1-3" : "0-7",
      .category = "placement",
      .help = is_class ? "I/O priority class of the job's thread (ioprio_set): 1 realtime (needs CAP_SYS_ADMIN), 2 "
                         "best effort, 3 idle. Level 0 unless prio is given (as fio)."
                       : "I/O priority level 0 (highest) to 7 of the job's thread (ioprio_set), in class prioclass "
                         "(best effort when not given). Schedulers that ignore priorities (none, mq-deadline for some "
                         "classes) accept it without effect, as with fio.",
      .reason = "the kernel's default I/O priority",
      .apply =
          [is_class](JobSpec& job, std::string_view value, const SourcePos& where) {
            const auto n = static_cast<std::int32_t>(
                unsigned_value(is_class ? "prioclass" : "prio", value, where, is_class ? 1 : 0, is_class ? 3 : 7));
            (is_class ? job.placement.ioprio_class : job.placement.ioprio) = n;
          },
  };
}

OptionDef nice_option() {
  return {
      .name = "nice",
      .type = OptionType::kString,
      .range = "-20..19",
      .category = "placement",
      .help = "Nice value of the job's thread (setpriority), as nice(1): 19 lowest priority; below 0 needs root.",
      .reason = "the nice value sluice was started with",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            int n = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
            if (ec != std::errc{} || end != value.data() + value.size() || n < -20 || n > 19) {
              value_error(where, "nice", value, "not a nice value: an integer from -20 to 19");
            }
            job.placement.nice = n;
          },
  };
}

OptionDef buffer_pattern_option() {
  return {
      .name = "buffer_pattern",
      .type = OptionType::kString,
      .range = "\"text\", 'file', 0x hex bytes, decimal numbers",
      .category = "workload",
      .help =
          "Fill write buffers with this pattern repeated (0xdeadbeef, \"text\", 'file', decimal numbers, concatenated, "
          "as fio). The data is then highly compressible and deduplicable: `sluice lint` warns, as a device that "
          "compresses gets a free ride. Verification, when on, writes its own contents instead.",
      .reason = "random buffer contents",
      .apply =
          [](JobSpec& job, std::string_view value, const SourcePos& where) {
            job.buffers.buffer_pattern = decode_data_pattern(value, where, "buffer_pattern", false).bytes;
          },
  };
}

// exec_prerun (pre) or exec_postrun.
OptionDef exec_option(bool pre) {
  return string_option(pre ? "exec_prerun" : "exec_postrun",
                       pre ? &JobControlOptions::exec_prerun : &JobControlOptions::exec_postrun, "",
                       {.category = "placement",
                        .help = pre ? "Shell command the job runs before its I/O; output in JOBNAME.prerun.txt. A "
                                      "failure (non-zero status) fails the job, which then does no I/O."
                                    : "Shell command the job runs after its I/O; output in JOBNAME.postrun.txt. A "
                                      "failure fails the job.",
                        .reason = "no command"});
}

}  // namespace

void add_cgroup_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {string_option(
           "cgroup", &PlacementOptions::cgroup, "",
           {.category = "placement",
            .help = "The job's thread joins this cgroup of the blkio controller (cgroup v1; a path below its mount, "
                    "made when missing, removed at the end if sluice made it), so the throttles and weight set there "
                    "apply to the job's I/O alone. cgroup v2 alone is refused: it places whole processes.",
            .reason = "no cgroup"}),
       {
           .name = "cgroup_weight",
           .type = OptionType::kUnsigned,
           .default_text = "0",
           .range = "0, 100-1000",
           .category = "placement",
           .help = "The job's cgroup gets this blkio weight (blkio.weight, or blkio.bfq.weight: only the bfq I/O "
                   "scheduler weighs cgroups on current kernels); without cgroup= the cgroup is named after the job.",
           .reason = "no weight",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 const std::uint64_t n = unsigned_value("cgroup_weight", value, where, 0, 1000);
                 if (n != 0 && n < 100)
                   value_error(where, "cgroup_weight", value, "a weight from 100 to 1000 (as fio; 0: none)");
                 job.placement.cgroup_weight = static_cast<std::uint32_t>(n);
               },
       },
       bool_option("cgroup_nodelete", &PlacementOptions::cgroup_nodelete, "0",
                   {.category = "placement",
                    .help = "Keep the cgroup sluice made for the job after the run (to read its blkio statistics)."})});
}

void add_placement_options(std::vector<OptionDef>& table) {
  add_cgroup_options(table);
  table.insert(table.end(), {cpus_allowed_option(), cpumask_option(), cpus_allowed_policy_option(),
                             priority_option(false), priority_option(true), nice_option()});
  table.insert(
      table.end(),
      {exec_option(true),
       exec_option(false),
       buffer_pattern_option(),
       bool_option(
           "exitall_on_error", &ErrorOptions::exitall_on_error, "0",
           {.category = "control",
            .help = "When this job ends with an error (an io error, verify failure, rate_min), stop the other jobs of "
                    "its group (sluice runs one group at a time; later groups still run); the run exits non-zero."}),
       accepted_flag("create_serialize",
                     {.help = "Accepted: sluice always lays out (creates and fills) files one after another, before "
                              "the jobs start, so creation is always serialized."}),
       // fio 3.33 marks every Nth write with IO_U_F_BARRIER and none of its engines reads the mark (io_u.c sets
       // it, only clear_io_u clears it), so the option changes no io; sluice accepts it the same way.
       accepted_number("write_barrier", 0, UINT32_MAX, "0",
                       {.unit = "writes",
                        .help = "Accepted without effect, as in fio 3.33: fio marks every Nth write as a barrier, but "
                                "none of its engines acts on the mark."}),
       // fio's experimental_verify replays the write phase's offsets instead of remembering each written block;
       // sluice's verify phase reads every chunk its map (4 bytes per chunk) says was written, so what is checked
       // is the same.
       accepted_flag("experimental_verify",
                     {.help = "Accepted: fio then replays the writes' offsets for its verify phase instead of logging "
                              "each write; sluice's verify phase reads every chunk its map says was written either "
                              "way, so the same data is checked."}),
       // allrandrepeat: finish_parsed_job() seeds every stream from fio's default seed (options_report.cpp).
       accepted_flag("allrandrepeat",
                     {.help = "Seed every random stream (offsets, sizes, buffers, mixes) predictably, whatever "
                              "randrepeat and randseed say, as fio's allrandrepeat=1 (all of sluice's streams derive "
                              "from one seed)."}),
       accepted_number("verify_async", 0, 64, "0",
                       {.unit = "threads",
                        .help = "Accepted and ignored: sluice verifies inline in the job's thread as each read "
                                "completes; there are no separate verify threads."}),
       // fio preallocates its in-memory logs with log_entries entries (1024 to 1048576, as fio checks) and grows
       // them as needed; sluice's logs stream to their files, so the number only has to be valid.
       {
           .name = "log_compression_cpus",
           .type = OptionType::kString,
           .category = "compat",
           .help = "Accepted (checked as a CPU list, as cpus_allowed): fio's CPUs for its background log compression; "
                   "sluice compresses log_store_compressed logs in the job's own thread, a chunk at a time.",
           .reason = "no CPUs are set aside unless named",
           .apply = [](JobSpec&, std::string_view value,
                       const SourcePos& where) { (void)parse_cpu_list("log_compression_cpus", value, where); },
       },
       accepted_number("log_entries", 1024, 1048576, "1024",
                       {.unit = "entries",
                        .help = "Accepted and ignored: fio's initial size of an in-memory log; sluice writes its logs "
                                "as it goes."}),
       // fio can dedicate a CPU to a thread that keeps the time, because its gettimeofday calls are costly;
       // sluice reads the TSC (or CLOCK_MONOTONIC) in each job's thread and has no such thread to place.
       accepted_number("gtod_cpu", 0, 4095, "",
                       {.unit = "CPU",
                        .help = "Accepted and ignored: fio's CPU for a time-keeping thread; sluice reads the TSC in "
                                "each job's thread, so no CPU is set aside.",
                        .reason = "no CPU is set aside unless one is named"}),
       size_option(
           "lockmem", &BufferOptions::lockmem, "0",
           {.category = "placement",
            .help = "Pin this much memory with mlock(2) in each job clone while it runs, to leave the page cache less "
                    "(fio's way to simulate a smaller machine); a failed mlock fails the job."})});
}

}  // namespace sluice::detail

// Options for the I/O engine, queueing, job count, caching and syncing.
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

// The engine table's names, in EngineKind order (choice_value's index is then the kind).
const std::vector<std::string>& supported_engines() {
  static const std::vector<std::string> kEngines = [] {
    std::vector<std::string> names;
    for (std::string_view name : engine_names()) names.emplace_back(name);
    return names;
  }();
  return kEngines;
}

// "psync|sync|...", or with another separator.
std::string joined_engines(std::string_view separator) {
  std::string text;
  for (const std::string& name : supported_engines()) {
    if (!text.empty()) text += separator;
    text += name;
  }
  return text;
}

// "psync (pread/pwrite), sync (...), ...": the --help text of ioengine.
std::string engine_help() {
  std::string text = "How I/O is issued: ";
  for (const EngineTraits& t : kEngineTable) {
    if (t.kind != kEngineTable.front().kind) text += ", ";
    text.append(t.name).append(" (").append(t.summary).append(")");
  }
  return text + ".";
}

// fio's engines that sluice does not have, each with why: they need remote storage, hardware this kind of
// machine does not have, another operating system, or fio's plugin loader. Refused by name with the reason
// rather than as an unknown value.
struct FioEngine {
  std::string_view name;
  std::string_view reason;
};

constexpr FioEngine kFioEngines[] = {
    {"rbd", "fio's Ceph RBD engine (librbd): remote storage"},
    {"rados", "fio's Ceph RADOS engine: remote storage"},
    {"rdma", "fio's RDMA engine: a network transport between two hosts"},
    {"net", "fio's TCP/UDP engine: a network transport between two hosts, not storage"},
    {"netsplice", "fio's TCP/UDP splice engine: a network transport between two hosts, not storage"},
    {"nfs", "fio's libnfs engine: remote storage (mount the export and use a local engine)"},
    {"nbd", "fio's libnbd engine: remote storage (a Network Block Device server)"},
    {"http", "fio's HTTP engine (S3, Swift, WebDAV object stores): remote storage"},
    {"libiscsi", "fio's iSCSI engine (libiscsi): remote storage"},
    {"libhdfs", "fio's Hadoop HDFS engine: remote storage"},
    {"gfapi", "fio's GlusterFS engine (libgfapi): remote storage"},
    {"gfapi_async", "fio's GlusterFS engine (libgfapi): remote storage"},
    {"dfs", "fio's DAOS engine: remote storage"},
    {"ime_psync", "fio's DDN IME engine: remote storage"},
    {"ime_psyncv", "fio's DDN IME engine: remote storage"},
    {"ime_aio", "fio's DDN IME engine: remote storage"},
    {"librpma_apm_client", "fio's librpma engine: persistent memory over RDMA, remote"},
    {"librpma_apm_server", "fio's librpma engine: persistent memory over RDMA, remote"},
    {"librpma_gpspm_client", "fio's librpma engine: persistent memory over RDMA, remote"},
    {"librpma_gpspm_server", "fio's librpma engine: persistent memory over RDMA, remote"},
    {"spdk", "SPDK's engine: a user-space NVMe driver on a device taken from the kernel (hardware-specific)"},
    {"xnvme", "fio's xNVMe engine: NVMe devices through user-space or passthrough paths (hardware-specific)"},
    {"io_uring_cmd", "fio's NVMe passthrough engine (/dev/ngXnY character devices: hardware-specific)"},
    {"sg", "fio's SCSI generic engine (SG_IO passthrough: hardware-specific)"},
    {"mtd", "fio's raw flash (MTD) engine: hardware-specific"},
    {"libzbc",
     "fio's libzbc engine: zoned SCSI/ATA disks (hardware-specific; zonemode=zbd itself works on files and disks that "
     "are not zoned)"},
    {"dev-dax", "fio's device-DAX engine: persistent memory hardware"},
    {"libpmem", "fio's libpmem engine: persistent memory hardware"},
    {"pmemblk", "fio's pmemblk engine: persistent memory hardware"},
    {"libcufile", "fio's cuFile engine: NVIDIA GPUDirect Storage (GPU hardware)"},
    {"windowsaio", "fio's Windows overlapped I/O engine: another operating system"},
    {"solarisaio", "fio's Solaris aio engine: another operating system"},
    {"guasi", "an engine fio no longer has (GUASI)"},
    {"binject", "an engine fio no longer has (Linux's removed block inject interface)"},
    {"syslet-rw", "an engine fio no longer has (syslets, never in Linux)"},
    {"mmap_sync", "an engine fio no longer has"},
    {"sync_file_range", "not an engine in fio: use the sync_file_range option"},
    {"external", "a plugin loaded into fio's process from a shared library: fio's loader, which sluice has not"},
    {"skeleton_external",
     "fio's example plugin (a shared library loaded into fio): fio's loader, which sluice has not"},
    {"cpp_null", "fio's example C++ plugin (a shared library loaded into fio): fio's loader, which sluice has not"},
};

// Why fio's engine `name` is not in sluice; empty when `name` is none of fio's engines sluice lacks.
std::string_view fio_engine_reason(std::string_view name) {
  for (const FioEngine& engine : kFioEngines) {
    if (engine.name == name) return engine.reason;
  }
  if (name.rfind("external:", 0) == 0) return fio_engine_reason("external");  // external:PATH
  return {};
}

void apply_ioengine(JobSpec& job, std::string_view value, const SourcePos& where) {
  if (const std::string_view reason = fio_engine_reason(value); !reason.empty()) {
    std::string message = where.file.empty() ? std::string("--") : where.describe() + ": ";
    message.append("ioengine=").append(value).append(" is not supported by sluice: ").append(reason);
    message.append(" (supported: ").append(joined_engines(", ")).append(")");
    throw UserError(message);
  }
  job.engine.ioengine = kEngineTable[choice_value("ioengine", value, where, supported_engines())].kind;
}

void add_engine_choice(std::vector<OptionDef>& table) {
  table.insert(table.end(), {{
                                .name = "ioengine",
                                .type = OptionType::kChoice,
                                .default_text = "psync",
                                .range = joined_engines("|"),
                                .help = engine_help(),
                                .apply = apply_ioengine,
                            }});
}

void add_stat_type(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
          .name = "stat_type",
          .type = OptionType::kChoice,
          .default_text = "stat",
          .range = "stat|lstat|statx",
          .category = "engine",
          .help = "ioengine=filestat or dirstat: the system call each operation times (stat(2), lstat(2) or statx(2)).",
          .apply =
              [](JobSpec& job, std::string_view value, const SourcePos& where) {
                static const std::vector<std::string> kCalls = {"stat", "lstat", "statx"};
                job.engine.filestat.stat_type =
                    static_cast<FileStatCall>(choice_value("stat_type", value, where, kCalls));
              },
      }});
}

void add_queueing(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {u32_option("iodepth", &QueueOptions::iodepth, 1, 65536, "1",
                  {.unit = "ios",
                   .help = "Ios kept in flight per job; only asynchronous engines (libaio, io_uring) go above 1.",
                   .given_flag = &JobSpec::GivenOptions::iodepth}),
       u32_option("iodepth_batch_submit", &QueueOptions::iodepth_batch_submit, 0, 65536, "1",
                  {.aliases = {"iodepth_batch"},
                   .unit = "ios",
                   .help = "Ios submitted in one call; 0 means iodepth. Not given: the ios ready at once go in groups "
                           "of 4 (as many IOPS as fio's one per call on virtio disks, fewer system calls).",
                   .given_flag = &JobSpec::GivenOptions::iodepth_batch_submit}),
       u32_option(
           "iodepth_low", &QueueOptions::iodepth_low, 0, 65536, "0",
           {.unit = "ios",
            .help =
                "Once the queue is full (iodepth ios in flight), wait until only this many are left before filling it "
                "again (fio's low watermark); 0 or a value above iodepth means iodepth: the queue is kept full."}),
       u32_option("iodepth_batch_complete_min", &QueueOptions::iodepth_batch_complete_min, 0, 65536, "1",
                  {.aliases = {"iodepth_batch_complete"},
                   .unit = "ios",
                   .help = "Minimum completions to wait for in one reap; 0 polls without waiting."}),
       u32_option("iodepth_batch_complete_max", &QueueOptions::iodepth_batch_complete_max, 0, 65536, "0",
                  {.unit = "ios",
                   .help = "Maximum completions reaped in one call. Not given: one submit group (4, or "
                           "iodepth_batch_submit), so every submission brings the queue back to iodepth, as fio's "
                           "one-at-a-time reaping does; 0 means iodepth.",
                   .given_flag = &JobSpec::GivenOptions::iodepth_batch_complete_max}),
       {
           .name = "io_submit_mode",
           .type = OptionType::kChoice,
           .default_text = "inline",
           .range = "inline|offload",
           .help = "offload: with rate_iops or rate, ios are submitted on the rate's schedule whatever the device's "
                   "completions do (fio's reason for offload: no coordinated omission), which is sluice's open_loop=1: "
                   "lat from the scheduled arrival, queue_wait reported. Without a rate it changes nothing (inline).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"inline", "offload"};
                 job.pacing.submit_offload = choice_value("io_submit_mode", value, where, kChoices) == 1;
               },
       },
       u32_option("numjobs", &JobControlOptions::numjobs, 1, 4096, "1",
                  {.unit = "jobs", .help = "Number of clones of this job, each with its own thread and files."}),
       bool_option("thread", &JobControlOptions::thread, "0",
                   {.help = "Accepted for fio compatibility: sluice always runs jobs as threads."})});
}

void add_caching(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {bool_option(
           "direct", &TargetOptions::direct, "0",
           {.help = "Open files with O_DIRECT, bypassing the page cache; block sizes and offsets must be aligned."}),
       {
           .name = "buffered",
           .type = OptionType::kBool,
           .default_text = "1",
           .range = "0|1",
           .help = "The inverse of direct: buffered=0 is direct=1.",
           .flag = true,
           .apply = [](JobSpec& job, std::string_view value,
                       const SourcePos& where) { job.target.direct = !bool_value("buffered", value, where); },
       },
       {
           .name = "sync",
           .type = OptionType::kChoice,
           .default_text = "none",
           .range = "none|0|sync|1|dsync",
           .help = "Open files with O_SYNC (sync or 1) or O_DSYNC (dsync); none or 0 for neither.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "0", "sync", "1", "dsync"};
                 static const SyncMode kModes[] = {SyncMode::kNone, SyncMode::kNone, SyncMode::kSync, SyncMode::kSync,
                                                   SyncMode::kDsync};
                 job.durability.sync = kModes[choice_value("sync", value, where, kChoices)];
               },
       }});
}

void add_syncing(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {u32_option("fsync", &DurabilityOptions::fsync_blocks, 0, UINT32_MAX, "0",
                  {.unit = "writes", .help = "Call fsync after every N writes; 0 never."}),
       u32_option("fdatasync", &DurabilityOptions::fdatasync_blocks, 0, UINT32_MAX, "0",
                  {.unit = "writes", .help = "Call fdatasync after every N writes; 0 never."}),
       bool_option("end_fsync", &DurabilityOptions::end_fsync, "0",
                   {.help = "Call fsync on the job's files when its writes are done (counted in its runtime)."}),
       bool_option("end_syncfs", &DurabilityOptions::end_syncfs, "0",
                   {.help = "When the job's writes are done, one syncfs(2) per file system holding its files "
                            "instead of end_fsync's fsync per file (fio 3.42). Not counted in the sync statistics, "
                            "as fio."}),
       bool_option("fsync_on_close", &DurabilityOptions::fsync_on_close, "0",
                   {.help = "Call fsync on every file before closing it."})});
}

}  // namespace

void add_engine_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  add_engine_choice(table);
  add_stat_type(table);
  add_queueing(table);
  add_caching(table);
  add_syncing(table);
  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "engine";
}

}  // namespace sluice::detail

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
    {"libzbc", "fio's libzbc engine: zoned SCSI/ATA disks (hardware-specific; zonemode=zbd itself works on files "
               "and disks that are not zoned)"},
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
    {"skeleton_external", "fio's example plugin (a shared library loaded into fio): fio's loader, which sluice has "
                          "not"},
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
  job.ioengine = kEngineTable[choice_value("ioengine", value, where, supported_engines())].kind;
}

void add_engine_choice(std::vector<OptionDef>& table) {
  OptionDef ioengine;
  ioengine.name = "ioengine";
  ioengine.type = OptionType::kChoice;
  ioengine.default_text = "psync";
  ioengine.range = joined_engines("|");
  ioengine.help = engine_help();
  ioengine.apply = apply_ioengine;
  table.push_back(std::move(ioengine));
}

void add_stat_type(std::vector<OptionDef>& table) {
  OptionDef stat_type;
  stat_type.name = "stat_type";
  stat_type.type = OptionType::kChoice;
  stat_type.default_text = "stat";
  stat_type.range = "stat|lstat|statx";
  stat_type.category = "engine";
  stat_type.help =
      "ioengine=filestat or dirstat: the system call each operation times (stat(2), lstat(2) or statx(2)).";
  stat_type.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kCalls = {"stat", "lstat", "statx"};
    job.stat_type = static_cast<FileStatCall>(choice_value("stat_type", value, where, kCalls));
  };
  table.push_back(std::move(stat_type));
}

void add_queueing(std::vector<OptionDef>& table) {
  OptionDef iodepth = u32_option("iodepth", &JobSpec::iodepth, 1, 65536, "1", "ios");
  iodepth.help = "Ios kept in flight per job; only asynchronous engines (libaio, io_uring) go above 1.";
  table.push_back(std::move(iodepth));

  OptionDef submit = u32_option("iodepth_batch_submit", &JobSpec::iodepth_batch_submit, 0, 65536, "1", "ios");
  submit.aliases = {"iodepth_batch"};
  submit.help =
      "Ios submitted in one call; 0 means iodepth. Not given: the ios ready at once go in groups of 4 (as many "
      "IOPS as fio's one per call on virtio disks, fewer system calls).";
  table.push_back(std::move(submit));

  OptionDef low = u32_option("iodepth_low", &JobSpec::iodepth_low, 0, 65536, "0", "ios");
  low.help =
      "Once the queue is full (iodepth ios in flight), wait until only this many are left before filling it "
      "again (fio's low watermark); 0 or a value above iodepth means iodepth: the queue is kept full.";
  table.push_back(std::move(low));

  OptionDef complete_min =
      u32_option("iodepth_batch_complete_min", &JobSpec::iodepth_batch_complete_min, 0, 65536, "1", "ios");
  complete_min.aliases = {"iodepth_batch_complete"};
  complete_min.help = "Minimum completions to wait for in one reap; 0 polls without waiting.";
  table.push_back(std::move(complete_min));

  OptionDef complete_max =
      u32_option("iodepth_batch_complete_max", &JobSpec::iodepth_batch_complete_max, 0, 65536, "0", "ios");
  complete_max.help =
      "Maximum completions reaped in one call. Not given: one submit group (4, or iodepth_batch_submit), so "
      "every submission brings the queue back to iodepth, as fio's one-at-a-time reaping does; 0 means iodepth.";
  table.push_back(std::move(complete_max));

  OptionDef submit_mode;
  submit_mode.name = "io_submit_mode";
  submit_mode.type = OptionType::kChoice;
  submit_mode.default_text = "inline";
  submit_mode.range = "inline|offload";
  submit_mode.help =
      "offload: with rate_iops or rate, ios are submitted on the rate's schedule whatever the device's "
      "completions do (fio's reason for offload: no coordinated omission), which is sluice's open_loop=1: lat "
      "from the scheduled arrival, queue_wait reported. Without a rate it changes nothing (inline).";
  submit_mode.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"inline", "offload"};
    job.submit_offload = choice_value("io_submit_mode", value, where, kChoices) == 1;
  };
  table.push_back(std::move(submit_mode));

  OptionDef numjobs = u32_option("numjobs", &JobSpec::numjobs, 1, 4096, "1", "jobs");
  numjobs.help = "Number of clones of this job, each with its own thread and files.";
  table.push_back(std::move(numjobs));

  OptionDef thread = bool_option("thread", &JobSpec::thread, "0");
  thread.help = "Accepted for fio compatibility: sluice always runs jobs as threads.";
  table.push_back(std::move(thread));
}

void add_caching(std::vector<OptionDef>& table) {
  OptionDef direct = bool_option("direct", &JobSpec::direct, "0");
  direct.help = "Open files with O_DIRECT, bypassing the page cache; block sizes and offsets must be aligned.";
  table.push_back(std::move(direct));

  OptionDef buffered = bool_option("buffered", &JobSpec::direct, "1");
  buffered.help = "The inverse of direct: buffered=0 is direct=1.";
  buffered.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    job.direct = !bool_value("buffered", value, where);
  };
  table.push_back(std::move(buffered));

  OptionDef sync;
  sync.name = "sync";
  sync.type = OptionType::kChoice;
  sync.default_text = "none";
  sync.range = "none|0|sync|1|dsync";
  sync.help = "Open files with O_SYNC (sync or 1) or O_DSYNC (dsync); none or 0 for neither.";
  sync.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    static const std::vector<std::string> kChoices = {"none", "0", "sync", "1", "dsync"};
    static const SyncMode kModes[] = {SyncMode::kNone, SyncMode::kNone, SyncMode::kSync, SyncMode::kSync,
                                      SyncMode::kDsync};
    job.sync = kModes[choice_value("sync", value, where, kChoices)];
  };
  table.push_back(std::move(sync));
}

void add_syncing(std::vector<OptionDef>& table) {
  OptionDef fsync = u32_option("fsync", &JobSpec::fsync_blocks, 0, UINT32_MAX, "0", "writes");
  fsync.help = "Call fsync after every N writes; 0 never.";
  table.push_back(std::move(fsync));

  OptionDef fdatasync = u32_option("fdatasync", &JobSpec::fdatasync_blocks, 0, UINT32_MAX, "0", "writes");
  fdatasync.help = "Call fdatasync after every N writes; 0 never.";
  table.push_back(std::move(fdatasync));

  OptionDef end_fsync = bool_option("end_fsync", &JobSpec::end_fsync, "0");
  end_fsync.help = "Call fsync on the job's files when its writes are done (counted in its runtime).";
  table.push_back(std::move(end_fsync));

  OptionDef on_close = bool_option("fsync_on_close", &JobSpec::fsync_on_close, "0");
  on_close.help = "Call fsync on every file before closing it.";
  table.push_back(std::move(on_close));
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

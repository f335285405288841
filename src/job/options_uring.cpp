// fio's io_uring engine options: ring setup flags (SQPOLL, IOPOLL) and the registration toggles; the RWF
// flags options io_uring shares with pvsync2 and libaio (hipri, hipri_percentage, uncached, nowait, atomic,
// userspace_reap); and e4defrag's donorname and inplace. sluice registers files and buffers by default (fio
// does not); registerfiles=0 / fixedbufs=0 match fio's defaults.
#include "job/option_builders.h"

namespace sluice::detail {

void add_uring_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();

  table.insert(
      table.end(),
      {bool_option("registerfiles", &UringOptions::registerfiles, "1",
                   {.help = "io_uring: register the job's files with the ring (IOSQE_FIXED_FILE), saving a file lookup "
                            "per io. sluice's default is 1; fio's is 0 (registerfiles=0 matches fio)."}),
       bool_option("fixedbufs", &UringOptions::fixedbufs, "1",
                   {.help = "io_uring: register the io buffers (READ_FIXED/WRITE_FIXED), saving the page pinning per "
                            "io; needs RLIMIT_MEMLOCK room (falls back to plain buffers when refused). sluice's "
                            "default is 1; fio's is 0."}),
       bool_option("sqthread_poll", &UringOptions::sqthread_poll, "0",
                   {.help = "io_uring: a kernel thread polls the submission queue (IORING_SETUP_SQPOLL), so submitting "
                            "needs no system call; the thread burns a CPU while busy. Older kernels require root."}),
       {
           .name = "sqthread_poll_cpu",
           .type = OptionType::kUnsigned,
           .default_text = "",
           .unit = "cpu",
           .range = "0-4095",
           .help = "io_uring with sqthread_poll: pin the submission polling thread to this CPU (IORING_SETUP_SQ_AFF).",
           .reason = "unpinned: the kernel places the polling thread",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.engine.uring.sqthread_poll_cpu =
                     static_cast<std::int32_t>(unsigned_value("sqthread_poll_cpu", value, where, 0, 4095));
               },
       },
       bool_option(
           "hipri", &RwFlagOptions::hipri, "0",
           {.help = "io_uring: poll for completions instead of waiting for interrupts (IORING_SETUP_IOPOLL). Needs "
                    "direct=1 and a block device with poll queues (NVMe with poll_queues > 0); the job fails at start "
                    "otherwise. pvsync2: issue hipri_percentage of the ios with RWF_HIPRI (the kernel polls where it "
                    "can)."}),
       u32_option("hipri_percentage", &RwFlagOptions::hipri_percentage, 0, 100, "100",
                  {.unit = "%",
                   .help = "pvsync2 with hipri=1: the share of the ios issued with RWF_HIPRI, drawn per io (fio's)."}),
       {
           .name = "uncached",
           .type = OptionType::kUnsigned,
           .default_text = "0",
           .help =
               "pvsync2, io_uring: buffered reads and writes with RWF_DONTCACHE (Linux 6.14+: the pages are dropped "
               "once the io is done), fio's uncached (fio 3.33 sets RWF_UNCACHED, a flag value later kernels gave to "
               "RWF_ATOMIC, so its reads fail with EOPNOTSUPP; sluice follows fio 3.40's RWF_DONTCACHE). Not with "
               "direct=1 (ignored there, as fio). A filesystem without it fails the ios with EOPNOTSUPP.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.engine.rw_flags.uncached =
                     unsigned_value("uncached", value, where, 0, UINT32_MAX) != 0;  // fio's type is an int
               },
       },
       bool_option(
           "nowait", &RwFlagOptions::nowait, "0",
           {.help = "pvsync2, io_uring, libaio: reads and writes with RWF_NOWAIT: an io that would block (a page cache "
                    "miss, a busy device queue) fails with EAGAIN instead, counted as an error as in fio."}),
       bool_option("atomic", &RwFlagOptions::atomic, "0",
                   {.help = "pvsync2, io_uring, libaio: writes with RWF_ATOMIC (Linux 6.11+): torn-write protection, "
                            "all or none of each write survives a crash. Needs direct=1 and a file whose statx "
                            "STATX_WRITE_ATOMIC limits take the block sizes; the job is refused before it starts "
                            "otherwise, with the file's limits (fio lets the kernel fail each write with EINVAL)."}),
       string_option(
           "donorname", &E4defragOptions::donorname, "",
           {.help = "e4defrag: the donor file whose blocks each write's range is moved onto (under directory=, created "
                    "if missing, never truncated, left in place at the end as fio leaves it). Required by e4defrag.",
            .reason = "no donor file; e4defrag needs one"}),
       bool_option("inplace", &E4defragOptions::inplace, "0",
                   {.help = "e4defrag: 1 allocates the donor's blocks for each write and frees them after it "
                            "(fallocate, then truncate to 0); 0 allocates the donor over the job's range once, at the "
                            "start."}),
       bool_option(
           "userspace_reap", &LibaioOptions::userspace_reap, "0",
           {.help = "libaio: when completions need not be waited for (iodepth_batch_complete_min=0), read them from "
                    "the kernel's completion ring in user space instead of calling io_getevents, as fio."}),
       {
           .name = "nonvectored",
           .type = OptionType::kBool,
           .default_text = "1",
           .range = "0|1",
           .help =
               "io_uring: 1 issues IORING_OP_READ/WRITE (sluice's default), 0 issues READV/WRITEV with one iovec as "
               "older fio did. Ignored for ios on registered buffers (READ_FIXED/WRITE_FIXED).",
           .flag = true,
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 // fio's -1 means "detect": sluice always can issue non-vectored ops.
                 job.engine.uring.nonvectored = value == "-1" || bool_value("nonvectored", value, where);
               },
       },
       u32_option("force_async", &UringOptions::force_async, 0, UINT32_MAX, "0",
                  {.unit = "ios",
                   .help = "io_uring: every Nth io is flagged IOSQE_ASYNC, so the kernel hands it to a worker thread "
                           "instead of trying it inline first; 0 never."})});

  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "engine";
}

}  // namespace sluice::detail

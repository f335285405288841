// The presets' numbers come from the practitioners' reference classes quoted in issue 34; docs/lab.md gives
// each one's truth table. None is tuned to a measurement.
#include "lab/presets.h"

namespace sluice {
namespace {

constexpr std::string_view kSsd =
    R"(description = flash SSD: 0.8 ms a request, 8 at once (the practitioners' 40k IOPS class has 32: beyond the daemon here)
servers = 8
read_time = 0.8ms
write_time = 0.8ms
transfer_rate = 200MiB/s   # per server: 1 MiB alone takes 0.8 ms + 5 ms
bandwidth = 500MiB/s       # a SATA link
validity = measured (2-vCPU VM, docs/lab.md fidelity): fio and sluice 4 KiB random reads at depth 1 and 32 within 4% of the truth, idle and beside stress-ng --cpu 2; writes not measured yet
)";

constexpr std::string_view kSsdCliff =
    R"(description = the ssd preset, whose writes slow to 3.2 ms once 1.5 times its size is written (preconditioning)
servers = 8
read_time = 0.8ms
write_time = 0.8ms
transfer_rate = 200MiB/s
bandwidth = 500MiB/s
cliff_after = 1.5x         # garbage collection starts once every block has been written and half again
cliff_write_time = 3.2ms
validity = reads as ssd (docs/lab.md fidelity); the cliff itself is not measured yet
)";

constexpr std::string_view kSas15k = R"(description = 15k rpm SAS disk: about 176 random IOPS, one request at a time
servers = 1
read_time = 0.1ms          # command overhead
rpm = 15000                # half a turn: 2 ms
seek_track = 0.2ms
seek_full = 6.5ms          # mean random seek 0.2 + 8/15 * 6.3 = 3.56 ms
transfer_rate = 200MiB/s
validity = measured (2-vCPU VM, docs/lab.md fidelity): fio and sluice 4 KiB random reads at depth 1 and 32 within 3% of the truth, idle and beside stress-ng --cpu 2
)";

constexpr std::string_view kSata7k = R"(description = 7200 rpm SATA disk: about 100 random IOPS, one request at a time
servers = 1
read_time = 0.1ms
rpm = 7200                 # half a turn: 4.17 ms
seek_track = 0.5ms
seek_full = 10ms           # mean random seek 0.5 + 8/15 * 9.5 = 5.57 ms
transfer_rate = 150MiB/s
validity = measured (2-vCPU VM, docs/lab.md fidelity): fio and sluice 4 KiB random reads at depth 1 and 32 within 4% of the truth, idle and beside stress-ng --cpu 2; ext4 + fsync'd writes in the writeback tutorial
)";

constexpr std::string_view kRamdisk =
    R"(description = memory-backed device: 0.1 ms a request, one at a time (a real one serves many at once: beyond the daemon here)
servers = 1
read_time = 0.1ms
transfer_rate = 4GiB/s
validity = measured (2-vCPU VM, docs/lab.md fidelity): depth 32 exact (9 900 IOPS), depth 1 +35% (137 us): its 0.1 ms is about the path (~0.09 ms here), and a reply cannot leave before its request arrived
)";

constexpr std::string_view kRaidWt =
    R"(description = RAID of 6 10k rpm disks behind a write-through controller cache (every write waits for a disk)
servers = 6                # one per disk
read_time = 0.1ms
rpm = 10000
seek_track = 0.3ms
seek_full = 8ms
transfer_rate = 250MiB/s
bandwidth = 250MiB/s       # the controller
write_cache = write-through
flush_time = 0.1ms
validity = measured (2-vCPU VM, docs/lab.md fidelity): fsync'd 16 KiB writes on the raw device, fio 127 and sluice 125 IOPS vs 130.4; the daemon's record is the model's; reads not measured yet
)";

constexpr std::string_view kRaidWb =
    R"(description = the raid-wt array with a battery-backed write-back cache: ~250 MiB/s sequential, ~1500 fsync'd 16 KiB writes/s
servers = 6
read_time = 0.1ms
rpm = 10000
seek_track = 0.3ms
seek_full = 8ms
transfer_rate = 250MiB/s
bandwidth = 250MiB/s
write_cache = write-back
cache_size = 512m
cache_write_time = 0.5ms   # 0.5 + 0.06 (16 KiB) + flush 0.1 = 0.66 ms: ~1500 fsync'd 16 KiB writes/s
destage_rate = 250MiB/s
battery = yes
flush_time = 0.1ms
validity = measured (2-vCPU VM, docs/lab.md fidelity): fsync'd 16 KiB writes on the raw device, fio 1 457 and sluice 1 505 IOPS vs 1 509; writeback in the tutorial; reads not measured yet
)";

constexpr std::string_view kIscsi1g =
    R"(description = iSCSI over 1 GbE to an array: 0.2 ms round trip, 105 MiB/s (110 MB/s), 8 requests at once (16 would ask 27k 4 KiB requests/s: beyond the daemon here)
servers = 8
read_time = 0.5ms
network_rtt = 0.2ms
bandwidth = 105MiB/s
validity = measured (2-vCPU VM, docs/lab.md fidelity): fio's 4 KiB random reads at depth 1 and 32 within 3% of the truth
)";

}  // namespace

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> kPresets = {
      {"ssd", kSsd},        {"sas15k", kSas15k},  {"sata7k", kSata7k},    {"ramdisk", kRamdisk},
      {"raid-wt", kRaidWt}, {"raid-wb", kRaidWb}, {"iscsi-1g", kIscsi1g}, {"ssd-cliff", kSsdCliff},
  };
  return kPresets;
}

const ModelPreset* find_model_preset(std::string_view name) {
  for (const ModelPreset& preset : model_presets()) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

}  // namespace sluice

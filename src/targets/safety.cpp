// Refusing destructive writes: a block device is a hazard when it (or one of its partitions) is mounted,
// used as swap, held by md / device-mapper, or carries a filesystem, partition table, RAID or LVM signature.
#include "targets/safety.h"

#include <blkid/blkid.h>
#include <sys/stat.h>

#include <vector>

#include "common/error.h"
#include "observe/block_device_usage.h"
#include "targets/target_file.h"

namespace sluice {
namespace {

std::optional<std::string> signature(const std::string& path) {
  blkid_probe probe = blkid_new_probe_from_filename(path.c_str());
  if (probe == nullptr) return path + " could not be probed for signatures (libblkid cannot open it)";
  blkid_probe_enable_superblocks(probe, 1);
  blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
  blkid_probe_enable_partitions(probe, 1);
  blkid_probe_set_partitions_flags(probe, BLKID_PARTS_MAGIC);
  int rc = blkid_do_safeprobe(probe);
  std::optional<std::string> found;
  const char* value = nullptr;
  if (rc == -2) {
    found = path + " carries several conflicting signatures";
  } else if (rc < 0) {
    found = path + " could not be probed for signatures";
  } else if (rc == 0 && blkid_probe_lookup_value(probe, "PTTYPE", &value, nullptr) == 0) {
    found = path + " carries a " + value + " partition table";
  } else if (rc == 0 && blkid_probe_lookup_value(probe, "TYPE", &value, nullptr) == 0) {
    const char* usage = nullptr;
    std::string kind = blkid_probe_lookup_value(probe, "USAGE", &usage, nullptr) == 0 ? usage : "signature";
    if (kind == "filesystem") {
      found = path + " carries " + (std::string("aeiou").find(value[0]) != std::string::npos ? "an " : "a ") + value +
              " filesystem";
    } else {
      found = path + " carries a " + value + " signature (" + kind + ")";
    }
  }
  blkid_free_probe(probe);
  return found;
}

}  // namespace

std::optional<std::string> destructive_write_hazard(const std::string& path, const SystemRoots& roots) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return std::nullopt;
  const std::vector<BlockDeviceNode> nodes = device_and_partitions(path, st.st_rdev, roots);
  if (auto why = mounted_node(nodes, roots)) return why;
  if (auto why = swap_node(nodes, roots)) return why;
  if (auto why = held_node(nodes, roots)) return why;
  return signature(path);
}

void check_write_safety(const TargetFile& target, const WriteSafetyOptions& options) {
  if (!target.is_block_device || options.allow_destructive) return;
  if (auto why = destructive_write_hazard(target.path)) {
    throw UserError("refusing to write to " + target.path + ": " + *why +
                    "; writing would destroy its data (--allow-destructive overrides this check)");
  }
}

}  // namespace sluice

#include "run/file_locks.h"

#include <stdlib.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace sluice {
namespace {

// One lock per file for the whole process; never freed (a handful of entries).
std::shared_mutex* lock_of(const std::string& path) {
  static std::mutex registry_mutex;
  static std::map<std::string, std::unique_ptr<std::shared_mutex>> registry;
  char* resolved = ::realpath(path.c_str(), nullptr);
  const std::string key = resolved != nullptr ? resolved : path;
  std::free(resolved);
  const std::lock_guard<std::mutex> guard(registry_mutex);
  std::unique_ptr<std::shared_mutex>& lock = registry[key];
  if (!lock) lock = std::make_unique<std::shared_mutex>();
  return lock.get();
}

}  // namespace

FileLocks::FileLocks(FileLockMode mode, const std::vector<TargetFile>& targets) : mode_(mode) {
  if (mode_ == FileLockMode::kNone) return;
  for (const TargetFile& t : targets) locks_.push_back(t.stand_in ? nullptr : lock_of(t.path));
}

void FileLocks::acquire(const IoUnit& unit) {
  std::shared_mutex* lock = locks_[static_cast<std::size_t>(unit.file_index)];
  if (lock == nullptr) return;
  if (shared_for(unit.op))
    lock->lock_shared();
  else
    lock->lock();
}

void FileLocks::release(const IoUnit& unit) noexcept {
  std::shared_mutex* lock = locks_[static_cast<std::size_t>(unit.file_index)];
  if (lock == nullptr) return;
  if (shared_for(unit.op))
    lock->unlock_shared();
  else
    lock->unlock();
}

void FileLocks::acquire(std::span<IoUnit* const> batch) {
  held_.clear();
  for (const IoUnit* unit : batch) {
    std::shared_mutex* lock = locks_[static_cast<std::size_t>(unit->file_index)];
    if (lock == nullptr) continue;
    const bool shared = shared_for(unit->op);
    auto it = std::find_if(held_.begin(), held_.end(), [&](const auto& h) { return h.first == lock; });
    if (it == held_.end())
      held_.emplace_back(lock, shared);
    else
      it->second = it->second && shared;
  }
  std::sort(held_.begin(), held_.end());  // by address: the same order in every worker
  for (const auto& [lock, shared] : held_) {
    if (shared)
      lock->lock_shared();
    else
      lock->lock();
  }
}

void FileLocks::release_held() noexcept {
  for (const auto& [lock, shared] : held_) {
    if (shared)
      lock->unlock_shared();
    else
      lock->unlock();
  }
  held_.clear();
}

}  // namespace sluice

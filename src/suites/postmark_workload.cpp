#include "suites/postmark_workload.h"

namespace sluice {

PostmarkWorkload::PostmarkWorkload(const PostmarkConfig& config, PostmarkFiles& files)
    : config_(config), files_(files), rng_(config.seed) {
  // The source buffer comes first in the sequence: every later draw depends on its length.
  source_.resize(static_cast<std::size_t>(config.size_high) * 2);
  for (char& c : source_) c = static_cast<char>(32 + rng_.below(95));
  table_.resize(static_cast<std::size_t>(config.number) * 2);
  for (const PostmarkLocation& l : config.locations) {
    for (int i = 0; i < l.weight; ++i) location_index_.push_back(&l.path);
  }
}

std::vector<std::string> PostmarkWorkload::subdirectory_paths() const {
  std::vector<std::string> out;
  if (config_.subdirectories > 1) {
    for (int i = 0; i < config_.subdirectories; ++i) out.push_back("s" + std::to_string(i));
  }
  return out;
}

// The next slot after the last one taken, else the first free one (PostMark's find_free_file).
int PostmarkWorkload::find_free_slot() {
  const int slots = static_cast<int>(table_.size());
  if (next_slot_ < slots && table_[static_cast<std::size_t>(next_slot_)].size == 0) return next_slot_++;
  for (int i = 0; i < slots; ++i) {
    if (table_[static_cast<std::size_t>(i)].size == 0) {
      next_slot_ = i + 1;
      return i;
    }
  }
  return -1;
}

// Rejection sampling over all 2 x number slots: each miss costs a draw, as in the original.
int PostmarkWorkload::find_used_slot() {
  for (;;) {
    const int slot = static_cast<int>(rng_.below(static_cast<std::int64_t>(table_.size())));
    if (table_[static_cast<std::size_t>(slot)].size != 0) return slot;
  }
}

std::string PostmarkWorkload::next_file_name() {
  std::string name;
  if (!location_index_.empty()) {
    const std::size_t pick = location_index_.size() == 1 ? 0 : rng_.below(config_.total_weight());
    name = *location_index_[pick] + "/";
  }
  if (config_.subdirectories > 1) name += "s" + std::to_string(rng_.below(config_.subdirectories)) + "/";
  name += std::to_string(++counts_.created);
  return name;
}

void PostmarkWorkload::create_file() {
  const int slot = find_free_slot();
  if (slot < 0) return;
  Slot& s = table_[static_cast<std::size_t>(slot)];
  s.name = next_file_name();
  s.size = config_.size_low + static_cast<int>(rng_.below(config_.size_high - config_.size_low));
  files_.create(s.name, source_.data(), s.size);
  counts_.bytes_written += static_cast<std::uint64_t>(s.size);
  counts_.bytes_written_float += static_cast<float>(s.size);
}

void PostmarkWorkload::read_file(int slot) {
  const Slot& s = table_[static_cast<std::size_t>(slot)];
  files_.read(s.name, s.size);
  counts_.bytes_read += static_cast<std::uint64_t>(s.size);
  counts_.bytes_read_float += static_cast<float>(s.size);
  ++counts_.read;
}

// A file already at the upper bound is left alone: no draw, not counted.
void PostmarkWorkload::append_file(int slot) {
  Slot& s = table_[static_cast<std::size_t>(slot)];
  if (s.size >= config_.size_high) return;
  const int block = static_cast<int>(rng_.below(config_.size_high - s.size)) + 1;
  files_.append(s.name, source_.data(), block);
  s.size += block;
  counts_.bytes_written += static_cast<std::uint64_t>(block);
  counts_.bytes_written_float += static_cast<float>(block);
  ++counts_.appended;
}

void PostmarkWorkload::delete_file(int slot) {
  Slot& s = table_[static_cast<std::size_t>(slot)];
  if (s.size == 0) return;
  files_.remove(s.name);
  s.size = 0;
  ++counts_.deleted;
}

bool PostmarkWorkload::create_pool(const std::function<bool()>& stop) {
  for (int i = 0; i < config_.number; ++i) {
    if (stop()) return false;
    create_file();
  }
  return true;
}

PostmarkWorkload::TransactionsEnd PostmarkWorkload::run_transactions(const std::function<bool()>& stop,
                                                                     const std::function<void()>& tick) {
  const int tenth = config_.transactions / 10;
  for (int i = 0; i < config_.transactions; ++i) {
    if (counts_.created == counts_.deleted) return TransactionsEnd::kOutOfFiles;
    if (stop()) return TransactionsEnd::kStopped;
    if (config_.bias_read != -1) {
      if (static_cast<int>(rng_.below(10)) < config_.bias_read) {
        read_file(find_used_slot());
      } else {
        append_file(find_used_slot());
      }
    }
    if (config_.bias_create != -1) {
      if (static_cast<int>(rng_.below(10)) < config_.bias_create) {
        create_file();
      } else {
        delete_file(find_used_slot());
      }
    }
    ++transactions_done_;
    // PostMark divides by zero below 10 transactions; here every transaction is a tenth then.
    if (tenth == 0 || i % tenth == 0) tick();
  }
  return TransactionsEnd::kDone;
}

std::vector<std::string> PostmarkWorkload::remaining_files() const {
  std::vector<std::string> out;
  for (const Slot& s : table_) {
    if (s.size != 0) out.push_back(s.name);
  }
  return out;
}

void PostmarkWorkload::delete_all() {
  for (std::size_t i = 0; i < table_.size(); ++i) delete_file(static_cast<int>(i));
}

}  // namespace sluice

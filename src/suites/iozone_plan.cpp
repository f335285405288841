#include "suites/iozone_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "job/units.h"

namespace sluice {
namespace {

// iozone.c: KILOBYTES_START, KILOBYTES_END, RECLEN_START, RECLEN_END (MAXBUFFERSIZE), CROSSOVER, LARGE_REC.
constexpr std::uint64_t kMinFileKb = 64;
constexpr std::uint64_t kMaxFileKb = 512 * 1024;
constexpr std::uint64_t kMinRecKb = 4;
constexpr std::uint64_t kMaxRecKb = 16 * 1024;
constexpr std::uint64_t kCrossoverKb = 16 * 1024;
constexpr std::uint64_t kLargeRecKb = 64;
constexpr std::uint64_t kDefaultFileKb = 512;  // iozone without -a and -s
constexpr std::uint64_t kDefaultRecKb = 4;

std::vector<std::uint64_t> doubling(std::uint64_t from, std::uint64_t to) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t v = from; v <= to; v *= 2) out.push_back(v);
  return out;
}

std::string kb_text(std::uint64_t kb) { return format_bytes(static_cast<double>(kb) * 1024); }

void check_tests(const IozoneOptions& o, IozonePlan& plan) {
  if (o.tests.empty()) {
    std::fill(std::begin(plan.selected), std::end(plan.selected), true);
    return;
  }
  for (int t : o.tests) {
    if (t < 0 || t >= kIozoneTests) {
      throw UserError(
          fmt::format("-i {}: sluice iozone runs tests 0-7 (8 mixed workload and 9-12 pwrite/pread "
                      "are not implemented)",
                      t));
    }
    plan.selected[t] = true;
  }
  for (int t = 1; t <= 5; ++t) {
    if (plan.selected[t] && !plan.selected[0]) {
      throw UserError(
          fmt::format("-i {} reads the file that test 0 writes: add -i 0 (iozone: \"One will always need "
                      "to specify 0 so that any of the following tests will have a file to measure\")",
                      t));
    }
  }
  if (plan.selected[7] && !plan.selected[0] && !plan.selected[6]) {
    throw UserError("-i 7 reads the file that test 0 or 6 writes: add -i 0");
  }
}

}  // namespace

const std::array<IozoneColumn, kIozoneColumns>& iozone_columns() {
  static const std::array<IozoneColumn, kIozoneColumns> kColumns = {{
      {"write", "Writer report", 0, 8},
      {"rewrite", "Re-writer report", 0, 8},
      {"read", "Reader report", 1, 9},
      {"reread", "Re-Reader report", 1, 9},
      {"random_read", "Random read report", 2, 8},
      {"random_write", "Random write report", 2, 8},
      {"backward_read", "Backward read report", 3, 8},
      {"record_rewrite", "Record rewrite report", 4, 9},
      {"stride_read", "Stride read report", 5, 9},
      {"fwrite", "Fwrite report", 6, 9},
      {"frewrite", "Re-Fwrite report", 6, 9},
      {"fread", "Fread report", 7, 8},
      {"freread", "Re-Fread report", 7, 9},
  }};
  return kColumns;
}

std::optional<std::uint64_t> parse_iozone_kb(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto n = parse_unsigned(text);
    if (!n || *n == 0) return std::nullopt;
    return *n;
  }
  const auto bytes = parse_size(text);
  if (!bytes || *bytes == 0 || *bytes % 1024 != 0) return std::nullopt;
  return *bytes / 1024;
}

IozonePlan plan_iozone(const IozoneOptions& o) {
  IozonePlan plan;
  check_tests(o, plan);
  const std::uint64_t min_file = o.min_file_kb.value_or(kMinFileKb);
  const std::uint64_t max_file = o.max_file_kb.value_or(kMaxFileKb);
  const std::uint64_t min_rec = o.min_rec_kb.value_or(kMinRecKb);
  const std::uint64_t max_rec = o.max_rec_kb.value_or(kMaxRecKb);
  if (min_file > max_file) {
    throw UserError(
        fmt::format("-n {}k is above the maximum file size -g {}k; e.g. -n {}k", min_file, max_file, max_file));
  }
  if (min_rec > max_rec) {
    throw UserError(
        fmt::format("-y {}k is above the maximum record size -q {}k; e.g. -y {}k", min_rec, max_rec, max_rec));
  }
  std::vector<std::uint64_t> files = o.file_kb;
  std::vector<std::uint64_t> recs = o.rec_kb;
  if (o.auto_mode) {
    if (files.empty()) files = doubling(min_file, max_file);
    if (recs.empty()) recs = doubling(min_rec, max_rec);
  } else {
    if (files.empty()) files = {kDefaultFileKb};
    if (recs.empty()) recs = {kDefaultRecKb};
  }
  const bool rule =
      o.auto_mode && !o.no_crossover && o.file_kb.empty() && o.rec_kb.empty() && !o.min_rec_kb && !o.max_rec_kb;
  plan.xover_kb = rule ? kCrossoverKb : 0;
  const bool both_given = !o.file_kb.empty() && !o.rec_kb.empty();
  for (std::uint64_t f : files) {
    if (std::find(plan.file_sizes_kb.begin(), plan.file_sizes_kb.end(), f) == plan.file_sizes_kb.end()) {
      plan.file_sizes_kb.push_back(f);
    }
    for (std::uint64_t r : recs) {
      if (r > f) {
        if (!o.auto_mode || both_given) {
          throw UserError(fmt::format("-r {}k: the record ({}) is larger than the file (-s {}k = {}); e.g. -r {}k", r,
                                      kb_text(r), f, kb_text(f), f));
        }
        continue;
      }
      if (plan.xover_kb != 0 && f > plan.xover_kb && r < kLargeRecKb) continue;
      plan.cells.push_back({f, r});
    }
  }
  plan.record_sizes_kb = recs;
  if (plan.cells.empty()) {
    throw UserError(fmt::format(
        "no file size from -n/-g holds a record from -y/-r ({} is the smallest record, {} the "
        "largest file): nothing to measure",
        kb_text(*std::min_element(recs.begin(), recs.end())), kb_text(*std::max_element(files.begin(), files.end()))));
  }
  return plan;
}

}  // namespace sluice

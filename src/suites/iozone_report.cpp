#include "suites/iozone_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "job/units.h"
#include "report/result_document.h"
#include "version.h"

namespace sluice {
namespace {

const IozonePass* pass_of(const std::vector<IozoneCellResult>& cells, std::uint64_t file_kb, std::uint64_t rec_kb,
                          std::size_t column) {
  for (const IozoneCellResult& c : cells) {
    if (c.cell.file_kb == file_kb && c.cell.rec_kb == rec_kb) return &c.passes[column];
  }
  return nullptr;
}

// The -R/-b value of a table cell: kB/s, or CPU % in the CPU tables.
using CellValue = std::string (*)(const IozonePass*);

std::string kbps_value(const IozonePass* p) { return std::to_string(p != nullptr && p->ran ? p->kb_per_s : 0); }
std::string cpu_value(const IozonePass* p) {
  return fmt::format("{:6.2f}", p != nullptr && p->ran ? p->cpu_percent : 0.0);
}

std::string cpu_title(std::string_view title) {
  const std::string_view stem = title.substr(0, title.size() - std::string_view(" report").size());
  return fmt::format("{} CPU utilization report (Zero values should be ignored)", stem);
}

// One -R table in dump_excel's layout; `cpu` uses dump_times' cells (" %6.2f").
std::string excel_table(const std::string& title, const IozonePlan& plan, const std::vector<IozoneCellResult>& cells,
                        std::size_t column, bool cpu) {
  std::string out = fmt::format("\n\"{}\"\n      ", title);
  for (std::uint64_t r : plan.record_sizes_kb) out += fmt::format("  \"{}\"", r);
  out += "\n";
  for (std::uint64_t f : plan.file_sizes_kb) {
    out += fmt::format("\"{}\"  ", f);
    for (std::uint64_t r : plan.record_sizes_kb) {
      if (r > f) continue;
      const IozonePass* p = pass_of(cells, f, r, column);
      out += cpu ? " " + cpu_value(p) : " " + kbps_value(p) + " ";
    }
    out += "\n";
  }
  return out;
}

std::string csv_table(const std::string& title, const IozonePlan& plan, const std::vector<IozoneCellResult>& cells,
                      std::size_t column, bool cpu) {
  std::string out = fmt::format("\"{}\"\n", title);
  for (std::uint64_t r : plan.record_sizes_kb) out += fmt::format(",{}", r);
  out += "\n";
  for (std::uint64_t f : plan.file_sizes_kb) {
    out += std::to_string(f);
    for (std::uint64_t r : plan.record_sizes_kb) {
      if (r > f) continue;
      const IozonePass* p = pass_of(cells, f, r, column);
      out += "," + (cpu ? fmt::format("{:.2f}", p != nullptr && p->ran ? p->cpu_percent : 0.0) : kbps_value(p));
    }
    out += "\n";
  }
  return out + "\n";
}

nlohmann::json pass_json(const IozonePass& p) {
  return {{"bytes", p.bytes},
          {"records", p.records},
          {"seconds", p.seconds},
          {"kB_per_s", p.kb_per_s},
          {"cpu_percent", p.cpu_percent},
          {"latency_ns",
           {{"min", p.latency.min_ns},
            {"max", p.latency.max_ns},
            {"mean", p.latency.mean_ns},
            {"percentile",
             {{"50.000000", p.latency.p50_ns},
              {"90.000000", p.latency.p90_ns},
              {"99.000000", p.latency.p99_ns},
              {"99.900000", p.latency.p999_ns}}}}}};
}

}  // namespace

IozoneCache iozone_cache_state(std::uint64_t file_bytes, std::uint64_t mem_available_bytes, bool direct) noexcept {
  if (direct) return IozoneCache::kDirect;
  return file_bytes <= mem_available_bytes ? IozoneCache::kFits : IozoneCache::kLarger;
}

const char* iozone_cache_name(IozoneCache c) noexcept {
  switch (c) {
    case IozoneCache::kFits:
      return "fits";
    case IozoneCache::kLarger:
      return "larger";
    case IozoneCache::kDirect:
      return "direct";
  }
  return "";
}

std::string render_iozone_header(const IozoneOptions& o, const std::string& command_line, std::time_t began,
                                 std::uint64_t resolution_ns) {
  const std::string when = ctime_text(static_cast<std::uint64_t>(began) * 1000);  // iozone prints ctime()
  std::string out = fmt::format(
      "\tIozone: Performance Test of File I/O\n"
      "\t        Version $Revision: {} $\n"
      "\t\tsluice {}: this version's tests and report, run on sluice's engines\n\n"
      "\tRun began: {}\n\n",
      kIozoneVersion, SLUICE_VERSION, when);
  const auto line = [&out](const std::string& text) { out += "\t" + text + "\n"; };
  if (o.excel) line("Excel chart generation enabled");
  if (o.auto_mode) line("Auto Mode");
  if (o.no_crossover) line("Cross over of record size disabled.");
  if (o.min_file_kb) line(fmt::format("Using minimum file size of {} kilobytes.", *o.min_file_kb));
  if (o.max_file_kb) line(fmt::format("Using maximum file size of {} kilobytes.", *o.max_file_kb));
  if (o.min_rec_kb) line(fmt::format("Using Minimum Record Size {} KB", *o.min_rec_kb));
  if (o.max_rec_kb) line(fmt::format("Using Maximum Record Size {} KB", *o.max_rec_kb));
  for (std::uint64_t s : o.file_kb) line(fmt::format("File size set to {} KB", s));
  for (std::uint64_t r : o.rec_kb) line(fmt::format("Record Size {} KB", r));
  if (o.direct) line("O_DIRECT feature enabled");
  if (o.fsync_in_timing) line("Include fsync in write timing");
  if (o.close_in_timing) line("Include close in write timing");
  if (o.cpu && o.excel) line("CPU utilization Excel chart enabled");
  line("Command line used: " + command_line);
  line("Output is in Kbytes/sec");
  line(fmt::format("Time Resolution = {:.9f} seconds.", static_cast<double>(resolution_ns) / 1e9));
  line(fmt::format("File stride size set to {} * record size.", o.stride_records));
  return out;
}

std::string render_iozone_titles() {
  return "                                                            random  random    bkwd   record   stride"
         "                                   \n"
         "              KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read"
         "   fwrite frewrite   fread  freread\n";
}

std::string render_iozone_row(const IozoneCellResult& r) {
  std::string out = fmt::format("{:16}{:8}", r.cell.file_kb, r.cell.rec_kb);
  const auto& columns = iozone_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const int width = columns[i].width;
    const IozonePass& p = r.passes[i];
    if (!p.ran) {
      out += std::string(static_cast<std::size_t>(width), ' ');
    } else if (width == 9 && (i == 7 || i == 8)) {
      out += fmt::format(" {:8}", p.kb_per_s);  // record rewrite and stride: " %8lld"
    } else {
      out += fmt::format("{:{}}", p.kb_per_s, width);
    }
  }
  return out + "\n";
}

std::string render_iozone_excel(const IozoneOptions& o, const IozonePlan& plan,
                                const std::vector<IozoneCellResult>& cells) {
  std::string out = "Excel output is below:\n";
  const auto& columns = iozone_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (plan.selected[columns[i].test]) out += excel_table(std::string(columns[i].excel_title), plan, cells, i, false);
  }
  if (o.cpu) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (plan.selected[columns[i].test]) out += excel_table(cpu_title(columns[i].excel_title), plan, cells, i, true);
    }
  }
  return out;
}

std::string render_iozone_end(const IozoneOptions& o, const IozonePlan& plan,
                              const std::vector<IozoneCellResult>& cells) {
  std::string out = "\niozone test complete.\n";
  if (o.excel) out += render_iozone_excel(o, plan, cells);
  return out;
}

std::string render_iozone_excel_csv(const IozoneOptions& o, const IozonePlan& plan,
                                    const std::vector<IozoneCellResult>& cells) {
  std::string out;
  const auto& columns = iozone_columns();
  for (int cpu = 0; cpu <= (o.cpu ? 1 : 0); ++cpu) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (!plan.selected[columns[i].test]) continue;
      const std::string title = cpu != 0 ? cpu_title(columns[i].excel_title) : std::string(columns[i].excel_title);
      out += csv_table(title, plan, cells, i, cpu != 0);
    }
  }
  return out;
}

std::string render_iozone_lint(const IozoneOptions& o, const IozonePlan& plan, std::uint64_t mem_available_bytes) {
  std::string out = fmt::format("\nsluice: page cache per file size (MemAvailable {} at start{})\n",
                                format_bytes(static_cast<double>(mem_available_bytes)), o.direct ? "; -I given" : "");
  for (std::uint64_t f : plan.file_sizes_kb) {
    const IozoneCache c = iozone_cache_state(f * 1024, mem_available_bytes, o.direct);
    const char* what = c == IozoneCache::kDirect
                           ? "tests 0-5 bypass the page cache (O_DIRECT); fwrite/fread (6, 7) still go through it"
                       : c == IozoneCache::kFits
                           ? (o.fsync_in_timing ? "the file fits: reads measure the page cache, not the storage"
                                                : "the file fits: reads, and writes without -e, measure the page cache")
                           : "larger than the page cache can hold: reads reach the storage";
    out += fmt::format("{:16}  {:<6}  {}\n", f, iozone_cache_name(c), what);
  }
  return out;
}

std::string render_iozone_csv(const IozoneOptions& o, const std::vector<IozoneCellResult>& cells,
                              std::uint64_t mem_available_bytes) {
  std::string out = "file_kb,reclen_kb";
  for (const IozoneColumn& c : iozone_columns()) out += fmt::format(",{}", c.key);
  out += ",page_cache\n";
  for (const IozoneCellResult& r : cells) {
    out += fmt::format("{},{}", r.cell.file_kb, r.cell.rec_kb);
    for (const IozonePass& p : r.passes) out += p.ran ? fmt::format(",{}", p.kb_per_s) : ",";
    out += fmt::format(",{}\n",
                       iozone_cache_name(iozone_cache_state(r.cell.file_kb * 1024, mem_available_bytes, o.direct)));
  }
  return out;
}

nlohmann::json iozone_json(const IozoneOptions& o, const IozonePlan& plan, const IozoneRunResult& r,
                           std::uint64_t mem_available_bytes) {
  nlohmann::json tests = nlohmann::json::array();
  for (int t = 0; t < kIozoneTests; ++t) {
    if (plan.selected[t]) tests.push_back(t);
  }
  nlohmann::json cells = nlohmann::json::array();
  for (const IozoneCellResult& c : r.cells) {
    nlohmann::json passes = nlohmann::json::object();
    for (std::size_t i = 0; i < c.passes.size(); ++i) {
      if (c.passes[i].ran) passes[std::string(iozone_columns()[i].key)] = pass_json(c.passes[i]);
    }
    cells.push_back(
        {{"file_kb", c.cell.file_kb},
         {"reclen_kb", c.cell.rec_kb},
         {"file_bytes", c.cell.file_kb * 1024},
         {"page_cache", iozone_cache_name(iozone_cache_state(c.cell.file_kb * 1024, mem_available_bytes, o.direct))},
         {"tests", passes}});
  }
  return {{"version_followed", kIozoneVersion},
          {"auto", o.auto_mode},
          {"tests", tests},
          {"direct", o.direct},
          {"fsync_in_timing", o.fsync_in_timing},
          {"close_in_timing", o.close_in_timing},
          {"file", o.file},
          {"crossover_kb", plan.xover_kb},
          {"file_sizes_kb", plan.file_sizes_kb},
          {"record_sizes_kb", plan.record_sizes_kb},
          {"planned_cells", plan.cells.size()},
          {"time_resolution_s", static_cast<double>(r.time_resolution_ns) / 1e9},
          {"mem_available_bytes", mem_available_bytes},
          {"interrupted", r.interrupted},
          {"cells", cells}};
}

}  // namespace sluice

#include "suites/bonnie_report.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace sluice {
namespace {

constexpr BonnieTest kAll[kBonnieTestCount] = {
    BonnieTest::kByteWrite, BonnieTest::kBlockWrite,   BonnieTest::kRewrite,    BonnieTest::kByteRead,
    BonnieTest::kBlockRead, BonnieTest::kSeeks,        BonnieTest::kCreateSeq,  BonnieTest::kStatSeq,
    BonnieTest::kDeleteSeq, BonnieTest::kCreateRandom, BonnieTest::kStatRandom, BonnieTest::kDeleteRandom};

bool is_io(BonnieTest t) { return static_cast<int>(t) < static_cast<int>(BonnieTest::kSeeks); }
bool is_file(BonnieTest t) { return static_cast<int>(t) > static_cast<int>(BonnieTest::kSeeks); }

// What bonnie++ divides by: KiB for the IO tests (per-char ones: -f's size), seeks, files.
double units_of(BonnieTest t, const BonnieOptions& o) {
  if (t == BonnieTest::kByteWrite || t == BonnieTest::kByteRead) return static_cast<double>(o.byte_io_mib * 1024);
  if (is_io(t)) return static_cast<double>(o.size_mib * 1024);
  if (t == BonnieTest::kSeeks) return static_cast<double>(o.seeks);
  return static_cast<double>(o.files * kBonnieDirectoryUnit);
}

std::string cpu_cell(const BonniePhase& phase, bool text) {
  if (!phase.ran || phase.seconds == 0.0) return text ? "    " : ",";
  if (phase.seconds < kBonnieMinTime) return text ? " +++" : ",+++";
  const int cpu = static_cast<int>(phase.cpu_seconds / phase.seconds * 100.0);
  return text ? fmt::format(" {:3d}", cpu) : fmt::format(",{}", cpu);
}

// bonnie++'s text field "name size": the name cut to 18 columns, the size right-aligned to column 19.
std::string name_and_size(const std::string& name, const std::string& size) {
  std::string buf = (name + std::string(18, ' ')).substr(0, 18);
  const int offset = 20 - static_cast<int>(size.size()) - 2;
  if (offset < 0) return size;
  buf = buf.substr(0, static_cast<std::size_t>(offset)) + " " + size;
  return buf;
}

constexpr const char* kColumns = " /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n";

}  // namespace

std::string bonnie_rate_cells(BonnieTest test, const BonniePhase& phase, double units, bool text) {
  std::string out;
  if (!phase.ran || phase.seconds == 0.0) {
    out = text ? "      " : ",";
  } else if (phase.seconds < kBonnieMinTime) {
    out = text ? " +++++" : ",+++++";
  } else {
    double rate = units / phase.seconds;
    if (test == BonnieTest::kSeeks) {
      if (text)
        out = rate >= 1000.0 ? fmt::format(" {:5.0f}", rate) : fmt::format(" {:5.1f}", rate);
      else
        out = rate >= 1000.0 ? fmt::format(",{:.0f}", rate) : fmt::format(",{:.1f}", rate);
    } else if (!text) {
      out = fmt::format(",{}", static_cast<int>(rate));
    } else if (is_file(test)) {
      out = fmt::format(" {:5d}", static_cast<int>(rate));  // 2.00a prints garbage here (a double as %d)
    } else if (rate < 10000.0) {
      out = fmt::format(" {:4d}k", static_cast<int>(rate));
    } else if (rate / 1024.0 < 1000.0) {
      rate /= 1024.0;
      out = rate < 100.0 ? fmt::format(" {:4.1f}m", rate) : fmt::format(" {:4d}m", static_cast<int>(std::lround(rate)));
    } else {
      out = fmt::format(" {:4.1f}g", rate / 1024.0 / 1024.0);
    }
  }
  return out + cpu_cell(phase, text);
}

std::string bonnie_latency(double seconds) {
  if (seconds == 0.0) return "";
  if (seconds > 99.999999) return fmt::format("{}s", static_cast<int>(seconds));
  if (seconds > 0.099999) return fmt::format("{}ms", static_cast<int>(seconds * 1000.0));
  return fmt::format("{}us", static_cast<int>(seconds * 1000000.0));
}

std::string render_bonnie_text(const BonnieOptions& o, const BonnieResult& r) {
  std::string out;
  const std::string version = fmt::format("Version {:>5}       ", kBonnieVersion);
  if (o.size_mib > 0) {
    out += version + "------Sequential Output------ --Sequential Input- --Random-\n";
    out += "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n";
    out += std::string("Name:Size etc       ") + kColumns;
    out += name_and_size(r.machine, bonnie_size_field(o, true));
    for (int i = 0; i <= static_cast<int>(BonnieTest::kSeeks); ++i) {
      out += bonnie_rate_cells(kAll[i], r.phases[static_cast<std::size_t>(i)], units_of(kAll[i], o), true);
    }
    out += "\nLatency          ";
    for (int i = 0; i <= static_cast<int>(BonnieTest::kSeeks); ++i) {
      out += fmt::format(" {:>9}", bonnie_latency(r.phases[static_cast<std::size_t>(i)].max_latency));
    }
    out += "\n";
  }
  if (o.files > 0) {
    out += version + "------Sequential Create------ --------Random Create--------\n";
    out += fmt::format("{:<19.19} ", r.machine) + "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n";
    if (o.min_size != 0)
      out += "files:max:min       ";
    else if (o.max_size != 0)
      out += "files:max           ";
    else
      out += "              files ";
    out += kColumns;
    out += fmt::format("{:>19}", bonnie_files_field(o, true));
    for (std::size_t i = 6; i < kBonnieTestCount; ++i)
      out += bonnie_rate_cells(kAll[i], r.phases[i], units_of(kAll[i], o), true);
    out += "\nLatency          ";
    for (std::size_t i = 6; i < kBonnieTestCount; ++i)
      out += fmt::format(" {:>9}", bonnie_latency(r.phases[i].max_latency));
    out += "\n";
  }
  return out;
}

std::string render_bonnie_csv(const BonnieOptions& o, const BonnieResult& r) {
  std::string out = fmt::format("{},{},{},1,{}", kBonnieCsvVersion, kBonnieVersion, r.machine, r.seed);
  if (o.size_mib > 0) {
    out += fmt::format(",{},,{},{}", bonnie_size_field(o, false), o.seeks, o.seekers);
    for (std::size_t i = 0; i < 6; ++i) out += bonnie_rate_cells(kAll[i], r.phases[i], units_of(kAll[i], o), false);
  } else {
    out += std::string(16, ',');
  }
  if (o.files > 0) {
    out += "," + bonnie_files_field(o, false);
    for (std::size_t i = 6; i < kBonnieTestCount; ++i)
      out += bonnie_rate_cells(kAll[i], r.phases[i], units_of(kAll[i], o), false);
  } else {
    out += std::string(17, ',');
  }
  for (const BonniePhase& p : r.phases) out += "," + bonnie_latency(p.max_latency);
  return out + "\n";
}

std::string bonnie_csv_header() {
  return "format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,putc_cpu,put_block,"
         "put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,"
         "max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,"
         "seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,"
         "put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,"
         "seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency\n";
}

nlohmann::json bonnie_json(const BonnieOptions& o, const BonnieResult& r) {
  nlohmann::json j;
  j["follows"] = std::string("bonnie++ ") + kBonnieVersion;
  j["machine"] = r.machine;
  j["seed"] = r.seed;
  j["interrupted"] = r.interrupted;
  j["options"] = {{"dir", o.dir},
                  {"size_mib", o.size_mib},
                  {"chunk_size", o.chunk},
                  {"seeks", o.seeks},
                  {"seekers", o.seekers},
                  {"byte_io_mib", o.byte_io_mib},
                  {"files_k", o.files},
                  {"max_size", o.max_size},
                  {"min_size", o.min_size},
                  {"dirs", o.dirs},
                  {"file_chunk_size", o.file_chunk},
                  {"ram_mib", o.ram_mib},
                  {"sync", o.sync}};
  nlohmann::json phases = nlohmann::json::object();
  for (std::size_t i = 0; i < kBonnieTestCount; ++i) {
    const BonniePhase& p = r.phases[i];
    if (!p.ran) continue;
    const BonnieTest t = kAll[i];
    const double units = units_of(t, o);
    const char* unit = is_io(t) ? "KiB/s" : t == BonnieTest::kSeeks ? "seeks/s" : "files/s";
    phases[bonnie_test_key(t)] = {
        {"bytes", p.bytes},
        {"ops", p.ops},
        {"seconds", p.seconds},
        {"rate", p.seconds > 0 ? units / p.seconds : 0.0},
        {"rate_unit", unit},
        {"cpu_percent", p.seconds > 0 ? p.cpu_seconds / p.seconds * 100.0 : 0.0},
        {"max_latency_us", p.max_latency * 1e6},
        {"too_fast_to_time", p.seconds < kBonnieMinTime},
    };
  }
  j["phases"] = std::move(phases);
  j["csv"] = render_bonnie_csv(o, r);
  return j;
}

}  // namespace sluice

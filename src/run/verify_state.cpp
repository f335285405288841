#include "run/verify_state.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.h"

namespace sluice {
namespace {

constexpr const char* kFirstLine = "sluice verify state 1";
constexpr const char* kFirstLineFsynced = "sluice verify state 2";  // with the "fsynced" line

std::uint64_t number_at(const std::string& text, const std::string& where) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size())
    throw UserError(where + ": '" + text + "' is not a number");
  return n;
}

}  // namespace

std::string verify_state_path(const std::string& aux_dir, const std::string& job_name, int index) {
  std::string name = "local-" + job_name + "-" + std::to_string(index) + "-verify.state";
  if (aux_dir.empty()) return name;
  return aux_dir.back() == '/' ? aux_dir + name : aux_dir + "/" + name;
}

void save_verify_state(const std::string& path, const VerifyState& state) {
  std::ostringstream text;
  text << (state.fsynced_writes ? kFirstLineFsynced : kFirstLine) << "\njob " << state.job_name << "\nwrites "
       << state.writes_issued << "\nincomplete";
  for (std::uint64_t n : state.incomplete) text << ' ' << n;
  text << '\n';
  if (state.fsynced_writes) text << "fsynced " << *state.fsynced_writes << '\n';
  std::ofstream out(path, std::ios::trunc);
  out << text.str();
  out.close();
  if (!out) throw IoError("verify_state_save: cannot write " + path + ": " + std::strerror(errno), errno);
}

VerifyState load_verify_state(const std::string& path, const std::string& job_name) {
  std::ifstream in(path);
  if (!in) {
    throw UserError("verify_state_load: cannot read " + path + ": " + std::strerror(errno) + " (a writing run of job " +
                    job_name + " with verify saves it, verify_state_save=1)");
  }
  VerifyState state;
  std::string line;
  int number = 0;
  int version = 1;
  bool has_writes = false;
  while (std::getline(in, line)) {
    const std::string where = path + ":" + std::to_string(++number);
    if (number == 1) {
      if (line == kFirstLineFsynced) {
        version = 2;
      } else if (line != kFirstLine) {
        throw UserError(where + ": not a sluice verify state of version 1 or 2 (fio's own files are binary)");
      }
      continue;
    }
    const std::size_t space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "job") {
      state.job_name = rest;
    } else if (key == "writes") {
      state.writes_issued = number_at(rest, where);
      has_writes = true;
    } else if (key == "fsynced" && version >= 2) {
      state.fsynced_writes = number_at(rest, where);
    } else if (key == "incomplete") {
      std::istringstream items(rest);
      std::string item;
      while (items >> item) state.incomplete.push_back(number_at(item, where));
    } else {
      throw UserError(where + ": unknown line '" + line + "'");
    }
  }
  if (number == 0) throw UserError(path + ":1: empty, not a sluice verify state");
  if (!has_writes) throw UserError(path + ": no 'writes' line");
  if (version == 2 && !state.fsynced_writes) throw UserError(path + ": version 2 without its 'fsynced' line");
  if (state.fsynced_writes && *state.fsynced_writes > state.writes_issued) {
    throw UserError(path + ": 'fsynced " + std::to_string(*state.fsynced_writes) + "' is more than the " +
                    std::to_string(state.writes_issued) + " writes issued");
  }
  if (state.job_name != job_name) {
    throw UserError(path + ": the state of job '" + state.job_name + "', not of job '" + job_name + "'");
  }
  std::sort(state.incomplete.begin(), state.incomplete.end());
  return state;
}

}  // namespace sluice

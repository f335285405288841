#pragma once
// A PostMark session: the commands of a script executed in order (set, show, help, run; quit ends it), with
// --set overrides that win over the script's own `set`s, and every result kept for the reports. A script
// without `run` runs once at its end, so `sluice postmark --set number=1000` measures.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "suites/postmark_run.h"
#include "suites/postmark_script.h"

namespace sluice {

struct PostmarkSessionItem {
  enum class Kind { kShow, kHelp, kRun };
  Kind kind = Kind::kShow;
  std::string text;                      // kShow, kHelp: what PostMark prints
  std::string file;                      // `show FILE` / `run FILE`: also appended there
  std::optional<PostmarkRunResult> run;  // kRun
};

struct PostmarkSession {
  std::vector<std::string> config_files;  // "Reading configuration from file ..." lines
  std::vector<PostmarkSessionItem> items;
  bool interrupted = false;
};

// Applies every `set` of `commands` and then of `overrides` to a scratch configuration, so a wrong value is
// reported (UserError) before the first run starts.
void check_postmark_script(const std::vector<PostmarkCommand>& commands, const std::vector<PostmarkCommand>& overrides);

// Executes PostMark commands one at a time: a script's in order, or the prompt's as they are typed.
class PostmarkExecutor {
 public:
  PostmarkExecutor(std::vector<PostmarkCommand> overrides, std::function<void(const std::string&)> progress,
                   std::function<bool()> stop);
  // Executes `c`: a `set` changes the configuration (UserError for a bad value, which leaves it unchanged);
  // show, help and run add an item to the session. Returns false for quit and after a stopped run.
  // UserError / IoError of a run propagate (the failing run has removed its files).
  bool execute(const PostmarkCommand& c);
  bool ran() const { return ran_; }
  PostmarkSession& session() { return session_; }

 private:
  void run_once(const std::string& file);

  std::vector<PostmarkCommand> overrides_;
  std::function<void(const std::string&)> progress_;
  std::function<bool()> stop_;
  PostmarkConfig config_;
  PostmarkSession session_;
  bool ran_ = false;
};

// One item as PostMark prints it (a show or help text, or a run's progress and report), with sluice's additions
// after a report; without the progress lines when `progress_shown` (they were printed live).
std::string render_postmark_item(const PostmarkSessionItem& item, bool progress_shown = false);

// Executes the script. `progress` and `stop` go to each run_postmark; after a stopped run the rest of the
// script is skipped. UserError / IoError propagate (the failing run has removed its files).
PostmarkSession run_postmark_session(const std::vector<PostmarkCommand>& commands,
                                     const std::vector<PostmarkCommand>& overrides,
                                     const std::function<void(const std::string&)>& progress,
                                     const std::function<bool()>& stop);

// The normal output: what PostMark prints (banner, configuration file lines, show/help texts, each run's
// progress and report) with sluice's additions after each report.
std::string render_postmark_session(const PostmarkSession& session);

// The whole session as one document: the envelope (report/result_document.h; its time is the first run's start)
// and "sluice": {..., "command": "postmark", "postmark": {"config_files", "runs": [postmark_run_json...]}}.
nlohmann::json postmark_session_json(const PostmarkSession& session);

}  // namespace sluice

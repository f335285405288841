#include "suites/postmark_session.h"

#include <filesystem>

#include "report/result_document.h"
#include "suites/postmark_report.h"
#include "version.h"

namespace sluice {
namespace {

PostmarkConfig with_overrides(PostmarkConfig config, const std::vector<PostmarkCommand>& overrides) {
  for (const PostmarkCommand& o : overrides) apply_postmark_set(o, config);
  return config;
}

std::string current_directory() {
  std::error_code ec;
  return std::filesystem::current_path(ec).string();
}

}  // namespace

void check_postmark_script(const std::vector<PostmarkCommand>& commands,
                           const std::vector<PostmarkCommand>& overrides) {
  PostmarkConfig scratch;
  for (const PostmarkCommand& c : commands) {
    if (c.kind == PostmarkCommand::Kind::kSet) apply_postmark_set(c, scratch);
  }
  with_overrides(scratch, overrides);
}

PostmarkExecutor::PostmarkExecutor(std::vector<PostmarkCommand> overrides,
                                   std::function<void(const std::string&)> progress, std::function<bool()> stop)
    : overrides_(std::move(overrides)), progress_(std::move(progress)), stop_(std::move(stop)) {}

void PostmarkExecutor::run_once(const std::string& file) {
  PostmarkSessionItem item;
  item.kind = PostmarkSessionItem::Kind::kRun;
  item.file = file;
  item.run = run_postmark(with_overrides(config_, overrides_), progress_, stop_);
  item.run->report_file = file;
  session_.interrupted = item.run->end == PostmarkRunResult::End::kInterrupted;
  session_.items.push_back(std::move(item));
  ran_ = true;
}

bool PostmarkExecutor::execute(const PostmarkCommand& c) {
  if (session_.interrupted) return false;
  switch (c.kind) {
    case PostmarkCommand::Kind::kSet: {
      PostmarkConfig changed = config_;
      apply_postmark_set(c, changed);
      config_ = changed;
      break;
    }
    case PostmarkCommand::Kind::kShow:
      session_.items.push_back({PostmarkSessionItem::Kind::kShow,
                                render_postmark_show(with_overrides(config_, overrides_), current_directory()),
                                c.param,
                                {}});
      break;
    case PostmarkCommand::Kind::kHelp:
      session_.items.push_back({PostmarkSessionItem::Kind::kHelp, render_postmark_help(), "", {}});
      break;
    case PostmarkCommand::Kind::kRun:
      run_once(c.param);
      break;
    case PostmarkCommand::Kind::kQuit:
      return false;
  }
  return !session_.interrupted;
}

PostmarkSession run_postmark_session(const std::vector<PostmarkCommand>& commands,
                                     const std::vector<PostmarkCommand>& overrides,
                                     const std::function<void(const std::string&)>& progress,
                                     const std::function<bool()>& stop) {
  PostmarkExecutor executor(overrides, progress, stop);
  for (const PostmarkCommand& c : commands) {
    if (!executor.execute(c)) break;
  }
  if (!executor.ran() && !executor.session().interrupted) executor.execute(PostmarkCommand{});  // a run at the end
  return std::move(executor.session());
}

std::string render_postmark_item(const PostmarkSessionItem& item, bool progress_shown) {
  if (item.kind != PostmarkSessionItem::Kind::kRun) return item.file.empty() ? item.text : "";
  const PostmarkRunResult& r = *item.run;
  std::string o = progress_shown ? "" : render_postmark_progress(r);
  if (item.file.empty()) o += render_postmark_report(r);
  return o + render_postmark_extras(r);
}

std::string render_postmark_session(const PostmarkSession& session) {
  std::string o = "PostMark v1.51 : 8/14/01 (sluice " SLUICE_VERSION " postmark)\n";
  for (const std::string& f : session.config_files) o += "Reading configuration from file '" + f + "'\n";
  for (const PostmarkSessionItem& item : session.items) o += render_postmark_item(item);
  return o;
}

nlohmann::json postmark_session_json(const PostmarkSession& session) {
  nlohmann::json runs = nlohmann::json::array();
  std::int64_t timestamp_ms = 0;
  for (const PostmarkSessionItem& item : session.items) {
    if (item.kind != PostmarkSessionItem::Kind::kRun) continue;
    if (runs.empty()) timestamp_ms = item.run->timestamp_ms;
    runs.push_back(postmark_run_json(*item.run));
  }
  const ResultEnvelope envelope{"postmark", static_cast<std::uint64_t>(timestamp_ms), "", std::nullopt};
  return result_document(
      envelope, nlohmann::json::object(),
      {{"postmark", {{"config_files", session.config_files}, {"interrupted", session.interrupted}, {"runs", runs}}}});
}

}  // namespace sluice

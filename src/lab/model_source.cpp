#include "lab/model_source.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/nearest.h"
#include "lab/model_parser.h"
#include "lab/presets.h"

namespace sluice {
namespace {

std::string read_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot read the model file: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string not_found_message(const std::string& model) {
  std::vector<std::string> names;
  for (const ModelPreset& preset : model_presets()) names.emplace_back(preset.name);
  const std::string close = nearest_of(model, names);
  return fmt::format("{}: not a preset and no such model file{}; sluice lab models lists the presets", model,
                     close.empty() ? "" : fmt::format(" (did you mean {}?)", close));
}

}  // namespace

ModelSpec load_model(const std::string& model) {
  if (const ModelPreset* preset = find_model_preset(model)) {
    return parse_model(preset->text, "preset " + model, model);
  }
  std::error_code ec;
  if (!std::filesystem::exists(model, ec)) throw UserError(not_found_message(model));
  if (std::filesystem::is_directory(model, ec)) throw UserError(model + ": a directory, not a model file");
  return parse_model(read_model_file(model), model, std::filesystem::path(model).stem().string());
}

}  // namespace sluice

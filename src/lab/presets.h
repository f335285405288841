#pragma once
// The preset models, written in the model format (docs/lab.md) and embedded in the binary.
#include <string_view>
#include <vector>

namespace sluice {

struct ModelPreset {
  std::string_view name;
  std::string_view text;  // a model file's text
};

// Every preset, in the order `sluice lab models` lists them.
const std::vector<ModelPreset>& model_presets();

// The preset named `name`, nullptr when there is none.
const ModelPreset* find_model_preset(std::string_view name);

}  // namespace sluice

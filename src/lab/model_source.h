#pragma once
// Finding the model the user named: a preset, or a model file.
#include <string>

#include "lab/model.h"

namespace sluice {

// `model` is a preset's name (lab/presets.h) or the path of a model file (named after its stem). Throws
// UserError when it is neither (with the nearest preset), when the file cannot be read, or with the file's
// parse errors ("file:line: what").
ModelSpec load_model(const std::string& model);

}  // namespace sluice

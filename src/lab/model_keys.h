#pragma once
// The keys of the model format: one table (name, type, unit, default, help, where the value goes) drives the
// parser (lab/model_parser.h), the key reference of `sluice lab --help` and docs/lab.md's list.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lab/model.h"

namespace sluice {

enum class ModelValueType {
  kText,      // the rest of the line
  kCount,     // an unsigned integer
  kSize,      // job/units.h parse_size: 4k, 1g (k = 1024)
  kDuration,  // with a unit: 0.8ms, 250us
  kRate,      // a size per second: 250m/s
  kPercent,   // 10%
  kChoice,    // one of the key's choices
  kBool,      // yes/no, true/false, on/off, 1/0
  kCliff,     // a size, or a multiple of the device's size: 1.5x
  kFault,     // a fault rule (lab/model_faults.h): read:eio:at=1m; the only type whose key may repeat
};

// A value checked against its key's type.
struct ModelValue {
  std::string text;
  std::uint64_t number = 0;              // kCount, kSize, kCliff (as a size)
  std::chrono::nanoseconds duration{0};  // kDuration
  double real = 0;                       // kRate (bytes/s), kPercent (a fraction), kCliff (a multiple; 0 = a size)
  std::size_t choice = 0;                // kChoice
  bool flag = false;                     // kBool
  FaultRule fault;                       // kFault
};

// What the keys write: the model, and a cliff given as a multiple of the size, resolved once every key is read.
struct ModelDraft {
  ModelSpec spec;
  double cliff_size_multiple = 0;
};

struct ModelKey {
  std::string_view name;
  ModelValueType type;
  std::string_view default_text;
  std::vector<std::string_view> choices;  // kChoice
  std::string_view help;
  void (*apply)(ModelDraft& draft, const ModelValue& value);
};

// Whether `key` may be given on several lines (each adds one: `fault`); every other key at most once.
bool model_key_repeats(const ModelKey& key) noexcept;

// Every key, in the order docs/lab.md lists them.
const std::vector<ModelKey>& model_keys();

// The key named `name`, nullptr when there is none.
const ModelKey* find_model_key(std::string_view name);

// How a value of `type` is written, for help: "duration with a unit (0.8ms)".
std::string_view model_value_syntax(ModelValueType type);

}  // namespace sluice

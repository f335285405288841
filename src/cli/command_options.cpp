#include "cli/command_options.h"

namespace sluice {
namespace {

OptionInfo base(std::string name, ValueType type, std::string value_name, std::string default_text, std::string help) {
  OptionInfo o;
  o.name = std::move(name);
  o.type = type;
  o.value_name = std::move(value_name);
  o.default_text = std::move(default_text);
  o.help = std::move(help);
  return o;
}

}  // namespace

OptionInfo flag_arg(std::string name, std::string help) {
  return base(std::move(name), ValueType::kFlag, "", "", std::move(help));
}

OptionInfo text_arg(std::string name, std::string value_name, std::string default_text, std::string help) {
  return base(std::move(name), ValueType::kString, std::move(value_name), std::move(default_text), std::move(help));
}

OptionInfo duration_arg(std::string name, std::string default_text, std::string help) {
  OptionInfo o = base(std::move(name), ValueType::kDuration, "T", std::move(default_text), std::move(help));
  o.unit = "duration: 10ms, 2s, 500us, 2m";
  return o;
}

OptionInfo size_arg(std::string name, std::uint64_t min, std::string default_text, std::string help) {
  OptionInfo o = base(std::move(name), ValueType::kSize, "S", std::move(default_text), std::move(help));
  o.min = min;
  o.unit = "bytes, k = 1024";
  return o;
}

OptionInfo count_arg(std::string name, std::uint64_t min, std::uint64_t max, std::string default_text,
                     std::string help) {
  OptionInfo o = base(std::move(name), ValueType::kUnsigned, "N", std::move(default_text), std::move(help));
  o.min = min;
  o.max = max;
  return o;
}

OptionInfo choice_arg(std::string name, std::vector<std::string> choices, std::string default_text, std::string help) {
  OptionInfo o = base(std::move(name), ValueType::kChoice, "", std::move(default_text), std::move(help));
  o.value_name = "WORD";
  o.choices = std::move(choices);
  return o;
}

OptionInfo list_arg(std::string name, std::string value_name, ValueType element, std::string default_text,
                    std::string help) {
  OptionInfo o =
      base(std::move(name), ValueType::kList, std::move(value_name), std::move(default_text), std::move(help));
  o.element = element;
  return o;
}

}  // namespace sluice

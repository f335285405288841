#pragma once
// Builders for the common kinds of command options, so the command tables read as declarations.
// Each returns an OptionInfo with name, type, value name, unit, default and help set.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_table.h"

namespace sluice {

OptionInfo flag_arg(std::string name, std::string help);
OptionInfo text_arg(std::string name, std::string value_name, std::string default_text, std::string help);
// Positive, with a unit; a bare number is refused.
OptionInfo duration_arg(std::string name, std::string default_text, std::string help);
OptionInfo size_arg(std::string name, std::uint64_t min, std::string default_text, std::string help);
OptionInfo count_arg(std::string name, std::uint64_t min, std::uint64_t max, std::string default_text,
                     std::string help);
OptionInfo choice_arg(std::string name, std::vector<std::string> choices, std::string default_text, std::string help);
// A choice whose value is a T (an enum, a bool): each word given with the value it stands for, in the order
// help lists them (several words may stand for one value: on/yes/true). Declared with CommandTable::add, whose
// apply gets the T: `t.add(choice_arg<Mode>("mode", {{"seqwr", Mode::kSeqwr}, ...}, "seqwr", "..."),
// [](Args& a, Mode m) { a.mode = m; })`.
template <typename T>
TypedChoice<T> choice_arg(std::string name, std::vector<ChoiceOf<T>> choices, std::string default_text,
                          std::string help) {
  TypedChoice<T> out;
  std::vector<std::string> words;
  for (ChoiceOf<T>& choice : choices) {
    words.push_back(std::move(choice.name));
    out.values.push_back(std::move(choice.value));
  }
  out.info = choice_arg(std::move(name), std::move(words), std::move(default_text), std::move(help));
  return out;
}
// A comma list whose elements are `element` (kString, kUnsigned within [min, max], or kChoice of `choices`).
OptionInfo list_arg(std::string name, std::string value_name, ValueType element, std::string default_text,
                    std::string help);

}  // namespace sluice

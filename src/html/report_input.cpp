#include "html/report_input.h"

namespace sluice::html {
std::string result_kind(const nlohmann::json& doc) {
  const auto sluice = doc.find("sluice");
  if (sluice == doc.end() || !sluice->is_object()) return "fio";
  for (const char* kind : {"capacity", "interference", "quick", "precondition"}) {
    if (sluice->contains(kind)) return std::string(kind) == "interference" ? "interfere" : kind;
  }
  return "run";
}

}  // namespace sluice::html

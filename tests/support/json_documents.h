#pragma once
// The JSON documents of a text that holds several one after another, as fio's --status-interval prints them
// (and a sluice client's periodic reports): each one cut out by its braces and parsed whole.
#include <gtest/gtest.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sluice::testing {

// Every JSON document of `text`, in order (whitespace between them, as fio separates them): each top-level
// object is cut out by its braces (outside strings) and parsed whole; anything else between fails the test.
inline std::vector<nlohmann::json> documents_of(const std::string& text) {
  std::vector<nlohmann::json> documents;
  std::size_t start = 0;
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (depth == 0 && c != '{') {
      if (!std::isspace(static_cast<unsigned char>(c))) {
        ADD_FAILURE() << "text between documents at byte " << i;
        return documents;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' && depth++ == 0) start = i;
    if (c == '}' && --depth == 0) {
      const nlohmann::json doc = nlohmann::json::parse(text.substr(start, i + 1 - start), nullptr, false);
      EXPECT_FALSE(doc.is_discarded()) << "document " << documents.size() + 1 << " is not valid JSON";
      documents.push_back(doc);
    }
  }
  EXPECT_EQ(depth, 0) << "the last document is cut short";
  return documents;
}

}  // namespace sluice::testing

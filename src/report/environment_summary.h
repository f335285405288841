#pragma once
// The environment (observe/environment.h's document) in one line of a text report.
#include <nlohmann/json.hpp>
#include <string>

namespace sluice {

// One line for the normal output: "host x, Linux 6.1, 2 CPUs (model), 24 GiB RAM; /tmp/f on ext4 (vda, mq-deadline)".
// Pure: reads only the document; "environment unknown" when it is not an object.
std::string environment_summary(const nlohmann::json& environment);

}  // namespace sluice

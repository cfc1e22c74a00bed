#pragma once
// Structured logs: one JSON object per line on stderr, one line per event (never in hot loops).
#include <nlohmann/json.hpp>
#include <string_view>

namespace rainet::server {

void logEvent(std::string_view event,
              nlohmann::ordered_json fields = nlohmann::ordered_json::object());

}  // namespace rainet::server

#pragma once
// The process's one structured log: one JSON object per line on stderr, one line per event (never
// in hot loops). In the store, the lowest layer that logs (a lost PostgreSQL connection); the
// server logs through it too. Each line is stamped with the real wall clock, also when the server
// runs on a manual time source (tests): a log line tells when it was written.
#include <nlohmann/json.hpp>
#include <string_view>

namespace rainet {

void logEvent(std::string_view event,
              nlohmann::ordered_json fields = nlohmann::ordered_json::object());

}  // namespace rainet

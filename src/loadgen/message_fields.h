#pragma once
// The few top-level fields of a server message that `rainet loadtest` reads, found by one scan of
// the text instead of a JSON tree per message: the client shares the machine's cores with the
// server it measures, so its cost per action lowers the closed loop's ceiling
// (docs/performance.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rainet::loadgen {

struct MessageFields {
    // String fields (empty when absent or not a string).
    std::string type, id, game, kind, token, code;
    std::optional<int> ply;          // when an integer
    bool hasLegal = false;           // `legal` is present
    std::vector<std::string> legal;  // its strings, when it is an array of strings
};

// The fields of `text`, or nullopt when it is not a JSON object. Strings with escapes and
// anything else this scan does not expect are read through nlohmann instead, so on well-formed
// JSON the result is what the full parser gives; values it skips are only checked for balanced
// brackets and strings (the server is what it reads).
std::optional<MessageFields> readMessageFields(std::string_view text);

}  // namespace rainet::loadgen

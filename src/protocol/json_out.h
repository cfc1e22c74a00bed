#pragma once
// Appending JSON values to a string, byte for byte as nlohmann's compact dump() writes them
// (ensure_ascii off): the server's hot messages are written with these instead of building a
// tree and dumping it. Strings must be valid UTF-8, as everything the server sends is.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rainet::protocol::json_out {

// `s` quoted, with '"', '\\' and control characters escaped as dump() escapes them.
void string(std::string& out, std::string_view s);
void integer(std::string& out, std::int64_t n);
// A double as dump() writes it (shortest round-trip form; `1.0` keeps its fraction).
void number(std::string& out, double x);
// Any JSON value (an id echoed verbatim): integers and strings directly, the rest by dump().
void value(std::string& out, const nlohmann::ordered_json& j);

}  // namespace rainet::protocol::json_out

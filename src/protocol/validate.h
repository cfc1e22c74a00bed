#pragma once
// Checks a server message (parsed JSON) against the field tables of server_messages.h: a known
// `type` (and event `kind`), every required field present, no field the table does not name,
// each of the JSON type the table says, enum strings among their values. Tests run it over
// recorded transcripts, so that the documented, generated and sent forms cannot part.
#include <optional>
#include <string>

#include "protocol/messages.h"

namespace rainet::protocol {

// nullopt when `message` is a valid server message; otherwise what is wrong, naming the message
// (its type and kind) and the field (a path such as `players.1.rating`).
std::optional<std::string> validateServerMessage(const Json& message);

}  // namespace rainet::protocol

#pragma once
// Where `rainet play` keeps its identity token between runs (docs/terminal-client.md): one line,
// readable by its owner only.
#include <optional>
#include <string>

#include "core/error.h"

namespace rainet::client::play {

// $HOME/.config/rainet/token (./.config/... without a HOME).
std::string defaultTokenFile();

// The token kept in `path`, or "" when there is none.
std::string readToken(const std::string& path);

// Writes `token` to `path` (its folder made), mode 0600.
[[nodiscard]] std::optional<Error> writeToken(const std::string& path, const std::string& token);

}  // namespace rainet::client::play

#pragma once
// The archive API: a game's record (public while it is played, full once it is over) and paged
// listings, read from the store: JSON as in docs/protocol.md §10, with the record in the format of
// docs/record-format.md inside it and on its own.
#include <optional>
#include <string>

#include "store/store.h"

namespace rainet::server {

std::optional<std::string> gameRecordJson(store::Store& store, const std::string& id);
// The record alone (GET /api/games/{id}/record); nullopt for an unknown game or before play.
std::optional<std::string> gameRecordText(store::Store& store, const std::string& id);
std::string gameListJson(store::Store& store, const std::string& player, const std::string& status,
                         int page, int perPage);
// A player's public profile (GET /api/players/{id}); nullopt for an unknown id.
std::optional<std::string> playerProfileJson(store::Store& store, const std::string& publicId);
// Players with a rated game, best first (GET /api/leaderboard).
std::string leaderboardJson(store::Store& store, int page, int perPage);

}  // namespace rainet::server

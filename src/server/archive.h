#pragma once
// The archive API: a game's record (public while it is played, full once it is over) and
// listings, read from the store: JSON as in docs/protocol.md §10, with the record in the format
// of docs/record-format.md inside it and on its own. Each answers an error when the store failed
// (never "unknown" for a failure). Listings are paged by keyset: an answer's `next` is an opaque
// cursor naming where it ended, passed back as `after` for the following page.
#include <optional>
#include <string>
#include <string_view>

#include "store/store.h"

namespace rainet::server {

store::Lookup<std::string> gameRecordJson(store::Store& store, const std::string& id);
// The record alone (GET /api/games/{id}/record); nullopt for an unknown game or before play.
store::Lookup<std::string> gameRecordText(store::Store& store, const std::string& id);
// GET /api/games: newest first, `perPage` of them after `after`.
Result<std::string> gameListJson(store::Store& store, const std::string& player,
                                 const std::string& status,
                                 const std::optional<store::GameKey>& after, int perPage);
std::string gameCursor(const store::GameKey& k);
std::optional<store::GameKey> parseGameCursor(std::string_view cursor);
// A player's public profile (GET /api/players/{id}); nullopt for an unknown id.
store::Lookup<std::string> playerProfileJson(store::Store& store, const std::string& publicId);
// Where a leaderboard page ended: the rank of its last player and that player's sort key.
struct RankCursor {
    std::int64_t rank = 0;
    store::RankKey key;
};
std::string rankCursor(const RankCursor& c);
std::optional<RankCursor> parseRankCursor(std::string_view cursor);
// Players with a rated game, best first (GET /api/leaderboard), `perPage` of them after `after`.
Result<std::string> leaderboardJson(store::Store& store, const std::optional<RankCursor>& after,
                                    int perPage);

}  // namespace rainet::server

#pragma once
// The chat lines of games: appended one by one as they are said, loaded (the last lines of each
// room) with the game, so that a restart forgets nothing the players wrote. Statements over one
// connection; the Store calls them (store.h saveChat, loadGame).
#include <string>
#include <vector>

#include "core/error.h"
#include "store/database.h"
#include "store/store.h"

namespace rainet::store {

[[nodiscard]] std::optional<Error> insertChat(Database& db, const std::string& game,
                                              const ChatRow& line);
// The last `perChannel` lines of each room of `game`, in order of seq; an error when a read fails
// (never taken for "no chat").
Result<std::vector<ChatRow>> loadChat(Database& db, const std::string& game, int perChannel);

}  // namespace rainet::store

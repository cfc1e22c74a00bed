#pragma once
// The computer's players as the bot worker threads hold them: one bot per level per thread. A
// searching bot keeps its node memory between moves (up to 8 MB, ai/ismcts.h), so it is shared
// by every game its thread thinks for instead of held by each game; a game holds only its level.
#include <memory>
#include <string>

#include "ai/bot.h"
#include "server/metrics.h"

namespace rainet::server {

// The bot of `level` ("level1".."level5"; an unknown level plays randomly) of the calling
// thread, made on first use (counted in metrics.botsHeld while the thread lives).
ai::Bot& workerBot(int level, Metrics& metrics);

// The name the computer's seat shows: "computer (level N)".
std::string botLabel(int level);

// A bot of `level` for choosing an arrangement (no search memory: setups are not searched).
std::unique_ptr<ai::Bot> setupBot(int level);

}  // namespace rainet::server

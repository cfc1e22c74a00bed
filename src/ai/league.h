#pragma once
// The league of styles (docs/ai.md, "The league"): opponents each written from a one-line
// description (style.h), selectable by name like every bot. They are yardsticks of how well
// strong's strength generalizes, not players tuned to win or to lose.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ai/bot.h"

namespace rainet::ai {

// A league member by name; nullptr for another name.
std::unique_ptr<Bot> makeLeagueBot(std::string_view name);
// Their names, in the order of docs/ai.md.
std::vector<std::string> leagueNames();

}  // namespace rainet::ai

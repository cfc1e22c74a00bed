#pragma once
// What `rainet bot` (bot.cpp) hands its engine for a game it follows: the side's knowledge rebuilt
// from the server's messages (its starting view from its own arrangement, then every action as
// the side observed it, docs/engine-protocol.md "Observed action"), and the `go` limits from the
// game's clocks. Pure: no network, no engine process.
#include <chrono>
#include <string>
#include <vector>

#include "ai/engine_client.h"
#include "client/play_follower.h"
#include "core/infoset.h"

namespace rainet::client::bot {

struct Knowledge {
    Side side = Side::One;
    Rules rules;
    View start;   // the side's view when play started
    InfoSet now;  // start + every observed action
};

// The knowledge of the side `s.you` plays, once play has started and its arrangement is known;
// an error when the server's account does not add up (an action illegal in the view, a bad
// arrangement), which the caller treats as a failure of the game.
Result<Knowledge> knowledgeOf(const play::GameState& s);

// Limits of one `go`: the clocks (ms, the running side's counted down since they arrived) when the
// game is timed, else `untimed` (the bot's own budget: nodes and/or movetime). The timeout is the
// bot's remaining time plus 5 s (timed), or the movetime plus 5 s.
ai::GoLimits limitsOf(const play::GameState& s, const ai::GoLimits& untimed,
                      play::SteadyTime now = std::chrono::steady_clock::now());

// The observation tokens of one history entry ("d4-d5", "{l}"): a revealed identity is that of a
// card of the mover's opponent (the captured card, or the VC target), written in its owner's case.
std::vector<std::string> observationTokens(const play::HistoryEntry& e);

}  // namespace rainet::client::bot

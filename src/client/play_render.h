#pragma once
// Text rendering of a followed game for the terminal: the board from the recipient's view string
// (read with the core library; identities the recipient may not see are `?`), each side's seat,
// clock, stack and terminal cards, the side to move, the last action, offers, and at the end the
// full position with every identity. The recipient's own side is at the bottom (a spectator sees
// side 1 there). ANSI colours on request. Pure: state in, text out.
#include <string>

#include "client/play_follower.h"
#include "core/position_string.h"

namespace rainet::client::play {

struct RenderOptions {
    bool color = false;
    SteadyTime now = std::chrono::steady_clock::now();  // to count the running clock down
};

// The board lines alone (file letters, ranks, cells), `bottom`'s home rank last.
std::string renderBoard(const detail::PositionFields& f, Side bottom, bool color);

// Everything about the game, ending with a newline.
std::string renderGame(const GameState& s, const RenderOptions& o);

// `legal` as one line: "legal (N): a b c".
std::string renderLegal(const GameState& s);
// The actions so far, numbered by ply.
std::string renderHistory(const GameState& s);

// A chat line as printed: "[players] alice: text", "[spectators] bob: text".
std::string renderChat(const ChatLine& c);

// The answer to `lobby` (docs/protocol.md §5, lobby): the open games, then the seeks waiting.
std::string renderLobby(const Json& lobby);

// "standard, clock 5:00+3s, rated": the kind of game of a seek or lobby entry.
std::string describeKind(const std::string& preset, const Json& clock, const Json& rated);

// "+12", "-7", "±0".
std::string ratingDelta(int before, int after);

// m:ss, with tenths below 10 s ("0:07.3"); cs is clamped at 0.
std::string formatClock(long cs);

}  // namespace rainet::client::play

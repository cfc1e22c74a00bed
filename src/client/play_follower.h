#pragma once
// Follows one game as the server tells it (docs/protocol.md §§3, 5, 6, 8): a snapshot replaces
// everything known, events are applied in version order, a repeated version is ignored, and a
// version beyond the next one is a gap that the client must close with `resume`. Presence
// messages update who is connected. Pure: JSON in, state out; no network, no rules decisions (the
// legal actions are the server's list, the view is the server's string).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rainet::client::play {

using Json = nlohmann::json;
using SteadyTime = std::chrono::steady_clock::time_point;

struct Seat {
    std::string id, name;
    bool connected = false, bot = false;
    std::optional<int> rating;  // when the server sent one (never for the computer)
};

// A line of chat (docs/protocol.md §5, chat): a `chat` message or an entry of a snapshot's `chat`.
struct ChatLine {
    std::string channel;  // players, spectators
    std::string fromId, fromName;
    std::string side;  // the speaker's seat, "" for a spectator
    std::string text;
    long long at = 0;  // Unix ms

    bool operator==(const ChatLine&) const = default;
};
ChatLine chatLineOf(const Json& j);

struct HistoryEntry {
    int ply = 0;
    std::string side, action, revealed;  // revealed: "", "link" or "virus"
};

// Remaining time of each side as sent at `received`; `running` ("1"/"2") counts down since.
struct Clocks {
    long cs[2] = {0, 0};
    std::string running;
    SteadyTime received{};
};

struct Ending {
    std::string result;  // "1-0", "0-1", "1/2-1/2", "" when aborted
    std::string winner;  // "1", "2" or ""
    std::string reason;
    std::string position;  // full position string ("" when play never started)
    std::vector<std::string> setups[2];
    struct RatingChange {
        int before = 0, after = 0;
    };
    std::optional<RatingChange> ratings[2];  // a rated game with a result only
};

struct GameState {
    std::string game;
    long v = -1;         // last version applied; -1 before the first snapshot
    std::string you;     // "1", "2" or "spectator"
    std::string status;  // open, setup, playing, finished, aborted
    std::string preset = "standard";
    std::string opponent;  // open, invite, computer
    std::optional<int> level;
    std::optional<bool> rated;                  // when the server said
    std::optional<int> initialCs, incrementCs;  // the time control; none when untimed
    std::optional<Clocks> clocks;
    std::optional<Seat> seats[2];
    bool setupDone[2] = {false, false};
    std::vector<std::string> links;  // own link squares once set up
    std::string view;                // the recipient's view string; "" before play
    std::vector<std::string> legal;  // only when this side is to move
    std::vector<HistoryEntry> history;
    std::string drawOffer;     // side that offers a draw, or ""
    std::string rematchOffer;  // side that asks for a rematch, or ""
    std::string nextGame;      // the rematch game once agreed
    std::optional<Ending> ending;
    long graceCs = 0;
    std::vector<ChatLine> chat;  // the snapshot's chat history of the recipient's room

    bool isPlayer() const { return you == "1" || you == "2"; }
    bool isOver() const { return status == "finished" || status == "aborted"; }
    bool myTurn() const { return status == "playing" && !legal.empty(); }
};

class GameFollower {
  public:
    enum class Outcome {
        Ignored,  // not this game, a version already applied, or a gap while a resume is pending
        Applied,  // the state changed (a snapshot, the next event, or presence)
        Gap,      // an event beyond the next version: send `resume` with state().v
    };
    explicit GameFollower(std::string game) { s_.game = std::move(game); }

    // Takes one server message (any type; only snapshot, event and presence of this game count).
    Outcome take(const Json& message, SteadyTime now = std::chrono::steady_clock::now());
    const GameState& state() const { return s_; }
    const std::string& game() const { return s_.game; }
    // A resume was sent (e.g. after reconnecting): gaps until it is answered need no new one.
    void resumeSent() { resumePending_ = true; }
    // What to send for this game on a new connection: `watch` before its first snapshot, else
    // `resume` from the version held (then awaited, as after resumeSent()).
    Json rejoin();

  private:
    void applySnapshot(const Json& j, SteadyTime now);
    void applyEvent(const Json& j, SteadyTime now);
    GameState s_;
    bool resumePending_ = false;
};

// The lines of `history` (a snapshot's chat, oldest first) not yet shown when `lastShown` was the
// last line shown: those after it, or the last `max` when it is not among them.
std::vector<ChatLine> unseenChat(const std::vector<ChatLine>& history,
                                 const std::optional<ChatLine>& lastShown, std::size_t max);

// One line describing an event for its recipient ("side 2 (bob) played d7-d6", "side 1 offers a
// draw"), or "" for events that say nothing (those that only advance the version).
std::string describeEvent(const Json& event, const GameState& after);

}  // namespace rainet::client::play

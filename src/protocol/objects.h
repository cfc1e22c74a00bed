#pragma once
// The objects shared by several server messages (docs/protocol.md §5-6): player, clocks, history
// entry, result, chat line, lobby entry. One struct each, described once (schema.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/view.h"
#include "protocol/enums.h"
#include "protocol/messages.h"
#include "protocol/schema.h"

namespace rainet::protocol {

// A player, wherever one is sent. Which of the optional fields are present depends on the place
// (docs/protocol.md): a chat line's `from` has only id and name; a seat in a snapshot has rating
// (null for the computer), connected, bot and, while away, away; the welcome's and an ack's
// player have kind and rating (bot only for a bot account); a joined event's and a lobby entry's
// player have rating (bot only for a bot account).
struct Player {
    static constexpr std::string_view kName = "Player";
    std::string id, name;
    std::optional<PlayerKind> kind;
    std::optional<std::optional<std::int64_t>> rating;  // rounded; null for the computer
    std::optional<bool> connected;
    std::optional<bool> bot;
    std::optional<std::int64_t> away;  // cs without a connection
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("name", name);
        w.optional("kind", kind, "welcome and ack: guest or account");
        w.optional("rating", rating, "Glicko-2 rating, rounded; null for the computer");
        w.optional("connected", connected, "snapshot: has a connection following the game now");
        w.optional("bot", bot, "the computer or a bot account");
        w.optional("away", away, "snapshot: cs since the seat lost its last connection");
    }
};

// The players' clocks in a timed game, in cs.
struct Clocks {
    static constexpr std::string_view kName = "Clocks";
    std::int64_t remaining[2] = {0, 0};
    std::optional<Side> running;           // the side whose time runs, while the game is in play
    std::optional<std::int64_t> deadline;  // correspondence: the running side's, unix ms
    template <class V>
    void describe(V& w) const {
        w.field("1", remaining[0]);
        w.field("2", remaining[1]);
        w.field("running", running, "the side whose clock runs");
        w.optional("deadline", deadline,
                   "correspondence: when the running side's time runs out (unix ms)");
    }
};

// A clock setting as in `create` (ClockSpec of messages.h).
struct ClockSetting {
    static constexpr std::string_view kName = "ClockSetting";
    std::int64_t initial = 0, increment = 0;  // cs
    std::optional<int> days;                  // a correspondence clock (initial = the days)
    template <class V>
    void describe(V& w) const {
        w.field("initial", initial);
        w.field("increment", increment);
        w.optional("days", days, "correspondence: days per move (initial is them in cs)");
    }
    bool operator==(const ClockSetting&) const = default;
};

// An action in a snapshot's history, as the recipient sees it.
struct HistoryEntry {
    static constexpr std::string_view kName = "HistoryEntry";
    int ply = 0;
    Side side = Side::One;
    std::string action;  // NF in the public form for non-owners
    std::optional<Revealed> revealed;
    template <class V>
    void describe(V& w) const {
        w.field("ply", ply);
        w.field("side", side);
        w.field("action", action, "NF in the public form for non-owners");
        w.optional("revealed", revealed, "the identity the action revealed");
    }
};

// The link squares each side submitted (`[]` for a side that had not).
struct SideSetups {
    static constexpr std::string_view kName = "SideSetups";
    std::vector<std::string> one, two;
    template <class V>
    void describe(V& w) const {
        w.field("1", one);
        w.field("2", two);
    }
};

struct RatingChange {
    static constexpr std::string_view kName = "RatingChange";
    std::int64_t before = 0, after = 0;  // rounded
    template <class V>
    void describe(V& w) const {
        w.field("before", before);
        w.field("after", after);
    }
};

struct SideRatings {
    static constexpr std::string_view kName = "SideRatings";
    RatingChange one, two;
    template <class V>
    void describe(V& w) const {
        w.field("1", one);
        w.field("2", two);
    }
};

// How a game ended: a snapshot's `result`, and the fields of event `end`.
struct Result {
    static constexpr std::string_view kName = "Result";
    std::optional<GameResult> result;  // null when aborted
    std::optional<Side> winner;
    GameEnd reason = GameEnd::Aborted;
    std::optional<std::string> position;  // the full position, once play had started
    SideSetups setups;
    std::optional<SideRatings> ratings;  // a rated game with a result
    template <class V>
    void describe(V& w) const {
        w.field("result", result, "null when aborted");
        w.field("winner", winner);
        w.field("reason", reason);
        w.optional("position", position, "the full position, once play had started");
        w.field("setups", setups, "the link squares each side submitted ([] if none)");
        w.optional("ratings", ratings,
                   "rated games with a result: each side's rating before and after");
    }
};

// One line of chat (a `chat` message without `type` and `game`; snapshots carry these).
struct ChatLine {
    static constexpr std::string_view kName = "ChatLine";
    ChatChannel channel = ChatChannel::Players;
    std::int64_t n = 0;        // the line's number in the game, from 1
    Player from;               // id and name
    std::optional<Side> side;  // null for a spectator
    std::string text;
    std::int64_t at = 0;  // Unix time in ms
    template <class V>
    void describe(V& w) const {
        w.field("channel", channel);
        w.field(
            "n", n,
            "the line's number in the game (both rooms), from 1; resume asks for those after it");
        w.field("from", from);
        w.field("side", side, "the speaker's seat; null for a spectator");
        w.field("text", text);
        w.field("at", at, "Unix time in ms");
    }
};

// The two seats of a snapshot (null while free).
struct Seats {
    static constexpr std::string_view kName = "Seats";
    std::optional<Player> one, two;
    template <class V>
    void describe(V& w) const {
        w.field("1", one);
        w.field("2", two);
    }
};

// Which sides have submitted their arrangement.
struct SetupDone {
    static constexpr std::string_view kName = "SetupDone";
    bool one = false, two = false;
    template <class V>
    void describe(V& w) const {
        w.field("1", one);
        w.field("2", two);
    }
};

// After the end: the pending rematch offer and the new game once agreed.
struct RematchState {
    static constexpr std::string_view kName = "RematchState";
    std::optional<Side> offer;
    std::optional<std::string> nextGame;
    template <class V>
    void describe(V& w) const {
        w.field("offer", offer);
        w.field("next_game", nextGame);
    }
};

// An open game in the lobby.
struct LobbyEntry {
    static constexpr std::string_view kName = "LobbyEntry";
    std::string game;
    Preset preset = Preset::Standard;
    std::optional<ClockSetting> clock;  // null: untimed
    Player creator;                     // id, name, rating (bot for a bot account)
    SideWish side = SideWish::Random;
    bool rated = false;
    template <class V>
    void describe(V& w) const {
        w.field("game", game);
        w.field("preset", preset);
        w.field("clock", clock);
        w.field("creator", creator);
        w.field("side", side, "the creator's wish");
        w.field("rated", rated);
    }
};

// A tournament as listed and as shown on its page (docs/protocol.md, tournaments).
struct TournamentInfo {
    static constexpr std::string_view kName = "TournamentInfo";
    std::string id, name;
    std::string format;  // "arena"
    std::string status;  // "created", "running", "finished"
    Preset preset = Preset::Standard;
    ClockSetting clock;
    bool rated = false;
    bool bots = false;
    std::int64_t startsAt = 0;  // unix ms
    std::int64_t endsAt = 0;    // unix ms
    int players = 0;
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("name", name);
        w.field("format", format);
        w.field("status", status, "created, running or finished");
        w.field("preset", preset);
        w.field("clock", clock);
        w.field("rated", rated);
        w.field("bots", bots, "bot accounts may join");
        w.field("startsAt", startsAt, "unix ms");
        w.field("endsAt", endsAt, "unix ms");
        w.field("players", players);
    }
};

// The tournament a game belongs to, as its snapshot names it.
struct TournamentRef {
    static constexpr std::string_view kName = "TournamentRef";
    std::string id, name;
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("name", name);
    }
};

// One line of a tournament's standings.
struct StandingEntry {
    static constexpr std::string_view kName = "StandingEntry";
    int rank = 0;
    Player player;
    int points = 0;
    int performance = 0;
    int games = 0;
    bool fire = false;  // two wins in a row: the next result counts double
    int berserks = 0;
    std::string state;                // "active", "paused", "withdrawn"
    std::vector<int> sheet;           // the points of each counted game, in order
    std::optional<std::string> game;  // the game in play
    template <class V>
    void describe(V& w) const {
        w.field("rank", rank);
        w.field("player", player);
        w.field("points", points);
        w.field("performance", performance, "performance rating (the tie-break)");
        w.field("games", games);
        w.field("fire", fire, "two wins in a row: results count double");
        w.field("berserks", berserks);
        w.field("state", state, "active, paused or withdrawn");
        w.field("sheet", sheet, "each counted game's points, in order");
        w.field("game", game, "the game in play, if any");
    }
};

// The quick-pairing seeks waiting for one kind of game.
struct SeekEntry {
    static constexpr std::string_view kName = "SeekEntry";
    Preset preset = Preset::Standard;
    std::optional<ClockSetting> clock;
    bool rated = false;
    int players = 0;
    template <class V>
    void describe(V& w) const {
        w.field("preset", preset);
        w.field("clock", clock);
        w.field("rated", rated);
        w.field("players", players, "how many wait for this kind of game");
    }
    bool operator==(const SeekEntry&) const = default;
};

// A game of the player's that is not finished (welcome).
struct PlayerGame {
    static constexpr std::string_view kName = "PlayerGame";
    std::string game;
    Side side = Side::One;
    GameStatus status = GameStatus::Open;
    template <class V>
    void describe(V& w) const {
        w.field("game", game);
        w.field("side", side);
        w.field("status", status);
    }
};

// One entry of a player's inbox. `data` holds ids and names only (never a hidden fact of a game
// in play); its fields depend on `kind` (docs/protocol.md, "Notifications").
struct Notification {
    static constexpr std::string_view kName = "Notification";
    std::int64_t id = 0;
    NotificationKind kind = NotificationKind::Followed;
    std::int64_t at = 0;  // ms, the server's game time
    bool read = false;
    RawObject data;
    template <class V>
    void describe(V& w) const {
        w.field("id", id, "increasing: a newer notification has a higher id");
        w.field("kind", kind);
        w.field("at", at, "when it was made, ms");
        w.field("read", read);
        w.field("data", data, "the fields of its kind (docs/protocol.md)");
    }
};

// A challenge of one named player by another: what game, who, until when.
struct Challenge {
    static constexpr std::string_view kName = "Challenge";
    std::string id;
    Player from, to;  // from: id, name, rating (bot for a bot account); to: id, name, rating
    Preset preset = Preset::Standard;
    std::optional<ClockSetting> clock;  // null: untimed
    bool rated = false;
    SideWish side = SideWish::Random;  // the challenger's wish
    std::int64_t expires = 0;          // ms
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("from", from);
        w.field("to", to);
        w.field("preset", preset);
        w.field("clock", clock);
        w.field("rated", rated);
        w.field("side", side, "the challenger's wish");
        w.field("expires", expires, "when it lapses unanswered, ms");
    }
};

// A followed player: whether it is online now, and its games in play (to watch).
struct FollowedEntry {
    static constexpr std::string_view kName = "FollowedEntry";
    Player player;
    bool online = false;
    std::vector<std::string> games;
    template <class V>
    void describe(V& w) const {
        w.field("player", player);
        w.field("online", online, "has a connection to this server now");
        w.field("games", games, "its games in play, newest first (at most 10)");
    }
};

// A correspondence game in play of the player who asked (`my_games`).
struct CorrespondenceGame {
    static constexpr std::string_view kName = "CorrespondenceGame";
    std::string game;
    Preset preset = Preset::Standard;
    int days = 1;
    Side side = Side::One;
    Player opponent;
    bool yourTurn = false;
    std::int64_t deadline = 0;
    template <class V>
    void describe(V& w) const {
        w.field("game", game);
        w.field("preset", preset);
        w.field("days", days, "days per move");
        w.field("side", side, "the player's side");
        w.field("opponent", opponent);
        w.field("yourTurn", yourTurn, "the player is to move");
        w.field("deadline", deadline, "when the side to move's time runs out (unix ms)");
    }
};

// A player's report of another, as a moderator reads it (docs/protocol.md, "Moderation").
struct Report {
    static constexpr std::string_view kName = "Report";
    std::int64_t id = 0;
    Player reporter, target;
    std::optional<std::string> game;
    std::string reason, text;
    std::int64_t at = 0;
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("reporter", reporter);
        w.field("target", target);
        w.optional("game", game, "the game it is about, if any");
        w.field("reason", reason, "one of the reasons of `report`");
        w.field("text", text, "the reporter's words (may be empty)");
        w.field("at", at, "when it was made, unix ms");
    }
};

// The values the objects above are made of, from the engine's.
// A clock setting in cs; nullopt (null) for an untimed game (initial 0).
std::optional<ClockSetting> clockSetting(int initial, int increment);
// The link squares of a setup mask, ascending.
std::vector<std::string> setupSquares(Side s, std::uint8_t links);
// Actions in full notation (the legal lists).
std::vector<std::string> actionTexts(const ActionList& actions);
// What an observed action revealed, if anything.
std::optional<Revealed> revealedOf(const Observation& o);
// The one history entry builder: the action played at `ply` by `side`, as `o` lets its viewer
// see it (observe(before, action, viewer)).
HistoryEntry historyEntry(int ply, Side side, const Observation& o);

// A chat line as stored (its JSON text, render(line)); nullopt if the text is not one.
std::optional<ChatLine> readChatLine(std::string_view text);

// `null` for an untimed game. The clocks' JSON text.
void write(std::string& out, const std::optional<Clocks>& c);

}  // namespace rainet::protocol

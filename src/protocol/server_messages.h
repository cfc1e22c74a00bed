#pragma once
// Every server -> client message of docs/protocol.md §5-6 as a value with one serializer
// (as lila-ws's ClientOut). Each struct's describe() is its field table (schema.h): the
// JSON text (render), the test validator (tests/support/protocol_validate.h) and
// web/src/protocol.gen.ts (typescript.h) all come from it. The text is byte for byte what the
// former tree-and-dump rendering gave (server_messages_test.cpp), so that the leak tests'
// byte-identical property cannot drift. Strings the server already holds while rendering (the hot
// action event, the ack) are views.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/action.h"
#include "core/view.h"
#include "protocol/messages.h"
#include "protocol/objects.h"

namespace rainet::protocol {

// ---------------------------------------------------------------- messages (§5)

struct WelcomeMessage {
    static constexpr std::string_view kName = "WelcomeMessage";
    std::string token;
    Player player;  // id, name, kind, rating (bot for a bot account)
    std::vector<PlayerGame> games;
    std::optional<Json> id;              // the login's, when it answers one
    std::optional<std::int64_t> unread;  // a stored player's unread notifications
    template <class V>
    void describe(V& w) const {
        w.constant("type", "welcome");
        w.field("token", token);
        w.field("player", player);
        w.field("games", games, "the player's games that are not finished");
        w.optional("id", id, "the login's id, when it answers one");
        w.optional("unread", unread, "unread notifications; absent for a new guest, who has none");
    }
};

// A request was applied (or repeated).
struct Ack {
    static constexpr std::string_view kName = "AckMessage";
    Json id;
    std::string_view game;                  // omitted when empty
    std::optional<std::int64_t> v;          // the version the request led to, when it made one
    std::optional<Player> player;           // register, rename
    std::optional<std::string> tournament;  // tournament_create, _join, _pause, _withdraw
    template <class V>
    void describe(V& w) const {
        w.constant("type", "ack");
        w.field("id", id);
        w.optional("game", game.empty() ? nullptr : &game);
        w.optional("v", v, "the version the request led to, when it made one");
        w.optional("player", player, "register and rename");
        w.optional("tournament", tournament, "the tournament created, joined or left");
    }
};

struct ErrorMessage {
    static constexpr std::string_view kName = "ErrorMessage";
    ErrorCode code = ErrorCode::Internal;
    std::string_view message;
    std::optional<Json> id;  // the offending message's, when it had one
    std::string_view game;   // omitted when empty
    template <class V>
    void describe(V& w) const {
        w.constant("type", "error");
        w.field("code", code);
        w.field("message", message);
        w.optional("id", id);
        w.optional("game", game.empty() ? nullptr : &game);
    }
};

// The whole state of a game as the recipient's role may see it.
struct Snapshot {
    static constexpr std::string_view kName = "SnapshotMessage";
    std::string game;
    std::int64_t v = 0;
    Viewer you = Viewer::Spectator;
    GameStatus status = GameStatus::Open;
    Preset preset = Preset::Standard;
    Opponent opponent = Opponent::Open;
    std::optional<int> level;  // against the computer only
    bool rated = false;
    std::optional<ClockSetting> clock;
    std::optional<Clocks> clocks;
    Seats players;
    SetupDone setup;
    std::optional<std::vector<std::string>> links;  // to a side that has set up: its own
    std::optional<std::string> view;                // null until play starts
    std::vector<HistoryEntry> history;
    std::optional<std::vector<std::string>> legal;  // to the side to move while playing
    std::optional<Side> drawOffer;
    std::optional<bool> abortable;  // to a seated side: whether it may abort now
    std::int64_t grace = 0;         // cs
    int spectators = 0;
    std::optional<Result> result;
    std::optional<RematchState> rematch;        // once the game is over
    std::optional<std::vector<ChatLine>> chat;  // when the recipient's room has lines
    std::optional<TournamentRef> tournament;    // a tournament's game
    std::optional<std::vector<Side>> berserk;   // a tournament's game: the sides that berserked
    template <class V>
    void describe(V& w) const {
        w.constant("type", "snapshot");
        w.field("game", game);
        w.field("v", v);
        w.field("you", you);
        w.field("status", status);
        w.field("preset", preset);
        w.field("opponent", opponent);
        w.field("level", level, "against the computer only");
        w.field("rated", rated);
        w.field("clock", clock);
        w.field("clocks", clocks);
        w.field("players", players);
        w.field("setup", setup);
        w.optional("links", links, "to a side that has set up: its own link squares");
        w.field("view", view, "null until play starts");
        w.field("history", history);
        w.optional("legal", legal, "to the side to move while playing");
        w.field("draw_offer", drawOffer);
        w.optional("abortable", abortable,
                   "to a seated side: whether it may abort now (core's canAbort)");
        w.field("grace", grace, "cs without a connection before claim_win is possible");
        w.field("spectators", spectators);
        w.field("result", result);
        w.optional("rematch", rematch, "once the game is over");
        w.optional("chat", chat, "the recipient's chat room, when it has lines: the last 50");
        w.optional("tournament", tournament, "a tournament's game: its tournament");
        w.optional("berserk", berserk, "a tournament's game: the sides that berserked");
    }
};

// A seated player's connection state changed.
struct PresenceMessage {
    static constexpr std::string_view kName = "PresenceMessage";
    std::string game;
    Side side = Side::One;
    bool connected = false;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "presence");
        w.field("game", game);
        w.field("side", side);
        w.field("connected", connected);
    }
};

struct LobbyMessage {
    static constexpr std::string_view kName = "LobbyMessage";
    std::vector<LobbyEntry> games;  // at most 100, oldest first
    std::vector<SeekEntry> seeks;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "lobby");
        w.field("games", games);
        w.field("seeks", seeks);
    }
};

struct ChatMessage {
    static constexpr std::string_view kName = "ChatMessage";
    std::string game;
    ChatLine line;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "chat");
        w.field("game", game);
        line.describe(w);
    }
};

struct SpectatorsMessage {
    static constexpr std::string_view kName = "SpectatorsMessage";
    std::string game;
    int count = 0;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "spectators");
        w.field("game", game);
        w.field("count", count);
    }
};

// A player of a tournament game berserked: their clock is halved, their increment dropped.
// Sent to everyone following the game.
struct BerserkMessage {
    static constexpr std::string_view kName = "BerserkMessage";
    std::string game;
    Side side = Side::One;
    Clocks clocks;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "berserk");
        w.field("game", game);
        w.field("side", side, "the side that berserked");
        w.field("clocks", clocks, "the clocks now");
    }
};

// A seek was paired: the new game and the recipient's side in it.
struct MatchedMessage {
    static constexpr std::string_view kName = "MatchedMessage";
    std::string game;
    Side side = Side::One;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "matched");
        w.field("game", game);
        w.field("side", side);
    }
};

// A tournament's state, pushed to its followers (tournament_watch) on every change.
struct TournamentMessage {
    static constexpr std::string_view kName = "TournamentMessage";
    TournamentInfo tournament;
    std::int64_t now = 0;  // the server's unix ms, for the countdown
    std::vector<StandingEntry> standings;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "tournament");
        w.field("tournament", tournament);
        w.field("now", now, "the server's unix ms, for the countdown");
        w.field("standings", standings, "best first");
    }
};

// The answer to `tournaments`: the upcoming, running and latest finished tournaments.
struct TournamentsMessage {
    static constexpr std::string_view kName = "TournamentsMessage";
    std::vector<TournamentInfo> tournaments;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "tournaments");
        w.field("tournaments", tournaments, "created and running first, then finished");
        w.optional("id", id, "the request's id");
    }
};

struct PongMessage {
    static constexpr std::string_view kName = "PongMessage";
    std::optional<Json> id;  // the ping's; null when it had none
    template <class V>
    void describe(V& w) const {
        w.constant("type", "pong");
        w.field("id", id, "the ping's; null when it had none");
    }
};

// A notification for the recipient, pushed live to each of its connections.
struct NotificationMessage {
    static constexpr std::string_view kName = "NotificationMessage";
    Notification n;
    std::int64_t unread = 0;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "notification");
        w.field("n", n);
        w.field("unread", unread, "the recipient's unread notifications, this one included");
    }
};

// A page of the inbox, newest first (the answer to `notifications`).
struct NotificationsMessage {
    static constexpr std::string_view kName = "NotificationsMessage";
    std::vector<Notification> items;
    std::int64_t unread = 0;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "notifications");
        w.field("items", items, "newest first");
        w.field("unread", unread);
        w.optional("id", id, "the request's");
    }
};

// The unread count changed (notifications were read on another connection).
struct UnreadMessage {
    static constexpr std::string_view kName = "UnreadMessage";
    std::int64_t unread = 0;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "unread");
        w.field("unread", unread);
    }
};

// A challenge: to the challenged (pushed live), and to the challenger answering its request.
struct ChallengeMessage {
    static constexpr std::string_view kName = "ChallengeMessage";
    Challenge challenge;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "challenge");
        w.field("challenge", challenge);
        w.optional("id", id, "the challenger's request's");
    }
};

// A challenge was answered, canceled or lapsed: to both players' connections.
struct ChallengeUpdateMessage {
    static constexpr std::string_view kName = "ChallengeUpdateMessage";
    std::string challenge;
    ChallengeStatus status = ChallengeStatus::Expired;
    std::optional<std::string> reason;  // declined
    std::optional<std::string> game;    // accepted
    template <class V>
    void describe(V& w) const {
        w.constant("type", "challenge_update");
        w.field("challenge", challenge);
        w.field("status", status);
        w.optional("reason", reason, "a decline's reason");
        w.optional("game", game, "the game an acceptance made");
    }
};

// The player's pending challenges (the answer to `challenges`).
struct ChallengesMessage {
    static constexpr std::string_view kName = "ChallengesMessage";
    std::vector<Challenge> received, sent;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "challenges");
        w.field("received", received);
        w.field("sent", sent);
        w.optional("id", id);
    }
};

// The players the player follows (the answer to `following`).
struct FollowingMessage {
    static constexpr std::string_view kName = "FollowingMessage";
    std::vector<FollowedEntry> players;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "following");
        w.field("players", players, "by name");
        w.optional("id", id);
    }
};

// The player's correspondence games in play (the answer to `my_games`): those where it is the
// player's move first, then the others, each group by deadline.
struct MyGamesMessage {
    static constexpr std::string_view kName = "MyGamesMessage";
    std::vector<CorrespondenceGame> games;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "my_games");
        w.field("games", games, "at most 100");
        w.optional("id", id);
    }
};

// The players the player blocked (the answer to `blocked`).
struct BlockedMessage {
    static constexpr std::string_view kName = "BlockedMessage";
    std::vector<Player> players;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "blocked");
        w.field("players", players, "by name");
        w.optional("id", id);
    }
};

// The open reports, oldest first (the answer to `reports`, for a moderator).
struct ReportsMessage {
    static constexpr std::string_view kName = "ReportsMessage";
    std::vector<Report> reports;
    std::optional<Json> id;
    template <class V>
    void describe(V& w) const {
        w.constant("type", "reports");
        w.field("reports", reports, "oldest first, at most 100");
        w.optional("id", id);
    }
};

// ---------------------------------------------------------------- events (§6)
// Every event starts {"type":"event","game":G,"v":V,"kind":K}.

template <class V>
void eventHead(V& w, std::string_view game, const std::int64_t& v, std::string_view kind) {
    w.constant("type", "event");
    w.field("game", game);
    w.field("v", v);
    if (!kind.empty()) w.constant("kind", kind);
}

// An event that shows nothing to this role (no kind).
struct HiddenEvent {
    static constexpr std::string_view kName = "HiddenEvent";
    std::string game;
    std::int64_t v = 0;
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, {});
    }
};

struct JoinedEvent {
    static constexpr std::string_view kName = "JoinedEvent";
    std::string game;
    std::int64_t v = 0;
    Side side = Side::One;
    Player player;  // id, name, rating (bot for a bot account)
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, "joined");
        w.field("side", side);
        w.field("player", player);
    }
};

struct SetupEvent {
    static constexpr std::string_view kName = "SetupEvent";
    std::string game;
    std::int64_t v = 0;
    Side side = Side::One;
    std::optional<std::vector<std::string>> links;  // only to that side
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, "setup");
        w.field("side", side);
        w.optional("links", links, "only to that side");
    }
};

struct StartEvent {
    static constexpr std::string_view kName = "StartEvent";
    std::string game;
    std::int64_t v = 0;
    std::string view;
    std::optional<std::vector<std::string>> legal;  // to side 1
    std::optional<Clocks> clocks;
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, "start");
        w.field("view", view);
        w.optional("legal", legal);
        w.field("clocks", clocks);
    }
};

// One action as one viewer observes it: written straight from the engine's values (the hot path).
struct ActionEvent {
    static constexpr std::string_view kName = "ActionEvent";
    std::string_view game;
    std::int64_t v = 0;
    int ply = 0;  // of the position before the action
    Side side = Side::One;
    Observation seen;                   // observe(before, action, viewer)
    std::string_view view;              // View::of(after, viewer).toString()
    const ActionList* legal = nullptr;  // the viewer's legal actions when it is to move, else none
    std::optional<Clocks> clocks;
    // To the sides, on the action that ends the time they may abort (the second): false.
    std::optional<bool> abortable;

    // The action in the notation this viewer may see (NF's swap only to its owner).
    struct Text {
        static constexpr bool kStringType = true;
        Observation seen;
        void writeJson(std::string& out) const {
            out += '"';
            appendTo(out, seen.action, seen.swapKnown ? Notation::Full : Notation::Public);
            out += '"';
        }
    };
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, "action");
        w.field("ply", ply);
        w.field("side", side);
        w.field("action", Text{seen});
        w.optional("revealed", revealedOf(seen));
        w.field("view", view);
        w.optional("legal", legal);
        w.optional("abortable", abortable,
                   "to the sides: false on the action after which they may no longer abort");
        w.field("clocks", clocks);
        w.field("draw_offer", std::optional<Side>(),
                "always null: an action ends a pending offer");  // an action ends any pending offer
    }
};

// A string as a template argument (the names of the side events below).
template <std::size_t N>
struct Literal {
    char text[N];
    constexpr Literal(const char (&s)[N]) { std::copy_n(s, N, text); }
};

// draw_offer, draw_decline, rematch_offer, rematch_decline: a side did it.
template <Literal Name, Literal Kind>
struct SideEvent {
    static constexpr std::string_view kName = Name.text;
    std::string game;
    std::int64_t v = 0;
    Side side = Side::One;
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, Kind.text);
        w.field("side", side);
    }
};
using DrawOfferEvent = SideEvent<"DrawOfferEvent", "draw_offer">;
using DrawDeclineEvent = SideEvent<"DrawDeclineEvent", "draw_decline">;
using RematchOfferEvent = SideEvent<"RematchOfferEvent", "rematch_offer">;
using RematchDeclineEvent = SideEvent<"RematchDeclineEvent", "rematch_decline">;

struct EndEvent {
    static constexpr std::string_view kName = "EndEvent";
    std::string game;
    std::int64_t v = 0;
    Result result;
    std::optional<Clocks> clocks;
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, "end");
        result.describe(w);
        w.field("clocks", clocks);
    }
};

struct RematchEvent {
    static constexpr std::string_view kName = "RematchEvent";
    std::string game;
    std::int64_t v = 0;
    std::string nextGame;
    template <class V>
    void describe(V& w) const {
        eventHead(w, game, v, "rematch");
        w.field("next_game", nextGame);
    }
};

// An event's text with `legal` added as its last field: what a resume's replay sends to the side to
// move as the last event (held events are kept without `legal`; the last may be of any kind).
std::string withLegal(std::string_view event, const std::vector<std::string>& legal);

// ---------------------------------------------------------------- the catalogue

// One server message: its `type`, for events its `kind` (empty: the hidden event), its fields.
struct MessageDef {
    std::string_view type;
    std::string_view kind;
    const Schema* schema;
};
// Every server message, in the order of docs/protocol.md.
std::span<const MessageDef> serverMessages();

// The message for a `type` and `kind` (kind empty for a non-event and the hidden event).
const MessageDef* findMessage(std::string_view type, std::string_view kind);

}  // namespace rainet::protocol

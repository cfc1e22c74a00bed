#pragma once
// The JSON answers of the HTTP API (docs/protocol.md §10: the archive, the leaderboard, profiles,
// analysis; /healthz in a cluster) as values with one serializer, in the style of the WebSocket
// messages (server_messages.h): each struct's describe() is its field table (schema.h), from which
// come the JSON text (render) and the TypeScript interfaces of web/src/protocol.gen.ts. The text
// is byte for byte what the former tree-and-dump answers gave (http_answers_test.cpp).
// Strings the store holds as text (preset, kind, result, reason) stay strings here: the answer
// shows what was stored.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "protocol/objects.h"
#include "protocol/schema.h"

namespace rainet::protocol {

// A player as the archive shows one: public id and name; bot for a bot account. The computer is
// {"id":"computer","name":"computer (level N)"}.
struct ArchivePlayer {
    static constexpr std::string_view kName = "ArchivePlayer";
    std::string id, name;
    std::optional<bool> bot;
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("name", name);
        w.optional("bot", bot, "a bot account");
    }
};

// The two seats of an archived game (null: nobody sat there).
struct ArchivePlayers {
    static constexpr std::string_view kName = "ArchivePlayers";
    std::optional<ArchivePlayer> one, two;
    template <class V>
    void describe(V& w) const {
        w.field("1", one);
        w.field("2", two);
    }
};

// GET /api/games/{id}: the game, public while it is played, full once it is over.
struct GameRecordAnswer {
    static constexpr std::string_view kName = "GameRecordAnswer";
    std::string game;
    GameStatus status = GameStatus::Open;
    std::string preset;
    std::optional<ClockSetting> clock;
    ArchivePlayers players;
    std::string created;  // ISO 8601, UTC
    std::optional<std::string> result, reason;
    bool rated = false;
    std::optional<SideSetups> setups;  // once over
    std::vector<std::string> actions;
    std::optional<std::string> position;
    std::vector<std::string> positions;
    std::optional<std::string> record;
    template <class V>
    void describe(V& w) const {
        w.field("game", game);
        w.field("status", status);
        w.field("preset", preset);
        w.field("clock", clock, "null: untimed");
        w.field("players", players);
        w.field("created", created, "ISO 8601, UTC");
        w.field("result", result, "null until the game has one");
        w.field("reason", reason, "how it ended; null until it did");
        w.field("rated", rated);
        w.optional("setups", setups, "once over: the link squares each side set up");
        w.field("actions", actions, "full notation once over, public before");
        w.field("position", position, "the last position; null before play");
        w.field("positions", positions, "the position after every ply, the start first");
        w.field("record", record, "docs/record-format.md; null before play");
    }
};

// One game of a GET /api/games page.
struct GameListEntry {
    static constexpr std::string_view kName = "GameListEntry";
    std::string game;
    GameStatus status = GameStatus::Open;
    std::string preset;
    ArchivePlayers players;
    std::optional<std::string> result, reason;
    bool rated = false;
    std::string created;
    template <class V>
    void describe(V& w) const {
        w.field("game", game);
        w.field("status", status);
        w.field("preset", preset);
        w.field("players", players);
        w.field("result", result);
        w.field("reason", reason);
        w.field("rated", rated);
        w.field("created", created, "ISO 8601, UTC");
    }
};

// GET /api/games: newest first.
struct GameListPage {
    static constexpr std::string_view kName = "GameListPage";
    std::vector<GameListEntry> games;
    int perPage = 0;
    std::optional<std::string> next;
    template <class V>
    void describe(V& w) const {
        w.field("games", games);
        w.field("per_page", perPage);
        w.field("next", next, "pass as `after` for the next page; null on the last");
    }
};

// GET /api/players/{id}.
struct PlayerProfile {
    static constexpr std::string_view kName = "PlayerProfile";
    std::string id, name, kind;
    std::int64_t rating = 0, rd = 0;  // rounded
    int ratedGames = 0;
    std::int64_t games = 0, wins = 0, draws = 0, losses = 0;
    std::optional<bool> bot;
    template <class V>
    void describe(V& w) const {
        w.field("id", id);
        w.field("name", name);
        w.field("kind", kind, "guest or account");
        w.field("rating", rating, "Glicko-2, rounded");
        w.field("rd", rd, "rating deviation, rounded");
        w.field("rated_games", ratedGames);
        w.field("games", games);
        w.field("wins", wins);
        w.field("draws", draws);
        w.field("losses", losses);
        w.optional("bot", bot, "a bot account");
    }
};

// One player of a GET /api/leaderboard page.
struct LeaderboardEntry {
    static constexpr std::string_view kName = "LeaderboardEntry";
    std::int64_t rank = 0;
    std::string id, name, kind;
    std::int64_t rating = 0, rd = 0;  // rounded
    int ratedGames = 0;
    std::optional<bool> bot;
    template <class V>
    void describe(V& w) const {
        w.field("rank", rank);
        w.field("id", id);
        w.field("name", name);
        w.field("kind", kind, "guest or account");
        w.field("rating", rating);
        w.field("rd", rd);
        w.field("rated_games", ratedGames);
        w.optional("bot", bot, "a bot account");
    }
};

// GET /api/leaderboard: players with a rated game, best first.
struct LeaderboardPage {
    static constexpr std::string_view kName = "LeaderboardPage";
    std::vector<LeaderboardEntry> players;
    int perPage = 0;
    std::int64_t total = 0;
    std::optional<std::string> next;
    template <class V>
    void describe(V& w) const {
        w.field("players", players);
        w.field("per_page", perPage);
        w.field("total", total, "players with a rated game");
        w.field("next", next, "pass as `after` for the next page; null on the last");
    }
};

// One of the analysed side's best actions at a ply.
struct AnalysedActionAnswer {
    static constexpr std::string_view kName = "AnalysedAction";
    std::string action;  // full notation
    double share = 0, win = 0;
    template <class V>
    void describe(V& w) const {
        w.field("action", action, "full notation");
        w.field("share", share, "of the search's visits");
        w.field("win", win, "the win chance after it");
    }
};

// One position of a game's analysis.
struct AnalysedPlyAnswer {
    static constexpr std::string_view kName = "AnalysedPly";
    int ply = 0;
    Side toMove = Side::One;
    double win = 0;
    std::optional<bool> over;
    StringMap<double> virus;  // square -> chance that the unidentified card is a virus
    std::vector<AnalysedActionAnswer> best;
    template <class V>
    void describe(V& w) const {
        w.field("ply", ply, "actions played before this position");
        w.field("to_move", toMove);
        w.field("win", win, "the analysed side's win chance");
        w.optional("over", over, "the game ended here");
        w.field("virus", virus, "square: chance that the unidentified opponent card is a virus");
        w.field("best", best, "the analysed side's turns only");
    }
};

// GET /api/games/{id}/analysis?side=S.
struct GameAnalysis {
    static constexpr std::string_view kName = "GameAnalysis";
    std::string game;
    Side side = Side::One;
    std::uint64_t nodes = 0;
    std::vector<AnalysedPlyAnswer> plies;
    template <class V>
    void describe(V& w) const {
        w.field("game", game);
        w.field("side", side);
        w.field("nodes", nodes, "search iterations per ply");
        w.field("plies", plies);
    }
};

enum class ServiceState : std::uint8_t { Up, Down };
template <>
struct EnumInfo<ServiceState> {
    static constexpr std::string_view kName = "ServiceState";
    static constexpr std::array<std::string_view, 2> kNames = {"up", "down"};
};

// GET /healthz of a cluster node (a single node answers plain `ok`).
struct ClusterHealth {
    static constexpr std::string_view kName = "ClusterHealth";
    std::string node;
    ServiceState redis = ServiceState::Down, database = ServiceState::Down;
    std::size_t leases = 0;
    template <class V>
    void describe(V& w) const {
        w.field("node", node);
        w.constant("role", "cluster");
        w.field("redis", redis);
        w.field("database", database);
        w.field("leases", leases, "games this node holds");
    }
};

// GET /api/test/store (test mode): the store reads held now.
struct StoreTestState {
    static constexpr std::string_view kName = "StoreTestState";
    std::size_t readsDelayed = 0;
    template <class V>
    void describe(V& w) const {
        w.field("reads_delayed", readsDelayed);
    }
};

// Every HTTP JSON answer, for the TypeScript generator.
std::span<const Schema* const> httpAnswers();

}  // namespace rainet::protocol

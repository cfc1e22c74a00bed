#pragma once
// Persistence of players, games, setups and actions in SQLite (WAL). Every write is one
// transaction, committed before the caller acknowledges or broadcasts what it records. Safe to call
// from several threads (one connection behind a mutex). Errors are values; nothing throws.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace rainet::store {

// A player: guests now; accounts later add a row in a credentials table keyed by `id`.
struct PlayerRow {
    std::int64_t id = 0;
    std::string publicId;  // "p..."
    std::string name;
    std::string kind = "guest";
};

// One game as stored. Clocks are the remaining centiseconds at the last action (or start).
struct GameRow {
    std::string id;
    std::string preset = "standard";
    int clockInitial = 0;  // 0: untimed
    int clockIncrement = 0;
    std::string opponent = "open";  // open, invite, computer
    int level = 0;
    std::string sideWish = "random";
    std::int64_t creator = 0;
    std::int64_t player[2] = {0, 0};  // 0: seat free (or the computer)
    std::string status = "open";      // open, setup, playing, finished, aborted
    std::string result, reason;       // empty while not ended
    std::int64_t version = 0;
    std::int64_t clock[2] = {0, 0};
    std::int64_t created = 0, ended = 0;  // unix ms
};

struct ActionRow {
    int ply = 0;
    std::string action;    // full notation
    std::string clientId;  // JSON of the request id, empty for the computer's actions
    std::int64_t clockAfter = 0;
};

// Everything needed to rebuild a game.
struct GameData {
    GameRow game;
    int setup[2] = {-1, -1};  // link masks, -1 when not submitted
    std::vector<ActionRow> actions;
};

struct GameSummary {
    GameRow game;
    std::string names[2], publicIds[2];
};

class Store {
  public:
    static Result<std::unique_ptr<Store>> open(const std::string& path);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    std::optional<PlayerRow> playerByTokenHash(const std::string& hash);
    std::optional<PlayerRow> playerById(std::int64_t id);
    Result<PlayerRow> createPlayer(const std::string& publicId, const std::string& tokenHash,
                                   const std::string& name);
    std::optional<Error> renamePlayer(std::int64_t id, const std::string& name);

    std::optional<Error> insertGame(const GameRow& g);
    std::optional<Error> updateGame(const GameRow& g);
    std::optional<Error> saveSetup(const GameRow& g, int side, int links);
    // Inserts the action and updates the game row in one transaction.
    std::optional<Error> saveAction(const GameRow& g, const ActionRow& a);

    std::optional<GameData> loadGame(const std::string& id);
    std::vector<GameData> loadUnfinished();
    // Paged listing, newest first; status "" = any, "active" = open/setup/playing.
    std::vector<GameSummary> listGames(const std::string& playerPublicId, const std::string& status,
                                       int page, int perPage, std::int64_t* total);

  private:
    Store() = default;
    std::optional<Error> exec(const char* sql);
    std::optional<Error> writeGame(const GameRow& g, bool insert);
    GameData readGame(sqlite3_stmt* st);
    std::mutex mu_;
    sqlite3* db_ = nullptr;
};

}  // namespace rainet::store

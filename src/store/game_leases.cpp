// The store's game leases (store/game_lease.h): each call is one statement, atomic on both
// backends, so two nodes asking at once never both hold a lease.
#include <nlohmann/json.hpp>

#include "store/pool_lease.h"
#include "store/store.h"

namespace rainet::store {
namespace {

GameLease leaseFrom(const Statement& st, const std::string& game) {
    return GameLease{game, st.text(0), st.integer(1), st.integer(2)};
}

// The one lease row a statement returns (owner, epoch, expires), if it returns one.
Lookup<GameLease> leaseRow(Statement& st, const std::string& game) {
    const Step s = st.step();
    if (s == Step::Failed) return Error{st.error()};
    if (s == Step::Done) return std::nullopt;
    GameLease out = leaseFrom(st, game);
    if (auto e = done(st)) return *e;
    return out;
}

}  // namespace

Lookup<GameLease> Store::acquireLease(const std::string& game, const std::string& node,
                                      std::int64_t now, std::int64_t ttl) {
    auto db = lease();
    // New (epoch 1); ours and live: extended, same epoch; expired or released (whoever held it):
    // ours with the epoch raised; another node's and live: untouched, no row returned.
    auto st = db->prepare(
        "INSERT INTO game_leases (game, owner, epoch, expires) VALUES (?1, ?2, 1, ?4) "
        "ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, "
        "epoch = CASE WHEN game_leases.owner = excluded.owner AND game_leases.expires > ?3 "
        "THEN game_leases.epoch ELSE game_leases.epoch + 1 END, expires = excluded.expires "
        "WHERE game_leases.owner = excluded.owner OR game_leases.expires <= ?3 "
        "RETURNING owner, epoch, expires");
    st->bind(1, game);
    st->bind(2, node);
    st->bind(3, now);
    st->bind(4, now + ttl);  // summed here: PostgreSQL cannot type "$3 + $4" of unknowns
    return leaseRow(*st, game);
}

Lookup<GameLease> Store::renewLease(const GameLease& held, std::int64_t now, std::int64_t ttl) {
    auto db = lease();
    // By epoch, not by expiry: a lease that expired unnoticed but was taken by nobody is still
    // this node's to extend (no other node has written since).
    auto st = db->prepare(
        "UPDATE game_leases SET expires = ? WHERE game = ? AND owner = ? AND epoch = ? "
        "RETURNING owner, epoch, expires");
    st->bind(1, now + ttl);
    st->bind(2, held.game);
    st->bind(3, held.owner);
    st->bind(4, held.epoch);
    return leaseRow(*st, held.game);
}

Result<std::vector<GameLease>> Store::renewLeases(const std::vector<GameLease>& held,
                                                  std::int64_t now, std::int64_t ttl) {
    if (held.empty()) return std::vector<GameLease>{};
    // The held leases travel as one JSON parameter, [[game, owner, epoch], ...], which both
    // backends turn into rows (PostgreSQL: json_to_recordset; SQLite: json_each), so that one
    // statement of constant text renews any number of leases. By epoch, as renewLease.
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& l : held) rows.push_back({{"g", l.game}, {"o", l.owner}, {"e", l.epoch}});
    auto db = lease();
    auto st = db->prepare(
        dialect_ == Dialect::Postgres
            // Rows locked in game order first (as a batch of actions locks its fences): an
            // UPDATE ... FROM locks them in its join's order, which deadlocked with the batches.
            ? "WITH locked AS (SELECT l.game FROM game_leases l "
              "JOIN json_to_recordset(?2::json) AS h(g text, o text, e bigint) "
              "ON l.game = h.g AND l.owner = h.o AND l.epoch = h.e "
              "ORDER BY l.game FOR NO KEY UPDATE OF l) "
              "UPDATE game_leases SET expires = ?1 FROM locked "
              "WHERE game_leases.game = locked.game "
              "RETURNING game_leases.game, game_leases.owner, game_leases.epoch, "
              "game_leases.expires"
            : "UPDATE game_leases SET expires = ?1 "
              "FROM (SELECT json_extract(value, '$.g') AS g, json_extract(value, '$.o') AS o, "
              "json_extract(value, '$.e') AS e FROM json_each(?2)) AS h "
              "WHERE game_leases.game = h.g AND game_leases.owner = h.o "
              "AND game_leases.epoch = h.e "
              "RETURNING game_leases.game, game_leases.owner, game_leases.epoch, "
              "game_leases.expires");
    st->bind(1, now + ttl);
    st->bind(2, rows.dump());
    std::vector<GameLease> out;
    for (Step s; (s = st->step()) != Step::Done;) {
        if (s == Step::Failed) return Error{st->error()};
        out.push_back(GameLease{st->text(0), st->text(1), st->integer(2), st->integer(3)});
    }
    return out;
}

std::optional<Error> Store::releaseLease(const GameLease& held) {
    auto db = lease();
    auto st = db->prepare(
        "UPDATE game_leases SET expires = 0 WHERE game = ? AND owner = ? AND epoch = ?");
    st->bind(1, held.game);
    st->bind(2, held.owner);
    st->bind(3, held.epoch);
    return done(*st);
}

Lookup<GameLease> Store::leaseOf(const std::string& game) {
    auto db = readLease();
    auto st = db->prepare("SELECT owner, epoch, expires FROM game_leases WHERE game = ?");
    st->bind(1, game);
    return leaseRow(*st, game);
}

Result<std::vector<std::string>> Store::orphanedGames(std::int64_t now, int limit) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game = g.id "
        "WHERE g.status IN ('open','setup','playing') AND (l.game IS NULL OR l.expires <= ?) "
        "ORDER BY g.id LIMIT ?");
    st->bind(1, now);
    st->bind(2, static_cast<std::int64_t>(limit));
    std::vector<std::string> out;
    for (Step s; (s = st->step()) != Step::Done;) {
        if (s == Step::Failed) return Error{st->error()};
        out.push_back(st->text(0));
    }
    return out;
}

}  // namespace rainet::store

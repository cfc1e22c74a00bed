// What is stored about a player, exported; and an account closed (store.h; docs/deploy.md,
// "Privacy"). The games stay, for the opponents' records and ratings, with the player shown as
// "deleted player"; what identifies or was written by the player goes.
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "store/pool_lease.h"

namespace rainet::store {

namespace {

using Json = nlohmann::ordered_json;

// Every row of `sql` (bound to `player` as ?1), each as an object of `names` (text or integer
// columns, as `types` says: 't' or 'i').
Result<Json> rowsOf(Database& db, const char* sql, std::int64_t player,
                    const std::vector<const char*>& names, const char* types) {
    auto st = db.prepare(sql);
    st->bind(1, player);
    Json out = Json::array();
    Step step;
    while ((step = st->step()) == Step::Row) {
        Json row = Json::object();
        int i = 0;
        for (const char* n : names) {
            if (types[i] == 'i')
                row[n] = st->integer(i);
            else
                row[n] = st->text(i);
            ++i;
        }
        out.push_back(std::move(row));
    }
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

// The chat lines written by the player with public id `publicId` (the stored JSON of each line
// names its author in `from.id`): game, seq and the line, read from the games it played or
// watched and wrote in.
Result<std::vector<std::tuple<std::string, std::int64_t, Json>>> chatBy(
    Database& db, const std::string& publicId) {
    auto st = db.prepare("SELECT game, seq, line FROM chat WHERE line LIKE ? ORDER BY game, seq");
    st->bind(1, "%\"" + publicId + "\"%");
    std::vector<std::tuple<std::string, std::int64_t, Json>> out;
    Step step;
    while ((step = st->step()) == Step::Row) {
        Json line = Json::parse(st->text(2), nullptr, false);
        if (line.is_discarded() || !line.contains("from") || !line["from"].is_object() ||
            line["from"].value("id", "") != publicId)
            continue;
        out.emplace_back(st->text(0), st->integer(1), std::move(line));
    }
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

}  // namespace

Lookup<std::string> Store::exportPlayer(std::int64_t player) {
    auto db = readLease();
    auto p = db->prepare(
        "SELECT p.public_id, p.name, p.kind, p.rating, p.rating_rd, p.rated_games, p.created, "
        "p.bot, COALESCE(a.username, ''), COALESCE(a.created, 0) FROM players p LEFT JOIN "
        "accounts a ON a.player = p.id WHERE p.id = ?");
    p->bind(1, player);
    const Step s = p->step();
    if (s == Step::Failed) return Error{p->error()};
    if (s == Step::Done) return std::nullopt;
    Json out = Json::object();
    const std::string publicId = p->text(0);
    out["profile"] = {{"id", publicId},
                      {"name", p->text(1)},
                      {"kind", p->text(2)},
                      {"rating", p->real(3)},
                      {"ratingDeviation", p->real(4)},
                      {"ratedGames", p->integer(5)},
                      {"created", p->integer(6)},
                      {"bot", p->integer(7) != 0}};
    if (!p->text(8).empty())
        out["account"] = {{"username", p->text(8)}, {"created", p->integer(9)}};
    if (auto e = done(*p)) return *e;
    struct Part {
        const char* name;
        const char* sql;
        std::vector<const char*> columns;
        const char* types;
    };
    const Part parts[] = {
        {"games",
         "SELECT id, CASE WHEN player1 = ?1 THEN '1' ELSE '2' END, status, result, reason, "
         "created, ended FROM games WHERE player1 = ?1 OR player2 = ?1 ORDER BY created, id",
         {"game", "side", "status", "result", "reason", "created", "ended"},
         "tttttii"},
        {"ratings",
         "SELECT game, CAST(before AS BIGINT), CAST(after AS BIGINT) FROM game_ratings WHERE "
         "player = ?1 ORDER BY game",
         {"game", "before", "after"},
         "tii"},
        {"notifications",
         "SELECT kind, data, created_ms FROM notifications WHERE player_id = ?1 ORDER BY id",
         {"kind", "data", "at"},
         "tti"},
        {"follows",
         "SELECT p.public_id, p.name FROM follows f JOIN players p ON p.id = f.followed WHERE "
         "f.follower = ?1 ORDER BY p.id",
         {"id", "name"},
         "tt"},
        {"blocks",
         "SELECT p.public_id, p.name FROM blocks b JOIN players p ON p.id = b.blocked WHERE "
         "b.player = ?1 ORDER BY p.id",
         {"id", "name"},
         "tt"},
        {"reports",
         "SELECT p.public_id, r.reason, r.text, r.created FROM reports r JOIN players p ON p.id "
         "= r.target WHERE r.reporter = ?1 ORDER BY r.id",
         {"about", "reason", "text", "at"},
         "ttti"},
        {"sanctions",
         "SELECT kind, until_ms, reason, created FROM sanctions WHERE player = ?1 ORDER BY kind",
         {"kind", "until", "reason", "at"},
         "titi"},
    };
    for (const Part& part : parts) {
        auto rows = rowsOf(*db, part.sql, player, part.columns, part.types);
        if (!rows) return rows.error();
        out[part.name] = std::move(*rows);
    }
    auto chat = chatBy(*db, publicId);
    if (!chat) return chat.error();
    Json lines = Json::array();
    for (auto& [game, seq, line] : *chat)
        lines.push_back(
            {{"game", game}, {"text", line.value("text", "")}, {"at", line.value("at", 0)}});
    out["chat"] = std::move(lines);
    return out.dump(2);
}

Result<bool> Store::closeAccount(std::int64_t player, std::int64_t actor, const std::string& reason,
                                 std::int64_t now) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    auto fail = [&](std::optional<Error> e) -> Result<bool> {
        db->rollback();
        return *e;
    };
    auto p = db->prepare("SELECT public_id FROM players WHERE id = ?");
    p->bind(1, player);
    const Step s = p->step();
    if (s == Step::Failed) return fail(Error{p->error()});
    if (s == Step::Done) {
        db->rollback();
        return false;
    }
    const std::string publicId = p->text(0);
    if (auto e = done(*p)) return fail(e);
    // The chat lines it wrote, then every row that is its own or names it.
    auto chat = chatBy(*db, publicId);
    if (!chat) return fail(chat.error());
    for (const auto& [game, seq, line] : *chat) {
        auto del = db->prepare("DELETE FROM chat WHERE game = ? AND seq = ?");
        del->bind(1, game);
        del->bind(2, seq);
        if (auto e = done(*del)) return fail(e);
    }
    for (const char* sql : {
             "DELETE FROM tokens WHERE player = ?1",
             "DELETE FROM accounts WHERE player = ?1",
             "DELETE FROM notifications WHERE player_id = ?1",
             "DELETE FROM follows WHERE follower = ?1 OR followed = ?1",
             "DELETE FROM blocks WHERE player = ?1 OR blocked = ?1",
             "DELETE FROM roles WHERE player = ?1",
             "UPDATE challenges SET status = 'canceled' WHERE (challenger = ?1 OR challenged = ?1) "
             "AND status = 'pending'",
             "UPDATE reports SET text = '' WHERE reporter = ?1",
             "UPDATE players SET name = 'deleted player', kind = 'guest' WHERE id = ?1",
         }) {
        auto st = db->prepare(sql);
        st->bind(1, player);
        if (auto e = done(*st)) return fail(e);
    }
    auto log = db->prepare(
        "INSERT INTO moderation_log (actor, action, target, reason, at) VALUES (?, "
        "'close_account', ?, ?, ?)");
    log->bind(1, actor);
    log->bind(2, player);
    log->bind(3, reason);
    log->bind(4, now);
    if (auto e = done(*log)) return fail(e);
    if (auto e = db->commit()) return *e;
    return true;
}

}  // namespace rainet::store

// Blocks, reports, roles, bans and mutes, and the moderation log (store.h,
// store/moderation_rows.h). Each action is logged in the transaction that makes it, so the log
// never misses one nor names one that did not happen.
#include "store/pool_lease.h"

namespace rainet::store {

namespace {

Result<std::int64_t> countOf(Statement& st) {
    if (st.step() != Step::Row) return Error{st.error()};
    return st.integer(0);
}

std::optional<Error> logAction(Database& db, std::int64_t actor, const std::string& action,
                               std::int64_t target, const std::string& reason, std::int64_t at) {
    auto st = db.prepare(
        "INSERT INTO moderation_log (actor, action, target, reason, at) VALUES (?, ?, ?, ?, ?)");
    st->bind(1, actor);
    st->bind(2, action);
    st->bind(3, target);
    st->bind(4, reason);
    st->bind(5, at);
    return done(*st);
}

// Runs `body` in one transaction: committed when it answers a value, rolled back otherwise.
template <class T, class F>
Result<T> inTransaction(Database& db, F body) {
    if (auto e = db.begin()) return *e;
    Result<T> r = body();
    if (!r) {
        db.rollback();
        return r;
    }
    if (auto e = db.commit()) return *e;
    return r;
}

constexpr const char* kReportColumns =
    "r.id, r.reporter, r.target, a.name, b.name, r.game, r.reason, r.text, r.created, r.state, "
    "a.public_id, b.public_id";

}  // namespace

Result<BlockResult> Store::block(std::int64_t player, std::int64_t blocked, std::int64_t now,
                                 int cap) {
    auto db = lease();
    return inTransaction<BlockResult>(*db, [&]() -> Result<BlockResult> {
        auto has = db->prepare("SELECT 1 FROM blocks WHERE player = ? AND blocked = ?");
        has->bind(1, player);
        has->bind(2, blocked);
        const Step s = has->step();
        if (s == Step::Failed) return Error{has->error()};
        if (s == Step::Row) return BlockResult::Already;
        auto count = db->prepare("SELECT COUNT(*) FROM blocks WHERE player = ?");
        count->bind(1, player);
        auto n = countOf(*count);
        if (!n) return n.error();
        if (*n >= cap) return BlockResult::Full;
        auto ins = db->prepare("INSERT INTO blocks (player, blocked, created) VALUES (?, ?, ?)");
        ins->bind(1, player);
        ins->bind(2, blocked);
        ins->bind(3, now);
        if (auto e = done(*ins)) return *e;
        return BlockResult::Added;
    });
}

Result<bool> Store::unblock(std::int64_t player, std::int64_t blocked) {
    auto db = lease();
    auto st = db->prepare("DELETE FROM blocks WHERE player = ? AND blocked = ? RETURNING player");
    st->bind(1, player);
    st->bind(2, blocked);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    if (s == Step::Done) return false;
    if (auto e = done(*st)) return *e;
    return true;
}

Result<std::vector<PlayerRow>> Store::blockedBy(std::int64_t player) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT p.id, p.public_id, p.name, p.kind FROM blocks b JOIN players p ON p.id = "
        "b.blocked WHERE b.player = ? ORDER BY p.name, p.id");
    st->bind(1, player);
    std::vector<PlayerRow> out;
    Step step;
    while ((step = st->step()) == Step::Row) {
        PlayerRow p;
        p.id = st->integer(0);
        p.publicId = st->text(1);
        p.name = st->text(2);
        p.kind = st->text(3);
        out.push_back(std::move(p));
    }
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

Result<std::vector<std::int64_t>> Store::blockersOf(std::int64_t player, int limit) {
    auto db = readLease();
    auto st = db->prepare("SELECT player FROM blocks WHERE blocked = ? LIMIT ?");
    st->bind(1, player);
    st->bind(2, limit);
    std::vector<std::int64_t> out;
    Step step;
    while ((step = st->step()) == Step::Row) out.push_back(st->integer(0));
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

Result<bool> Store::blocks(std::int64_t player, std::int64_t other) {
    auto db = readLease();
    auto st = db->prepare("SELECT 1 FROM blocks WHERE player = ? AND blocked = ?");
    st->bind(1, player);
    st->bind(2, other);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    return s == Step::Row;
}

Lookup<std::int64_t> Store::addReport(const ReportRow& r, int maxPerWindow,
                                      std::int64_t windowStart) {
    auto db = lease();
    return inTransaction<std::optional<std::int64_t>>(
        *db, [&]() -> Result<std::optional<std::int64_t>> {
            // Counted inside the transaction that adds one (the reporter's rows locked on
            // PostgreSQL): a burst cannot pass the limit.
            const std::string lock =
                std::string("SELECT id FROM reports WHERE reporter = ? AND created >= ? ") +
                db->lockRows();
            auto mine = db->prepare(lock.c_str());
            mine->bind(1, r.reporter);
            mine->bind(2, windowStart);
            int n = 0;
            Step step;
            while ((step = mine->step()) == Step::Row) ++n;
            if (step == Step::Failed) return Error{mine->error()};
            if (n >= maxPerWindow) return std::optional<std::int64_t>{};
            auto ins = db->prepare(
                "INSERT INTO reports (reporter, target, game, reason, text, created, state) "
                "VALUES (?, ?, ?, ?, ?, ?, 'open') RETURNING id");
            ins->bind(1, r.reporter);
            ins->bind(2, r.target);
            ins->bind(3, r.game);
            ins->bind(4, r.reason);
            ins->bind(5, r.text);
            ins->bind(6, r.created);
            if (ins->step() != Step::Row) return Error{ins->error()};
            const std::int64_t id = ins->integer(0);
            if (auto e = done(*ins)) return *e;
            return std::optional<std::int64_t>{id};
        });
}

Result<std::vector<ReportRow>> Store::reports(const std::string& state, int limit) {
    auto db = readLease();
    auto st = db->prepare((std::string("SELECT ") + kReportColumns +
                           " FROM reports r JOIN players a ON a.id = r.reporter JOIN players b ON "
                           "b.id = r.target WHERE (? = '' OR r.state = ?) ORDER BY r.id LIMIT ?")
                              .c_str());
    st->bind(1, state);
    st->bind(2, state);
    st->bind(3, limit);
    std::vector<ReportRow> out;
    Step step;
    while ((step = st->step()) == Step::Row) {
        ReportRow r;
        r.id = st->integer(0);
        r.reporter = st->integer(1);
        r.target = st->integer(2);
        r.reporterName = st->text(3);
        r.targetName = st->text(4);
        r.game = st->text(5);
        r.reason = st->text(6);
        r.text = st->text(7);
        r.created = st->integer(8);
        r.state = st->text(9);
        r.reporterPublicId = st->text(10);
        r.targetPublicId = st->text(11);
        out.push_back(std::move(r));
    }
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

Result<bool> Store::closeReport(std::int64_t id, std::int64_t actor, const std::string& reason,
                                std::int64_t now) {
    auto db = lease();
    return inTransaction<bool>(*db, [&]() -> Result<bool> {
        auto st = db->prepare(
            "UPDATE reports SET state = 'closed' WHERE id = ? AND state = 'open' RETURNING "
            "target");
        st->bind(1, id);
        const Step s = st->step();
        if (s == Step::Failed) return Error{st->error()};
        if (s == Step::Done) return false;
        const std::int64_t target = st->integer(0);
        if (auto e = done(*st)) return *e;
        if (auto e = logAction(
                *db, actor, "close_report", target,
                "report " + std::to_string(id) + (reason.empty() ? "" : ": ") + reason, now))
            return *e;
        return true;
    });
}

Result<bool> Store::setRole(std::int64_t player, const std::string& role, bool on,
                            std::int64_t actor, const std::string& reason, std::int64_t now) {
    auto db = lease();
    return inTransaction<bool>(*db, [&]() -> Result<bool> {
        auto st = db->prepare(on ? "INSERT INTO roles (player, role) VALUES (?, ?) ON CONFLICT DO "
                                   "NOTHING RETURNING player"
                                 : "DELETE FROM roles WHERE player = ? AND role = ? RETURNING "
                                   "player");
        st->bind(1, player);
        st->bind(2, role);
        const Step s = st->step();
        if (s == Step::Failed) return Error{st->error()};
        if (s == Step::Done) return false;
        if (auto e = done(*st)) return *e;
        if (auto e =
                logAction(*db, actor, on ? "grant " + role : "revoke " + role, player, reason, now))
            return *e;
        return true;
    });
}

Result<std::vector<std::string>> Store::roles(std::int64_t player) {
    auto db = readLease();
    auto st = db->prepare("SELECT role FROM roles WHERE player = ? ORDER BY role");
    st->bind(1, player);
    std::vector<std::string> out;
    Step step;
    while ((step = st->step()) == Step::Row) out.push_back(st->text(0));
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

std::optional<Error> Store::sanction(const SanctionRow& s, std::int64_t now) {
    auto db = lease();
    auto r = inTransaction<bool>(*db, [&]() -> Result<bool> {
        auto del = db->prepare("DELETE FROM sanctions WHERE player = ? AND kind = ?");
        del->bind(1, s.player);
        del->bind(2, s.kind);
        if (auto e = done(*del)) return *e;
        auto ins = db->prepare(
            "INSERT INTO sanctions (player, kind, until_ms, by_player, reason, created) VALUES "
            "(?, ?, ?, ?, ?, ?)");
        ins->bind(1, s.player);
        ins->bind(2, s.kind);
        ins->bind(3, s.until);
        ins->bind(4, s.by);
        ins->bind(5, s.reason);
        ins->bind(6, now);
        if (auto e = done(*ins)) return *e;
        if (s.kind == "ban") {  // every session of the account ends with its tokens
            auto tokens = db->prepare("DELETE FROM tokens WHERE player = ?");
            tokens->bind(1, s.player);
            if (auto e = done(*tokens)) return *e;
        }
        const std::string until = s.until ? " until " + std::to_string(s.until) : "";
        if (auto e =
                logAction(*db, s.by, s.kind, s.player,
                          s.reason + (s.reason.empty() || until.empty() ? "" : ";") + until, now))
            return *e;
        return true;
    });
    if (!r) return r.error();
    return std::nullopt;
}

Result<bool> Store::liftSanction(std::int64_t player, const std::string& kind, std::int64_t actor,
                                 const std::string& reason, std::int64_t now) {
    auto db = lease();
    return inTransaction<bool>(*db, [&]() -> Result<bool> {
        auto st = db->prepare("DELETE FROM sanctions WHERE player = ? AND kind = ? RETURNING kind");
        st->bind(1, player);
        st->bind(2, kind);
        const Step s = st->step();
        if (s == Step::Failed) return Error{st->error()};
        if (s == Step::Done) return false;
        if (auto e = done(*st)) return *e;
        if (auto e = logAction(*db, actor, "un" + kind, player, reason, now)) return *e;
        return true;
    });
}

Lookup<SanctionRow> Store::activeSanction(std::int64_t player, const std::string& kind,
                                          std::int64_t now) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT until_ms, by_player, reason, created FROM sanctions WHERE player = ? AND kind = ? "
        "AND (until_ms = 0 OR until_ms > ?)");
    st->bind(1, player);
    st->bind(2, kind);
    st->bind(3, now);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    if (s == Step::Done) return std::nullopt;
    return SanctionRow{player, kind, st->integer(0), st->integer(1), st->text(2), st->integer(3)};
}

Result<std::vector<ModLogRow>> Store::moderationLog(int limit) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT l.id, l.actor, l.target, COALESCE(a.name, 'operator'), COALESCE(t.name, ''), "
        "l.action, l.reason, l.at FROM moderation_log l LEFT JOIN players a ON a.id = l.actor "
        "LEFT JOIN players t ON t.id = l.target ORDER BY l.id DESC LIMIT ?");
    st->bind(1, limit);
    std::vector<ModLogRow> out;
    Step step;
    while ((step = st->step()) == Step::Row) {
        ModLogRow r;
        r.id = st->integer(0);
        r.actor = st->integer(1);
        r.target = st->integer(2);
        r.actorName = st->text(3);
        r.targetName = st->text(4);
        r.action = st->text(5);
        r.reason = st->text(6);
        r.at = st->integer(7);
        out.push_back(std::move(r));
    }
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

}  // namespace rainet::store

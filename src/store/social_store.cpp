// Follows, challenges and who may challenge a player (store.h; docs/protocol.md, "Challenges"
// and "Follows").
#include "store/pool_lease.h"

namespace rainet::store {

namespace {

constexpr const char* kChallengeColumns =
    "id, challenger, challenged, preset, clock_initial, clock_increment, rated, side, status, "
    "reason, game, created, expires";

ChallengeRow readChallenge(const Statement& st) {
    ChallengeRow c;
    c.id = st.text(0);
    c.challenger = st.integer(1);
    c.challenged = st.integer(2);
    c.preset = st.text(3);
    c.clockInitial = static_cast<int>(st.integer(4));
    c.clockIncrement = static_cast<int>(st.integer(5));
    c.rated = st.integer(6) != 0;
    c.side = st.text(7);
    c.status = st.text(8);
    c.reason = st.text(9);
    c.game = st.text(10);
    c.created = st.integer(11);
    c.expires = st.integer(12);
    return c;
}

Result<std::vector<ChallengeRow>> readChallenges(Statement& st) {
    std::vector<ChallengeRow> out;
    Step step;
    while ((step = st.step()) == Step::Row) out.push_back(readChallenge(st));
    if (step == Step::Failed) return Error{st.error()};
    return out;
}

Result<std::int64_t> countOf(Statement& st) {
    if (st.step() != Step::Row) return Error{st.error()};
    return st.integer(0);
}

}  // namespace

Result<ChallengeInsert> Store::insertChallenge(const ChallengeRow& c, int maxOut, int maxIn) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    auto finish = [&](std::optional<Error> e, ChallengeInsert r) -> Result<ChallengeInsert> {
        if (e || r != ChallengeInsert::Created) {
            db->rollback();
            if (e) return *e;
            return r;
        }
        if (auto ce = db->commit()) return *ce;
        return r;
    };
    // The pending ones are counted inside the transaction that adds one (the challenger's rows
    // locked on PostgreSQL), so that a burst cannot pass the bounds.
    const std::string lockOut = std::string(
                                    "SELECT id FROM challenges WHERE challenger = ? AND "
                                    "status = 'pending' AND expires > ? ") +
                                db->lockRows();
    auto locked = db->prepare(lockOut.c_str());
    locked->bind(1, c.challenger);
    locked->bind(2, c.created);
    std::int64_t out = 0;
    Step step;
    while ((step = locked->step()) == Step::Row) ++out;
    if (step == Step::Failed) return finish(Error{locked->error()}, {});
    if (out >= maxOut) return finish(std::nullopt, ChallengeInsert::TooManyOut);
    auto in = db->prepare(
        "SELECT COUNT(*) FROM challenges WHERE challenged = ? AND status = 'pending' AND "
        "expires > ?");
    in->bind(1, c.challenged);
    in->bind(2, c.created);
    auto n = countOf(*in);
    if (!n) return finish(n.error(), {});
    if (*n >= maxIn) return finish(std::nullopt, ChallengeInsert::TooManyIn);
    auto ins = db->prepare(
        "INSERT INTO challenges (id, challenger, challenged, preset, clock_initial, "
        "clock_increment, rated, side, status, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
        "'pending', ?, ?)");
    ins->bind(1, c.id);
    ins->bind(2, c.challenger);
    ins->bind(3, c.challenged);
    ins->bind(4, c.preset);
    ins->bind(5, c.clockInitial);
    ins->bind(6, c.clockIncrement);
    ins->bind(7, static_cast<std::int64_t>(c.rated ? 1 : 0));
    ins->bind(8, c.side);
    ins->bind(9, c.created);
    ins->bind(10, c.expires);
    return finish(done(*ins), ChallengeInsert::Created);
}

Lookup<ChallengeRow> Store::challenge(const std::string& id) {
    auto db = readLease();
    auto st = db->prepare(
        (std::string("SELECT ") + kChallengeColumns + " FROM challenges WHERE id = ?").c_str());
    st->bind(1, id);
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    if (step == Step::Done) return std::nullopt;
    return readChallenge(*st);
}

Result<std::vector<ChallengeRow>> Store::pendingChallenges(std::int64_t player, std::int64_t now) {
    auto db = readLease();
    auto st = db->prepare((std::string("SELECT ") + kChallengeColumns +
                           " FROM challenges WHERE (challenger = ?1 OR challenged = ?1) AND "
                           "status = 'pending' AND expires > ?2 ORDER BY created, id")
                              .c_str());
    st->bind(1, player);
    st->bind(2, now);
    return readChallenges(*st);
}

Lookup<ChallengeRow> Store::settleChallenge(const std::string& id, const std::string& status,
                                            const std::string& reason, std::int64_t now) {
    auto db = lease();
    // Only a pending challenge that has not expired: of two answers at once, one wins.
    auto st = db->prepare((std::string("UPDATE challenges SET status = ?, reason = ? WHERE id = ? "
                                       "AND status = 'pending' AND expires > ? RETURNING ") +
                           kChallengeColumns)
                              .c_str());
    st->bind(1, status);
    st->bind(2, reason);
    st->bind(3, id);
    st->bind(4, now);
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    if (step == Step::Done) return std::nullopt;
    ChallengeRow c = readChallenge(*st);
    if (auto e = done(*st)) return *e;
    return c;
}

std::optional<Error> Store::setChallengeGame(const std::string& id, const std::string& game) {
    auto db = lease();
    auto st = db->prepare("UPDATE challenges SET game = ? WHERE id = ?");
    st->bind(1, game);
    st->bind(2, id);
    return done(*st);
}

Result<std::vector<ChallengeRow>> Store::expireChallenges(std::int64_t now) {
    auto db = lease();
    auto st = db->prepare((std::string("UPDATE challenges SET status = 'expired' WHERE status = "
                                       "'pending' AND expires <= ? RETURNING ") +
                           kChallengeColumns)
                              .c_str());
    st->bind(1, now);
    return readChallenges(*st);
}

Result<ChallengeSettings> Store::challengeSettings(std::int64_t player) {
    auto db = readLease();
    auto st = db->prepare("SELECT challenge_from, challenge_bots FROM players WHERE id = ?");
    st->bind(1, player);
    if (st->step() != Step::Row)
        return Error{st->error().empty() ? "store: no such player" : st->error()};
    return ChallengeSettings{st->text(0), st->integer(1) != 0};
}

std::optional<Error> Store::setChallengeSettings(std::int64_t player, const ChallengeSettings& s) {
    auto db = lease();
    auto st = db->prepare("UPDATE players SET challenge_from = ?, challenge_bots = ? WHERE id = ?");
    st->bind(1, s.from);
    st->bind(2, static_cast<std::int64_t>(s.bots ? 1 : 0));
    st->bind(3, player);
    return done(*st);
}

Result<FollowResult> Store::follow(std::int64_t follower, std::int64_t followed, std::int64_t now,
                                   int cap) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    auto finish = [&](std::optional<Error> e, FollowResult r) -> Result<FollowResult> {
        if (e || r != FollowResult::Added) {
            db->rollback();
            if (e) return *e;
            return r;
        }
        if (auto ce = db->commit()) return *ce;
        return r;
    };
    auto count = db->prepare("SELECT COUNT(*) FROM follows WHERE follower = ?");
    count->bind(1, follower);
    auto n = countOf(*count);
    if (!n) return finish(n.error(), {});
    auto ins = db->prepare(
        "INSERT INTO follows (follower, followed, created) VALUES (?, ?, ?) ON CONFLICT DO "
        "NOTHING RETURNING follower");
    ins->bind(1, follower);
    ins->bind(2, followed);
    ins->bind(3, now);
    if (*n >= cap) {
        // Full: only an existing follow is fine (nothing to add).
        auto has = db->prepare("SELECT 1 FROM follows WHERE follower = ? AND followed = ?");
        has->bind(1, follower);
        has->bind(2, followed);
        const Step h = has->step();
        if (h == Step::Failed) return finish(Error{has->error()}, {});
        return finish(std::nullopt, h == Step::Row ? FollowResult::Already : FollowResult::Full);
    }
    const Step step = ins->step();
    if (step == Step::Failed) return finish(Error{ins->error()}, {});
    if (step == Step::Done) return finish(std::nullopt, FollowResult::Already);
    return finish(done(*ins), FollowResult::Added);
}

Result<bool> Store::unfollow(std::int64_t follower, std::int64_t followed) {
    auto db = lease();
    auto st =
        db->prepare("DELETE FROM follows WHERE follower = ? AND followed = ? RETURNING follower");
    st->bind(1, follower);
    st->bind(2, followed);
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    if (step == Step::Done) return false;
    if (auto e = done(*st)) return *e;
    return true;
}

Result<bool> Store::follows(std::int64_t follower, std::int64_t followed) {
    auto db = readLease();
    auto st = db->prepare("SELECT 1 FROM follows WHERE follower = ? AND followed = ?");
    st->bind(1, follower);
    st->bind(2, followed);
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    return step == Step::Row;
}

Result<std::vector<FollowedPlayer>> Store::following(std::int64_t follower) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT p.id, p.public_id, p.name, p.kind, p.rating, p.bot FROM follows f JOIN players p "
        "ON p.id = f.followed WHERE f.follower = ? ORDER BY p.name, p.id");
    st->bind(1, follower);
    std::vector<FollowedPlayer> out;
    Step step;
    while ((step = st->step()) == Step::Row) {
        FollowedPlayer f;
        f.player.id = st->integer(0);
        f.player.publicId = st->text(1);
        f.player.name = st->text(2);
        f.player.kind = st->text(3);
        f.player.rating = st->real(4);
        f.player.bot = st->integer(5) != 0;
        out.push_back(std::move(f));
    }
    if (step == Step::Failed) return Error{st->error()};
    // Their games in play, in one statement (the followed players' ids are the follower's list).
    auto games = db->prepare(
        "SELECT g.id, f.followed FROM follows f JOIN games g ON (g.player1 = f.followed OR "
        "g.player2 = f.followed) WHERE f.follower = ? AND g.status = 'playing' ORDER BY g.created "
        "DESC, g.id");
    games->bind(1, follower);
    while ((step = games->step()) == Step::Row) {
        const std::int64_t who = games->integer(1);
        for (auto& f : out)
            if (f.player.id == who && f.games.size() < 10) f.games.push_back(games->text(0));
    }
    if (step == Step::Failed) return Error{games->error()};
    return out;
}

std::optional<Error> Store::setFollowStarts(std::int64_t follower, std::int64_t followed, bool on) {
    auto db = lease();
    auto st =
        db->prepare("UPDATE follows SET notify_starts = ? WHERE follower = ? AND followed = ?");
    st->bind(1, static_cast<std::int64_t>(on));
    st->bind(2, follower);
    st->bind(3, followed);
    return done(*st);
}

Result<std::vector<std::int64_t>> Store::startFollowers(std::int64_t followed, int limit) {
    auto db = readLease();
    auto st = db->prepare(
        "SELECT follower FROM follows WHERE followed = ? AND notify_starts = 1 ORDER BY follower "
        "LIMIT ?");
    st->bind(1, followed);
    st->bind(2, limit);
    std::vector<std::int64_t> out;
    Step step;
    while ((step = st->step()) == Step::Row) out.push_back(st->integer(0));
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

Result<std::vector<std::int64_t>> Store::followers(std::int64_t followed, int limit) {
    auto db = readLease();
    auto st =
        db->prepare("SELECT follower FROM follows WHERE followed = ? ORDER BY follower LIMIT ?");
    st->bind(1, followed);
    st->bind(2, limit);
    std::vector<std::int64_t> out;
    Step step;
    while ((step = st->step()) == Step::Row) out.push_back(st->integer(0));
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

}  // namespace rainet::store

#include "store/store.h"

#include "store/pool_lease.h"

#include <algorithm>
#include <map>
#include <span>

#include "store/chat_store.h"
#include "store/fault_injection.h"
#include "store/glicko2.h"
#include "store/postgres_database.h"
#include "store/schema.h"
#include "store/sqlite_database.h"

namespace rainet::store {

namespace {

constexpr const char* kPlayerColumns =
    "p.id, p.public_id, p.name, p.kind, p.rating, p.rating_rd, p.rating_volatility, "
    "p.rated_games, p.rated_at, p.bot";

constexpr const char* kGameColumns =
    "id, preset, clock_initial, clock_increment, opponent, level, side_wish, creator, player1, "
    "player2, status, result, reason, version, clock1, clock2, created, ended, rated, draw_offer, "
    "rematch_offer, next_game, deadline, to_move";

constexpr int kGameColumnCount = 24;

// One players row in kPlayerColumns order, from column `at`.
PlayerRow readPlayerRow(const Statement& st, int at = 0) {
    PlayerRow p;
    p.id = st.integer(at);
    p.publicId = st.text(at + 1);
    p.name = st.text(at + 2);
    p.kind = st.text(at + 3);
    p.rating = st.real(at + 4);
    p.rd = st.real(at + 5);
    p.volatility = st.real(at + 6);
    p.ratedGames = static_cast<int>(st.integer(at + 7));
    p.ratedAt = st.integer(at + 8);
    p.bot = st.integer(at + 9) != 0;
    return p;
}

// One games row in kGameColumns order (columns 0-23), shared by loading and listing.
GameRow readGameRow(const Statement& st) {
    GameRow g;
    g.id = st.text(0);
    g.preset = st.text(1);
    g.clockInitial = static_cast<int>(st.integer(2));
    g.clockIncrement = static_cast<int>(st.integer(3));
    g.opponent = st.text(4);
    g.level = static_cast<int>(st.integer(5));
    g.sideWish = st.text(6);
    g.creator = st.integer(7);
    g.player[0] = st.integer(8);
    g.player[1] = st.integer(9);
    // An unknown status (none is written) reads as aborted: nothing happens in it.
    g.status = parseGameStatus(st.text(10)).value_or(GameStatus::Aborted);
    g.result = st.text(11);
    g.reason = st.text(12);
    g.version = st.integer(13);
    g.clock[0] = st.integer(14);
    g.clock[1] = st.integer(15);
    g.created = st.integer(16);
    g.ended = st.integer(17);
    g.rated = st.integer(18) != 0;
    g.drawOffer = static_cast<int>(st.integer(19));
    g.rematchOffer = static_cast<int>(st.integer(20));
    g.nextGame = st.text(21);
    g.deadline = st.integer(22);
    g.toMove = static_cast<int>(st.integer(23));
    return g;
}

// kGameColumns, each prefixed (a table's alias).
std::string gameColumnsOf(const std::string& prefix) {
    std::string cols;
    for (const char* p = kGameColumns; *p; ++p) {
        if (p == kGameColumns || p[-1] == ' ') cols += prefix;
        cols += *p;
    }
    return cols;
}

// Game summaries: a games row then both players' names and public ids.
Result<std::vector<GameSummary>> readSummaries(Statement& st) {
    std::vector<GameSummary> out;
    Step step;
    while ((step = st.step()) == Step::Row) {
        GameSummary s;
        s.game = readGameRow(st);
        s.names[0] = st.text(kGameColumnCount);  // after the games row
        s.publicIds[0] = st.text(kGameColumnCount + 1);
        s.names[1] = st.text(kGameColumnCount + 2);
        s.publicIds[1] = st.text(kGameColumnCount + 3);
        out.push_back(std::move(s));
    }
    if (step == Step::Failed) return Error{st.error()};
    return out;
}

// Usernames are unique whatever their case (they are ASCII letters, digits, '_' and '-').
std::string usernameKey(const std::string& username) {
    std::string k = username;
    for (char& c : k)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return k;
}

// A numbered placeholder, ?n (built by append: g++ 12 warns wrongly about "?" + string).
std::string param(int n) {
    std::string p(1, '?');
    p.append(std::to_string(n));
    return p;
}

}  // namespace

Store::Store(Opener opener, std::size_t maxConnections, std::unique_ptr<Database> first)
    : dialect_(first->dialect()) {
    writers_.opener = std::move(opener);
    writers_.max = maxConnections;
    writers_.free.push_back(first.get());
    writers_.all.push_back(std::move(first));
}

Result<std::unique_ptr<Store>> Store::open(const std::string& target, const std::string& sync,
                                           bool faultInjection) {
    const bool pg = isPostgresTarget(target);
    // The switch lives in the store; the opener is called only while the store exists.
    auto failing = std::make_shared<const FaultSwitches*>(nullptr);
    auto faulty = [failing](Result<std::unique_ptr<Database>> db) {
        if (!db || !*failing) return db;
        // While failing, a new connection is refused too, as by a server that is down.
        if ((*failing)->failing) return Result<std::unique_ptr<Database>>(Error{kInjectedFault});
        return Result<std::unique_ptr<Database>>(
            std::unique_ptr<Database>(new FaultInjection(std::move(*db), **failing)));
    };
    Opener opener = [target, sync, pg, faulty] {
        return faulty(pg ? PostgresDatabase::open(target, sync)
                         : SqliteDatabase::open(target, sync));
    };
    auto db = opener();
    if (!db) return db.error();
    // SQLite: one connection (one writer at a time anyway). PostgreSQL: a few, opened when the
    // ones open are all busy, so that commits overlap (the server flushes them together).
    std::unique_ptr<Store> s(new Store(opener, pg ? kPostgresConnections : 1, std::move(*db)));
    if (auto e = s->migrate(*s->writers_.all.front())) return *e;
    if (!pg) {  // opened once migrated, when first needed
        s->readers_.opener = [target, faulty] {
            return faulty(SqliteDatabase::openReader(target));
        };
        s->readers_.max = kSqliteReaders;
    }
    if (faultInjection) {
        s->faultInjection_ = true;
        *failing = &s->faults_;
        for (auto& c : s->writers_.all) {
            auto* raw = c.get();
            c.reset(new FaultInjection(std::move(c), s->faults_));
            std::replace(s->writers_.free.begin(), s->writers_.free.end(), raw, c.get());
        }
    }
    return s;
}

bool Store::injectFaults(bool on) {
    if (!faultInjection_) return false;
    faults_.failing = on;
    return true;
}

bool Store::injectUnknownCommits(bool on) {
    if (!faultInjection_) return false;
    faults_.commitsUnknown = on;
    return true;
}

bool Store::delayReads(std::int64_t ms) {
    if (!faultInjection_) return false;
    readDelay_.set(ms);
    return true;
}

std::size_t Store::readsDelayed() const {
    return readDelay_.waiting();
}

Store::~Store() {
    stopThreads();
}

Database* Store::take(Pool& p, bool orNone) {
    std::unique_lock lock(p.mu);
    while (p.free.empty()) {
        const bool room = p.all.size() + p.opening < p.max;
        const auto now = std::chrono::steady_clock::now();
        if (room && now >= p.retryAt) {
            ++p.opening;
            lock.unlock();
            auto db = p.opener();
            lock.lock();
            --p.opening;
            if (db) {
                p.all.push_back(std::move(*db));
                return p.all.back().get();
            }
            p.retryAt = now + kReopenAfter;
            p.freed.notify_all();  // whoever waited for this opening decides again
            continue;
        }
        if (orNone && p.all.empty() && p.opening == 0) return nullptr;
        if (room)
            p.freed.wait_until(lock, p.retryAt);
        else
            p.freed.wait(lock);
    }
    Database* db = p.free.back();
    p.free.pop_back();
    return db;
}

Store::Lease Store::lease(Pool& p) {
    return Lease(p, take(p, false));
}

Store::Lease Store::lease() {
    return lease(writers_);
}

Store::Lease Store::readLease() {
    if (faultInjection_) readDelay_.wait();
    {
        std::lock_guard lock(readers_.mu);
        if (readers_.max == 0) return lease(writers_);
    }
    if (Database* db = take(readers_, true)) return Lease(readers_, db);
    return lease(writers_);  // no reader can be opened now: read on a writer meanwhile
}

Store::ConnectionCount Store::connectionsOpen() {
    ConnectionCount c;
    {
        std::lock_guard lock(writers_.mu);
        c.writers = writers_.all.size();
    }
    std::lock_guard lock(readers_.mu);
    c.readers = readers_.all.size();
    return c;
}

int Store::schemaVersion() {
    return static_cast<int>(migrations().size());
}

std::optional<Error> Store::migrate(Database& db) {
    // The version is read inside each step's transaction: of two servers opening one database,
    // the second waits for the first and then finds nothing left to do.
    while (true) {
        if (auto e = db.begin()) return e;
        auto version = db.schemaVersion();
        if (!version) {
            db.rollback();
            return version.error();
        }
        if (*version >= schemaVersion()) {
            db.rollback();
            if (*version == schemaVersion()) return std::nullopt;
            return Error{"store: the database has schema version " + std::to_string(*version) +
                         ", newer than this build's " + std::to_string(schemaVersion())};
        }
        std::optional<Error> e = db.exec(migrations()[*version].sql(db.dialect()));
        if (!e) e = db.setSchemaVersion(*version + 1);
        if (e) {
            db.rollback();
            return Error{"store: migration to schema version " + std::to_string(*version + 1) +
                         " failed: " + e->message};
        }
        if (auto e2 = db.commit()) return e2;
    }
}

namespace {

Lookup<PlayerRow> readPlayer(Database& db, const char* where, const std::string& key,
                             std::int64_t id) {
    auto st =
        db.prepare((std::string("SELECT ") + kPlayerColumns + " FROM players p " + where).c_str());
    if (key.empty())
        st->bind(1, id);
    else
        st->bind(1, key);
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    if (step == Step::Done) return std::nullopt;
    return readPlayerRow(*st);
}

std::optional<Error> insertToken(Database& db, std::int64_t player, const std::string& tokenHash) {
    auto st = db.prepare("INSERT INTO tokens (hash, player) VALUES (?, ?)");
    st->bind(1, tokenHash);
    st->bind(2, player);
    return done(*st);
}

// Several statements that must see one state of the database (a snapshot), ended whatever
// happens.
class ReadTransaction {
  public:
    explicit ReadTransaction(Database& db) : db_(db), error_(db.beginRead()) {}
    ~ReadTransaction() {
        if (!error_) db_.endRead();
    }
    ReadTransaction(const ReadTransaction&) = delete;
    ReadTransaction& operator=(const ReadTransaction&) = delete;
    // Why it could not begin, if it could not.
    const std::optional<Error>& error() const { return error_; }

  private:
    Database& db_;
    std::optional<Error> error_;
};

}  // namespace

Lookup<PlayerRow> Store::playerByTokenHash(const std::string& hash) {
    auto db = readLease();
    return readPlayer(*db, "JOIN tokens t ON t.player = p.id WHERE t.hash = ?", hash, 0);
}

Lookup<PlayerRow> Store::playerById(std::int64_t id) {
    auto db = readLease();
    return readPlayer(*db, "WHERE p.id = ?", {}, id);
}

Lookup<PlayerRow> Store::playerByPublicId(const std::string& publicId) {
    if (publicId.empty()) return std::nullopt;
    auto db = readLease();
    return readPlayer(*db, "WHERE p.public_id = ?", publicId, 0);
}

Result<PlayerRow> Store::createPlayer(const std::string& publicId, const std::string& tokenHash,
                                      const std::string& name) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    // players.token_hash (schema 1) is NOT NULL UNIQUE: it gets the first token, unread since.
    auto st = db->prepare(
        "INSERT INTO players (public_id, token_hash, name) VALUES (?, ?, ?) RETURNING id");
    st->bind(1, publicId);
    st->bind(2, tokenHash);
    st->bind(3, name);
    std::optional<Error> e;
    std::int64_t id = 0;
    if (st->step() == Step::Row)
        id = st->integer(0);
    else
        e = Error{st->error()};
    if (!e) e = done(*st);
    if (!e) e = insertToken(*db, id, tokenHash);
    if (e) {
        db->rollback();
        return *e;
    }
    if (auto c = db->commit()) return *c;
    PlayerRow p;
    p.id = id;
    p.publicId = publicId;
    p.name = name;
    return p;
}

std::optional<Error> Store::addToken(std::int64_t player, const std::string& tokenHash) {
    auto db = lease();
    return insertToken(*db, player, tokenHash);
}

std::optional<Error> Store::revokeToken(const std::string& tokenHash) {
    auto db = lease();
    auto st = db->prepare("DELETE FROM tokens WHERE hash = ?");
    st->bind(1, tokenHash);
    return done(*st);
}

Result<Registration> Store::registerAccount(std::int64_t player, const std::string& username,
                                            const std::string& passwordHash, bool bot) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    auto finish = [&](std::optional<Error> e, Registration r) -> Result<Registration> {
        if (e || r != Registration::Registered) {
            db->rollback();
            if (e) return *e;
            return r;
        }
        if (auto c = db->commit()) return *c;
        return r;
    };
    // Inserted unless the player or the username has an account already (then which one says
    // why), also when another connection registers either of them at the same moment.
    auto ins = db->prepare(
        "INSERT INTO accounts (player, username, username_key, password_hash) VALUES (?, ?, ?, "
        "?) ON CONFLICT DO NOTHING RETURNING player");
    ins->bind(1, player);
    ins->bind(2, username);
    ins->bind(3, usernameKey(username));
    ins->bind(4, passwordHash);
    const Step inserted = ins->step();
    if (inserted == Step::Failed) return finish(Error{ins->error()}, {});
    if (inserted == Step::Done) {
        auto mine = db->prepare("SELECT 1 FROM accounts WHERE player = ?");
        mine->bind(1, player);
        const Step m = mine->step();
        if (m == Step::Failed) return finish(Error{mine->error()}, {});
        return finish(std::nullopt, m == Step::Row ? Registration::AlreadyRegistered
                                                   : Registration::UsernameTaken);
    }
    if (auto e = done(*ins)) return finish(e, {});
    auto up = db->prepare(
        "UPDATE players SET kind = 'account', name = ?, bot = ? WHERE id = ? RETURNING id");
    up->bind(1, username);
    up->bind(2, static_cast<std::int64_t>(bot ? 1 : 0));
    up->bind(3, player);
    if (up->step() != Step::Row)
        return finish(Error{"store: no player " + std::to_string(player)}, {});
    return finish(done(*up), Registration::Registered);
}

Lookup<AccountRow> Store::accountByUsername(const std::string& username) {
    auto db = readLease();
    auto st =
        db->prepare("SELECT player, username, password_hash FROM accounts WHERE username_key = ?");
    st->bind(1, usernameKey(username));
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    if (step == Step::Done) return std::nullopt;
    return AccountRow{st->integer(0), st->text(1), st->text(2)};
}

Lookup<PlayerStats> Store::playerStats(const std::string& publicId) {
    auto db = readLease();
    ReadTransaction snapshot(*db);
    if (snapshot.error()) return *snapshot.error();
    auto p = readPlayer(*db, "WHERE p.public_id = ?", publicId, 0);
    if (!p || !*p) return p ? Lookup<PlayerStats>(std::nullopt) : p.error();
    PlayerStats s;
    s.player = **p;
    auto st = db->prepare(
        "SELECT COUNT(*), "
        "SUM(CASE WHEN (player1 = ?1 AND result = '1-0') OR (player2 = ?1 AND result = '0-1') "
        "THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN (player1 = ?1 AND result = '0-1') OR (player2 = ?1 AND result = '1-0') "
        "THEN 1 ELSE 0 END) "
        "FROM games WHERE status = 'finished' AND (player1 = ?1 OR player2 = ?1)");
    st->bind(1, s.player.id);
    if (st->step() != Step::Row) return Error{st->error()};
    s.games = st->integer(0);
    s.wins = st->integer(1);
    s.draws = st->integer(2);
    s.losses = st->integer(3);
    return s;
}

Result<std::vector<PlayerRow>> Store::leaderboard(const std::optional<RankKey>& after, int limit) {
    auto db = readLease();
    // In the order of the index players_ranked (schema.cpp): a page is a range scan.
    std::string sql =
        std::string("SELECT ") + kPlayerColumns + " FROM players p WHERE p.rated_games > 0";
    if (after)
        sql +=
            " AND (p.rating < ?1 OR (p.rating = ?1 AND (p.rated_games < ?2 OR (p.rated_games = ?2 "
            "AND p.id > ?3))))";
    sql += after ? " ORDER BY p.rating DESC, p.rated_games DESC, p.id LIMIT ?4"
                 : " ORDER BY p.rating DESC, p.rated_games DESC, p.id LIMIT ?1";
    auto st = db->prepare(sql.c_str());
    if (after) {
        st->bindReal(1, after->rating);
        st->bind(2, after->ratedGames);
        st->bind(3, after->id);
        st->bind(4, limit);
    } else {
        st->bind(1, limit);
    }
    std::vector<PlayerRow> out;
    Step step;
    while ((step = st->step()) == Step::Row) out.push_back(readPlayerRow(*st));
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

Result<std::int64_t> Store::ratedPlayers() {
    auto db = readLease();
    auto c = db->prepare("SELECT COUNT(*) FROM players WHERE rated_games > 0");
    if (c->step() != Step::Row) return Error{c->error()};
    return c->integer(0);
}

std::optional<Error> Store::renamePlayer(std::int64_t id, const std::string& name) {
    auto db = lease();
    auto st = db->prepare("UPDATE players SET name = ? WHERE id = ?");
    st->bind(1, name);
    st->bind(2, id);
    return done(*st);
}

namespace {

std::optional<Error> writeGame(Database& db, const GameRow& g, bool insert) {
    static const std::string kInsert = std::string("INSERT INTO games (") + kGameColumns +
                                       ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    static constexpr const char* kUpdate =
        "UPDATE games SET player1 = ?2, player2 = ?3, status = ?4, result = ?5, reason = ?6, "
        "version = ?7, clock1 = ?8, clock2 = ?9, ended = ?10, draw_offer = ?11, "
        "rematch_offer = ?12, next_game = ?13, deadline = ?14, to_move = ?15 WHERE id = ?1";
    if (insert) {
        auto st = db.prepare(kInsert.c_str());
        st->bind(1, g.id);
        st->bind(2, g.preset);
        st->bind(3, g.clockInitial);
        st->bind(4, g.clockIncrement);
        st->bind(5, g.opponent);
        st->bind(6, g.level);
        st->bind(7, g.sideWish);
        st->bind(8, g.creator);
        st->bindPlayer(9, g.player[0]);
        st->bindPlayer(10, g.player[1]);
        st->bind(11, std::string(toString(g.status)));
        st->bind(12, g.result);
        st->bind(13, g.reason);
        st->bind(14, g.version);
        st->bind(15, g.clock[0]);
        st->bind(16, g.clock[1]);
        st->bind(17, g.created);
        st->bind(18, g.ended);
        st->bind(19, static_cast<std::int64_t>(g.rated));
        st->bind(20, g.drawOffer);
        st->bind(21, g.rematchOffer);
        st->bind(22, g.nextGame);
        st->bind(23, g.deadline);
        st->bind(24, g.toMove);
        return done(*st);
    }
    auto st = db.prepare(kUpdate, true);
    st->bind(1, g.id);
    st->bindPlayer(2, g.player[0]);
    st->bindPlayer(3, g.player[1]);
    st->bind(4, std::string(toString(g.status)));
    st->bind(5, g.result);
    st->bind(6, g.reason);
    st->bind(7, g.version);
    st->bind(8, g.clock[0]);
    st->bind(9, g.clock[1]);
    st->bind(10, g.ended);
    st->bind(11, g.drawOffer);
    st->bind(12, g.rematchOffer);
    st->bind(13, g.nextGame);
    st->bind(14, g.deadline);
    st->bind(15, g.toMove);
    return done(*st);
}

Result<std::vector<RatingChange>> rate(Database& db, const GameRow& g) {
    std::vector<RatingChange> changes;
    if (!g.rated || g.status != GameStatus::Finished || g.result.empty() || !g.player[0] ||
        !g.player[1] || g.player[0] == g.player[1])
        return changes;
    // Both ratings are read inside the transaction that writes them, their rows locked (in the
    // order of their ids, so that two such transactions never wait for each other in a cycle):
    // two games of one player ending at once are rated one after the other.
    auto st = db.prepare((std::string("SELECT ") + kPlayerColumns +
                          " FROM players p WHERE p.id IN (?, ?) ORDER BY p.id" + db.lockRows())
                             .c_str());
    st->bind(1, g.player[0]);
    st->bind(2, g.player[1]);
    std::map<std::int64_t, PlayerRow> players;
    while (st->step() == Step::Row) {
        PlayerRow p = readPlayerRow(*st);
        players[p.id] = p;
    }
    glicko2::Rating before[2];
    for (int i = 0; i < 2; ++i) {
        auto p = players.find(g.player[i]);
        if (p == players.end()) return Error{"store: no player " + std::to_string(g.player[i])};
        // The periods since the player's last rated game passed without games: RD grew.
        before[i] = glicko2::idle({p->second.rating, p->second.rd, p->second.volatility},
                                  glicko2::periodsBetween(p->second.ratedAt, g.ended));
    }
    const Outcome o = outcomeOf(g.result);
    const double score1 = o == Outcome::Side1Wins ? 1 : o == Outcome::Side2Wins ? 0 : 0.5;
    for (int i = 0; i < 2; ++i) {
        const glicko2::Game game{before[1 - i], i == 0 ? score1 : 1 - score1};
        const glicko2::Rating after = glicko2::update(before[i], std::span(&game, 1));
        auto up = db.prepare(
            "UPDATE players SET rating = ?, rating_rd = ?, rating_volatility = ?, "
            "rated_games = rated_games + 1, rated_at = ? WHERE id = ?");
        up->bindReal(1, after.rating);
        up->bindReal(2, after.rd);
        up->bindReal(3, after.volatility);
        up->bind(4, g.ended);
        up->bind(5, g.player[i]);
        if (auto e = done(*up)) return *e;
        auto ins = db.prepare(
            "INSERT INTO game_ratings (game, side, player, before, after, rd_before, "
            "rd_after) VALUES (?, ?, ?, ?, ?, ?, ?)");
        ins->bind(1, g.id);
        ins->bind(2, i + 1);
        ins->bind(3, g.player[i]);
        ins->bindReal(4, before[i].rating);
        ins->bindReal(5, after.rating);
        ins->bindReal(6, before[i].rd);
        ins->bindReal(7, after.rd);
        if (auto e = done(*ins)) return *e;
        changes.push_back({g.player[i], before[i].rating, after.rating, before[i].rd, after.rd});
    }
    return changes;
}

}  // namespace

std::optional<Error> Store::insertGame(const GameRow& g) {
    auto db = lease();
    return writeGame(*db, g, true);
}

namespace {

std::optional<Error> checkFence(Database& db, const GameLease& fence);

// `write` alone, or with a fence: in a transaction after the lease row is checked and locked.
template <class Write>
std::optional<Error> fenced(Database& db, const std::optional<GameLease>& fence, Write write) {
    if (!fence) return write();
    if (auto e = db.begin()) return e;
    std::optional<Error> e = checkFence(db, *fence);
    if (!e) e = write();
    if (!e) e = db.commit();
    if (e) db.rollback();
    return e;
}

}  // namespace

std::optional<Error> Store::updateGame(const GameRow& g, const std::optional<GameLease>& fence) {
    auto db = lease();
    return fenced(*db, fence, [&] { return writeGame(*db, g, false); });
}

Result<std::vector<RatingChange>> Store::finishGame(const GameRow& g,
                                                    const std::optional<GameLease>& fence) {
    auto db = lease();
    if (auto e = db->begin()) return *e;
    std::optional<Error> e = fence ? checkFence(*db, *fence) : std::nullopt;
    if (!e) e = writeGame(*db, g, false);
    Result<std::vector<RatingChange>> changes = std::vector<RatingChange>{};
    if (!e) {
        changes = rate(*db, g);
        if (!changes) e = changes.error();
    }
    if (!e) e = db->commit();
    if (e) {
        db->rollback();
        return *e;
    }
    return changes;
}

std::optional<Error> Store::saveSetup(const GameRow& g, int side, int links,
                                      const std::optional<GameLease>& fence) {
    auto db = lease();
    if (auto e = db->begin()) return e;
    std::optional<Error> e = fence ? checkFence(*db, *fence) : std::nullopt;
    if (!e) {
        auto st = db->prepare("INSERT INTO setups (game, side, links) VALUES (?, ?, ?)");
        st->bind(1, g.id);
        st->bind(2, side);
        st->bind(3, links);
        e = done(*st);
    }
    if (!e) e = writeGame(*db, g, false);
    if (e) {
        db->rollback();
        return e;
    }
    return db->commit();
}

namespace {

// Inside a transaction: whether `fence` is still the game's lease, its row locked until the
// transaction ends so that a takeover waits for this write or this write sees the takeover.
std::optional<Error> checkFence(Database& db, const GameLease& fence) {
    auto st = db.prepare((std::string("SELECT 1 FROM game_leases WHERE game = ? AND owner = ? AND "
                                      "epoch = ?") +
                          db.lockRows())
                             .c_str(),
                         true);
    st->bind(1, fence.game);
    st->bind(2, fence.owner);
    st->bind(3, fence.epoch);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    if (s == Step::Done)
        return Error{"store: the lease of game " + fence.game + " (epoch " +
                     std::to_string(fence.epoch) + ") is no longer this node's"};
    return std::nullopt;
}

std::optional<Error> insertAction(Database& db, const std::string& game, const ActionRow& a) {
    auto st = db.prepare(
        "INSERT INTO actions (game, ply, action, client_id, clock_after, version) VALUES (?, ?, "
        "?, ?, ?, ?)",
        true);
    st->bind(1, game);
    st->bind(2, a.ply);
    st->bind(3, a.action);
    st->bind(4, a.clientId);
    st->bind(5, a.clockAfter);
    st->bind(6, a.version);
    return done(*st);
}

// PostgreSQL: a batch's actions in one statement (one round trip to the server instead of one
// per action), the columns passed as arrays. SQLite runs in-process: one insert per action.
void appendQuoted(std::string& out, const std::string& v) {
    out += '"';
    for (char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    out += '"';
}

// `{e0,e1,...}`, each element written by `write(out, i)`.
template <class Write>
std::string arrayLiteral(std::size_t n, Write write) {
    std::string out = "{";
    for (std::size_t i = 0; i < n; ++i) {
        if (i) out += ',';
        write(out, i);
    }
    return out + "}";
}

template <class Batch>
std::optional<Error> insertActions(Database& db, const Batch& batch) {
    if (db.dialect() != Dialect::Postgres || batch.size() < 2) {
        for (const auto& q : batch)
            if (auto e = insertAction(db, q.game, q.action)) return e;
        return std::nullopt;
    }
    auto st = db.prepare(
        "INSERT INTO actions (game, ply, action, client_id, clock_after, version) SELECT * FROM "
        "unnest(?::text[], ?::int[], ?::text[], ?::text[], ?::bigint[], ?::bigint[])",
        true);
    const auto text = [&](auto field) {
        return arrayLiteral(batch.size(), [&](std::string& out, std::size_t i) {
            appendQuoted(out, field(batch[i]));
        });
    };
    const auto number = [&](auto field) {
        return arrayLiteral(batch.size(), [&](std::string& out, std::size_t i) {
            out += std::to_string(field(batch[i]));
        });
    };
    st->bind(1, text([](const auto& q) -> const std::string& { return q.game; }));
    st->bind(2, number([](const auto& q) { return q.action.ply; }));
    st->bind(3, text([](const auto& q) -> const std::string& { return q.action.action; }));
    st->bind(4, text([](const auto& q) -> const std::string& { return q.action.clientId; }));
    st->bind(5, number([](const auto& q) { return q.action.clockAfter; }));
    st->bind(6, number([](const auto& q) { return q.action.version; }));
    return done(*st);
}

}  // namespace

// One action in a transaction of its own when it is fenced (the check and the insert together).
std::optional<Error> writeAction(Database& db, const std::string& game, const ActionRow& a,
                                 const std::optional<GameLease>& fence) {
    if (!fence) return insertAction(db, game, a);
    if (auto e = db.begin()) return e;
    std::optional<Error> e = checkFence(db, *fence);
    if (!e) e = insertAction(db, game, a);
    if (!e) e = db.commit();
    if (e) db.rollback();
    return e;
}

std::optional<Error> Store::saveAction(const GameRow& g, const ActionRow& a,
                                       const std::optional<GameLease>& fence) {
    auto db = lease();
    return writeAction(*db, g.id, a, fence);
}

std::optional<Error> Store::saveCorrespondenceAction(const GameRow& g, const ActionRow& a,
                                                     const std::optional<GameLease>& fence) {
    auto db = lease();
    if (auto e = db->begin()) return e;
    std::optional<Error> e = fence ? checkFence(*db, *fence) : std::nullopt;
    if (!e) e = insertAction(*db, g.id, a);
    if (!e) {
        auto st = db->prepare("UPDATE games SET deadline = ?, to_move = ? WHERE id = ?", true);
        st->bind(1, g.deadline);
        st->bind(2, g.toMove);
        st->bind(3, g.id);
        e = done(*st);
    }
    if (!e) e = db->commit();
    if (e) db->rollback();
    return e;
}

void Store::saveActionBatched(const GameRow& g, const ActionRow& a, Done done,
                              std::optional<GameLease> fence) {
    enqueueWrite({g.id, a, std::move(done), nullptr, std::move(fence)});
}

void Store::write(Job job) {
    enqueueWrite({{}, {}, nullptr, std::move(job), std::nullopt});
}

void Store::enqueueWrite(QueuedWrite w) {
    {
        std::lock_guard lock(writeMu_);
        if (!writerStopped_) {
            if (!writer_.joinable()) writer_ = std::thread(&Store::writeLoop, this);
            writes_.push_back(std::move(w));
            writeCv_.notify_one();
            return;
        }
    }
    if (w.job) return w.job();
    std::optional<Error> e;
    {
        auto db = lease();
        e = writeAction(*db, w.game, w.action, w.fence);
    }
    w.done(e);
}

void Store::read(Job job) {
    {
        std::lock_guard lock(readMu_);
        if (!readersStopped_) {
            if (readThreads_.empty())
                for (std::size_t i = 0; i < kReadThreads; ++i)
                    readThreads_.emplace_back(&Store::readLoop, this);
            reads_.push_back(std::move(job));
            readCv_.notify_one();
            return;
        }
    }
    job();
}

void Store::stopThreads() {
    {
        std::lock_guard lock(writeMu_);
        writerStopped_ = true;
    }
    writeCv_.notify_one();
    if (writer_.joinable()) writer_.join();
    {
        std::lock_guard lock(readMu_);
        readersStopped_ = true;
    }
    readDelay_.set(0);
    readCv_.notify_all();
    for (auto& t : readThreads_) t.join();
    readThreads_.clear();
}

void Store::readLoop() {
    while (true) {
        Job job;
        {
            std::unique_lock lock(readMu_);
            readCv_.wait(lock, [&] { return readersStopped_ || !reads_.empty(); });
            if (reads_.empty()) return;  // stopped, and everything queued is read
            job = std::move(reads_.front());
            reads_.pop_front();
        }
        // A reader thread's top: jobs report their own errors; one that throws anyway is lost
        // alone, the thread goes on.
        try {
            job();
        } catch (...) {
        }
    }
}

void Store::writeLoop() {
    std::vector<QueuedWrite> batch;
    while (true) {
        {
            std::unique_lock lock(writeMu_);
            writeCv_.wait(lock, [&] { return writerStopped_ || !writes_.empty(); });
            if (writes_.empty()) return;  // stopped, and everything queued is written
            const std::size_t n = std::min(writes_.size(), kMaxBatch);
            for (std::size_t i = 0; i < n; ++i) {
                batch.push_back(std::move(writes_.front()));
                writes_.pop_front();
            }
        }
        commitBatch(batch);
        batch.clear();
    }
}

void Store::commitBatch(std::vector<QueuedWrite>& batch) {
    // Runs of consecutive actions commit together; a job runs in its place in the queue, so that
    // a game's writes keep their order.
    std::size_t i = 0;
    while (i < batch.size()) {
        if (batch[i].job) {
            // The writer thread's top: a job that throws is lost alone.
            try {
                std::exchange(batch[i].job, nullptr)();
            } catch (...) {
            }
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < batch.size() && !batch[j].job) ++j;
        std::span<QueuedWrite> actions(batch.data() + i, j - i);
        // An exception fails this group (each caller told), not the process.
        try {
            commitActions(actions);
        } catch (const std::exception& e) {
            for (auto& q : actions)
                if (q.done)
                    std::exchange(q.done, nullptr)(Error{std::string("store: ") + e.what()});
        }
        i = j;
    }
}

void Store::commitActions(std::span<QueuedWrite> batch) {
    std::optional<Error> e;
    {
        auto db = lease();
        e = db->begin();
        if (!e) {
            // The batch's lease rows are locked in game order, as renewLeases locks them: two
            // transactions taking several rows in different orders deadlock (PostgreSQL aborts
            // one after deadlock_timeout, a second's stall, and a renewal lost that way let
            // leases expire under load).
            std::vector<const GameLease*> fences;
            for (const auto& q : batch)
                if (q.fence) fences.push_back(&*q.fence);
            std::sort(fences.begin(), fences.end(),
                      [](const GameLease* a, const GameLease* b) { return a->game < b->game; });
            for (std::size_t i = 0; !e && i < fences.size(); ++i) e = checkFence(*db, *fences[i]);
            if (!e) e = insertActions(*db, batch);
            if (!e) e = db->commit();
            if (e) db->rollback();
        }
    }
    // A commit whose outcome is unknown is not retried: the batch may be stored, and each
    // caller must treat its write as in doubt (the room reloads the truth).
    if (e && batch.size() > 1 && !commitUnknown(*e)) {
        // One write failed them all: each alone now, so that only the one at fault fails.
        batchesSplit_.fetch_add(1, std::memory_order_relaxed);
        for (auto& q : batch) {
            std::optional<Error> mine;
            {
                auto db = lease();
                mine = writeAction(*db, q.game, q.action, q.fence);
            }
            std::exchange(q.done, nullptr)(mine);
        }
        return;
    }
    for (auto& q : batch) std::exchange(q.done, nullptr)(e);
}

std::optional<Error> Store::saveChat(const std::string& game, const ChatRow& line,
                                     const std::optional<GameLease>& fence) {
    auto db = lease();
    return fenced(*db, fence, [&] { return insertChat(*db, game, line); });
}

namespace {

Result<GameData> readGame(Database& db, const Statement& st) {
    GameData d;
    d.game = readGameRow(st);
    GameRow& g = d.game;
    auto su = db.prepare("SELECT side, links FROM setups WHERE game = ?");
    su->bind(1, g.id);
    Step step;
    while ((step = su->step()) == Step::Row) {
        const auto side = su->integer(0);
        if (side == 1 || side == 2) d.setup[side - 1] = static_cast<int>(su->integer(1));
    }
    if (step == Step::Failed) return Error{su->error()};
    auto sa = db.prepare(
        "SELECT ply, action, client_id, clock_after, version FROM actions WHERE game = ? "
        "ORDER BY ply");
    sa->bind(1, g.id);
    const std::int64_t rowVersion = g.version;  // the version the games row was written with
    while ((step = sa->step()) == Step::Row) {
        ActionRow a{static_cast<int>(sa->integer(0)), sa->text(1), sa->text(2), sa->integer(3),
                    sa->integer(4)};
        // The games row is not rewritten for each action: its clocks and version come from here.
        g.clock[a.ply % 2] = a.clockAfter;
        g.version = std::max(g.version, a.version);
        d.actions.push_back(std::move(a));
    }
    if (step == Step::Failed) return Error{sa->error()};
    if (g.version > rowVersion) g.drawOffer = 0;  // an action came after it: the offer lapsed
    auto chat = loadChat(db, g.id, Store::kChatLoaded);
    if (!chat) return chat.error();
    d.chat = std::move(*chat);
    if (g.rated && g.status == GameStatus::Finished) {
        auto sr = db.prepare(
            "SELECT side, player, before, after, rd_before, rd_after FROM game_ratings WHERE "
            "game = ? ORDER BY side");
        sr->bind(1, g.id);
        while ((step = sr->step()) == Step::Row)
            d.ratings.push_back(
                {sr->integer(1), sr->real(2), sr->real(3), sr->real(4), sr->real(5)});
        if (step == Step::Failed) return Error{sr->error()};
        if (d.ratings.size() != 2) d.ratings.clear();
    }
    return d;
}

}  // namespace

Lookup<GameData> Store::loadGame(const std::string& id) {
    auto db = readLease();
    ReadTransaction snapshot(*db);
    if (snapshot.error()) return *snapshot.error();
    auto st =
        db->prepare((std::string("SELECT ") + kGameColumns + " FROM games WHERE id = ?").c_str());
    st->bind(1, id);
    const Step step = st->step();
    if (step == Step::Failed) return Error{st->error()};
    if (step == Step::Done) return std::nullopt;
    auto d = readGame(*db, *st);
    if (!d) return d.error();
    return std::move(*d);
}

Result<std::vector<GameData>> Store::loadUnfinished() {
    auto db = readLease();
    ReadTransaction snapshot(*db);
    if (snapshot.error()) return *snapshot.error();
    std::vector<GameData> out;
    auto st =
        db->prepare((std::string("SELECT ") + kGameColumns +
                     " FROM games WHERE status IN ('open','setup','playing') ORDER BY created")
                        .c_str());
    Step step;
    while ((step = st->step()) == Step::Row) {
        auto d = readGame(*db, *st);
        if (!d) return d.error();
        out.push_back(std::move(*d));
    }
    if (step == Step::Failed) return Error{st->error()};
    return out;
}

Result<std::vector<GameSummary>> Store::listGames(const std::string& playerPublicId,
                                                  const std::string& status,
                                                  const std::optional<GameKey>& after, int limit) {
    auto db = readLease();
    // Parameters are numbered in the order they are bound: a filter left out leaves no gap.
    // Each filter has an index ordered (created DESC, id) after it (schema.cpp), so a page is a
    // range scan from the key it starts after.
    std::string where = " WHERE 1=1";
    std::vector<std::string> params;
    if (!playerPublicId.empty()) {
        where +=
            " AND (g.player1 = (SELECT id FROM players WHERE public_id = ?) OR g.player2 = "
            "(SELECT id FROM players WHERE public_id = ?))";
        params = {playerPublicId, playerPublicId};
    }
    if (status == "active") {
        where += " AND g.status IN ('open','setup','playing')";
    } else if (!status.empty()) {
        where += " AND g.status = ?";
        params.push_back(status);
    }
    const int n = static_cast<int>(params.size());
    if (after) {
        const std::string c = param(n + 1), i = param(n + 2);
        where += " AND (g.created < " + c + " OR (g.created = " + c + " AND g.id > " + i + "))";
        // Numbered from here on: the filters before get numbers too.
        std::string numbered;
        int k = 0;
        for (char ch : where) {
            if (ch == '?' && k < n) {
                numbered += param(++k);
                continue;
            }
            numbered += ch;
        }
        where = numbered;
    }
    const std::string cols = gameColumnsOf("g.");
    const std::string lim = after ? param(n + 3) : std::string("?");
    auto st = db->prepare(
        ("SELECT " + cols +
         ", p1.name, p1.public_id, p2.name, p2.public_id FROM games g LEFT JOIN players p1 "
         "ON p1.id = g.player1 LEFT JOIN players p2 ON p2.id = g.player2" +
         where + " ORDER BY g.created DESC, g.id LIMIT " + lim)
            .c_str());
    for (int k = 0; k < n; ++k) st->bind(k + 1, params[static_cast<std::size_t>(k)]);
    if (after) {
        st->bind(n + 1, after->created);
        st->bind(n + 2, after->id);
        st->bind(n + 3, limit);
    } else {
        st->bind(n + 1, limit);
    }
    return readSummaries(*st);
}

Result<std::vector<GameSummary>> Store::correspondenceGames(std::int64_t player, int limit) {
    auto db = lease();
    // clock_increment -1: protocol::kCorrespondence.
    auto st = db->prepare(("SELECT " + gameColumnsOf("g.") +
                           ", p1.name, p1.public_id, p2.name, p2.public_id FROM games g LEFT JOIN "
                           "players p1 ON p1.id = g.player1 LEFT JOIN players p2 ON p2.id = "
                           "g.player2 WHERE g.status = 'playing' AND g.clock_increment = -1 AND "
                           "(g.player1 = ? OR g.player2 = ?) ORDER BY g.deadline, g.id LIMIT ?")
                              .c_str());
    st->bind(1, player);
    st->bind(2, player);
    st->bind(3, limit);
    return readSummaries(*st);
}

}  // namespace rainet::store

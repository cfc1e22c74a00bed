#include "store/store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <span>

#include "store/glicko2.h"

namespace rainet::store {

namespace {

// Small pages: every action is one row appended to `actions`, so a commit writes about one page
// to the WAL (the write volume, not the CPU, bounds the actions per second under load).
constexpr const char* kPragmas = R"sql(
PRAGMA page_size=1024;
PRAGMA journal_mode=WAL;
PRAGMA foreign_keys=ON;
)sql";

// The schema as a list of steps: step i takes a database from PRAGMA user_version i to i + 1, in
// one transaction. A new database runs them all; an existing one only the steps it lacks. Append
// a step for every schema change; never edit a step that has shipped.
constexpr const char* kMigrations[] = {
    // 1: players, games, setups, actions. Databases made before migrations existed hold exactly
    // these tables at user_version 0, hence IF NOT EXISTS.
    R"sql(
CREATE TABLE IF NOT EXISTS players (
  id INTEGER PRIMARY KEY,
  public_id TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'guest',
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000)
);
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  preset TEXT NOT NULL,
  clock_initial INTEGER NOT NULL,
  clock_increment INTEGER NOT NULL,
  opponent TEXT NOT NULL,
  level INTEGER NOT NULL,
  side_wish TEXT NOT NULL,
  creator INTEGER NOT NULL REFERENCES players(id),
  player1 INTEGER REFERENCES players(id),
  player2 INTEGER REFERENCES players(id),
  status TEXT NOT NULL,
  result TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  version INTEGER NOT NULL,
  clock1 INTEGER NOT NULL,
  clock2 INTEGER NOT NULL,
  created INTEGER NOT NULL,
  ended INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS games_player1 ON games(player1);
CREATE INDEX IF NOT EXISTS games_player2 ON games(player2);
CREATE TABLE IF NOT EXISTS setups (
  game TEXT NOT NULL REFERENCES games(id),
  side INTEGER NOT NULL,
  links INTEGER NOT NULL,
  PRIMARY KEY (game, side)
);
CREATE TABLE IF NOT EXISTS actions (
  game TEXT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  action TEXT NOT NULL,
  client_id TEXT NOT NULL,
  clock_after INTEGER NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (game, ply)
) WITHOUT ROWID;
)sql",
    // 2: accounts; several tokens per player (every guest token is carried over, so existing
    // browsers keep their identity; players.token_hash is no longer read); Glicko-2 ratings.
    R"sql(
CREATE TABLE tokens (
  hash TEXT PRIMARY KEY,
  player INTEGER NOT NULL REFERENCES players(id),
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000)
) WITHOUT ROWID;
CREATE INDEX tokens_player ON tokens(player);
INSERT INTO tokens (hash, player, created) SELECT token_hash, id, created FROM players;
CREATE TABLE accounts (
  player INTEGER PRIMARY KEY REFERENCES players(id),
  username TEXT NOT NULL,
  username_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000)
);
ALTER TABLE players ADD COLUMN rating REAL NOT NULL DEFAULT 1500;
ALTER TABLE players ADD COLUMN rating_rd REAL NOT NULL DEFAULT 350;
ALTER TABLE players ADD COLUMN rating_volatility REAL NOT NULL DEFAULT 0.06;
ALTER TABLE players ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0;
CREATE INDEX players_rated ON players(rating DESC) WHERE rated_games > 0;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_ratings (
  game TEXT NOT NULL REFERENCES games(id),
  side INTEGER NOT NULL,
  player INTEGER NOT NULL REFERENCES players(id),
  before REAL NOT NULL,
  after REAL NOT NULL,
  rd_before REAL NOT NULL,
  rd_after REAL NOT NULL,
  PRIMARY KEY (game, side)
) WITHOUT ROWID;
)sql",
};
constexpr int kSchemaVersion = static_cast<int>(std::size(kMigrations));

constexpr const char* kPlayerColumns =
    "p.id, p.public_id, p.name, p.kind, p.rating, p.rating_rd, p.rating_volatility, "
    "p.rated_games";

constexpr const char* kGameColumns =
    "id, preset, clock_initial, clock_increment, opponent, level, side_wish, creator, player1, "
    "player2, status, result, reason, version, clock1, clock2, created, ended, rated";

std::string text(sqlite3_stmt* st, int col) {
    const unsigned char* t = sqlite3_column_text(st, col);
    return t ? reinterpret_cast<const char*>(t) : "";
}

// One players row in kPlayerColumns order, from column `at`.
PlayerRow readPlayerRow(sqlite3_stmt* st, int at = 0) {
    PlayerRow p;
    p.id = sqlite3_column_int64(st, at);
    p.publicId = text(st, at + 1);
    p.name = text(st, at + 2);
    p.kind = text(st, at + 3);
    p.rating = sqlite3_column_double(st, at + 4);
    p.rd = sqlite3_column_double(st, at + 5);
    p.volatility = sqlite3_column_double(st, at + 6);
    p.ratedGames = sqlite3_column_int(st, at + 7);
    return p;
}

// Usernames are unique whatever their case (they are ASCII letters, digits, '_' and '-').
std::string usernameKey(const std::string& username) {
    std::string k = username;
    for (char& c : k)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return k;
}

// A prepared statement: prepared for this use and finalized after it, or, for the hot writes,
// prepared once, kept in the store's cache (keyed by the SQL literal) and reset after each use.
class Stmt {
  public:
    Stmt(sqlite3* db, const char* sql, Store::StatementCache* cache = nullptr) : cached_(cache) {
        if (cache) {
            auto it = cache->find(sql);
            if (it != cache->end()) {
                st_ = it->second;
                return;
            }
        }
        if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK) {
            sqlite3_finalize(st_);
            st_ = nullptr;
            cached_ = nullptr;
            return;
        }
        if (cache) (*cache)[sql] = st_;
    }
    ~Stmt() {
        if (!cached_) {
            sqlite3_finalize(st_);
        } else {
            sqlite3_reset(st_);
            sqlite3_clear_bindings(st_);
        }
    }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    sqlite3_stmt* get() const { return st_; }
    explicit operator bool() const { return st_ != nullptr; }
    void bind(int i, std::int64_t v) { sqlite3_bind_int64(st_, i, v); }
    void bindReal(int i, double v) { sqlite3_bind_double(st_, i, v); }
    void bind(int i, const std::string& v) {
        sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    void bindPlayer(int i, std::int64_t v) {
        if (v)
            bind(i, v);
        else
            sqlite3_bind_null(st_, i);
    }
    int step() { return st_ ? sqlite3_step(st_) : SQLITE_ERROR; }

  private:
    sqlite3_stmt* st_ = nullptr;
    Store::StatementCache* cached_;
};

}  // namespace

Result<std::unique_ptr<Store>> Store::open(const std::string& path, const std::string& sync) {
    if (sync != "off" && sync != "normal" && sync != "full")
        return Error{"store: synchronous must be off, normal or full"};
    std::unique_ptr<Store> s(new Store());
    if (sqlite3_open_v2(path.c_str(), &s->db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK)
        return Error{"store: cannot open " + path + ": " + sqlite3_errmsg(s->db_)};
    sqlite3_busy_timeout(s->db_, 5000);
    if (auto e = s->exec(kPragmas)) return *e;
    if (auto e = s->migrate()) return *e;
    if (auto e = s->exec(("PRAGMA synchronous=" + sync).c_str())) return *e;
    if (auto e = s->exec("PRAGMA wal_autocheckpoint=0")) return *e;
    s->checkpointer_ = std::thread(&Store::checkpointLoop, s.get(), path);
    return s;
}

Store::~Store() {
    if (checkpointer_.joinable()) {
        {
            std::lock_guard lock(stopMu_);
            stopping_ = true;
        }
        stopCv_.notify_all();
        checkpointer_.join();
    }
    for (auto& [sql, st] : cache_) sqlite3_finalize(st);
    sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    sqlite3_close_v2(db_);
}

std::optional<Error> Store::run(const char* sql) {
    Stmt st(db_, sql, &cache_);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return std::nullopt;
}

void Store::checkpointLoop(std::string path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close_v2(db);
        return;
    }
    sqlite3_busy_timeout(db, 1000);
    std::unique_lock lock(stopMu_);
    while (!stopCv_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_; })) {
        lock.unlock();
        sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        lock.lock();
    }
    sqlite3_close_v2(db);
}

std::optional<Error> Store::exec(const char* sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
        Error e{std::string("store: ") + (msg ? msg : "error")};
        sqlite3_free(msg);
        return e;
    }
    return std::nullopt;
}

int Store::schemaVersion() {
    return kSchemaVersion;
}

std::optional<Error> Store::migrate() {
    int version = 0;
    {
        Stmt st(db_, "PRAGMA user_version");
        if (st.step() == SQLITE_ROW) version = sqlite3_column_int(st.get(), 0);
    }
    if (version > kSchemaVersion)
        return Error{"store: the database has schema version " + std::to_string(version) +
                     ", newer than this build's " + std::to_string(kSchemaVersion)};
    for (; version < kSchemaVersion; ++version) {
        if (auto e = exec("BEGIN IMMEDIATE")) return e;
        std::optional<Error> e = exec(kMigrations[version]);
        if (!e) e = exec(("PRAGMA user_version=" + std::to_string(version + 1)).c_str());
        if (e) {
            exec("ROLLBACK");
            return Error{"store: migration to schema version " + std::to_string(version + 1) +
                         " failed: " + e->message};
        }
        if (auto e2 = exec("COMMIT")) return e2;
    }
    return std::nullopt;
}

std::optional<PlayerRow> Store::readPlayer(const char* where, const std::string& key,
                                           std::int64_t id) {
    Stmt st(db_, (std::string("SELECT ") + kPlayerColumns + " FROM players p " + where).c_str());
    if (key.empty())
        st.bind(1, id);
    else
        st.bind(1, key);
    if (st.step() != SQLITE_ROW) return std::nullopt;
    return readPlayerRow(st.get());
}

std::optional<PlayerRow> Store::playerByTokenHash(const std::string& hash) {
    std::lock_guard lock(mu_);
    return readPlayer("JOIN tokens t ON t.player = p.id WHERE t.hash = ?", hash, 0);
}

std::optional<PlayerRow> Store::playerById(std::int64_t id) {
    std::lock_guard lock(mu_);
    return readPlayer("WHERE p.id = ?", {}, id);
}

std::optional<PlayerRow> Store::playerByPublicId(const std::string& publicId) {
    std::lock_guard lock(mu_);
    if (publicId.empty()) return std::nullopt;
    return readPlayer("WHERE p.public_id = ?", publicId, 0);
}

std::optional<Error> Store::insertToken(std::int64_t player, const std::string& tokenHash) {
    Stmt st(db_, "INSERT INTO tokens (hash, player) VALUES (?, ?)");
    st.bind(1, tokenHash);
    st.bind(2, player);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return std::nullopt;
}

Result<PlayerRow> Store::createPlayer(const std::string& publicId, const std::string& tokenHash,
                                      const std::string& name) {
    std::lock_guard lock(mu_);
    if (auto e = run("BEGIN")) return *e;
    // players.token_hash (schema 1) is NOT NULL UNIQUE: it gets the first token, unread since.
    Stmt st(db_, "INSERT INTO players (public_id, token_hash, name) VALUES (?, ?, ?)");
    st.bind(1, publicId);
    st.bind(2, tokenHash);
    st.bind(3, name);
    std::optional<Error> e;
    if (st.step() != SQLITE_DONE) e = Error{std::string("store: ") + sqlite3_errmsg(db_)};
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    if (!e) e = insertToken(id, tokenHash);
    if (e) {
        run("ROLLBACK");
        return *e;
    }
    if (auto c = run("COMMIT")) return *c;
    PlayerRow p;
    p.id = id;
    p.publicId = publicId;
    p.name = name;
    return p;
}

std::optional<Error> Store::addToken(std::int64_t player, const std::string& tokenHash) {
    std::lock_guard lock(mu_);
    return insertToken(player, tokenHash);
}

std::optional<Error> Store::revokeToken(const std::string& tokenHash) {
    std::lock_guard lock(mu_);
    Stmt st(db_, "DELETE FROM tokens WHERE hash = ?");
    st.bind(1, tokenHash);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return std::nullopt;
}

Result<Registration> Store::registerAccount(std::int64_t player, const std::string& username,
                                            const std::string& passwordHash) {
    std::lock_guard lock(mu_);
    if (auto e = run("BEGIN IMMEDIATE")) return *e;
    auto finish = [&](std::optional<Error> e, Registration r) -> Result<Registration> {
        if (e || r != Registration::Registered) {
            run("ROLLBACK");
            if (e) return *e;
            return r;
        }
        if (auto c = run("COMMIT")) return *c;
        return r;
    };
    {
        Stmt st(db_, "SELECT 1 FROM accounts WHERE player = ?");
        st.bind(1, player);
        if (st.step() == SQLITE_ROW) return finish(std::nullopt, Registration::AlreadyRegistered);
    }
    {
        Stmt st(db_, "SELECT 1 FROM accounts WHERE username_key = ?");
        st.bind(1, usernameKey(username));
        if (st.step() == SQLITE_ROW) return finish(std::nullopt, Registration::UsernameTaken);
    }
    Stmt ins(db_,
             "INSERT INTO accounts (player, username, username_key, password_hash) VALUES (?, ?, "
             "?, ?)");
    ins.bind(1, player);
    ins.bind(2, username);
    ins.bind(3, usernameKey(username));
    ins.bind(4, passwordHash);
    if (ins.step() != SQLITE_DONE)
        return finish(Error{std::string("store: ") + sqlite3_errmsg(db_)}, {});
    Stmt up(db_, "UPDATE players SET kind = 'account', name = ? WHERE id = ?");
    up.bind(1, username);
    up.bind(2, player);
    if (up.step() != SQLITE_DONE || sqlite3_changes(db_) != 1)
        return finish(Error{std::string("store: no player ") + std::to_string(player)}, {});
    return finish(std::nullopt, Registration::Registered);
}

std::optional<AccountRow> Store::accountByUsername(const std::string& username) {
    std::lock_guard lock(mu_);
    Stmt st(db_, "SELECT player, username, password_hash FROM accounts WHERE username_key = ?");
    st.bind(1, usernameKey(username));
    if (st.step() != SQLITE_ROW) return std::nullopt;
    return AccountRow{sqlite3_column_int64(st.get(), 0), text(st.get(), 1), text(st.get(), 2)};
}

std::optional<PlayerStats> Store::playerStats(const std::string& publicId) {
    std::lock_guard lock(mu_);
    auto p = readPlayer("WHERE p.public_id = ?", publicId, 0);
    if (!p) return std::nullopt;
    PlayerStats s;
    s.player = *p;
    Stmt st(db_,
            "SELECT COUNT(*), "
            "SUM((player1 = ?1 AND result = '1-0') OR (player2 = ?1 AND result = '0-1')), "
            "SUM(result = '1/2-1/2'), "
            "SUM((player1 = ?1 AND result = '0-1') OR (player2 = ?1 AND result = '1-0')) "
            "FROM games WHERE status = 'finished' AND (player1 = ?1 OR player2 = ?1)");
    st.bind(1, p->id);
    if (st.step() == SQLITE_ROW) {
        s.games = sqlite3_column_int64(st.get(), 0);
        s.wins = sqlite3_column_int64(st.get(), 1);
        s.draws = sqlite3_column_int64(st.get(), 2);
        s.losses = sqlite3_column_int64(st.get(), 3);
    }
    return s;
}

std::vector<PlayerRow> Store::leaderboard(int page, int perPage, std::int64_t* total) {
    std::lock_guard lock(mu_);
    {
        Stmt c(db_, "SELECT COUNT(*) FROM players WHERE rated_games > 0");
        *total = c.step() == SQLITE_ROW ? sqlite3_column_int64(c.get(), 0) : 0;
    }
    Stmt st(db_, (std::string("SELECT ") + kPlayerColumns +
                  " FROM players p WHERE p.rated_games > 0 ORDER BY p.rating DESC, "
                  "p.rated_games DESC, p.id LIMIT ? OFFSET ?")
                     .c_str());
    st.bind(1, static_cast<std::int64_t>(perPage));
    st.bind(2, static_cast<std::int64_t>(page - 1) * perPage);
    std::vector<PlayerRow> out;
    while (st.step() == SQLITE_ROW) out.push_back(readPlayerRow(st.get()));
    return out;
}

std::optional<Error> Store::renamePlayer(std::int64_t id, const std::string& name) {
    std::lock_guard lock(mu_);
    Stmt st(db_, "UPDATE players SET name = ? WHERE id = ?");
    st.bind(1, name);
    st.bind(2, id);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return std::nullopt;
}

std::optional<Error> Store::writeGame(const GameRow& g, bool insert) {
    static const std::string kInsert = std::string("INSERT INTO games (") + kGameColumns +
                                       ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    static constexpr const char* kUpdate =
        "UPDATE games SET player1 = ?2, player2 = ?3, status = ?4, result = ?5, reason = ?6, "
        "version = ?7, clock1 = ?8, clock2 = ?9, ended = ?10 WHERE id = ?1";
    if (insert) {
        Stmt st(db_, kInsert.c_str());
        st.bind(1, g.id);
        st.bind(2, g.preset);
        st.bind(3, g.clockInitial);
        st.bind(4, g.clockIncrement);
        st.bind(5, g.opponent);
        st.bind(6, g.level);
        st.bind(7, g.sideWish);
        st.bind(8, g.creator);
        st.bindPlayer(9, g.player[0]);
        st.bindPlayer(10, g.player[1]);
        st.bind(11, g.status);
        st.bind(12, g.result);
        st.bind(13, g.reason);
        st.bind(14, g.version);
        st.bind(15, g.clock[0]);
        st.bind(16, g.clock[1]);
        st.bind(17, g.created);
        st.bind(18, g.ended);
        st.bind(19, static_cast<std::int64_t>(g.rated));
        if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
        return std::nullopt;
    }
    Stmt st(db_, kUpdate, &cache_);
    st.bind(1, g.id);
    st.bindPlayer(2, g.player[0]);
    st.bindPlayer(3, g.player[1]);
    st.bind(4, g.status);
    st.bind(5, g.result);
    st.bind(6, g.reason);
    st.bind(7, g.version);
    st.bind(8, g.clock[0]);
    st.bind(9, g.clock[1]);
    st.bind(10, g.ended);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return std::nullopt;
}

std::optional<Error> Store::insertGame(const GameRow& g) {
    std::lock_guard lock(mu_);
    return writeGame(g, true);
}

std::optional<Error> Store::updateGame(const GameRow& g) {
    std::lock_guard lock(mu_);
    return writeGame(g, false);
}

Result<std::vector<RatingChange>> Store::rate(const GameRow& g) {
    std::vector<RatingChange> changes;
    if (!g.rated || g.status != "finished" || g.result.empty() || !g.player[0] || !g.player[1] ||
        g.player[0] == g.player[1])
        return changes;
    // Both ratings are read inside the transaction that writes them: two games of one player
    // ending at once are rated one after the other.
    glicko2::Rating before[2];
    for (int i = 0; i < 2; ++i) {
        auto p = readPlayer("WHERE p.id = ?", {}, g.player[i]);
        if (!p) return Error{"store: no player " + std::to_string(g.player[i])};
        before[i] = {p->rating, p->rd, p->volatility};
    }
    const double score1 = g.result == "1-0" ? 1 : g.result == "0-1" ? 0 : 0.5;
    for (int i = 0; i < 2; ++i) {
        const glicko2::Game game{before[1 - i], i == 0 ? score1 : 1 - score1};
        const glicko2::Rating after = glicko2::update(before[i], std::span(&game, 1));
        Stmt up(db_,
                "UPDATE players SET rating = ?, rating_rd = ?, rating_volatility = ?, "
                "rated_games = rated_games + 1 WHERE id = ?");
        up.bindReal(1, after.rating);
        up.bindReal(2, after.rd);
        up.bindReal(3, after.volatility);
        up.bind(4, g.player[i]);
        if (up.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
        Stmt ins(db_,
                 "INSERT INTO game_ratings (game, side, player, before, after, rd_before, "
                 "rd_after) VALUES (?, ?, ?, ?, ?, ?, ?)");
        ins.bind(1, g.id);
        ins.bind(2, static_cast<std::int64_t>(i + 1));
        ins.bind(3, g.player[i]);
        ins.bindReal(4, before[i].rating);
        ins.bindReal(5, after.rating);
        ins.bindReal(6, before[i].rd);
        ins.bindReal(7, after.rd);
        if (ins.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
        changes.push_back({g.player[i], before[i].rating, after.rating, before[i].rd, after.rd});
    }
    return changes;
}

Result<std::vector<RatingChange>> Store::finishGame(const GameRow& g) {
    std::lock_guard lock(mu_);
    if (auto e = run("BEGIN IMMEDIATE")) return *e;
    auto e = writeGame(g, false);
    Result<std::vector<RatingChange>> changes = std::vector<RatingChange>{};
    if (!e) {
        changes = rate(g);
        if (!changes) e = changes.error();
    }
    if (!e) e = run("COMMIT");
    if (e) {
        run("ROLLBACK");
        return *e;
    }
    return changes;
}

std::optional<Error> Store::saveSetup(const GameRow& g, int side, int links) {
    std::lock_guard lock(mu_);
    if (auto e = run("BEGIN")) return e;
    Stmt st(db_, "INSERT INTO setups (game, side, links) VALUES (?, ?, ?)");
    st.bind(1, g.id);
    st.bind(2, side);
    st.bind(3, links);
    std::optional<Error> e;
    if (st.step() != SQLITE_DONE) e = Error{std::string("store: ") + sqlite3_errmsg(db_)};
    if (!e) e = writeGame(g, false);
    if (e) {
        run("ROLLBACK");
        return e;
    }
    return run("COMMIT");
}

std::optional<Error> Store::saveAction(const GameRow& g, const ActionRow& a) {
    std::lock_guard lock(mu_);
    Stmt st(db_,
            "INSERT INTO actions (game, ply, action, client_id, clock_after, version) VALUES (?, "
            "?, ?, ?, ?, ?)",
            &cache_);
    st.bind(1, g.id);
    st.bind(2, a.ply);
    st.bind(3, a.action);
    st.bind(4, a.clientId);
    st.bind(5, a.clockAfter);
    st.bind(6, a.version);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return std::nullopt;
}

namespace {
// One games row in kGameColumns order (columns 0-18), shared by loading and listing.
GameRow readGameRow(sqlite3_stmt* st) {
    GameRow g;
    g.id = text(st, 0);
    g.preset = text(st, 1);
    g.clockInitial = sqlite3_column_int(st, 2);
    g.clockIncrement = sqlite3_column_int(st, 3);
    g.opponent = text(st, 4);
    g.level = sqlite3_column_int(st, 5);
    g.sideWish = text(st, 6);
    g.creator = sqlite3_column_int64(st, 7);
    g.player[0] = sqlite3_column_int64(st, 8);
    g.player[1] = sqlite3_column_int64(st, 9);
    g.status = text(st, 10);
    g.result = text(st, 11);
    g.reason = text(st, 12);
    g.version = sqlite3_column_int64(st, 13);
    g.clock[0] = sqlite3_column_int64(st, 14);
    g.clock[1] = sqlite3_column_int64(st, 15);
    g.created = sqlite3_column_int64(st, 16);
    g.ended = sqlite3_column_int64(st, 17);
    g.rated = sqlite3_column_int(st, 18) != 0;
    return g;
}
}  // namespace

GameData Store::readGame(sqlite3_stmt* st) {
    GameData d;
    d.game = readGameRow(st);
    GameRow& g = d.game;
    Stmt su(db_, "SELECT side, links FROM setups WHERE game = ?");
    su.bind(1, g.id);
    while (su.step() == SQLITE_ROW) {
        const int side = sqlite3_column_int(su.get(), 0);
        if (side == 1 || side == 2) d.setup[side - 1] = sqlite3_column_int(su.get(), 1);
    }
    Stmt sa(db_,
            "SELECT ply, action, client_id, clock_after, version FROM actions WHERE game = ? "
            "ORDER BY ply");
    sa.bind(1, g.id);
    while (sa.step() == SQLITE_ROW) {
        ActionRow a{sqlite3_column_int(sa.get(), 0), text(sa.get(), 1), text(sa.get(), 2),
                    sqlite3_column_int64(sa.get(), 3), sqlite3_column_int64(sa.get(), 4)};
        // The games row is not rewritten for each action: its clocks and version come from here.
        g.clock[a.ply % 2] = a.clockAfter;
        g.version = std::max(g.version, a.version);
        d.actions.push_back(std::move(a));
    }
    if (g.rated && g.status == "finished") {
        Stmt sr(db_,
                "SELECT side, player, before, after, rd_before, rd_after FROM game_ratings WHERE "
                "game = ? ORDER BY side");
        sr.bind(1, g.id);
        while (sr.step() == SQLITE_ROW)
            d.ratings.push_back(
                {sqlite3_column_int64(sr.get(), 1), sqlite3_column_double(sr.get(), 2),
                 sqlite3_column_double(sr.get(), 3), sqlite3_column_double(sr.get(), 4),
                 sqlite3_column_double(sr.get(), 5)});
        if (d.ratings.size() != 2) d.ratings.clear();
    }
    return d;
}

std::optional<GameData> Store::loadGame(const std::string& id) {
    std::lock_guard lock(mu_);
    Stmt st(db_, (std::string("SELECT ") + kGameColumns + " FROM games WHERE id = ?").c_str());
    st.bind(1, id);
    if (st.step() != SQLITE_ROW) return std::nullopt;
    return readGame(st.get());
}

std::vector<GameData> Store::loadUnfinished() {
    std::lock_guard lock(mu_);
    std::vector<GameData> out;
    Stmt st(db_, (std::string("SELECT ") + kGameColumns +
                  " FROM games WHERE status IN ('open','setup','playing') ORDER BY created")
                     .c_str());
    while (st.step() == SQLITE_ROW) out.push_back(readGame(st.get()));
    return out;
}

std::vector<GameSummary> Store::listGames(const std::string& playerPublicId,
                                          const std::string& status, int page, int perPage,
                                          std::int64_t* total) {
    std::lock_guard lock(mu_);
    std::string where = " WHERE 1=1";
    if (!playerPublicId.empty())
        where +=
            " AND (g.player1 = (SELECT id FROM players WHERE public_id = ?1) OR g.player2 = "
            "(SELECT id FROM players WHERE public_id = ?1))";
    if (status == "active")
        where += " AND g.status IN ('open','setup','playing')";
    else if (!status.empty())
        where += " AND g.status = ?2";
    auto bindFilters = [&](Stmt& s) {
        if (!playerPublicId.empty()) s.bind(1, playerPublicId);
        if (!status.empty() && status != "active") s.bind(2, status);
    };
    {
        Stmt c(db_, ("SELECT COUNT(*) FROM games g" + where).c_str());
        bindFilters(c);
        *total = c.step() == SQLITE_ROW ? sqlite3_column_int64(c.get(), 0) : 0;
    }
    std::string cols;
    for (const char* p = kGameColumns; *p; ++p) {
        if (p == kGameColumns || p[-1] == ' ') cols += "g.";
        cols += *p;
    }
    Stmt st(db_,
            ("SELECT " + cols +
             ", p1.name, p1.public_id, p2.name, p2.public_id FROM games g LEFT JOIN players p1 "
             "ON p1.id = g.player1 LEFT JOIN players p2 ON p2.id = g.player2" +
             where + " ORDER BY g.created DESC, g.id LIMIT ?3 OFFSET ?4")
                .c_str());
    bindFilters(st);
    st.bind(3, perPage);
    st.bind(4, static_cast<std::int64_t>(page - 1) * perPage);
    std::vector<GameSummary> out;
    while (st.step() == SQLITE_ROW) {
        GameSummary s;
        sqlite3_stmt* r = st.get();
        s.game = readGameRow(r);
        s.names[0] = text(r, 19);
        s.publicIds[0] = text(r, 20);
        s.names[1] = text(r, 21);
        s.publicIds[1] = text(r, 22);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace rainet::store

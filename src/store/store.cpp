#include "store/store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>

namespace rainet::store {

namespace {

// Small pages: every action is one row appended to `actions`, so a commit writes about one page
// to the WAL (the write volume, not the CPU, bounds the actions per second under load).
constexpr const char* kSchema = R"sql(
PRAGMA page_size=1024;
PRAGMA journal_mode=WAL;
PRAGMA foreign_keys=ON;
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
)sql";

constexpr const char* kGameColumns =
    "id, preset, clock_initial, clock_increment, opponent, level, side_wish, creator, player1, "
    "player2, status, result, reason, version, clock1, clock2, created, ended";

std::string text(sqlite3_stmt* st, int col) {
    const unsigned char* t = sqlite3_column_text(st, col);
    return t ? reinterpret_cast<const char*>(t) : "";
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
    if (auto e = s->exec(kSchema)) return *e;
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

std::optional<PlayerRow> Store::playerByTokenHash(const std::string& hash) {
    std::lock_guard lock(mu_);
    Stmt st(db_, "SELECT id, public_id, name, kind FROM players WHERE token_hash = ?");
    st.bind(1, hash);
    if (st.step() != SQLITE_ROW) return std::nullopt;
    return PlayerRow{sqlite3_column_int64(st.get(), 0), text(st.get(), 1), text(st.get(), 2),
                     text(st.get(), 3)};
}

std::optional<PlayerRow> Store::playerById(std::int64_t id) {
    std::lock_guard lock(mu_);
    Stmt st(db_, "SELECT id, public_id, name, kind FROM players WHERE id = ?");
    st.bind(1, id);
    if (st.step() != SQLITE_ROW) return std::nullopt;
    return PlayerRow{sqlite3_column_int64(st.get(), 0), text(st.get(), 1), text(st.get(), 2),
                     text(st.get(), 3)};
}

Result<PlayerRow> Store::createPlayer(const std::string& publicId, const std::string& tokenHash,
                                      const std::string& name) {
    std::lock_guard lock(mu_);
    Stmt st(db_, "INSERT INTO players (public_id, token_hash, name) VALUES (?, ?, ?)");
    st.bind(1, publicId);
    st.bind(2, tokenHash);
    st.bind(3, name);
    if (st.step() != SQLITE_DONE) return Error{std::string("store: ") + sqlite3_errmsg(db_)};
    return PlayerRow{sqlite3_last_insert_rowid(db_), publicId, name, "guest"};
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
                                       ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
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
// One games row in kGameColumns order (columns 0-17), shared by loading and listing.
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
        s.names[0] = text(r, 18);
        s.publicIds[0] = text(r, 19);
        s.names[1] = text(r, 20);
        s.publicIds[1] = text(r, 21);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace rainet::store

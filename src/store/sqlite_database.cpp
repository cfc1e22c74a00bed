#include "store/sqlite_database.h"

#include <sqlite3.h>

#include <chrono>

#include "store/joined_wal_writes.h"

namespace rainet::store {

namespace {

// Small pages: every action is one row appended to `actions`, so a commit writes about one page
// to the WAL (the write volume, not the CPU, bounds the actions per second under load).
constexpr const char* kPragmas = R"sql(
PRAGMA page_size=1024;
PRAGMA journal_mode=WAL;
PRAGMA foreign_keys=ON;
)sql";

// The WAL's bound on disk, in frames (pages of 1 KiB plus a header): about 16 MiB.
constexpr int kWalTruncateFrames = 16 * 1024;

std::optional<Error> runCached(Database& db, const char* sql) {
    auto st = db.prepare(sql, true);
    if (st->step() != Step::Done) return Error{st->error()};
    return std::nullopt;
}

// A prepared statement: finalized after its use, or, when it comes from the connection's cache,
// reset for the next one.
class SqliteStatement final : public Statement {
  public:
    SqliteStatement(sqlite3* db, sqlite3_stmt* st, bool cached)
        : db_(db), st_(st), cached_(cached) {}
    ~SqliteStatement() override {
        if (!cached_) {
            sqlite3_finalize(st_);
        } else {
            sqlite3_reset(st_);
            sqlite3_clear_bindings(st_);
        }
    }
    void bind(int i, std::int64_t v) override { sqlite3_bind_int64(st_, i, v); }
    void bindReal(int i, double v) override { sqlite3_bind_double(st_, i, v); }
    void bind(int i, const std::string& v) override {
        sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    void bindNull(int i) override { sqlite3_bind_null(st_, i); }
    Step step() override {
        if (!st_) return Step::Failed;
        const int rc = sqlite3_step(st_);
        return rc == SQLITE_ROW ? Step::Row : rc == SQLITE_DONE ? Step::Done : Step::Failed;
    }
    std::int64_t integer(int col) const override { return sqlite3_column_int64(st_, col); }
    double real(int col) const override { return sqlite3_column_double(st_, col); }
    std::string text(int col) const override {
        const unsigned char* t = sqlite3_column_text(st_, col);
        return t ? reinterpret_cast<const char*>(t) : "";
    }
    std::string error() const override { return std::string("store: ") + sqlite3_errmsg(db_); }

  private:
    sqlite3* db_;
    sqlite3_stmt* st_;
    bool cached_;
};

}  // namespace

Result<std::unique_ptr<Database>> SqliteDatabase::open(const std::string& path,
                                                       const std::string& sync) {
    if (sync != "off" && sync != "normal" && sync != "full")
        return Error{"store: synchronous must be off, normal or full"};
    std::unique_ptr<SqliteDatabase> s(new SqliteDatabase());
    // The writing connection's WAL writes are joined (store/joined_wal_writes.h); the readers and
    // the checkpointer write no frames.
    if (sqlite3_open_v2(path.c_str(), &s->db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        joinedWalVfs()) != SQLITE_OK)
        return Error{"store: cannot open " + path + ": " + sqlite3_errmsg(s->db_)};
    sqlite3_busy_timeout(s->db_, 5000);
    // Switching a new file to WAL answers SQLITE_BUSY at once, without the busy handler, while
    // another connection opens the same file (two servers started together): retried the way
    // the busy timeout would.
    for (int tries = 0;; ++tries) {
        auto e = s->exec(kPragmas);
        if (!e) break;
        if (tries == 500 || sqlite3_errcode(s->db_) != SQLITE_BUSY) return *e;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (auto e = s->exec(("PRAGMA synchronous=" + sync).c_str())) return *e;
    if (auto e = s->exec("PRAGMA wal_autocheckpoint=0")) return *e;
    s->checkpointer_ = std::thread(&SqliteDatabase::checkpointLoop, s.get(), path);
    return std::unique_ptr<Database>(std::move(s));
}

Result<std::unique_ptr<Database>> SqliteDatabase::openReader(const std::string& path) {
    std::unique_ptr<SqliteDatabase> s(new SqliteDatabase());
    s->reader_ = true;
    if (sqlite3_open_v2(path.c_str(), &s->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK)
        return Error{"store: cannot open " + path + ": " + sqlite3_errmsg(s->db_)};
    sqlite3_busy_timeout(s->db_, 5000);
    if (auto e = s->exec("PRAGMA query_only=1; PRAGMA foreign_keys=ON;")) return *e;
    return std::unique_ptr<Database>(std::move(s));
}

std::optional<Error> SqliteDatabase::beginRead() {
    if (!reader_) return std::nullopt;
    return runCached(*this, "BEGIN");
}

void SqliteDatabase::endRead() {
    if (reader_) runCached(*this, "COMMIT");
}

SqliteDatabase::~SqliteDatabase() {
    if (checkpointer_.joinable()) {
        {
            std::lock_guard lock(stopMu_);
            stopping_ = true;
        }
        stopCv_.notify_all();
        checkpointer_.join();
    }
    for (auto& [sql, st] : cache_) sqlite3_finalize(st);
    if (!reader_)
        sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    sqlite3_close_v2(db_);
}

void SqliteDatabase::checkpointLoop(std::string path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close_v2(db);
        return;
    }
    sqlite3_busy_timeout(db, 1000);
    // A connection finds the WAL only when it first reads the database; until then
    // sqlite3_wal_checkpoint_v2 does nothing (and the WAL grew without end).
    sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", nullptr, nullptr, nullptr);
    std::unique_lock lock(stopMu_);
    while (!stopCv_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_; })) {
        lock.unlock();
        int walFrames = 0;
        sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &walFrames, nullptr);
        // A passive checkpoint never shrinks the WAL file, and under steady writes, or while a
        // slow read holds an old snapshot, it rarely finds the moment to start it over: the
        // file kept its high-water mark (a soak reached ~1 GiB of WAL for a 147 MiB database).
        // Past kWalTruncateFrames, truncate it: that waits for the readers (at most the busy
        // timeout) and holds the writer only while the last frames are copied.
        if (walFrames > kWalTruncateFrames)
            sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
        lock.lock();
    }
    sqlite3_close_v2(db);
}

std::unique_ptr<Statement> SqliteDatabase::prepare(const char* sql, bool cached) {
    if (cached) {
        auto it = cache_.find(sql);
        if (it != cache_.end()) return std::make_unique<SqliteStatement>(db_, it->second, true);
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK) {
        sqlite3_finalize(st);
        return std::make_unique<SqliteStatement>(db_, nullptr, false);
    }
    if (cached) cache_[sql] = st;
    return std::make_unique<SqliteStatement>(db_, st, cached);
}

std::optional<Error> SqliteDatabase::exec(const char* sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
        Error e{std::string("store: ") + (msg ? msg : "error")};
        sqlite3_free(msg);
        return e;
    }
    return std::nullopt;
}

std::optional<Error> SqliteDatabase::begin() {
    return runCached(*this, "BEGIN IMMEDIATE");
}

std::optional<Error> SqliteDatabase::commit() {
    return runCached(*this, "COMMIT");
}

void SqliteDatabase::rollback() {
    runCached(*this, "ROLLBACK");
}

Result<int> SqliteDatabase::schemaVersion() {
    auto st = prepare("PRAGMA user_version", false);
    if (st->step() != Step::Row) return Error{st->error()};
    return static_cast<int>(st->integer(0));
}

std::optional<Error> SqliteDatabase::setSchemaVersion(int version) {
    return exec(("PRAGMA user_version=" + std::to_string(version)).c_str());
}

}  // namespace rainet::store

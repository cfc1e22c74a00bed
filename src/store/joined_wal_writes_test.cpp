#include "store/joined_wal_writes.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "support/sqlite_test_db.h"

namespace rainet::store {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t kWalHeader = 32;
constexpr std::uintmax_t kFrame = 24 + 1024;  // a frame header and a page of 1 KiB

sqlite3* openDb(const std::string& path, const char* vfs) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs),
              SQLITE_OK);
    return db;
}

void exec(sqlite3* db, const std::string& sql) {
    char* msg = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg), SQLITE_OK)
        << (msg ? msg : "") << " in " << sql;
}

std::int64_t count(sqlite3* db) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM t", -1, &st, nullptr);
    const std::int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

class JoinedWalWrites : public ::testing::Test {
  protected:
    void SetUp() override {
        path_ = test::freshDbPath("joined_wal");
        db_ = openDb(path_, joinedWalVfs());
        exec(db_,
             "PRAGMA page_size=1024; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; "
             "CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID");
    }
    void TearDown() override {
        sqlite3_close_v2(db_);
        test::removeDb(path_);
    }
    std::uintmax_t walSize() const { return fs::file_size(path_ + "-wal"); }

    std::string path_;
    sqlite3* db_ = nullptr;
};

// The point of the VFS: a commit of N frames is N writes to the OS, not 2N.
TEST_F(JoinedWalWrites, EachFramesHeaderGoesOutWithItsPage) {
    const std::uintmax_t walBefore = walSize();
    const JoinedWalCounts before = joinedWalCounts();
    exec(db_, "BEGIN");
    // Keys spread over the tree, as the actions of many games are: many pages in one commit.
    for (int i = 0; i < 400; ++i)
        exec(db_, "INSERT INTO t VALUES ('" + std::to_string(i * 7919 % 400) + "', '" +
                      std::string(40, 'x') + "')");
    exec(db_, "COMMIT");
    const JoinedWalCounts after = joinedWalCounts();
    const std::uintmax_t grown = walSize() - walBefore - (walBefore == 0 ? kWalHeader : 0);
    ASSERT_EQ(grown % kFrame, 0u);
    const std::uint64_t frames = grown / kFrame;
    ASSERT_GT(frames, 10u);
    EXPECT_EQ(after.osWrites - before.osWrites, frames);
    EXPECT_EQ(after.joined - before.joined, frames);
}

// Nothing is held once a commit returns: a copy of the files taken then (what a killed process
// leaves) has every committed row, read by the plain VFS.
TEST_F(JoinedWalWrites, EveryCommitIsOnDiskWhenItReturns) {
    const std::string copy = test::freshDbPath("joined_wal_copy");
    for (int i = 1; i <= 20; ++i) {
        exec(db_, "INSERT INTO t VALUES ('k" + std::to_string(i) + "', 'v')");
        test::removeDb(copy);
        fs::copy_file(path_, copy);
        fs::copy_file(path_ + "-wal", copy + "-wal");
        sqlite3* reader = openDb(copy, nullptr);
        EXPECT_EQ(count(reader), i);
        sqlite3_close_v2(reader);
    }
    test::removeDb(copy);
}

// A transaction larger than the page cache spills frames before its commit and later rewrites
// them in place, reading the WAL back: the reads see the held bytes, and another connection (the
// plain VFS) reads an intact database.
TEST_F(JoinedWalWrites, ASpilledTransactionRereadsItsOwnFrames) {
    exec(db_, "PRAGMA cache_size=8");
    sqlite3* reader = openDb(path_, nullptr);
    for (int round = 0; round < 3; ++round) {
        exec(db_, "BEGIN");
        for (int i = 0; i < 600; ++i)
            exec(db_, "INSERT OR REPLACE INTO t VALUES ('" + std::to_string(i * 104729 % 600) +
                          "', '" +
                          std::string(static_cast<std::size_t>(30 + round * 10),
                                      static_cast<char>('a' + round)) +
                          "')");
        exec(db_, "COMMIT");
        EXPECT_EQ(count(reader), 600);
    }
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(reader, "PRAGMA integrity_check", -1, &st, nullptr);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "ok");
    sqlite3_finalize(st);
    sqlite3_close_v2(reader);
}

}  // namespace
}  // namespace rainet::store

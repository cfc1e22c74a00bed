#include "store/joined_wal_writes.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

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

// PRAGMA integrity_check's first line ("ok" for an intact database).
std::string integrity(sqlite3* db) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr);
    std::string out = sqlite3_step(st) == SQLITE_ROW
                          ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0))
                          : "no answer";
    sqlite3_finalize(st);
    return out;
}

class JoinedWalWrites : public ::testing::Test {
  protected:
    void SetUp() override {
        path_ = test::freshDbPath("joined_wal");
        db_ = openDb(path_, joinedWalVfs());
        exec(db_,
             "PRAGMA page_size=1024; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; "
             "PRAGMA synchronous=NORMAL; "
             "CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID");
    }
    void TearDown() override {
        sqlite3_close_v2(db_);
        test::removeDb(path_);
    }
    std::uintmax_t walSize() const { return fs::file_size(path_ + "-wal"); }
    // One transaction of `n` rows: keys key(0) .. key(n-1), each value `size` times `fill`.
    template <class Key>
    void commitRows(int n, Key key, std::size_t size, char fill) {
        exec(db_, "BEGIN");
        for (int i = 0; i < n; ++i)
            exec(db_, "INSERT INTO t VALUES ('" + std::to_string(key(i)) + "', '" +
                          std::string(size, fill) + "')");
        exec(db_, "COMMIT");
    }

    std::string path_;
    sqlite3* db_ = nullptr;
};

// The point of the VFS: a commit of many frames (two writes each by SQLite) is one write to the
// OS.
TEST_F(JoinedWalWrites, ACommitIsOneWrite) {
    const std::uintmax_t walBefore = walSize();
    const JoinedWalCounts before = joinedWalCounts();
    // Keys spread over the tree, as the actions of many games are: many pages in one commit.
    commitRows(
        120, [](int i) { return i * 7919 % 120; }, 40, 'x');
    const JoinedWalCounts after = joinedWalCounts();
    const std::uintmax_t grown = walSize() - walBefore - (walBefore == 0 ? kWalHeader : 0);
    ASSERT_EQ(grown % kFrame, 0u);
    ASSERT_GT(grown / kFrame, 5u);
    ASSERT_LT(grown + kWalHeader, 64u * 1024);
    EXPECT_EQ(after.osWrites - before.osWrites, 1u);
    EXPECT_EQ(after.joined - before.joined, 1u);
}

// A commit larger than 64 KiB goes out in pieces no larger: the default VFS writes at most
// 128 KiB per call (a 222 KiB write lost its tail, and the database with it).
TEST_F(JoinedWalWrites, ALargeCommitGoesOutInPiecesTheDefaultVfsWritesWhole) {
    const std::uintmax_t walBefore = walSize();
    const JoinedWalCounts before = joinedWalCounts();
    commitRows(
        1500, [](int i) { return i * 7919 % 1500; }, 200, 'L');
    const std::uintmax_t grown = walSize() - walBefore;
    ASSERT_GT(grown, 256u * 1024);
    const std::uint64_t writes = joinedWalCounts().osWrites - before.osWrites;
    EXPECT_GE(writes, grown / (64 * 1024));
    EXPECT_LE(writes, grown / (64 * 1024 - kFrame) + 1);
    sqlite3* reader = openDb(path_, nullptr);
    EXPECT_EQ(count(reader), 1500);
    EXPECT_EQ(integrity(reader), "ok");
    sqlite3_close_v2(reader);
}

// What is gathered goes out before the commit is visible: a second connection (the plain VFS,
// its own file descriptors), reading right after each commit, sees every row, never a frame the
// index points to but the file lacks (that reads as a corrupt page, or a short count).
TEST_F(JoinedWalWrites, ACommitIsInTheFileBeforeOtherConnectionsSeeIt) {
    sqlite3* reader = openDb(path_, nullptr);
    for (int i = 1; i <= 50; ++i) {
        commitRows(
            20, [i](int k) { return k * 50 + i; }, 60, 'y');
        ASSERT_EQ(count(reader), i * 20);
    }
    sqlite3_close_v2(reader);
}

// The same with the reader on its own thread, reading while the writer commits: every count it
// sees is a whole number of commits, and no read fails (a frame the index points to before it is
// in the file reads as a corrupt page).
TEST_F(JoinedWalWrites, AReaderBesideTheWriterSeesWholeCommitsOnly) {
    std::atomic<bool> done{false};
    std::atomic<int> reads{0}, bad{0};
    std::thread reader([&] {
        sqlite3* r = openDb(path_, nullptr);
        sqlite3_busy_timeout(r, 5000);
        while (!done.load()) {
            const std::int64_t n = count(r);
            if (n < 0 || n % 20 != 0) ++bad;
            ++reads;
        }
        sqlite3_close_v2(r);
    });
    for (int i = 1; i <= 300; ++i) {
        commitRows(
            20, [i](int k) { return k * 1000 + i; }, 60, 'z');
    }
    done = true;
    reader.join();
    EXPECT_GT(reads.load(), 0);
    EXPECT_EQ(bad.load(), 0);
}

// With a checkpointer beside them, as the server runs one (sqlite_database.cpp): it copies
// committed frames into the database file, restarting the WAL from its start now and then; the
// database stays intact, with commits of ~100 KiB (more than one gathered write each).
TEST_F(JoinedWalWrites, ACheckpointerBesideTheWriterCopiesWholeFrames) {
    std::atomic<bool> done{false};
    std::thread checkpointer([&] {
        sqlite3* c = openDb(path_, nullptr);
        sqlite3_busy_timeout(c, 5000);
        while (!done.load()) {
            sqlite3_wal_checkpoint_v2(c, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        sqlite3_close_v2(c);
    });
    for (int i = 1; i <= 60; ++i) {
        commitRows(
            300, [i](int k) { return k * 1000 + i; }, 200, 'c');
    }
    done = true;
    checkpointer.join();
    sqlite3* reader = openDb(path_, nullptr);
    EXPECT_EQ(count(reader), 60 * 300);
    EXPECT_EQ(integrity(reader), "ok");
    sqlite3_close_v2(reader);
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
    EXPECT_EQ(integrity(reader), "ok");
    sqlite3_close_v2(reader);
}

}  // namespace
}  // namespace rainet::store

// Several nodes starting at the same moment on one empty database (a cluster): each migrates or
// waits for the one that does, and all of them open it without error.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>
#include <vector>

#include "store/store.h"
#include "support/postgres_test_db.h"
#include "support/sqlite_test_db.h"

namespace rainet::store {
namespace {

// Opens `target` from `n` threads released together; returns each one's error ("" if it opened).
std::vector<std::string> openTogether(const std::string& target, int n) {
    std::vector<std::string> errors(static_cast<size_t>(n));
    std::barrier start(n);
    std::vector<std::thread> nodes;
    for (int i = 0; i < n; ++i)
        nodes.emplace_back([&, i] {
            start.arrive_and_wait();
            auto s = Store::open(target);
            if (!s) errors[static_cast<size_t>(i)] = s.error().message;
        });
    for (auto& t : nodes) t.join();
    return errors;
}

TEST(ConcurrentOpen, NodesStartingTogetherOnAnEmptyPostgresMigrateItOnce) {
    if (!test::postgresTestUri()) GTEST_SKIP() << "RAINET_TEST_PG is not set";
    for (int round = 0; round < 5; ++round) {  // the race is narrow: several fresh databases
        test::PostgresTestDb db("concurrent_open");
        ASSERT_TRUE(db.error().empty()) << db.error();
        for (const std::string& e : openTogether(db.uri(), 3))
            EXPECT_EQ(e, "") << "round " << round;
        EXPECT_EQ(db.query("SELECT version FROM rainet_schema"),
                  std::to_string(Store::schemaVersion()));
        EXPECT_EQ(db.query("SELECT count(*) FROM rainet_schema"), "1");
    }
}

TEST(ConcurrentOpen, NodesStartingTogetherOnAnEmptySqliteFileMigrateItOnce) {
    for (int round = 0; round < 5; ++round) {
        const std::string path = test::freshDbPath("concurrent");
        for (const std::string& e : openTogether(path, 3)) EXPECT_EQ(e, "") << "round " << round;
        auto s = Store::open(path);
        ASSERT_TRUE(s) << s.error().message;
        s->reset();
        test::removeDb(path);
    }
}

}  // namespace
}  // namespace rainet::store

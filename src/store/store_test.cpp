#include "store/store.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rainet::store {
namespace {

class StoreTest : public ::testing::Test {
  protected:
    void SetUp() override {
        path_ = std::filesystem::temp_directory_path() /
                ("rainet_store_test_" + std::to_string(::getpid()) + ".db");
        std::filesystem::remove(path_);
        auto s = Store::open(path_.string());
        ASSERT_TRUE(s) << s.error().message;
        store_ = std::move(*s);
    }
    void TearDown() override {
        store_.reset();
        for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + ext);
    }
    std::filesystem::path path_;
    std::unique_ptr<Store> store_;
};

TEST_F(StoreTest, PlayersByTokenHash) {
    auto p = store_->createPlayer("pA", "hash-a", "alice");
    ASSERT_TRUE(p);
    EXPECT_FALSE(store_->createPlayer("pB", "hash-a", "bob"));  // token hashes are unique
    auto q = store_->playerByTokenHash("hash-a");
    ASSERT_TRUE(q);
    EXPECT_EQ(q->publicId, "pA");
    EXPECT_FALSE(store_->playerByTokenHash("hash-x"));
}

TEST_F(StoreTest, GameSetupsActionsRoundTripAndReopen) {
    auto p1 = store_->createPlayer("pA", "ha", "alice");
    auto p2 = store_->createPlayer("pB", "hb", "bob");
    GameRow g;
    g.id = "g1";
    g.creator = p1->id;
    g.player[0] = p1->id;
    g.clockInitial = 6000;
    g.clock[0] = g.clock[1] = 6000;
    ASSERT_FALSE(store_->insertGame(g));
    g.player[1] = p2->id;
    g.status = "setup";
    g.version = 1;
    ASSERT_FALSE(store_->updateGame(g));
    ASSERT_FALSE(store_->saveSetup(g, 1, 0x0F));
    ASSERT_FALSE(store_->saveSetup(g, 2, 0xF0));
    g.status = "playing";
    g.version = 4;
    ASSERT_FALSE(store_->saveAction(g, {0, "d2-d3", "7", 5900}));
    EXPECT_TRUE(store_->saveAction(g, {0, "d2-d4", "8", 5900}));  // a ply is stored once

    store_.reset();
    auto s = Store::open(path_.string());
    ASSERT_TRUE(s);
    store_ = std::move(*s);
    auto all = store_->loadUnfinished();
    ASSERT_EQ(all.size(), 1u);
    const GameData& d = all[0];
    EXPECT_EQ(d.game.status, "playing");
    EXPECT_EQ(d.game.version, 4);
    EXPECT_EQ(d.game.player[1], p2->id);
    EXPECT_EQ(d.setup[0], 0x0F);
    EXPECT_EQ(d.setup[1], 0xF0);
    ASSERT_EQ(d.actions.size(), 1u);
    EXPECT_EQ(d.actions[0].action, "d2-d3");
    EXPECT_EQ(d.actions[0].clientId, "7");

    g.status = "finished";
    g.result = "1-0";
    ASSERT_FALSE(store_->updateGame(g));
    EXPECT_TRUE(store_->loadUnfinished().empty());
    std::int64_t total = 0;
    auto list = store_->listGames("pB", "finished", 1, 10, &total);
    EXPECT_EQ(total, 1);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].names[0], "alice");
    EXPECT_EQ(list[0].publicIds[1], "pB");
    EXPECT_TRUE(store_->listGames("pA", "playing", 1, 10, &total).empty());
}

}  // namespace
}  // namespace rainet::store

// Tournaments in the store, on each backend (PostgreSQL when RAINET_TEST_PG is set): what is
// written reads back the same, after a reopen too, and each refusal changes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "store/store.h"
#include "support/postgres_test_db.h"
#include "support/sqlite_test_db.h"

namespace rainet::store {
namespace {

class TournamentStoreTest : public ::testing::TestWithParam<Dialect> {
  protected:
    void SetUp() override {
        if (GetParam() == Dialect::Postgres) {
            if (!test::postgresTestUri()) GTEST_SKIP() << "RAINET_TEST_PG is not set";
            pg_ = std::make_unique<test::PostgresTestDb>(
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
            ASSERT_TRUE(pg_->error().empty()) << pg_->error();
            target_ = pg_->uri();
        } else {
            path_ = test::freshDbPath("tournament");
            target_ = path_.string();
        }
        reopen();
        for (int i = 0; i < 4; ++i) {
            const std::string n = std::to_string(i);
            auto p = store_->createPlayer(std::string("p").append(n), std::string("h").append(n),
                                          std::string("player").append(n));
            ASSERT_TRUE(p) << p.error().message;
            players_.push_back(p->id);
        }
    }
    void TearDown() override {
        store_.reset();
        if (!path_.empty()) test::removeDb(path_.string());
    }
    void reopen() {
        store_.reset();
        auto s = Store::open(target_);
        ASSERT_TRUE(s) << s.error().message;
        store_ = std::move(*s);
    }
    TournamentRow arena(const std::string& id, std::int64_t creator) {
        TournamentRow t;
        t.id = id;
        t.name = "Hourly 3+2";
        t.creator = creator;
        t.clockInitial = 180'000;
        t.clockIncrement = 2'000;
        t.starts = 1'000'000;
        t.duration = 3'600'000;
        t.maxPlayers = 2000;
        t.created = 900'000;
        return t;
    }
    // A games row for a tournament game between players a and b.
    void insertGame(const std::string& id, std::int64_t a, std::int64_t b) {
        GameRow g;
        g.id = id;
        g.creator = g.player[0] = a;
        g.player[1] = b;
        g.status = GameStatus::Playing;
        ASSERT_FALSE(store_->insertGame(g));
    }
    std::filesystem::path path_;
    std::unique_ptr<test::PostgresTestDb> pg_;
    std::string target_;
    std::unique_ptr<Store> store_;
    std::vector<std::int64_t> players_;
};

INSTANTIATE_TEST_SUITE_P(Backends, TournamentStoreTest,
                         ::testing::Values(Dialect::Sqlite, Dialect::Postgres), [](const auto& p) {
                             return p.param == Dialect::Sqlite ? "Sqlite" : "Postgres";
                         });

TEST_P(TournamentStoreTest, ATournamentReadsBackAfterAReopen) {
    TournamentRow t = arena("t1", players_[0]);
    t.rated = false;
    t.bots = true;
    ASSERT_FALSE(store_->insertTournament(t));
    reopen();
    auto loaded = store_->loadTournament("t1");
    ASSERT_TRUE(loaded && *loaded);
    const TournamentRow& r = (*loaded)->tournament;
    EXPECT_EQ(r.name, "Hourly 3+2");
    EXPECT_EQ(r.format, "arena");
    EXPECT_EQ(r.creator, players_[0]);
    EXPECT_EQ(r.clockInitial, 180'000);
    EXPECT_EQ(r.clockIncrement, 2'000);
    EXPECT_FALSE(r.rated);
    EXPECT_TRUE(r.bots);
    EXPECT_EQ(r.starts, 1'000'000);
    EXPECT_EQ(r.duration, 3'600'000);
    EXPECT_EQ(r.status, "created");
    EXPECT_TRUE((*loaded)->players.empty());
    EXPECT_TRUE((*loaded)->games.empty());
}

TEST_P(TournamentStoreTest, AnUnknownTournamentIsNone) {
    auto loaded = store_->loadTournament("tNOPE");
    ASSERT_TRUE(loaded);
    EXPECT_FALSE(*loaded);
}

TEST_P(TournamentStoreTest, TheSameIdTwiceIsRefused) {
    ASSERT_FALSE(store_->insertTournament(arena("t1", players_[0])));
    EXPECT_TRUE(store_->insertTournament(arena("t1", players_[1])));
    EXPECT_EQ((*store_->loadTournament("t1"))->tournament.creator, players_[0]);
}

TEST_P(TournamentStoreTest, TheOperatorsScheduleHasNoCreatorAndOneTournamentPerSlot) {
    TournamentRow t = arena("t1", 0);
    t.schedule = "hourly-3+2@1000000";
    ASSERT_FALSE(store_->insertTournament(t));
    TournamentRow again = arena("t2", 0);
    again.schedule = t.schedule;
    EXPECT_TRUE(store_->insertTournament(again));  // a second node made the same slot
    EXPECT_EQ((*store_->loadTournament("t1"))->tournament.creator, 0);
}

TEST_P(TournamentStoreTest, JoiningPausingAndWithdrawing) {
    ASSERT_FALSE(store_->insertTournament(arena("t1", players_[0])));
    auto j = store_->joinTournament("t1", players_[1], 1'000, 0);
    ASSERT_TRUE(j);
    EXPECT_TRUE(*j);
    ASSERT_TRUE(store_->joinTournament("t1", players_[2], 2'000, 1));
    ASSERT_FALSE(store_->setEntrant("t1", players_[1], Entrant::Paused));
    auto d = *store_->loadTournament("t1");
    ASSERT_EQ(d->players.size(), 2u);
    EXPECT_EQ(d->players[0].player, players_[1]);
    EXPECT_EQ(d->players[0].state, Entrant::Paused);
    EXPECT_EQ(d->players[0].name, "player1");
    EXPECT_EQ(d->players[1].seed, 1);
    // A paused player comes back; their joining time stays.
    EXPECT_TRUE(*store_->joinTournament("t1", players_[1], 5'000, 0));
    d = *store_->loadTournament("t1");
    EXPECT_EQ(d->players[0].state, Entrant::Active);
    EXPECT_EQ(d->players[0].joined, 1'000);
    // A withdrawn player cannot come back.
    ASSERT_FALSE(store_->setEntrant("t1", players_[2], Entrant::Withdrawn));
    auto again = store_->joinTournament("t1", players_[2], 6'000, 1);
    ASSERT_TRUE(again);
    EXPECT_FALSE(*again);
    EXPECT_EQ((*store_->loadTournament("t1"))->players[1].state, Entrant::Withdrawn);
}

TEST_P(TournamentStoreTest, GamesNameTheirTournamentAndKeepTheirResults) {
    ASSERT_FALSE(store_->insertTournament(arena("t1", players_[0])));
    insertGame("g1", players_[1], players_[2]);
    insertGame("g2", players_[2], players_[1]);
    TournamentGameRow g;
    g.game = "g1";
    g.player[0] = players_[1];
    g.player[1] = players_[2];
    g.rating[0] = 1500;
    g.rating[1] = 1620;
    g.started = 2'000;
    ASSERT_FALSE(store_->addTournamentGame("t1", g));
    TournamentGameRow second = g;
    second.game = "g2";
    second.player[0] = players_[2];
    second.player[1] = players_[1];
    second.started = 1'500;  // started first: loads first
    ASSERT_FALSE(store_->addTournamentGame("t1", second));
    g.berserk[0] = true;
    g.actions[0] = 9;
    g.actions[1] = 8;
    g.result = "1-0";
    g.ended = 9'000;
    ASSERT_FALSE(store_->finishTournamentGame(g));
    reopen();
    EXPECT_EQ(*store_->tournamentOfGame("g1"), "t1");
    EXPECT_EQ(*store_->tournamentOfGame("gNONE"), "");
    // What a room shows of its tournament: its id and name, and who berserked.
    auto named = *store_->gameTournament("g1");
    ASSERT_TRUE(named);
    EXPECT_EQ(named->tournament, "t1");
    EXPECT_EQ(named->name, arena("t1", players_[0]).name);
    EXPECT_TRUE(named->berserk[0]);
    EXPECT_FALSE(named->berserk[1]);
    EXPECT_FALSE((*store_->gameTournament("g2"))->berserk[0]);
    EXPECT_FALSE(*store_->gameTournament("gNONE"));
    auto d = *store_->loadTournament("t1");
    ASSERT_EQ(d->games.size(), 2u);
    EXPECT_EQ(d->games[0].game, "g2");
    EXPECT_EQ(d->games[0].result, "");
    const TournamentGameRow& r = d->games[1];
    EXPECT_EQ(r.player[0], players_[1]);
    EXPECT_EQ(r.rating[1], 1620);
    EXPECT_TRUE(r.berserk[0]);
    EXPECT_FALSE(r.berserk[1]);
    EXPECT_EQ(r.actions[0], 9);
    EXPECT_EQ(r.result, "1-0");
    EXPECT_EQ(r.ended, 9'000);
    // A game is in one tournament only.
    EXPECT_TRUE(store_->addTournamentGame("t1", g));
}

TEST_P(TournamentStoreTest, ListingsByStatusAndTheCreatorsOpenCount) {
    TournamentRow a = arena("t1", players_[0]);
    TournamentRow b = arena("t2", players_[0]);
    b.starts = 500'000;
    TournamentRow c = arena("t3", players_[1]);
    ASSERT_FALSE(store_->insertTournament(a));
    ASSERT_FALSE(store_->insertTournament(b));
    ASSERT_FALSE(store_->insertTournament(c));
    ASSERT_TRUE(store_->joinTournament("t1", players_[2], 1, 0));
    ASSERT_TRUE(store_->joinTournament("t1", players_[3], 1, 1));
    EXPECT_EQ(*store_->openTournamentsBy(players_[0]), 2);
    ASSERT_FALSE(store_->updateTournamentStatus("t2", "finished", 7'000));
    EXPECT_EQ(*store_->openTournamentsBy(players_[0]), 1);
    auto created = *store_->listTournaments("created", 10);
    ASSERT_EQ(created.size(), 2u);
    EXPECT_EQ(created[0].tournament.id, "t1");
    EXPECT_EQ(created[0].players, 2);
    EXPECT_EQ(created[1].tournament.id, "t3");
    auto finished = *store_->listTournaments("finished", 10);
    ASSERT_EQ(finished.size(), 1u);
    EXPECT_EQ(finished[0].tournament.ended, 7'000);
    EXPECT_EQ(store_->listTournaments("", 2)->size(), 2u);
}

}  // namespace
}  // namespace rainet::store

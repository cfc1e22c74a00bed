#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "store/glicko2.h"
#include "support/postgres_test_db.h"
#include "support/sqlite_test_db.h"

namespace rainet::store {
namespace {

// The value of a read that must not fail (the test fails if it did).
template <class T>
T ok(Result<T> r) {
    EXPECT_TRUE(r) << r.error().message;
    return r ? std::move(*r) : T{};
}

using test::freshDbPath;
using test::removeDb;

// The answers of batched writes, counted as they come (from the store's writer thread).
struct Answers {
    std::mutex mu;
    std::condition_variable cv;
    int answered = 0, failed = 0;
    Store::Done callback() {
        return [this](std::optional<Error> e) {
            std::lock_guard lock(mu);
            ++answered;
            failed += e.has_value();
            cv.notify_all();
        };
    }
    bool waitFor(int n) {
        std::unique_lock lock(mu);
        return cv.wait_for(lock, std::chrono::seconds(60), [&] { return answered == n; });
    }
};

// Every StoreTest runs on each backend: SQLite always, PostgreSQL when RAINET_TEST_PG holds the
// URI of a maintenance database (each test then gets a database of its own).
class StoreTest : public ::testing::TestWithParam<Dialect> {
  protected:
    void SetUp() override {
        if (GetParam() == Dialect::Postgres) {
            if (!test::postgresTestUri()) GTEST_SKIP() << "RAINET_TEST_PG is not set";
            pg_ = std::make_unique<test::PostgresTestDb>(
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
            ASSERT_TRUE(pg_->error().empty()) << pg_->error();
            target_ = pg_->uri();
        } else {
            path_ = freshDbPath("test");
            target_ = path_.string();
        }
        reopen();
    }
    void TearDown() override {
        store_.reset();
        if (!path_.empty()) removeFiles();
    }
    // A stored game in play, "g1", of a new player.
    GameRow gameInPlay() {
        auto a = store_->createPlayer("pA", "ha", "alice");
        GameRow g;
        g.id = "g1";
        g.creator = g.player[0] = a ? a->id : 0;
        g.status = GameStatus::Playing;
        EXPECT_FALSE(store_->insertGame(g));
        return g;
    }
    // `n` games of one player in play, ids `prefix`0 .. `prefix`n-1.
    std::vector<GameRow> gamesInPlay(int n, const std::string& prefix) {
        auto a = store_->createPlayer("pA", "ha", "alice");
        std::vector<GameRow> games(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            auto& g = games[static_cast<std::size_t>(i)];
            g.id = prefix + std::to_string(i);
            g.creator = g.player[0] = a ? a->id : 0;
            g.status = GameStatus::Playing;
            EXPECT_FALSE(store_->insertGame(g));
        }
        return games;
    }
    void reopen(bool faultInjection = false) {
        store_.reset();
        auto s = Store::open(target_, "normal", faultInjection);
        ASSERT_TRUE(s) << s.error().message;
        store_ = std::move(*s);
        EXPECT_EQ(store_->dialect(), GetParam());
    }
    void removeFiles() { removeDb(path_.string()); }
    // The schema version recorded in the database, read and written behind the store's back.
    int recordedSchemaVersion() {
        if (pg_) return std::atoi(pg_->query("SELECT version FROM rainet_schema").c_str());
        sqlite3* db = nullptr;
        sqlite3_open(path_.c_str(), &db);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
        const int v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
        sqlite3_finalize(st);
        sqlite3_close(db);
        return v;
    }
    void recordSchemaVersion(int version) {
        if (pg_) {
            EXPECT_EQ(
                pg_->execHere("UPDATE rainet_schema SET version = " + std::to_string(version)), "");
            return;
        }
        sqlite3* db = nullptr;
        sqlite3_open(path_.c_str(), &db);
        sqlite3_exec(db, ("PRAGMA user_version=" + std::to_string(version)).c_str(), nullptr,
                     nullptr, nullptr);
        sqlite3_close(db);
    }
    std::filesystem::path path_;
    std::unique_ptr<test::PostgresTestDb> pg_;
    std::string target_;
    std::unique_ptr<Store> store_;
};

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values(Dialect::Sqlite, Dialect::Postgres),
                         [](const auto& p) {
                             return p.param == Dialect::Sqlite ? "Sqlite" : "Postgres";
                         });

TEST_P(StoreTest, PlayersByTokenHash) {
    auto p = store_->createPlayer("pA", "hash-a", "alice");
    ASSERT_TRUE(p);
    EXPECT_FALSE(store_->createPlayer("pB", "hash-a", "bob"));  // token hashes are unique
    auto q = ok(store_->playerByTokenHash("hash-a"));
    ASSERT_TRUE(q);
    EXPECT_EQ(q->publicId, "pA");
    EXPECT_FALSE(ok(store_->playerByTokenHash("hash-x")));
}

TEST_P(StoreTest, GameSetupsActionsRoundTripAndReopen) {
    auto p1 = store_->createPlayer("pA", "ha", "alice");
    auto p2 = store_->createPlayer("pB", "hb", "bob");
    GameRow g;
    g.id = "g1";
    g.creator = p1->id;
    g.player[0] = p1->id;
    g.clockInitial = 6000;
    g.clock[0] = g.clock[1] = 6000;
    g.created = 1764681234567;  // unix ms: more than 32 bits
    ASSERT_FALSE(store_->insertGame(g));
    g.player[1] = p2->id;
    g.status = GameStatus::Setup;
    g.version = 1;
    ASSERT_FALSE(store_->updateGame(g));
    ASSERT_FALSE(store_->saveSetup(g, 1, 0x0F));
    ASSERT_FALSE(store_->saveSetup(g, 2, 0xF0));
    g.status = GameStatus::Playing;
    g.version = 4;
    ASSERT_FALSE(store_->updateGame(g));
    ASSERT_FALSE(store_->saveAction(g, {0, "d2-d3", "7", 5900, 5}));
    EXPECT_TRUE(store_->saveAction(g, {0, "d2-d4", "8", 5900, 5}));  // a ply is stored once

    reopen();
    auto all = ok(store_->loadUnfinished());
    ASSERT_EQ(all.size(), 1u);
    const GameData& d = all[0];
    EXPECT_EQ(d.game.status, GameStatus::Playing);
    EXPECT_EQ(d.game.version, 5);      // from the last action
    EXPECT_EQ(d.game.clock[0], 5900);  // side 1's clock after its action
    EXPECT_EQ(d.game.clock[1], 6000);
    EXPECT_EQ(d.game.player[1], p2->id);
    EXPECT_EQ(d.game.created, 1764681234567);
    EXPECT_EQ(d.setup[0], 0x0F);
    EXPECT_EQ(d.setup[1], 0xF0);
    ASSERT_EQ(d.actions.size(), 1u);
    EXPECT_EQ(d.actions[0].action, "d2-d3");
    EXPECT_EQ(d.actions[0].clientId, "7");

    g.status = GameStatus::Finished;
    g.result = "1-0";
    ASSERT_FALSE(store_->updateGame(g));
    EXPECT_TRUE(ok(store_->loadUnfinished()).empty());
    auto list = ok(store_->listGames("pB", "finished", std::nullopt, 10));
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].names[0], "alice");
    EXPECT_EQ(list[0].publicIds[1], "pB");
    EXPECT_TRUE(ok(store_->listGames("pA", "playing", std::nullopt, 10)).empty());
}

TEST_P(StoreTest, SeveralTokensPerPlayerAndRevocation) {
    auto p = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(p);
    ASSERT_FALSE(store_->addToken(p->id, "hb"));
    EXPECT_TRUE(store_->addToken(p->id, "hb"));  // a token belongs to one player
    EXPECT_EQ(ok(store_->playerByTokenHash("ha"))->id, p->id);
    EXPECT_EQ(ok(store_->playerByTokenHash("hb"))->id, p->id);
    ASSERT_FALSE(store_->revokeToken("ha"));
    EXPECT_FALSE(ok(store_->playerByTokenHash("ha")));
    EXPECT_EQ(ok(store_->playerByTokenHash("hb"))->id, p->id);
}

// A bot account keeps its flag (players.bot, migration 5); other players have none.
TEST_P(StoreTest, BotAccountsAreFlagged) {
    auto a = store_->createPlayer("pA", "ha", "guest-A");
    auto b = store_->createPlayer("pB", "hb", "guest-B");
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(a->bot);
    EXPECT_EQ(*store_->registerAccount(a->id, "robo", "hash-1", true), Registration::Registered);
    EXPECT_EQ(*store_->registerAccount(b->id, "alice", "hash-2"), Registration::Registered);
    EXPECT_TRUE(ok(store_->playerById(a->id))->bot);
    EXPECT_TRUE(ok(store_->playerByTokenHash("ha"))->bot);
    EXPECT_FALSE(ok(store_->playerById(b->id))->bot);
    // A refused registration changes nothing, the flag included.
    auto c = store_->createPlayer("pC", "hc", "guest-C");
    ASSERT_TRUE(c);
    EXPECT_EQ(*store_->registerAccount(c->id, "ROBO", "hash-3", true), Registration::UsernameTaken);
    EXPECT_FALSE(ok(store_->playerById(c->id))->bot);
}

TEST_P(StoreTest, AccountsAreUniqueCaseInsensitively) {
    auto a = store_->createPlayer("pA", "ha", "guest-A");
    auto b = store_->createPlayer("pB", "hb", "guest-B");
    ASSERT_TRUE(a && b);
    auto r = store_->registerAccount(a->id, "Alice_1", "hash-1");
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, Registration::Registered);
    EXPECT_EQ(*store_->registerAccount(b->id, "alice_1", "hash-2"), Registration::UsernameTaken);
    EXPECT_EQ(*store_->registerAccount(a->id, "other", "hash-3"), Registration::AlreadyRegistered);
    EXPECT_EQ(ok(store_->playerById(b->id))->kind, "guest");
    const PlayerRow p = *ok(store_->playerById(a->id));
    EXPECT_EQ(p.kind, "account");
    EXPECT_EQ(p.name, "Alice_1");
    auto acc = ok(store_->accountByUsername("ALICE_1"));
    ASSERT_TRUE(acc);
    EXPECT_EQ(acc->player, a->id);
    EXPECT_EQ(acc->username, "Alice_1");
    EXPECT_EQ(acc->passwordHash, "hash-1");
    EXPECT_FALSE(ok(store_->accountByUsername("bob")));
}

GameRow finishedGame(const std::string& id, std::int64_t p1, std::int64_t p2,
                     const std::string& result, bool rated) {
    GameRow g;
    g.id = id;
    g.creator = p1;
    g.player[0] = p1;
    g.player[1] = p2;
    g.status = GameStatus::Finished;
    g.result = result;
    g.reason = "resign";
    g.rated = rated;
    return g;
}

TEST_P(StoreTest, FinishingARatedGameRatesBothPlayersOnce) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    GameRow g = finishedGame("g1", a->id, b->id, "1-0", true);
    g.status = GameStatus::Playing;
    ASSERT_FALSE(store_->insertGame(g));
    g.status = GameStatus::Finished;
    auto changes = store_->finishGame(g);
    ASSERT_TRUE(changes) << changes.error().message;
    ASSERT_EQ(changes->size(), 2u);
    EXPECT_EQ((*changes)[0].player, a->id);
    EXPECT_EQ((*changes)[0].before, 1500);
    EXPECT_GT((*changes)[0].after, 1500);
    EXPECT_LT((*changes)[1].after, 1500);
    const PlayerRow pa = *ok(store_->playerById(a->id)), pb = *ok(store_->playerById(b->id));
    EXPECT_EQ(pa.rating, (*changes)[0].after);
    EXPECT_EQ(pb.rating, (*changes)[1].after);
    EXPECT_LT(pa.rd, 350);
    EXPECT_EQ(pa.ratedGames, 1);
    auto d = ok(store_->loadGame("g1"));
    ASSERT_EQ(d->ratings.size(), 2u);
    EXPECT_EQ(d->ratings[1].after, pb.rating);
    EXPECT_TRUE(d->game.rated);
    // A second finish of the same game is refused whole: the ratings do not move twice.
    EXPECT_FALSE(store_->finishGame(g));
    EXPECT_EQ(ok(store_->playerById(a->id))->rating, pa.rating);
    EXPECT_EQ(ok(store_->playerById(a->id))->ratedGames, 1);

    auto top = ok(store_->leaderboard(std::nullopt, 10));
    EXPECT_EQ(ok(store_->ratedPlayers()), 2);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0].publicId, "pA");
    auto stats = ok(store_->playerStats("pB"));
    ASSERT_TRUE(stats);
    EXPECT_EQ(stats->games, 1);
    EXPECT_EQ(stats->losses, 1);
    EXPECT_EQ(stats->wins, 0);
    EXPECT_FALSE(ok(store_->playerStats("pZ")));
}

TEST_P(StoreTest, UnratedAndAbortedGamesChangeNoRating) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    GameRow unrated = finishedGame("g1", a->id, b->id, "1-0", false);
    GameRow aborted = finishedGame("g2", a->id, b->id, "", true);
    aborted.status = GameStatus::Aborted;
    GameRow computer = finishedGame("g3", a->id, 0, "1-0", true);
    for (GameRow* g : {&unrated, &aborted, &computer}) {
        ASSERT_FALSE(store_->insertGame(*g));
        auto c = store_->finishGame(*g);
        ASSERT_TRUE(c);
        EXPECT_TRUE(c->empty());
    }
    EXPECT_EQ(ok(store_->playerById(a->id))->rating, 1500);
    EXPECT_EQ(ok(store_->playerById(a->id))->ratedGames, 0);
    EXPECT_TRUE(ok(store_->leaderboard(std::nullopt, 10)).empty());
    EXPECT_EQ(ok(store_->ratedPlayers()), 0);
}

// Chat lines and pending offers are stored with the game and come back when it is loaded (the
// last kChatLoaded of each room); a draw offer lapses with a later action.
TEST_P(StoreTest, ChatAndOffersSurviveReloading) {
    auto lineOf = [](std::int64_t n) {  // appended: GCC 12 misreads "literal" + std::string
        std::string line = "{\"n\":";
        line += std::to_string(n);
        line += '}';
        return line;
    };
    auto p1 = store_->createPlayer("pA", "ha", "alice");
    auto p2 = store_->createPlayer("pB", "hb", "bob");
    GameRow g;
    g.id = "g1";
    g.creator = p1->id;
    g.player[0] = p1->id;
    g.player[1] = p2->id;
    g.status = GameStatus::Playing;
    g.version = 4;
    ASSERT_FALSE(store_->insertGame(g));
    ASSERT_FALSE(store_->saveSetup(g, 1, 0x0F));
    ASSERT_FALSE(store_->saveSetup(g, 2, 0xF0));
    for (int n = 1; n <= Store::kChatLoaded + 30; ++n)
        ASSERT_FALSE(store_->saveChat("g1", {n, n % 3 == 0 ? 1 : 0, lineOf(n)}));
    EXPECT_TRUE(store_->saveChat("g1", {1, 0, "again"}));  // a line is stored once
    g.drawOffer = 2;
    g.version = 5;
    ASSERT_FALSE(store_->updateGame(g));
    reopen();
    auto d = store_->loadGame("g1");
    ASSERT_TRUE(d && *d);
    EXPECT_EQ((*d)->game.drawOffer, 2);
    int count[2] = {0, 0};
    std::int64_t last = 0;
    for (const ChatRow& c : (*d)->chat) {
        EXPECT_GT(c.seq, last);  // in order
        last = c.seq;
        EXPECT_EQ(c.channel, c.seq % 3 == 0 ? 1 : 0);
        EXPECT_EQ(c.line, lineOf(c.seq));
        ++count[c.channel];
    }
    EXPECT_EQ(count[0], Store::kChatLoaded);  // the last 50 of the players' 54 lines
    EXPECT_EQ(count[1], 26);                  // all of the spectators' (every third line)
    EXPECT_EQ(last, Store::kChatLoaded + 30);
    // The next action makes the offer lapse.
    ASSERT_FALSE(store_->saveAction(g, {0, "d2-d3", "7", 0, 6}));
    EXPECT_EQ(store_->loadGame("g1").value()->game.drawOffer, 0);
    // Rematch offers and the link to the rematch, after the end.
    g.status = GameStatus::Finished;
    g.result = "1-0";
    g.version = 8;
    g.rematchOffer = 1;
    g.nextGame = "g2";
    ASSERT_FALSE(store_->updateGame(g));
    d = store_->loadGame("g1");
    ASSERT_TRUE(d && *d);
    EXPECT_EQ((*d)->game.rematchOffer, 1);
    EXPECT_EQ((*d)->game.nextGame, "g2");
}

// Each full rating period (a week) without rated games widens a player's RD before the next one,
// as Glicko-2 does for a period without games: phi' = sqrt(phi^2 + sigma^2) per period.
TEST_P(StoreTest, RatingDeviationGrowsWithIdleRatingPeriods) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    const std::int64_t t0 = 1'764'681'234'567;
    auto play = [&](const std::string& id, std::int64_t at) {
        GameRow g = finishedGame(id, a->id, b->id, "1-0", true);
        g.status = GameStatus::Playing;
        EXPECT_FALSE(store_->insertGame(g));
        g.status = GameStatus::Finished;
        g.ended = at;
        auto c = store_->finishGame(g);
        EXPECT_TRUE(c) << c.error().message;
        return c ? *c : std::vector<RatingChange>{};
    };
    play("g1", t0);
    const PlayerRow after1 = store_->playerById(a->id).value().value();
    EXPECT_EQ(after1.ratedAt, t0);
    // Six days later: no full period passed, the RD is where the last game left it.
    auto c = play("g2", t0 + 6 * 24 * 3600 * 1000LL);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].rdBefore, after1.rd);
    // Three periods and a bit after that game: three idle periods.
    const PlayerRow after2 = store_->playerById(a->id).value().value(),
                    bob2 = store_->playerById(b->id).value().value();
    c = play("g3", after2.ratedAt + 3 * glicko2::kRatingPeriodMs + 1000);
    ASSERT_EQ(c.size(), 2u);
    const double phi = after2.rd / 173.7178, sigma = after2.volatility;
    EXPECT_NEAR(c[0].rdBefore, std::sqrt(phi * phi + 3 * sigma * sigma) * 173.7178, 1e-9);
    EXPECT_GT(c[0].rdBefore, after2.rd);
    // The game was rated from the widened deviations.
    const glicko2::Game won{{c[1].before, c[1].rdBefore, bob2.volatility}, 1};
    const glicko2::Rating expected =
        glicko2::update({c[0].before, c[0].rdBefore, after2.volatility}, std::span(&won, 1));
    EXPECT_NEAR(c[0].after, expected.rating, 1e-9);
    EXPECT_NEAR(c[0].rdAfter, expected.rd, 1e-9);
    EXPECT_EQ(store_->playerById(a->id).value()->ratedAt,
              after2.ratedAt + 3 * glicko2::kRatingPeriodMs + 1000);
}

// The background checkpointer copies the WAL into the database file while the store is open, so
// the WAL does not grow without end (it did: the checkpointer's connection never opened the WAL,
// and the database file stayed one page while the WAL held everything).
TEST(StoreCheckpoints, TheWalIsCopiedIntoTheDatabaseWhileOpen) {
    const std::string path = freshDbPath("checkpoint");
    auto s = Store::open(path);
    ASSERT_TRUE(s) << s.error().message;
    for (int i = 0; i < 200; ++i)
        ASSERT_TRUE((*s)->createPlayer(std::string("p").append(std::to_string(i)),
                                       std::string("h").append(std::to_string(i)), "x"));
    // The checkpointer runs once a second: wait (at most 20 s) until the file holds the tables.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::filesystem::file_size(path) <= 4096 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_GT(std::filesystem::file_size(path), 4096u);
    s->reset();
    removeDb(path);
}

// A read that holds an old snapshot lets the WAL grow past its bound (no checkpoint can reset
// it meanwhile); once the read ends the checkpointer truncates the file instead of leaving it at
// its high-water mark.
TEST(StoreCheckpoints, TheWalShrinksBackOnceALongReadEnds) {
    const std::string path = freshDbPath("walbound");
    auto s = Store::open(path);
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_TRUE((*s)->createPlayer("p0", "h0", "x"));
    sqlite3* reader = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &reader), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(reader, "BEGIN; SELECT COUNT(*) FROM players;", nullptr, nullptr, nullptr),
        SQLITE_OK);
    const std::string wal = path + "-wal";
    for (int i = 1; std::filesystem::file_size(wal) < 24u << 20; ++i)
        ASSERT_TRUE((*s)->createPlayer(std::string("p").append(std::to_string(i)),
                                       std::string("h").append(std::to_string(i)),
                                       std::string(200, 'n')));
    ASSERT_EQ(sqlite3_exec(reader, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(reader);
    // The checkpointer runs once a second: wait (at most 20 s) for the truncation.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::filesystem::file_size(wal) > 1u << 20 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_LE(std::filesystem::file_size(wal), 1u << 20);
    s->reset();
    removeDb(path);
}

// A database written by the schema before migrations existed (user_version 0, one token per
// player in players.token_hash) opens at the current version: its guests keep their tokens, get
// the default rating, and its games are unrated.
TEST(StoreMigration, OpensADatabaseOfTheFirstSchema) {
    const std::string path = freshDbPath("migration");
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        const char* old = R"sql(
PRAGMA journal_mode=WAL;
CREATE TABLE players (id INTEGER PRIMARY KEY, public_id TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'guest',
  created INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER) * 1000));
CREATE TABLE games (id TEXT PRIMARY KEY, preset TEXT NOT NULL, clock_initial INTEGER NOT NULL,
  clock_increment INTEGER NOT NULL, opponent TEXT NOT NULL, level INTEGER NOT NULL,
  side_wish TEXT NOT NULL, creator INTEGER NOT NULL REFERENCES players(id),
  player1 INTEGER REFERENCES players(id), player2 INTEGER REFERENCES players(id),
  status TEXT NOT NULL, result TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL DEFAULT '',
  version INTEGER NOT NULL, clock1 INTEGER NOT NULL, clock2 INTEGER NOT NULL,
  created INTEGER NOT NULL, ended INTEGER NOT NULL DEFAULT 0);
CREATE INDEX games_status ON games(status);
CREATE INDEX games_player1 ON games(player1);
CREATE INDEX games_player2 ON games(player2);
CREATE TABLE setups (game TEXT NOT NULL REFERENCES games(id), side INTEGER NOT NULL,
  links INTEGER NOT NULL, PRIMARY KEY (game, side));
CREATE TABLE actions (game TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
  action TEXT NOT NULL, client_id TEXT NOT NULL, clock_after INTEGER NOT NULL,
  version INTEGER NOT NULL, PRIMARY KEY (game, ply)) WITHOUT ROWID;
INSERT INTO players (public_id, token_hash, name) VALUES ('pA', 'hash-a', 'alice');
INSERT INTO players (public_id, token_hash, name) VALUES ('pB', 'hash-b', 'bob');
INSERT INTO games VALUES ('g1', 'standard', 0, 0, 'open', 0, '1', 1, 1, 2, 'finished', '1-0',
  'resign', 5, 0, 0, 1000, 2000);
)sql";
        char* msg = nullptr;
        ASSERT_EQ(sqlite3_exec(db, old, nullptr, nullptr, &msg), SQLITE_OK) << msg;
        sqlite3_close(db);
    }
    {
        auto s = Store::open(path);
        ASSERT_TRUE(s) << s.error().message;
        Store& store = **s;
        auto p = ok(store.playerByTokenHash("hash-a"));
        ASSERT_TRUE(p);
        EXPECT_EQ(p->publicId, "pA");
        EXPECT_EQ(p->kind, "guest");
        EXPECT_EQ(p->rating, 1500);
        EXPECT_EQ(p->rd, 350);
        EXPECT_EQ(p->ratedGames, 0);
        auto g = ok(store.loadGame("g1"));
        ASSERT_TRUE(g);
        EXPECT_FALSE(g->game.rated);
        EXPECT_EQ(g->game.result, "1-0");
        EXPECT_EQ(ok(store.playerStats("pA"))->wins, 1);
        // The new tables work on the migrated file.
        ASSERT_FALSE(store.addToken(p->id, "hash-a2"));
        EXPECT_EQ(*store.registerAccount(p->id, "alice", "pw"), Registration::Registered);
        auto c = store.createPlayer("pC", "hash-c", "carol");
        EXPECT_TRUE(c);
    }
    {
        auto s = Store::open(path);  // a second open runs no migration again
        ASSERT_TRUE(s) << s.error().message;
        EXPECT_EQ(ok((*s)->playerByTokenHash("hash-a2"))->kind, "account");
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(st, 0), Store::schemaVersion());
    sqlite3_finalize(st);
    sqlite3_close(db);
    removeDb(path);
}

TEST_P(StoreTest, RecordsItsSchemaVersionAndRefusesANewerOne) {
    EXPECT_EQ(recordedSchemaVersion(), Store::schemaVersion());
    store_.reset();
    recordSchemaVersion(Store::schemaVersion() + 1);
    auto s = Store::open(target_);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("newer"), std::string::npos);
}

// The server calls the store from several strands at once: every write commits, none is lost.
TEST_P(StoreTest, ConcurrentWritersAllCommit) {
    constexpr int kThreads = 4, kActions = 25;
    auto a = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(a);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            GameRow g;
            g.id = "g" + std::to_string(t);
            g.creator = g.player[0] = a->id;
            g.status = GameStatus::Playing;
            EXPECT_FALSE(store_->insertGame(g));
            for (int ply = 0; ply < kActions; ++ply) {
                EXPECT_FALSE(store_->saveAction(g, {ply, "a1-a2", "", 100, ply + 1}));
                EXPECT_TRUE(ok(store_->playerById(a->id)));
            }
            EXPECT_TRUE(
                store_->createPlayer("p" + std::to_string(t), "h" + std::to_string(t), "guest"));
        });
    for (auto& t : threads) t.join();
    auto all = ok(store_->loadUnfinished());
    ASSERT_EQ(all.size(), static_cast<std::size_t>(kThreads));
    for (const GameData& d : all) {
        EXPECT_EQ(d.actions.size(), static_cast<std::size_t>(kActions));
        EXPECT_EQ(d.game.version, kActions);
    }
}

// prefix + n (not "x" + std::to_string(n): GCC 12's -Wrestrict false positive at -O3).
std::string numbered(std::string prefix, int n) {
    prefix += std::to_string(n);
    return prefix;
}

// Games of one player ending at once (on PostgreSQL on several connections) are rated one after
// the other: each rating change starts from the previous one's result, none is lost.
TEST_P(StoreTest, ConcurrentRatedGamesOfOnePlayerAreRatedInTurn) {
    constexpr int kThreads = 4, kGames = 5;
    auto a = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(a);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            auto b = store_->createPlayer(numbered("pB", t), numbered("hb", t), "b");
            ASSERT_TRUE(b);
            for (int i = 0; i < kGames; ++i) {
                // Player A first or second, so that rows are locked in both orders.
                const bool first = (t + i) % 2 == 0;
                GameRow g = finishedGame(numbered("g", t) + numbered("_", i), first ? a->id : b->id,
                                         first ? b->id : a->id, "1-0", true);
                g.status = GameStatus::Playing;
                ASSERT_FALSE(store_->insertGame(g));
                g.status = GameStatus::Finished;
                auto c = store_->finishGame(g);
                ASSERT_TRUE(c) << c.error().message;
                EXPECT_EQ(c->size(), 2u);
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(ok(store_->playerById(a->id))->ratedGames, kThreads * kGames);
    std::map<double, double> next;  // A's rating before a game -> after it
    for (int t = 0; t < kThreads; ++t)
        for (int i = 0; i < kGames; ++i) {
            auto d = ok(store_->loadGame(numbered("g", t) + numbered("_", i)));
            ASSERT_TRUE(d && d->ratings.size() == 2);
            const RatingChange& r = d->ratings[d->game.player[0] == a->id ? 0 : 1];
            EXPECT_TRUE(next.emplace(r.before, r.after).second) << "two games from " << r.before;
        }
    double rating = 1500;
    for (int n = 0; n < kThreads * kGames; ++n) {
        auto it = next.find(rating);
        ASSERT_NE(it, next.end()) << "no game starts from " << rating;
        rating = it->second;
    }
    EXPECT_EQ(ok(store_->playerById(a->id))->rating, rating);
}

// Several players registering one username (in any case) at once: one account, the others told
// the username is taken (not an error).
TEST_P(StoreTest, ConcurrentRegistrationsOfOneUsernameMakeOneAccount) {
    constexpr int kThreads = 6;
    std::vector<std::int64_t> ids;
    for (int t = 0; t < kThreads; ++t) {
        auto p = store_->createPlayer(numbered("p", t), numbered("h", t), "guest");
        ASSERT_TRUE(p);
        ids.push_back(p->id);
    }
    std::atomic<int> registered{0}, taken{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            auto r = store_->registerAccount(ids[t], t % 2 ? "Same" : "sAME", "pw");
            ASSERT_TRUE(r) << r.error().message;
            (*r == Registration::Registered ? registered : taken)++;
            EXPECT_NE(*r, Registration::AlreadyRegistered);
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(registered, 1);
    EXPECT_EQ(taken, kThreads - 1);
    auto acc = ok(store_->accountByUsername("same"));
    ASSERT_TRUE(acc);
    EXPECT_EQ(ok(store_->playerById(acc->player))->kind, "account");
}

TEST_P(StoreTest, NotificationsArePagedNewestFirstAndMarkedRead) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    ASSERT_TRUE(a && b);
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 5; ++i) {
        auto id = store_->addNotification(a->id, "followed",
                                          R"({"by":"p)" + std::to_string(i) + R"("})", 1000 + i);
        ASSERT_TRUE(id) << id.error().message;
        if (!ids.empty()) {
            EXPECT_GT(*id, ids.back()) << "ids increase";
        }
        ids.push_back(*id);
    }
    ASSERT_TRUE(store_->addNotification(b->id, "followed", "{}", 5));
    auto page = store_->notifications(a->id, 0, 2);
    ASSERT_TRUE(page) << page.error().message;
    ASSERT_EQ(page->items.size(), 2u);
    EXPECT_EQ(page->items[0].id, ids[4]);
    EXPECT_EQ(page->items[0].kind, "followed");
    EXPECT_EQ(page->items[0].data, R"({"by":"p4"})");
    EXPECT_EQ(page->items[0].createdMs, 1004);
    EXPECT_FALSE(page->items[0].read);
    EXPECT_EQ(page->unread, 5);
    auto next = store_->notifications(a->id, page->items[1].id, 50);
    ASSERT_TRUE(next);
    ASSERT_EQ(next->items.size(), 3u);
    EXPECT_EQ(next->items[0].id, ids[2]);
    // Marked read up to an id: only the player's own, only those not read yet are counted.
    auto changed = store_->markNotificationsRead(a->id, ids[2]);
    ASSERT_TRUE(changed) << changed.error().message;
    EXPECT_EQ(*changed, 3);
    EXPECT_EQ(*store_->markNotificationsRead(a->id, ids[2]), 0);
    EXPECT_EQ(*store_->unreadNotifications(a->id), 2);
    EXPECT_EQ(*store_->unreadNotifications(b->id), 1);
    auto all = store_->notifications(a->id, 0, 50);
    ASSERT_TRUE(all);
    EXPECT_FALSE(all->items[0].read);
    EXPECT_TRUE(all->items[2].read);
    // Pruned by age, every player's.
    auto pruned = store_->pruneNotifications(1003);
    ASSERT_TRUE(pruned);
    EXPECT_EQ(*pruned, 4) << "a's three oldest and b's one";
    EXPECT_EQ(store_->notifications(a->id, 0, 50)->items.size(), 2u);
    reopen();
    EXPECT_EQ(store_->notifications(a->id, 0, 50)->items.size(), 2u) << "stored";
}

TEST_P(StoreTest, NotificationsAreBoundedPerPlayerAndInSize) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(a);
    std::int64_t first = 0, last = 0;
    for (int i = 0; i < Store::kMaxNotificationsPerPlayer + 5; ++i) {
        auto id = store_->addNotification(a->id, "followed", "{}", i);
        ASSERT_TRUE(id);
        if (!first) first = *id;
        last = *id;
    }
    EXPECT_EQ(*store_->unreadNotifications(a->id), Store::kMaxNotificationsPerPlayer);
    std::int64_t oldest = 0, before = 0;
    while (true) {
        auto page = store_->notifications(a->id, before, 1000);
        ASSERT_TRUE(page);
        EXPECT_LE(page->items.size(), static_cast<std::size_t>(Store::kMaxNotificationPage));
        if (page->items.empty()) break;
        before = oldest = page->items.back().id;
    }
    EXPECT_EQ(oldest, first + 5) << "the five oldest were dropped";
    EXPECT_EQ(store_->notifications(a->id, 0, 1)->items[0].id, last);
    // Data over the limit: refused, nothing written.
    auto big = store_->addNotification(
        a->id, "followed", R"({"by":")" + std::string(Store::kMaxNotificationData, 'x') + "\"}", 1);
    EXPECT_FALSE(big);
    EXPECT_EQ(store_->notifications(a->id, 0, 1)->items[0].id, last);
}

TEST_P(StoreTest, ChallengesAreBoundedAndSettledOnce) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    ASSERT_TRUE(a && b);
    auto make = [&](const std::string& id, std::int64_t at) {
        ChallengeRow c;
        c.id = id;
        c.challenger = a->id;
        c.challenged = b->id;
        c.clockInitial = 30000;
        c.rated = true;
        c.side.assign(1, '1');  // not = "1": a GCC 12 false -Wrestrict once inlined
        c.created = at;
        c.expires = at + 1000;
        return c;
    };
    EXPECT_EQ(*store_->insertChallenge(make("c1", 0), 2, 50), ChallengeInsert::Created);
    EXPECT_EQ(*store_->insertChallenge(make("c2", 0), 2, 50), ChallengeInsert::Created);
    EXPECT_EQ(*store_->insertChallenge(make("c3", 0), 2, 50), ChallengeInsert::TooManyOut);
    EXPECT_EQ(*store_->insertChallenge(make("c3", 0), 5, 2), ChallengeInsert::TooManyIn);
    EXPECT_FALSE(*store_->challenge("c3")) << "refused: nothing written";
    auto c1 = store_->challenge("c1");
    ASSERT_TRUE(c1 && *c1);
    EXPECT_EQ((*c1)->clockInitial, 30000);
    EXPECT_EQ((*c1)->side, "1");
    EXPECT_EQ((*c1)->status, "pending");
    EXPECT_EQ(store_->pendingChallenges(b->id, 10)->size(), 2u);
    // Settled once: a second answer finds it no longer pending.
    auto d = store_->settleChallenge("c1", "declined", "too_fast", 10);
    ASSERT_TRUE(d && *d);
    EXPECT_EQ((*d)->reason, "too_fast");
    EXPECT_FALSE(*store_->settleChallenge("c1", "accepted", "", 10));
    // Expired by time: not pending any more, and marked once.
    auto gone = store_->expireChallenges(1000);
    ASSERT_TRUE(gone);
    ASSERT_EQ(gone->size(), 1u);
    EXPECT_EQ((*gone)[0].id, "c2");
    EXPECT_TRUE(store_->expireChallenges(2000)->empty());
    EXPECT_FALSE(*store_->settleChallenge("c2", "accepted", "", 1001));
    EXPECT_EQ(*store_->insertChallenge(make("c4", 2000), 2, 50), ChallengeInsert::Created)
        << "lapsed ones no longer count";
    // Settings.
    EXPECT_EQ(store_->challengeSettings(b->id)->from, "everyone");
    EXPECT_FALSE(store_->setChallengeSettings(b->id, {"followed", false}));
    reopen();
    EXPECT_EQ(store_->challengeSettings(b->id)->from, "followed");
    EXPECT_FALSE(store_->challengeSettings(b->id)->bots);
}

TEST_P(StoreTest, FollowsAreCappedWithTheirGamesInPlay) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    auto c = store_->createPlayer("pC", "hc", "carol");
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(*store_->follow(a->id, b->id, 1, 1), FollowResult::Added);
    EXPECT_EQ(*store_->follow(a->id, b->id, 1, 1), FollowResult::Already);
    EXPECT_EQ(*store_->follow(a->id, c->id, 1, 1), FollowResult::Full);
    EXPECT_TRUE(*store_->follows(a->id, b->id));
    EXPECT_FALSE(*store_->follows(b->id, a->id));
    GameRow g;
    g.id = "g1";
    g.creator = g.player[0] = b->id;
    g.player[1] = c->id;
    g.status = GameStatus::Playing;
    ASSERT_FALSE(store_->insertGame(g));
    auto list = store_->following(a->id);
    ASSERT_TRUE(list);
    ASSERT_EQ(list->size(), 1u);
    EXPECT_EQ((*list)[0].player.publicId, "pB");
    EXPECT_EQ((*list)[0].games, std::vector<std::string>{"g1"});
    EXPECT_EQ(*store_->followers(b->id, 10), std::vector<std::int64_t>{a->id});
    EXPECT_TRUE(*store_->unfollow(a->id, b->id));
    EXPECT_FALSE(*store_->unfollow(a->id, b->id));
    EXPECT_EQ(*store_->follow(a->id, c->id, 1, 1), FollowResult::Added);
}

TEST_P(StoreTest, BlocksAreCappedAndListed) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    auto c = store_->createPlayer("pC", "hc", "carol");
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(*store_->block(a->id, b->id, 1, 1), BlockResult::Added);
    EXPECT_EQ(*store_->block(a->id, b->id, 1, 1), BlockResult::Already);
    EXPECT_EQ(*store_->block(a->id, c->id, 1, 1), BlockResult::Full);
    EXPECT_EQ(*store_->block(c->id, b->id, 1, 1), BlockResult::Added);
    EXPECT_TRUE(*store_->blocks(a->id, b->id));
    EXPECT_FALSE(*store_->blocks(b->id, a->id));
    auto blockers = *store_->blockersOf(b->id, 10);
    std::sort(blockers.begin(), blockers.end());
    EXPECT_EQ(blockers, (std::vector<std::int64_t>{a->id, c->id}));
    auto list = store_->blockedBy(a->id);
    ASSERT_TRUE(list);
    ASSERT_EQ(list->size(), 1u);
    EXPECT_EQ((*list)[0].name, "bob");
    EXPECT_TRUE(*store_->unblock(a->id, b->id));
    EXPECT_FALSE(*store_->unblock(a->id, b->id));
    EXPECT_EQ(*store_->blockersOf(b->id, 10), std::vector<std::int64_t>{c->id});
}

TEST_P(StoreTest, ReportsAreLimitedPerReporterAndClosedOnceWithALogLine) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    ASSERT_TRUE(a && b);
    ReportRow r;
    r.reporter = a->id;
    r.target = b->id;
    r.reason = "insult";
    r.text = "rude in chat";
    r.created = 1000;
    auto first = store_->addReport(r, 2, 0);
    ASSERT_TRUE(first && *first);
    r.created = 2000;
    ASSERT_TRUE(*store_->addReport(r, 2, 0));
    EXPECT_FALSE(*store_->addReport(r, 2, 0));    // the limit, in the window
    EXPECT_TRUE(*store_->addReport(r, 2, 1500));  // a later window counts one
    auto open = store_->reports("open", 10);
    ASSERT_TRUE(open);
    ASSERT_EQ(open->size(), 3u);
    EXPECT_EQ((*open)[0].id, **first);
    EXPECT_EQ((*open)[0].reporterName, "alice");
    EXPECT_EQ((*open)[0].targetName, "bob");
    EXPECT_EQ((*open)[0].text, "rude in chat");
    EXPECT_TRUE(*store_->closeReport(**first, a->id, "warned", 3000));
    EXPECT_FALSE(*store_->closeReport(**first, a->id, "again", 3001));
    EXPECT_FALSE(*store_->closeReport(9999, a->id, "unknown", 3002));
    EXPECT_EQ(store_->reports("open", 10)->size(), 2u);
    EXPECT_EQ(store_->reports("", 10)->size(), 3u);
    auto log = store_->moderationLog(10);
    ASSERT_TRUE(log);
    ASSERT_EQ(log->size(), 1u);
    EXPECT_EQ((*log)[0].action, "close_report");
    EXPECT_EQ((*log)[0].actorName, "alice");
    EXPECT_EQ((*log)[0].targetName, "bob");
    EXPECT_EQ((*log)[0].reason, "report " + std::to_string(**first) + ": warned");
    EXPECT_EQ((*log)[0].at, 3000);
}

TEST_P(StoreTest, RolesBansAndMutesAreLoggedAndABanRevokesTokens) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(a);
    ASSERT_FALSE(store_->addToken(a->id, "ha2"));
    EXPECT_TRUE(*store_->setRole(a->id, "moderator", true, 0, "trusted", 10));
    EXPECT_FALSE(*store_->setRole(a->id, "moderator", true, 0, "twice", 11));
    EXPECT_EQ(*store_->roles(a->id), std::vector<std::string>{"moderator"});
    EXPECT_TRUE(*store_->setRole(a->id, "moderator", false, 0, "", 12));
    EXPECT_TRUE(store_->roles(a->id)->empty());

    ASSERT_FALSE(store_->sanction({a->id, "mute", 5000, 0, "spam", 0}, 20));
    auto mute = store_->activeSanction(a->id, "mute", 4999);
    ASSERT_TRUE(mute && *mute);
    EXPECT_EQ((*mute)->until, 5000);
    EXPECT_EQ((*mute)->reason, "spam");
    EXPECT_FALSE(*store_->activeSanction(a->id, "mute", 5000));  // over
    EXPECT_FALSE(*store_->activeSanction(a->id, "ban", 0));
    EXPECT_TRUE(*store_->playerByTokenHash("ha"));

    ASSERT_FALSE(store_->sanction({a->id, "ban", 0, 0, "abuse", 0}, 30));
    EXPECT_TRUE(*store_->activeSanction(a->id, "ban", 1'000'000'000));
    EXPECT_FALSE(*store_->playerByTokenHash("ha"));  // every session ends
    EXPECT_FALSE(*store_->playerByTokenHash("ha2"));
    EXPECT_TRUE(*store_->liftSanction(a->id, "ban", 0, "appeal", 40));
    EXPECT_FALSE(*store_->liftSanction(a->id, "ban", 0, "again", 41));
    EXPECT_FALSE(*store_->activeSanction(a->id, "ban", 50));

    auto log = store_->moderationLog(10);
    ASSERT_TRUE(log);
    std::vector<std::string> actions;
    for (const auto& l : *log) actions.push_back(l.action + " " + l.actorName + " " + l.targetName);
    EXPECT_EQ(actions, (std::vector<std::string>{
                           "unban operator alice", "ban operator alice", "mute operator alice",
                           "revoke moderator operator alice", "grant moderator operator alice"}));
    EXPECT_EQ((*log)[2].reason, "spam; until 5000");
}

TEST_P(StoreTest, AnExportHoldsThePlayersDataAndClosingAnAccountKeepsItsGames) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    ASSERT_TRUE(a && b);
    ASSERT_EQ(*store_->registerAccount(a->id, "Alice", "hash"), Registration::Registered);
    GameRow g;
    g.id = "g1";
    g.creator = g.player[0] = a->id;
    g.player[1] = b->id;
    g.status = GameStatus::Playing;
    ASSERT_FALSE(store_->insertGame(g));
    const std::string mine =
        R"({"type":"chat","from":{"id":"pA","name":"Alice"},"text":"hi bob","at":5})";
    const std::string theirs =
        R"({"type":"chat","from":{"id":"pB","name":"bob"},"text":"hi \"pA\"","at":6})";
    ASSERT_FALSE(store_->saveChat("g1", {1, 0, mine}));
    ASSERT_FALSE(store_->saveChat("g1", {2, 0, theirs}));
    ASSERT_TRUE(*store_->addNotification(a->id, "followed", R"({"by":{"id":"pB"}})", 7));
    ASSERT_EQ(*store_->block(a->id, b->id, 8, 10), BlockResult::Added);
    ASSERT_EQ(*store_->follow(b->id, a->id, 9, 10), FollowResult::Added);
    auto exported = store_->exportPlayer(a->id);
    ASSERT_TRUE(exported && *exported);
    const auto j = nlohmann::json::parse(**exported);
    EXPECT_EQ(j["profile"]["id"], "pA");
    EXPECT_EQ(j["account"]["username"], "Alice");
    ASSERT_EQ(j["games"].size(), 1u);
    EXPECT_EQ(j["games"][0]["game"], "g1");
    EXPECT_EQ(j["games"][0]["side"], "1");
    ASSERT_EQ(j["chat"].size(), 1u) << "only the lines it wrote";
    EXPECT_EQ(j["chat"][0]["text"], "hi bob");
    EXPECT_EQ(j["notifications"].size(), 1u);
    EXPECT_EQ(j["blocks"][0]["name"], "bob");
    EXPECT_FALSE(*store_->exportPlayer(9999));

    EXPECT_TRUE(*store_->closeAccount(a->id, 0, "asked by the player", 10));
    EXPECT_FALSE(*store_->playerByTokenHash("ha"));     // every session ends
    EXPECT_FALSE(*store_->accountByUsername("alice"));  // the name is free
    auto kept = store_->loadGame("g1");                 // the game stays, the player renamed
    ASSERT_TRUE(kept && *kept);
    EXPECT_EQ((*kept)->game.player[0], a->id);
    ASSERT_EQ((*kept)->chat.size(), 1u);
    EXPECT_EQ((*kept)->chat[0].line, theirs);
    EXPECT_EQ((*store_->playerById(a->id))->name, "deleted player");
    EXPECT_TRUE(store_->following(b->id)->empty());
    EXPECT_EQ(*store_->unreadNotifications(a->id), 0);
    EXPECT_EQ(store_->moderationLog(1)->at(0).action, "close_account");
    EXPECT_FALSE(*store_->closeAccount(9999, 0, "", 11));
}

// PostgreSQL only: a connection the server closed (a restart, an administrator) is reopened, and
// the store goes on working. A read is retried on the new connection; a write that finds the
// connection dead may fail (it is never retried blindly: it might have been committed), once.
// (SQLite has no connection to lose: this suite is instantiated for PostgreSQL alone, so that no
// test is reported as skipped on a run that has both backends.)
class PostgresStoreTest : public StoreTest {};
INSTANTIATE_TEST_SUITE_P(Backends, PostgresStoreTest, ::testing::Values(Dialect::Postgres),
                         [](const auto&) { return "Postgres"; });

TEST_P(PostgresStoreTest, ReconnectsAfterLosingItsConnection) {
    auto a = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(a);
    auto terminate = [&] {
        const std::string others = " FROM pg_stat_activity WHERE datname = '" + pg_->name() +
                                   "' AND pid <> pg_backend_pid()";
        EXPECT_EQ(pg_->execMaintenance("SELECT pg_terminate_backend(pid)" + others), "");
        for (int i = 0; i < 200 && pg_->query("SELECT count(*)" + others) != "0"; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    };
    terminate();
    auto p = ok(store_->playerByTokenHash("ha"));  // a read
    ASSERT_TRUE(p);
    EXPECT_EQ(p->id, a->id);
    terminate();
    if (store_->renamePlayer(a->id, "alicia")) {  // a write
        ASSERT_FALSE(store_->renamePlayer(a->id, "alicia"));
    }
    terminate();
    auto b = store_->createPlayer("pB", "hb", "bob");  // a transaction
    if (!b) b = store_->createPlayer("pB", "hb", "bob");
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(ok(store_->playerById(a->id))->name, "alicia");
    EXPECT_EQ(ok(store_->playerById(b->id))->name, "bob");
}

TEST(StoreTarget, PostgresUrisAreRecognizedAndTheirPasswordsHidden) {
    EXPECT_TRUE(isPostgresTarget("postgresql://u@h/db"));
    EXPECT_TRUE(isPostgresTarget("postgres:///db?host=/tmp"));
    EXPECT_FALSE(isPostgresTarget("rainet.db"));
    EXPECT_FALSE(isPostgresTarget("/var/lib/postgresql.db"));
    EXPECT_EQ(redactTarget("rainet.db"), "rainet.db");
    EXPECT_EQ(redactTarget("postgresql://u@h/db"), "postgresql://u@h/db");
    EXPECT_EQ(redactTarget("postgresql://u:s3cret@h:5432/db"), "postgresql://u:***@h:5432/db");
    EXPECT_EQ(redactTarget("postgres://h/db?user=u&password=s3cret&sslmode=require"),
              "postgres://h/db?user=u&password=***&sslmode=require");
}

// A failing store answers every read with an error, never with "there is none" (a missing
// player would become a new guest), and every write with an error; once it works again, nothing
// was changed.
TEST_P(StoreTest, AFailureIsAnErrorNotAnAbsence) {
    reopen(true);
    auto a = store_->createPlayer("pA", "ha", "alice");
    ASSERT_TRUE(a);
    GameRow g;
    g.id = "g1";
    g.creator = g.player[0] = a->id;
    ASSERT_FALSE(store_->insertGame(g));
    ASSERT_TRUE(store_->injectFaults(true));
    EXPECT_FALSE(store_->playerByTokenHash("ha"));
    EXPECT_FALSE(store_->playerByTokenHash("unknown"));
    EXPECT_FALSE(store_->playerById(a->id));
    EXPECT_FALSE(store_->playerByPublicId("pA"));
    EXPECT_FALSE(store_->accountByUsername("alice"));
    EXPECT_FALSE(store_->playerStats("pA"));
    EXPECT_FALSE(store_->loadGame("g1"));
    EXPECT_FALSE(store_->loadUnfinished());
    EXPECT_FALSE(store_->listGames("", "", std::nullopt, 10));
    EXPECT_FALSE(store_->leaderboard(std::nullopt, 10));
    EXPECT_FALSE(store_->ratedPlayers());
    EXPECT_FALSE(store_->createPlayer("pB", "hb", "bob"));
    EXPECT_TRUE(store_->renamePlayer(a->id, "alicia"));
    g.version = 1;
    EXPECT_TRUE(store_->saveAction(g, {0, "d2-d3", "1", 0, 1}));
    ASSERT_TRUE(store_->injectFaults(false));
    auto back = ok(store_->playerByTokenHash("ha"));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->name, "alice");
    EXPECT_FALSE(ok(store_->playerByTokenHash("hb")));
    EXPECT_TRUE(ok(store_->loadGame("g1"))->actions.empty());
    // Without fault injection enabled at open, the switch does nothing.
    reopen();
    EXPECT_FALSE(store_->injectFaults(true));
    EXPECT_TRUE(ok(store_->playerById(a->id)));
}

// A connection the store cannot open now (the database server down for a moment, or refusing
// more) is tried again later: no call waits for good for a connection that is never opened, and
// the pool's bound is not lowered for good.
TEST_P(StoreTest, AConnectionThatCannotBeOpenedIsTriedAgainLater) {
    reopen(true);
    ASSERT_TRUE(store_->createPlayer("pA", "ha", "alice"));
    const auto before = store_->connectionsOpen();
    // Reads from several threads at once want more connections than are open.
    auto overlappingReads = [&] {
        std::vector<std::thread> threads;
        for (int i = 0; i < 8; ++i)
            threads.emplace_back([&] {
                for (int k = 0; k < 20; ++k) (void)store_->playerByTokenHash("ha");
            });
        for (auto& t : threads) t.join();
    };
    ASSERT_TRUE(store_->injectFaults(true));
    overlappingReads();  // none can be opened: each read fails, none waits for good
    EXPECT_FALSE(store_->playerByTokenHash("ha"));
    EXPECT_EQ(store_->connectionsOpen().readers, before.readers);
    EXPECT_EQ(store_->connectionsOpen().writers, before.writers);
    ASSERT_TRUE(store_->injectFaults(false));
    // SQLite opens its readers, PostgreSQL more connections, once they can be opened again.
    const bool sqlite = GetParam() == Dialect::Sqlite;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    bool grew = false;
    while (!grew && std::chrono::steady_clock::now() < deadline) {
        overlappingReads();
        const auto now = store_->connectionsOpen();
        grew = sqlite ? now.readers > before.readers : now.writers > before.writers;
        if (!grew) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(grew) << "the pool did not open a connection after the fault ended";
    EXPECT_TRUE(ok(store_->playerByTokenHash("ha")));
}

// Listings page by key, not by offset: following `after` from page to page visits every row
// once, in order, even when many rows tie on the first sort key.
TEST_P(StoreTest, KeysetPagesVisitEveryRowOnceInOrder) {
    auto gameId = [](int i) {
        std::string id(1, 'g');
        return id.append(std::to_string(100 + i));
    };
    auto a = store_->createPlayer("pA", "ha", "alice");
    auto b = store_->createPlayer("pB", "hb", "bob");
    std::vector<std::string> expected;  // newest first, then by id
    for (int i = 0; i < 23; ++i) {
        GameRow g = finishedGame(gameId(i), a->id, b->id, "1-0", true);
        g.created = 1000 + i / 4;  // ties of four
        ASSERT_FALSE(store_->insertGame(g));
        if (i % 3 == 0) {
            ASSERT_TRUE(store_->finishGame(g));  // rates players: some ties too
        }
    }
    for (int c = 1005; c >= 1000; --c) {
        for (int i = 0; i < 23; ++i) {
            if (1000 + i / 4 == c) expected.push_back(gameId(i));
        }
    }
    for (const std::string player : {"", "pA"}) {
        std::vector<std::string> seen;
        std::optional<GameKey> after;
        for (int page = 0; page < 10; ++page) {
            auto rows = ok(store_->listGames(player, "finished", after, 5));
            for (const auto& r : rows) seen.push_back(r.game.id);
            if (rows.size() < 5) break;
            after = GameKey{rows.back().game.created, rows.back().game.id};
        }
        EXPECT_EQ(seen, expected) << "player '" << player << "'";
    }
    // The leaderboard: two players, one row each page.
    auto first = ok(store_->leaderboard(std::nullopt, 1));
    ASSERT_EQ(first.size(), 1u);
    auto second =
        ok(store_->leaderboard(RankKey{first[0].rating, first[0].ratedGames, first[0].id}, 1));
    ASSERT_EQ(second.size(), 1u);
    EXPECT_NE(second[0].id, first[0].id);
    EXPECT_LE(second[0].rating, first[0].rating);
    EXPECT_TRUE(
        ok(store_->leaderboard(RankKey{second[0].rating, second[0].ratedGames, second[0].id}, 1))
            .empty());
}

// Group commit: actions queued together from many games are committed together, each caller
// told after its batch committed; a write that fails its batch (a ply stored twice) fails alone.
TEST_P(StoreTest, BatchedActionsAreEachCommittedOrFailedAlone) {
    constexpr int kGames = 20, kPlies = 10;
    const std::vector<GameRow> games = gamesInPlay(kGames, "g");
    Answers answers;
    for (int ply = 0; ply < kPlies; ++ply)
        for (int i = 0; i < kGames; ++i)
            store_->saveActionBatched(games[i], {ply, "d2-d3", "", 0, ply + 1}, answers.callback());
    store_->saveActionBatched(games[3], {4, "a1-a2", "", 0, 5}, answers.callback());  // ply 4 again
    ASSERT_TRUE(answers.waitFor(kGames * kPlies + 1));
    EXPECT_EQ(answers.failed, 1);
    EXPECT_GE(store_->batchesSplit(), 1u);
    for (int i = 0; i < kGames; ++i) {
        auto d = ok(store_->loadGame(games[i].id));
        ASSERT_TRUE(d);
        ASSERT_EQ(d->actions.size(), static_cast<std::size_t>(kPlies));
        EXPECT_EQ(d->actions[4].action, "d2-d3");
        EXPECT_EQ(d->game.version, kPlies);
    }
}

// Batched actions keep every field exactly (on PostgreSQL a batch is one statement, its columns
// passed as array literals): request ids that are any JSON, with quotes, backslashes, braces,
// commas and non-ASCII text, empty ones (the computer's), large clocks.
TEST_P(StoreTest, BatchedActionsKeepEveryFieldExactly) {
    const std::vector<std::string> ids = {"1",
                                          "\"plain\"",
                                          "\"q\\\"uote\"",
                                          "\"back\\\\slash\"",
                                          "{\"a\":[1,\"}\"]}",
                                          "\"{x,y}\"",
                                          "\"NULL\"",
                                          "",
                                          "\"\u00e9 \u2713\"",
                                          "[\"\",\"]",
                                          "\"é ✓ 漢\"",
                                          "-0.5e3"};
    constexpr int kGames = 6;
    const std::vector<GameRow> games = gamesInPlay(kGames, "exact");
    Answers answers;
    const int plies = static_cast<int>(ids.size());
    auto row = [&](int game, int ply) {
        std::string action = "b";  // built piecewise: g++ 12 warns wrongly on a + chain here
        action += std::to_string(ply % 8 + 1);
        action += "-c";
        action += std::to_string(game + 1);
        return ActionRow{ply, action, ids[static_cast<std::size_t>((ply + game) % plies)],
                         std::int64_t{9'000'000'000'000} + game * 1000 + ply, ply + 1};
    };
    for (int ply = 0; ply < plies; ++ply)
        for (int i = 0; i < kGames; ++i)
            store_->saveActionBatched(games[i], row(i, ply), answers.callback());
    ASSERT_TRUE(answers.waitFor(kGames * plies));
    EXPECT_EQ(answers.failed, 0);
    EXPECT_EQ(store_->batchesSplit(), 0u);  // written as batches, not one by one after a failure
    for (int i = 0; i < kGames; ++i) {
        auto d = ok(store_->loadGame(games[i].id));
        ASSERT_TRUE(d);
        ASSERT_EQ(d->actions.size(), ids.size());
        for (int ply = 0; ply < plies; ++ply) {
            const ActionRow want = row(i, ply);
            const ActionRow& got = d->actions[static_cast<std::size_t>(ply)];
            EXPECT_EQ(got.ply, want.ply);
            EXPECT_EQ(got.action, want.action);
            EXPECT_EQ(got.clientId, want.clientId) << "game " << i << " ply " << ply;
            EXPECT_EQ(got.clockAfter, want.clockAfter);
            EXPECT_EQ(got.version, want.version);
        }
    }
}

// The store's executor: write jobs run on the writer thread in their place among the batched
// actions (a game's writes commit in the order they were queued), each seeing what was queued
// before it committed.
TEST_P(StoreTest, WriteJobsRunInQueueOrderAmongBatchedActions) {
    const GameRow g = gameInPlay();
    std::mutex mu;
    std::condition_variable cv;
    std::vector<int> order;
    std::vector<std::size_t> seen;  // actions stored when each job ran
    auto record = [&](int n) {
        std::lock_guard lock(mu);
        order.push_back(n);
        cv.notify_all();
    };
    constexpr int kRounds = 10;
    for (int i = 0; i < kRounds; ++i) {
        store_->saveActionBatched(g, {i, "d2-d3", "", 0, i + 1}, [&, i](std::optional<Error> e) {
            EXPECT_FALSE(e);
            record(2 * i);
        });
        store_->write([&, i] {
            auto d = store_->loadGame("g1");
            std::size_t n = d && *d ? (**d).actions.size() : 0;
            {
                std::lock_guard lock(mu);
                seen.push_back(n);
            }
            record(2 * i + 1);
        });
    }
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60),
                                [&] { return order.size() == 2 * kRounds; }));
    }
    for (int i = 0; i < 2 * kRounds; ++i) EXPECT_EQ(order[i], i);
    for (int i = 0; i < kRounds; ++i) EXPECT_EQ(seen[i], static_cast<std::size_t>(i + 1));
}

// A read made slow on demand (test mode) holds its reader thread only: writes and their
// callbacks go on meanwhile, and releasing the delay lets the read finish.
TEST_P(StoreTest, ASlowReadStallsNoWrite) {
    reopen(true);
    const GameRow g = gameInPlay();
    ASSERT_TRUE(store_->delayReads(600000));
    std::mutex mu;
    std::condition_variable cv;
    bool read = false, written = false;
    std::size_t listed = 0;
    store_->read([&] {
        auto rows = store_->listGames("", "", std::nullopt, 10);
        std::lock_guard lock(mu);
        listed = rows ? rows->size() : 0;
        read = true;
        cv.notify_all();
    });
    // Synced on the read being held in the delay, then a write goes through.
    while (store_->readsDelayed() == 0) std::this_thread::yield();
    store_->saveActionBatched(g, {0, "d2-d3", "", 0, 1}, [&](std::optional<Error> e) {
        EXPECT_FALSE(e);
        std::lock_guard lock(mu);
        written = true;
        cv.notify_all();
    });
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return written; }));
        EXPECT_FALSE(read);  // still held
    }
    ASSERT_TRUE(store_->delayReads(0));
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return read; }));
    }
    EXPECT_EQ(listed, 1u);
    EXPECT_EQ(store_->readsDelayed(), 0u);
}

}  // namespace
}  // namespace rainet::store

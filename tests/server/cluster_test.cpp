// Two `rainet serve --redis` nodes on one throwaway PostgreSQL database and one throwaway
// redis-server (docs/scaling.md): a game whose owner is killed (-9) is taken over by
// the other node after its lease and goes on with nothing acknowledged lost, nothing applied
// twice and the clock of the side to move not charged for the gap; an owner stopped (SIGSTOP)
// past its lease and woken again commits and sends nothing more for the game. Skipped when
// RAINET_TEST_PG is not set or redis-server is absent (CI has both).
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <csignal>
#include <sstream>

#include "bus/subscriber.h"
#include "players.h"
#include "server/forwarding.h"
#include "support/nginx_test_server.h"
#include "support/postgres_test_cluster.h"
#include "support/postgres_test_db.h"
#include "support/redis_test_server.h"
#include "support/run_command.h"

namespace rainet::test {
namespace {

// Long enough that a node starved by a loaded machine still renews in time (every ttl/3).
constexpr int kLeaseMs = 3000;

class Cluster : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!postgresTestUri()) GTEST_SKIP() << "RAINET_TEST_PG is not set";
        if (!haveRedisServer()) GTEST_SKIP() << "no /usr/bin/redis-server";
        redis_ = std::make_unique<RedisServer>();
        db_ = std::make_unique<PostgresTestDb>(
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        ASSERT_TRUE(db_->error().empty()) << db_->error();
    }
    std::unique_ptr<ServerProcess> node(const std::string& id,
                                        const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args{"--redis", redis_->address(), "--node-id",
                                      id,        "--lease-ms",      std::to_string(kLeaseMs)};
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<ServerProcess>(
            dbPath("cluster_" + id),
            ServerProcess::SharedDb{pg_ ? pg_->uri() + pgParams_ : db_->uri()}, args);
    }
    // The node's /healthz once `pred` holds of it (polled: the node's sweep is its own).
    static Json healthWhen(ServerProcess& n, const std::function<bool(const Json&)>& pred) {
        Json last;
        for (int i = 0; i < 200; ++i) {
            auto [status, body] = n.http("GET", "/healthz");
            last = Json::parse(body, nullptr, false);
            if (status == 200 && !last.is_discarded() && pred(last)) return last;
            std::this_thread::sleep_for(50ms);
        }
        ADD_FAILURE() << "healthz never matched; last: " << last.dump();
        return last;
    }
    // The node's /healthz, whatever its status, once `pred` holds of it (polled).
    static Json healthAnyWhen(ServerProcess& n, const std::function<bool(const Json&)>& pred) {
        Json last;
        for (int i = 0; i < 200; ++i) {
            auto [status, body] = n.http("GET", "/healthz");
            last = Json::parse(body, nullptr, false);
            if (!last.is_discarded() && pred(last)) return last;
            std::this_thread::sleep_for(50ms);
        }
        ADD_FAILURE() << "healthz never matched; last: " << last.dump();
        return last;
    }
    // The actions stored for game `g`: count, distinct plies, and the ply numbers 0..n-1 whole.
    long storedActions(const std::string& g) {
        const std::string n = query("SELECT count(*) FROM actions WHERE game = '" + g + "'");
        const std::string distinct =
            query("SELECT count(DISTINCT ply) FROM actions WHERE game = '" + g + "'");
        const std::string top =
            query("SELECT coalesce(max(ply) + 1, 0) FROM actions WHERE game = '" + g + "'");
        EXPECT_EQ(n, distinct);
        EXPECT_EQ(n, top);  // no gap
        return std::stol(n);
    }
    // The actions stored for game `g`, in ply order, joined by spaces.
    std::string storedSequence(const std::string& g) {
        return query(
            "SELECT coalesce(string_agg(action, ' ' ORDER BY ply), '') FROM actions "
            "WHERE game = '" +
            g + "'");
    }
    // After a's outage: both nodes reach the database again and one of them (whichever round
    // comes first) holds the orphaned game's lease; the players come back (on a and b, with
    // their tokens) to the acknowledged state at version `v`, finish the game, and the store
    // holds exactly the acknowledged actions.
    void resumeOnTheNewOwnerAndFinish(const std::string& g, long v, const std::string& tokenA,
                                      const std::string& tokenB, int firstIdB,
                                      std::vector<std::string>& acked, std::mt19937& rng) {
        ServerProcess *a = a_.get(), *b = b_.get();
        bool held = false;
        for (int i = 0; i < 200 && !held; ++i) {
            const Json ha = healthAnyWhen(*a, [](const Json&) { return true; }),
                       hb = healthAnyWhen(*b, [](const Json&) { return true; });
            held = ha["database"] == "up" && hb["database"] == "up" &&
                   ha["leases"].get<int>() + hb["leases"].get<int>() == 1;
            if (!held) std::this_thread::sleep_for(50ms);
        }
        ASSERT_TRUE(held) << "nobody took the game over";
        Player qa(a->port(), tokenA), qb(b->port(), tokenB, firstIdB);
        for (Player* p : {&qa, &qb}) {
            const Json snap = snapshotOf(*p, g);
            EXPECT_EQ(snap["v"], v);
            EXPECT_EQ(snap["history"].size(), acked.size());
        }
        playToEnd(qa, qb, g, rng, acked);
        EXPECT_EQ(qa.game(g).status, "finished");
        EXPECT_EQ(qb.game(g).status, "finished");
        EXPECT_EQ(storedSequence(g), joined(acked));
        EXPECT_EQ(storedActions(g), static_cast<long>(acked.size()));
    }
    void TearDown() override {
        // A test that failed while its cluster was stalled: woken before the nodes stop.
        if (pg_) (void)pg_->resume();
    }
    std::string query(const std::string& sql) { return pg_ ? pg_->query(sql) : db_->query(sql); }
    // Nodes started from now on use a PostgreSQL cluster of the test's own, which it may stop
    // and start (support/postgres_test_cluster.h), instead of a database of the shared one.
    void usePrivateCluster() {
        pg_ = std::make_unique<PostgresTestCluster>(sourceDir());
        ASSERT_TRUE(pg_->error().empty()) << pg_->error();
    }
    // Nodes "a" and "b" (a_, b_) on the test's database and Redis.
    void startTwoNodes() {
        a_ = node("a");
        b_ = node("b");
        ASSERT_NE(a_->port(), 0);
        ASSERT_NE(b_->port(), 0);
    }
    std::unique_ptr<RedisServer> redis_;
    std::unique_ptr<PostgresTestDb> db_;
    std::unique_ptr<PostgresTestCluster> pg_;
    std::string pgParams_;  // appended to the private cluster's URI for the nodes
    std::unique_ptr<ServerProcess> a_, b_;
};

// A WebSocket upgrade request on `port` as if from `forwardedFor` (behind a trusted proxy): the
// response, its socket closed on return.
boost::beast::http::response<boost::beast::http::string_body> upgrade(
    int port, const std::string& forwardedFor) {
    namespace asio = boost::asio;
    namespace http = boost::beast::http;
    asio::io_context io;
    asio::ip::tcp::socket s(io);
    s.connect({asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
    const std::string raw =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        "X-Forwarded-For: " +
        forwardedFor + "\r\n\r\n";
    asio::write(s, asio::buffer(raw));
    boost::beast::flat_buffer buf;
    http::response<http::string_body> res;
    boost::beast::error_code ec;
    http::read(s, buf, res, ec);
    EXPECT_FALSE(ec) << "no HTTP response: " << ec.message();
    return res;
}

TEST_F(Cluster, PerAddressLimitsCountAcrossNodes) {
    const std::vector<std::string> limits{"--max-per-address", "3", "--trust-proxy",
                                          "127.0.0.1/32"};
    a_ = node("a", limits);
    b_ = node("b", limits);
    ASSERT_NE(a_->port(), 0);
    ASSERT_NE(b_->port(), 0);
    // Three connections of one address spread over both nodes: the fourth is refused by either,
    // once each node's sync round has seen the other's (every 100 ms or sooner; an upgrade
    // admitted meanwhile closes at once: the overshoot window of docs/scaling.md).
    auto c1 = std::make_unique<WsClient>(a_->port(), "10.1.0.1");
    WsClient c2(b_->port(), "10.1.0.1"), c3(a_->port(), "10.1.0.1");
    for (ServerProcess* n : {b_.get(), a_.get()}) {
        auto refused = upgrade(n->port(), "10.1.0.1");
        for (int i = 0; i < 200 && refused.result_int() == 101; ++i) {
            std::this_thread::sleep_for(10ms);
            refused = upgrade(n->port(), "10.1.0.1");
        }
        EXPECT_EQ(refused.result_int(), 503);
        EXPECT_EQ(refused[boost::beast::http::field::retry_after], "10");
    }
    EXPECT_EQ(upgrade(b_->port(), "10.1.0.2").result_int(), 101) << "another address is free";
    // A connection closed on one node frees its place on the other.
    c1.reset();
    bool freed = false;
    for (int i = 0; i < 500 && !freed; ++i) {
        freed = upgrade(b_->port(), "10.1.0.1").result_int() == 101;
        if (!freed) std::this_thread::sleep_for(10ms);
    }
    EXPECT_TRUE(freed);

    // Failed logins on a throttle the same (address, username) on b, not another address.
    {
        Player frank(a_->port());
        ASSERT_EQ(frank.request({{"type", "register"},
                                 {"username", "frank"},
                                 {"password", "correct horse battery"}})["type"],
                  "ack");
    }
    WsClient guesser(a_->port(), "10.2.0.1");
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(loginFirst(guesser, "frank", "guess " + std::to_string(i))["code"],
                  "bad_credentials");
    WsClient onB(b_->port(), "10.2.0.1");
    EXPECT_EQ(loginFirst(onB, "frank", "correct horse battery")["code"], "rate_limited");
    WsClient elsewhere(b_->port(), "10.2.0.2");
    EXPECT_EQ(loginFirst(elsewhere, "frank", "correct horse battery")["type"], "welcome");

    // Redis gone: each node falls back to its own counters (fail open), logged once.
    // The others' counts are forgotten at b's first round that fails, not before: wait for it.
    redis_->stop();
    for (int i = 0; i < 200 && b_->logCount("redis_limits_down") == 0; ++i)
        std::this_thread::sleep_for(10ms);
    EXPECT_EQ(b_->logCount("redis_limits_down"), 1);
    EXPECT_EQ(upgrade(b_->port(), "10.1.0.1").result_int(), 101) << "b holds 1 of its own 3";
    EXPECT_EQ(upgrade(b_->port(), "10.1.0.1").result_int(), 101);
    EXPECT_EQ(b_->logCount("redis_limits_down"), 1) << "logged once";
}

TEST_F(Cluster, ANotificationReachesThePlayersConnectionsOnEveryNode) {
    startTwoNodes();
    // A game on node a; b's player also has a connection on node b, which does not follow it.
    Player pa(a_->port()), pb(a_->port());
    const std::string g = startGame(pa, pb);
    Player elsewhere(b_->port(), pb.token(), 2000);
    pb.disconnect();
    pa.take([&](const Json& j) {
        return j["type"] == "presence" && j["game"] == g && j["connected"] == false;
    });
    ASSERT_EQ(pa.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    Json n = elsewhere.take([](const Json& j) { return j["type"] == "notification"; });
    EXPECT_EQ(n["n"]["kind"], "game_ended");
    EXPECT_EQ(n["n"]["data"]["game"], g);
    EXPECT_EQ(n["unread"], 1);
    // Read on node b: a connection of the player on node a hears the new count.
    Player back(a_->port(), pb.token(), 3000);
    EXPECT_EQ(back.welcome()["unread"], 1);
    EXPECT_EQ(elsewhere.request({{"type", "notifications_read"}, {"upTo", n["n"]["id"]}})["type"],
              "ack");
    EXPECT_EQ(back.take([](const Json& j) { return j["type"] == "unread"; })["unread"], 0);
}

TEST_F(Cluster, HealthzNamesTheNodeAndItsLinks) {
    auto a = node("alpha");
    ASSERT_NE(a->port(), 0);
    const Json h = healthWhen(*a, [](const Json& j) { return j["redis"] == "up"; });
    EXPECT_EQ(h["node"], "alpha");
    EXPECT_EQ(h["role"], "cluster");
    EXPECT_EQ(h["database"], "up");
    EXPECT_EQ(h["leases"], 0);
    // Redis gone: 503, and it says which link is down.
    redis_->stop();
    const Json down = [&] {
        for (int i = 0; i < 200; ++i) {
            auto [status, body] = a->http("GET", "/healthz");
            if (status == 503) return Json::parse(body);
            std::this_thread::sleep_for(50ms);
        }
        return Json();
    }();
    EXPECT_EQ(down["redis"], "down") << down.dump();
    EXPECT_EQ(down["database"], "up");
}

// Flags only: runs without PostgreSQL or Redis.
TEST(ClusterFlags, RedisNeedsAPostgresDatabase) {
    const CliRun r =
        runRainet("serve --listen 127.0.0.1:0 --db /tmp/x.db --redis unix:/tmp/r.sock");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("--redis needs a postgresql:// --db"), std::string::npos) << r.out;
    const CliRun lease = runRainet("serve --lease-ms 100 --redis unix:/tmp/r.sock");
    EXPECT_NE(lease.status, 0);
    EXPECT_NE(lease.out.find("--lease-ms"), std::string::npos) << lease.out;
    // A node id goes into logs and the lease rows: bounded, and a plain word.
    const std::string base = "serve --db postgresql:///x --redis unix:/tmp/r.sock --node-id ";
    const std::pair<std::string, const char*> bad[] = {
        {std::string(65, 'n'), "--node-id: 1 to 64 characters"},
        {"a.b", "--node-id: letters, digits, - and _ only"},
        {"../n", "--node-id: letters, digits, - and _ only"}};
    for (const auto& [id, why] : bad) {
        const CliRun refused = runRainet(base + id);
        EXPECT_EQ(refused.status, 2) << id;
        EXPECT_NE(refused.out.find(why), std::string::npos) << id << ": " << refused.out;
    }
    const CliRun help = runRainet("serve --help");
    for (const char* flag : {"--redis", "--node-id", "--lease-ms"})
        EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
}

TEST_F(Cluster, AKilledOwnersGameIsTakenOverWithNothingLostOrRepeated) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(7);
    std::string g, tokenA, tokenB, viewA;
    long v = 0;
    long acked = 0;
    Json clocks;
    {
        Player pa(a->port()), pb(a->port());
        g = startGame(pa, pb, {{"clock", {{"initial", 60000}, {"increment", 100}}}});
        // The game is a's: b forwards a watch there rather than load it twice.
        Player probe(b->port());
        EXPECT_EQ(snapshotOf(probe, g)["game"], g);
        EXPECT_EQ(healthWhen(*b, [](const Json&) { return true; })["leases"], 0);
        for (int i = 0; i < 8 && pa.game(g).status == "playing"; ++i, ++acked)
            playOne(pa, pb, g, moverAction(pa, pb, g, rng));
        ASSERT_EQ(pa.game(g).status, "playing");
        // The side to move thinks for 20 s of a's time, then a dies: none of it is stored.
        a->advance(2000);
        tokenA = pa.token();
        tokenB = pb.token();
        viewA = pa.game(g).view;
        v = pa.game(g).v;
        clocks = pa.game(g).clocks;  // as of the last action
        // b's clock runs far ahead: if the restore charged anything it would show.
        b->advance(50000);
        a->kill(SIGKILL);
    }
    // b takes the game over once a's lease expired, by itself (its sweep).
    healthWhen(*b, [](const Json& j) { return j["leases"] == 1; });
    EXPECT_NE(b->logText().find("lease_takeover"), std::string::npos);
    auto [ms, metrics] = b->http("GET", "/metrics");
    EXPECT_NE(metrics.find("rainet_lease_takeovers_total 1"), std::string::npos);

    Player pa(b->port(), tokenA), pb(b->port(), tokenB);
    for (Player* p : {&pa, &pb}) {
        p->ws().send(Json{{"type", "resume"}, {"game", g}, {"v", 0}});
        Json snap = p->take([](const Json& j) { return j["type"] == "snapshot"; });
        EXPECT_EQ(snap["v"], v);
        EXPECT_EQ(static_cast<long>(snap["history"].size()), acked);
        // Not charged for the gap: the side to move has what it had after the last action.
        EXPECT_EQ(snap["clocks"]["1"], clocks["1"]) << snap["clocks"].dump() << clocks.dump();
        EXPECT_EQ(snap["clocks"]["2"], clocks["2"]);
    }
    EXPECT_EQ(pa.game(g).view, viewA);
    EXPECT_EQ(storedActions(g), acked);
    const int more = playRandom(pa, pb, g, rng);
    EXPECT_GT(more, 0);
    EXPECT_EQ(pa.game(g).status, "finished");
    EXPECT_EQ(storedActions(g), acked + more);
}

TEST_F(Cluster, AnOwnerStoppedPastItsLeaseCommitsAndSendsNothingOnceWoken) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(3);
    Player pa(a->port()), pb(a->port());
    const std::string g = startGame(pa, pb);
    for (int i = 0; i < 4; ++i) playOne(pa, pb, g, moverAction(pa, pb, g, rng));
    const long v = pa.game(g).v;
    Player& mover = pa.game(g).legal.empty() ? pb : pa;
    const std::string action = moverAction(pa, pb, g, rng);
    const std::size_t seenA = pa.ws().log().size(), seenB = pb.ws().log().size();

    a->signal(SIGSTOP);
    // Sent to the stopped owner: it waits in the socket until a wakes.
    mover.ws().send(Json{{"type", "act"}, {"id", 999}, {"game", g}, {"action", action}, {"v", v}});
    healthWhen(*b, [](const Json& j) { return j["leases"] == 1; });  // b took it over
    Player qa(b->port(), pa.token()), qb(b->port(), pb.token());
    for (Player* p : {&qa, &qb}) snapshotOf(*p, g);
    for (int i = 0; i < 2; ++i) playOne(qa, qb, g, moverAction(qa, qb, g, rng));
    const long stored = storedActions(g);
    EXPECT_EQ(stored, 6);

    a->signal(SIGCONT);
    // a wakes past its lease: it closes its clients of the game (1012: reconnect) without
    // committing the action waiting for it or sending anything about the game.
    EXPECT_EQ(pa.ws().closeCode(), 1012);
    EXPECT_EQ(pb.ws().closeCode(), 1012);
    for (auto [p, seen] : {std::pair{&pa, seenA}, std::pair{&pb, seenB}}) {
        const auto log = p->ws().log();
        for (std::size_t i = seen; i < log.size(); ++i) ADD_FAILURE() << "a sent: " << log[i];
    }
    EXPECT_EQ(storedActions(g), stored);
    EXPECT_NE(a->logText().find("game_evicted"), std::string::npos) << a->logText();
    // The game goes on at b, whose clients saw nothing of a's.
    playOne(qa, qb, g, moverAction(qa, qb, g, rng));
    EXPECT_EQ(storedActions(g), stored + 1);
}

// --- Forwarding: clients on a node that does not own their game ---

// The messages of `p` from index `from` on, acks left out (a player's acks go to the connection
// that acted only).
std::vector<std::string> withoutAcks(Player& p, std::size_t from) {
    std::vector<std::string> out;
    const auto log = p.ws().log();
    for (std::size_t i = from; i < log.size(); ++i)
        if (Json::parse(log[i])["type"] != "ack") out.push_back(log[i]);
    return out;
}

// A guest stored by node `home`, for a connection to another node: test-mode nodes draw ids
// from one sequence each, so two nodes' new guests would collide on one shared database.
std::string storedGuest(ServerProcess& home) {
    Player p(home.port());
    EXPECT_EQ(p.request({{"type", "rename"}, {"name", "remote"}})["type"], "ack");
    return p.token();
}

std::int64_t metricOf(ServerProcess& n, const std::string& name) {
    auto [status, body] = n.http("GET", "/metrics");
    const auto at = body.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stoll(body.substr(at + name.size() + 2));
}

TEST_F(Cluster, APlayerOnAnotherNodePlaysACompleteGameThroughItsOwner) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(11);
    // pa plays on a (the owner); pb on b, forwarded: join, setup, acts, acks, events, versions
    // exactly as on one node (playOne checks each ack and version).
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb, {{"clock", {{"initial", 60000}, {"increment", 100}}}});
    EXPECT_EQ(healthWhen(*b, [](const Json&) { return true; })["leases"], 0);  // a's game only
    // Spectators on either node, and side 2 also followed by a local connection on a.
    Player sa(a->port()), sb(b->port()), pbLocal(a->port(), pb.token());
    for (Player* p : {&sa, &sb, &pbLocal}) snapshotOf(*p, g);
    for (Player* p : {&sa, &sb, &pb, &pbLocal}) p->sync(g);
    const std::size_t fromSa = sa.ws().log().size(), fromSb = sb.ws().log().size(),
                      fromPb = pb.ws().log().size(), fromLocal = pbLocal.ws().log().size();
    const int plies = playRandom(pa, pb, g, rng);
    EXPECT_GT(plies, 0);
    EXPECT_EQ(pa.game(g).status, "finished");
    EXPECT_EQ(pb.game(g).status, "finished");
    for (Player* p : {&sa, &sb, &pb, &pbLocal}) p->sync(g);
    // Hidden information across nodes: what reaches a viewer through another node is byte for
    // byte what the owner sends a local connection of the same viewer class, whose leak
    // property tests/server/leak_test.cpp checks.
    const auto specA = withoutAcks(sa, fromSa), specB = withoutAcks(sb, fromSb);
    EXPECT_GT(specA.size(), static_cast<std::size_t>(plies));
    EXPECT_EQ(specA, specB);
    EXPECT_EQ(withoutAcks(pb, fromPb), withoutAcks(pbLocal, fromLocal));
    EXPECT_EQ(storedActions(g), plies);
    EXPECT_GE(metricOf(*b, "rainet_forwarded_out_total"), plies / 2);
    EXPECT_GE(metricOf(*a, "rainet_forwarded_in_total"), plies / 2);
    EXPECT_GT(metricOf(*b, "rainet_delivered_in_total"), plies);
    EXPECT_GT(metricOf(*a, "rainet_delivered_out_total"), plies);
    // Every message published was timed: the owner's deliveries (a broadcast to several of b's
    // connections is one message: delivered_out counts connections), b's forwarded messages. A
    // message is timed when Redis's answer reaches its publisher, which may be after b got it.
    auto timed = [&] {
        return metricOf(*a, "rainet_publish_seconds_count") >=
                   metricOf(*a, "rainet_delivery_publishes_total") &&
               metricOf(*b, "rainet_publish_seconds_count") >=
                   metricOf(*b, "rainet_forwarded_out_total");
    };
    for (int i = 0; i < 100 && !timed(); ++i) std::this_thread::sleep_for(20ms);
    EXPECT_GE(metricOf(*a, "rainet_publish_seconds_count"),
              metricOf(*a, "rainet_delivery_publishes_total"));
    EXPECT_LT(metricOf(*a, "rainet_delivery_publishes_total"),
              metricOf(*a, "rainet_delivered_out_total"));
    EXPECT_GE(metricOf(*b, "rainet_publish_seconds_count"),
              metricOf(*b, "rainet_forwarded_out_total"));
}

TEST_F(Cluster, ARemotePlayersPresenceFollowsItsConnectionAndItsNodesDeath) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    Player pa(a->port());
    std::string tokenB;
    auto gone = [](const Json& j) {
        return j["type"] == "presence" && j["side"] == "2" && j["connected"] == false;
    };
    auto back = [](const Json& j) {
        return j["type"] == "presence" && j["side"] == "2" && j["connected"] == true;
    };
    std::string g;
    {
        Player pb(b->port(), storedGuest(*a));
        g = createAndJoin(pa, pb);
        tokenB = pb.token();
        pa.take(back);
    }  // pb's connection closes: b tells a, whose room says side 2 left
    pa.take(gone);
    Player pb(b->port(), tokenB);
    snapshotOf(pb, g);
    pa.take(back);
    // b dies without a word: a drops its remote connections once b's liveness key expired.
    b->kill(SIGKILL);
    pa.take(gone, std::chrono::milliseconds(4 * kLeaseMs));
    EXPECT_NE(a->logText().find("node_gone"), std::string::npos);
}

// A node judged dead while it was only stalled (SIGSTOP past its liveness key and half a lease
// more): the owner drops the connections it forwarded and tells it so, and when it wakes those
// connections are closed to reconnect (1012) instead of waiting for replies the owner now drops.
TEST_F(Cluster, AStalledNodesForwardedConnectionsAreClosedToReconnectWhenItWakes) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(21);
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb);
    playOne(pa, pb, g, moverAction(pa, pb, g, rng));
    b->signal(SIGSTOP);
    for (int i = 0; i < 300 && a->logCount("node_gone") == 0; ++i)
        std::this_thread::sleep_for(50ms);
    b->signal(SIGCONT);
    ASSERT_GT(a->logCount("node_gone"), 0) << "a never judged the stalled b dead";
    EXPECT_EQ(pb.ws().closeCode(), 1012);
}

// A node's inbox is checked: a `deliver` whose list of serials does not parse whole is logged
// and dropped, reaching nobody, not even the session whose serial it lists before the fault.
TEST_F(Cluster, AGarbledDeliveryIsLoggedAndReachesNobody) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    // pb follows g through its owner a; b knows its session by a serial (random base), learnt
    // here from a delivery of the owner's to b, overheard on b's inbox.
    std::mutex mu;
    std::string serial;
    bus::Subscriber overhear(redis_->parsed(), [&](const std::string&, const std::string& m) {
        std::lock_guard lock(mu);
        if (serial.empty() && m.rfind("deliver ", 0) == 0 && m.find('\n') != std::string::npos)
            serial = m.substr(8, m.find_first_of(",\n") - 8);
    });
    overhear.subscribe(server::Forwarder::inbox("b"));
    ASSERT_TRUE(overhear.waitSubscribed(5s));
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb);
    {
        std::lock_guard lock(mu);
        ASSERT_FALSE(serial.empty()) << "no delivery for b overheard";
    }
    auto chat = [&](const std::string& text) {
        return Json{{"type", "chat"}, {"game", g}, {"line", {{"from", "x"}, {"text", text}}}}
            .dump();
    };
    bus::RedisLink link(redis_->parsed());
    const int before = b->logCount("forward_garbled");
    const std::vector<std::string> garbled{
        serial + ",x", serial + ",," + serial, serial + ",99999999999999999999",
        "," + serial,  serial + " " + serial,  serial};
    for (std::size_t i = 0; i < garbled.size(); ++i) {
        // The last has no text at all (no newline).
        const std::string payload =
            "deliver " + garbled[i] + (i + 1 < garbled.size() ? "\n" + chat("GARBLED") : "");
        ASSERT_TRUE(link.command({"PUBLISH", server::Forwarder::inbox("b"), payload}));
    }
    // A well-formed one does reach pb, after the garbled ones (pub/sub keeps their order).
    ASSERT_TRUE(link.command(
        {"PUBLISH", server::Forwarder::inbox("b"), "deliver " + serial + "\n" + chat("OK")}));
    pb.take([](const Json& j) { return j["type"] == "chat" && j["line"]["text"] == "OK"; });
    for (const auto& m : pb.ws().log()) EXPECT_EQ(m.find("GARBLED"), std::string::npos) << m;
    EXPECT_EQ(b->logCount("forward_garbled") - before, static_cast<int>(garbled.size()));
}

TEST_F(Cluster, AForwardedClientOfAKilledOwnerIsClosedAndResumesWhereTheGameMoved) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(5);
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb);
    for (int i = 0; i < 4; ++i) playOne(pa, pb, g, moverAction(pa, pb, g, rng));
    const long v = pb.game(g).v;
    const std::string tokenA = pa.token(), tokenB = pb.token();
    a->kill(SIGKILL);
    // b takes the game over and closes the connection it forwarded to a: 1012, reconnect.
    healthWhen(*b, [](const Json& j) { return j["leases"] == 1; });
    EXPECT_EQ(pb.ws().closeCode(), 1012);
    EXPECT_NE(b->logText().find("lease_takeover"), std::string::npos);
    Player qa(b->port(), tokenA), qb(b->port(), tokenB);
    for (Player* p : {&qa, &qb}) {
        p->ws().send(Json{{"type", "resume"}, {"game", g}, {"v", 0}});
        p->take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
        EXPECT_EQ(p->game(g).v, v);
    }
    playOne(qa, qb, g, moverAction(qa, qb, g, rng));
    EXPECT_EQ(storedActions(g), 5);
}

// "Restart Redis mid-game: games resume, nothing lost; clients may see a reconnect,
// never a wrong state". The owner a keeps serving its local player (PostgreSQL is the truth);
// the forwarded player on b is closed to reconnect when the link drops, a forward while Redis is
// away is refused the same way (not queued into the void), and once Redis is back on the same
// socket both nodes resubscribe and the game is finished through forwarding, with the stored
// record exactly the actions acknowledged, each once.
TEST_F(Cluster, ARedisRestartMidGameLosesNothingAndForwardingResumes) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(13);
    Player pa(a->port());
    auto pb = std::make_unique<Player>(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, *pb);
    std::vector<std::string> acked;
    playAcked(pa, *pb, g, rng, acked, 4);
    ASSERT_EQ(pa.game(g).status, "playing");
    const std::string tokenB = pb->token();
    const int upA = a->logCount("forward_link_up"), upB = b->logCount("forward_link_up");

    redis_->stop();
    // b's inbox is gone: its forwarded client is told to reconnect, not left waiting.
    EXPECT_EQ(pb->ws().closeCode(), 1012);
    pb.reset();
    {
        // Back on b while Redis is still away: the game's message cannot reach its owner, so
        // the connection is closed to reconnect rather than its message dropped unanswered.
        Player early(b->port(), tokenB);
        early.ws().send(Json{{"type", "resume"}, {"game", g}, {"v", 0}});
        EXPECT_EQ(early.ws().closeCode(), 1012);
    }
    // The owner's local player plays on if it is its turn: PostgreSQL alone acknowledges it.
    if (!pa.game(g).legal.empty()) {
        const std::string action = moverAction(pa, pa, g, rng);
        const long v = pa.game(g).v;
        const Json r = pa.request({{"type", "act"}, {"game", g}, {"action", action}, {"v", v}});
        ASSERT_EQ(r["type"], "ack") << r.dump();
        acked.push_back(action);
        pa.waitVersion(g, v + 1);
    }
    EXPECT_EQ(storedSequence(g), joined(acked));

    redis_->start();  // the same socket
    if (HasFatalFailure()) return;
    for (auto [n, before] : {std::pair{a, upA}, std::pair{b, upB}}) {
        bool back = false;
        for (int i = 0; i < 400 && !back; ++i) {
            back = n->logCount("forward_link_up") > before;
            if (!back) std::this_thread::sleep_for(25ms);
        }
        EXPECT_TRUE(back) << "a node did not resubscribe its inbox";
    }
    healthWhen(*b, [](const Json& j) { return j["redis"] == "up"; });
    // The forwarded player resumes on b: the state is the one acknowledged, nothing more.
    Player qb(b->port(), tokenB, 2000);  // pb's ids started at 1000
    const Json snap = snapshotOf(qb, g);
    EXPECT_EQ(snap["v"], pa.game(g).v);
    EXPECT_EQ(snap["history"].size(), acked.size());
    playToEnd(pa, qb, g, rng, acked);
    EXPECT_EQ(pa.game(g).status, "finished");
    EXPECT_EQ(qb.game(g).status, "finished");
    EXPECT_EQ(storedSequence(g), joined(acked));
    EXPECT_EQ(storedActions(g), static_cast<long>(acked.size()));
    // Every liveness key went with Redis: until b set its own again, a saw it missing, which is
    // no death (b's connections dropped silently would have lost the answers in flight to them).
    EXPECT_EQ(a->logCount("node_gone"), 0) << a->logText();
}

// The close code of a connection the server closes within `seconds` (0 if it did not).
int closeCodeWithin(WsClient& ws, int seconds) {
    for (int waited = 0; waited < seconds; waited += 5)
        if (int code = ws.closeCode()) return code;
    return 0;
}

// "Restart PostgreSQL mid-game: games resume, nothing lost", on two nodes, the database
// away for longer than a lease. An action sent meanwhile is answered with an error, never an ack.
// Both nodes' renewals fail; the owner a gives its lease up before it expires (at the failed
// round after which it would be dead locally: cluster_leases.h), evicts the room and closes its
// clients with 1012 (its local player, and the forwarded one on b through Redis); /healthz says
// the database is down. PostgreSQL back on the same socket: the nodes reconnect by themselves,
// one of them takes the orphaned game over, the clients resume with the acknowledged state and
// the game is played to its end; the stored actions are exactly the acknowledged ones, in
// order, each once.
TEST_F(Cluster, APostgresRestartMidGameLosesNothingAndTheGameResumes) {
    usePrivateCluster();
    if (HasFatalFailure()) return;
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(19);
    auto pa = std::make_unique<Player>(a->port());
    auto pb = std::make_unique<Player>(b->port(), storedGuest(*a));
    const std::string g = startGame(*pa, *pb);
    std::vector<std::string> acked;
    playAcked(*pa, *pb, g, rng, acked, 4);
    ASSERT_EQ(pa->game(g).status, "playing");
    const long v = pa->game(g).v;
    const std::string tokenA = pa->token(), tokenB = pb->token();

    ASSERT_EQ(pg_->down(), "");
    Player& mover = pa->game(g).legal.empty() ? *pb : *pa;
    const Json refused = mover.request(
        {{"type", "act"}, {"game", g}, {"action", moverAction(*pa, *pb, g, rng)}, {"v", v}});
    EXPECT_EQ(refused["type"], "error") << refused.dump();
    EXPECT_EQ(refused["code"], "internal") << refused.dump();
    EXPECT_EQ(closeCodeWithin(pa->ws(), 3 * kLeaseMs / 1000), 1012);
    EXPECT_EQ(closeCodeWithin(pb->ws(), 5), 1012);
    EXPECT_EQ(pa->game(g).v, v);
    EXPECT_EQ(pb->game(g).v, v);
    EXPECT_GE(a->logCount("game_evicted"), 1) << a->logText();
    healthAnyWhen(*a, [](const Json& j) { return j["database"] == "down" && j["leases"] == 0; });
    pa.reset();
    pb.reset();

    ASSERT_EQ(pg_->up(), "");
    resumeOnTheNewOwnerAndFinish(g, v, tokenA, tokenB, 2000, acked, rng);  // pb's ids began at 1000
    EXPECT_GE(a->logCount("store_reconnected"), 1);
}

// A node that loses PostgreSQL while another still reaches it. Node a's store fails on
// demand (test mode: POST /api/test/store?fail=1, as when its link to the database is cut): an
// action there is answered with an error, never an ack; a's renewals fail and it gives the lease
// up before it expires, evicting the room: its clients are closed with 1012 and sent nothing
// else. b, which still reaches PostgreSQL, takes the game over once the lease expired; the
// clients resume there with the acknowledged state and play on. a's store back, a does not take
// the game back (b's lease is live) and the game is finished on b.
TEST_F(Cluster, ANodeCutOffFromPostgresEvictsItsGamesAndAnotherTakesThemOver) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(23);
    Player pa(a->port()), pb(a->port());
    const std::string g = startGame(pa, pb);
    std::vector<std::string> acked;
    playAcked(pa, pb, g, rng, acked, 4);
    ASSERT_EQ(pa.game(g).status, "playing");
    const long v = pa.game(g).v;

    ASSERT_EQ(a->http("POST", "/api/test/store?fail=1").first, 200);
    Player& mover = pa.game(g).legal.empty() ? pb : pa;
    const Json refused = mover.request(
        {{"type", "act"}, {"game", g}, {"action", moverAction(pa, pb, g, rng)}, {"v", v}});
    EXPECT_EQ(refused["type"], "error") << refused.dump();
    EXPECT_EQ(refused["code"], "internal") << refused.dump();
    const std::size_t seenA = pa.ws().log().size(), seenB = pb.ws().log().size();
    EXPECT_EQ(closeCodeWithin(pa.ws(), 3 * kLeaseMs / 1000), 1012);
    EXPECT_EQ(closeCodeWithin(pb.ws(), 5), 1012);
    for (auto [p, seen] : {std::pair{&pa, seenA}, std::pair{&pb, seenB}}) {
        const auto log = p->ws().log();
        for (std::size_t i = seen; i < log.size(); ++i) ADD_FAILURE() << "a sent: " << log[i];
    }
    EXPECT_GE(a->logCount("lease_lost"), 1) << a->logText();
    EXPECT_GE(a->logCount("game_evicted"), 1);
    healthWhen(*b, [](const Json& j) { return j["leases"] == 1; });
    EXPECT_GE(b->logCount("lease_takeover"), 1);

    Player qa(b->port(), pa.token()), qb(b->port(), pb.token());
    for (Player* p : {&qa, &qb}) {
        const Json snap = snapshotOf(*p, g);
        EXPECT_EQ(snap["v"], v);
        EXPECT_EQ(snap["history"].size(), acked.size());
    }
    playAcked(qa, qb, g, rng, acked, 2);
    ASSERT_EQ(a->http("POST", "/api/test/store?fail=0").first, 200);
    healthWhen(*a, [](const Json& j) { return j["database"] == "up"; });
    EXPECT_EQ(healthWhen(*a, [](const Json&) { return true; })["leases"], 0);
    playToEnd(qa, qb, g, rng, acked);
    EXPECT_EQ(qa.game(g).status, "finished");
    EXPECT_EQ(storedSequence(g), joined(acked));
    EXPECT_EQ(storedActions(g), static_cast<long>(acked.size()));
}

// PostgreSQL stalls without closing anything (every process of the test's private
// cluster SIGSTOPped: the kernel still accepts and acknowledges, nothing answers) while node a
// owns a game. The store's waits are bounded (the URI sets statement_timeout to 1 s, so an answer
// is awaited 2 s at most, and connect_timeout to 2 s): the action sent meanwhile is never
// acknowledged, a's renewal rounds fail instead of waiting forever, and a gives the lease up and
// evicts the game, its clients closed with 1012, well within 10 s. PostgreSQL woken (SIGCONT),
// a node takes the game over, the clients resume with the acknowledged state and finish it; the
// stored actions are exactly the acknowledged ones. Without the bounds the round waits with the
// server and nobody is closed until it wakes.
TEST_F(Cluster, AStalledPostgresMakesTheOwnerGiveItsGamesUpWithinABound) {
    usePrivateCluster();
    if (HasFatalFailure()) return;
    pgParams_ = "&connect_timeout=2&options=-c%20statement_timeout%3D1000";
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess* a = a_.get();
    std::mt19937 rng(29);
    auto pa = std::make_unique<Player>(a->port());
    auto pb = std::make_unique<Player>(a->port());
    const std::string g = startGame(*pa, *pb);
    std::vector<std::string> acked;
    playAcked(*pa, *pb, g, rng, acked, 4);
    ASSERT_EQ(pa->game(g).status, "playing");
    const long v = pa->game(g).v;
    const std::string tokenA = pa->token(), tokenB = pb->token();

    ASSERT_EQ(pg_->stall(), "");
    // The action fails when its write does (2 s to give up on the statement, 2 more to fail to
    // connect again): answered `internal`, or, the lease dead by a's clock by then, with no
    // answer as the room is evicted. Never acknowledged.
    Player& mover = pa->game(g).legal.empty() ? *pb : *pa;
    mover.ws().send(Json{{"type", "act"},
                         {"id", 99},
                         {"game", g},
                         {"action", moverAction(*pa, *pb, g, rng)},
                         {"v", v}});
    EXPECT_EQ(closeCodeWithin(pa->ws(), 10), 1012) << a->logText();
    EXPECT_EQ(closeCodeWithin(pb->ws(), 5), 1012);
    for (const std::string& line : mover.ws().log()) {
        const Json j = Json::parse(line, nullptr, false);
        if (!j.is_object() || j.value("id", Json()) != 99) continue;
        EXPECT_EQ(j["type"], "error") << line;
        EXPECT_EQ(j["code"], "internal") << line;
    }
    EXPECT_EQ(pa->game(g).v, v);
    EXPECT_EQ(pb->game(g).v, v);
    EXPECT_GE(a->logCount("game_evicted"), 1);
    EXPECT_NE(a->logText().find("did not answer within 2000 ms"), std::string::npos)
        << a->logText();
    // The round fails too instead of waiting with the server: a statement costs at most 2 s
    // (its wait, or connect_timeout to try the connection again), and the round's statements
    // may queue behind the action's write and the eviction's release for a connection of the
    // store, so it ends within a few of them.
    const bool roundFailed = [&] {
        const auto until = std::chrono::steady_clock::now() + 20s;
        while (std::chrono::steady_clock::now() < until) {
            const Json h = Json::parse(a->http("GET", "/healthz").second, nullptr, false);
            if (h.is_object() && h["database"] == "down" && h["leases"] == 0) return true;
            std::this_thread::sleep_for(50ms);
        }
        return false;
    }();
    EXPECT_TRUE(roundFailed) << a->logText();
    EXPECT_GE(a->logCount("lease_renew_error"), 1) << a->logText();
    pa.reset();
    pb.reset();

    ASSERT_EQ(pg_->resume(), "");
    resumeOnTheNewOwnerAndFinish(g, v, tokenA, tokenB, 0, acked, rng);
}

// Three nodes behind nginx (the shipped proxy snippet, round-robin: no stickiness): the two
// players and a spectator reach three different nodes through the one address, play complete
// games in both directions (each player's node owning one), and what each receives through nginx
// and another node is byte for byte what the owner sends a local connection of the same viewer
// class (whose leak property tests/server/leak_test.cpp checks).
TEST_F(Cluster, ThreeNodesBehindNginxPlayCompleteGamesWithASpectatorOnTheThird) {
    if (!haveNginx()) GTEST_SKIP() << "no /usr/sbin/nginx";
    std::unique_ptr<ServerProcess> nodes[3] = {node("a"), node("b"), node("c")};
    for (auto& n : nodes) ASSERT_NE(n->port(), 0);
    const char* src = std::getenv("RAINET_SOURCE_DIR");
    NginxServer lb(src ? src : RAINET_SOURCE_DIR_DEFAULT,
                   {nodes[0]->port(), nodes[1]->port(), nodes[2]->port()});
    if (HasFatalFailure()) return;
    const std::string t1 = storedGuest(*nodes[0]), t2 = storedGuest(*nodes[1]);
    auto connections = [&](ServerProcess& n) { return metricOf(n, "rainet_connections"); };
    for (auto& n : nodes)
        for (int i = 0; i < 200 && connections(*n) != 0; ++i) std::this_thread::sleep_for(10ms);
    // Three connections in a row through nginx: one on each node.
    Player p1(lb.port(), t1), p2(lb.port(), t2), spectator(lb.port());
    for (auto& n : nodes) {
        std::int64_t c = -1;
        for (int i = 0; i < 200 && (c = connections(*n)) != 1; ++i)
            std::this_thread::sleep_for(10ms);
        ASSERT_EQ(c, 1) << "round-robin put one connection on each node";
    }
    std::mt19937 rng(21);
    ServerProcess* owners[2] = {};
    for (int round = 0; round < 2; ++round) {
        // Round 0: p1 creates, so its node owns the game; round 1: p2 does.
        Player& creator = round == 0 ? p1 : p2;
        Player& joiner = round == 0 ? p2 : p1;
        const std::string g = startGame(creator, joiner);
        for (auto& n : nodes)
            if (healthWhen(*n, [](const Json&) { return true; })["leases"] == 1)
                owners[round] = n.get();
        ASSERT_NE(owners[round], nullptr);
        ServerProcess* owner = owners[round];
        // Local references on the owner: a spectator and a second connection of the joiner.
        Player localSpectator(owner->port()), localJoiner(owner->port(), joiner.token());
        for (Player* p : {&spectator, &localSpectator, &localJoiner}) snapshotOf(*p, g);
        for (Player* p : {&spectator, &localSpectator, &localJoiner, &joiner}) p->sync(g);
        const std::size_t fromSpec = spectator.ws().log().size(),
                          fromLocalSpec = localSpectator.ws().log().size(),
                          fromJoiner = joiner.ws().log().size(),
                          fromLocalJoiner = localJoiner.ws().log().size();
        const int plies = playRandom(creator, joiner, g, rng);
        EXPECT_GT(plies, 0);
        EXPECT_EQ(creator.game(g).status, "finished");
        EXPECT_EQ(joiner.game(g).status, "finished");
        for (Player* p : {&spectator, &localSpectator, &localJoiner, &joiner}) p->sync(g);
        const auto through = withoutAcks(spectator, fromSpec);
        EXPECT_GT(through.size(), static_cast<std::size_t>(plies));
        EXPECT_EQ(through, withoutAcks(localSpectator, fromLocalSpec));
        EXPECT_EQ(withoutAcks(joiner, fromJoiner), withoutAcks(localJoiner, fromLocalJoiner));
        EXPECT_EQ(storedActions(g), plies);
        // The game is over: its lease released, held by no node any more.
        for (auto& n : nodes) healthWhen(*n, [](const Json& j) { return j["leases"] == 0; });
    }
    // Each game was owned by its creator's node: the players were on two different nodes (and
    // the spectator, one connection per node, on the third).
    EXPECT_NE(owners[0], owners[1]);
    // Every node served: two owned one game each and forwarded the other's, the third only
    // delivered to its spectator.
    std::int64_t forwardedIn = 0;
    for (auto& n : nodes) {
        EXPECT_GT(metricOf(*n, "rainet_delivered_in_total"), 0)
            << "each node's client followed a game owned elsewhere";
        forwardedIn += metricOf(*n, "rainet_forwarded_in_total");
    }
    EXPECT_GT(forwardedIn, 0);
}

// --- Quick pairing across nodes: the seeks wait in Redis (server/cluster_seeks.h) ---

// Takes `lobby` messages of `w` until the seekers of every kind add up to `n`; that lobby.
Json lobbyWithSeekers(Player& w, int n, std::chrono::milliseconds timeout = 10s) {
    return w.take(
        [n](const Json& j) {
            if (j["type"] != "lobby") return false;
            int total = 0;
            for (const auto& e : j["seeks"]) total += e["players"].get<int>();
            return total == n;
        },
        timeout);
}

TEST_F(Cluster, SeeksOnTwoNodesArePairedAndTheGameIsPlayedThroughForwarding) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(17);
    Player wa(a->port()), wb(b->port());
    for (Player* w : {&wa, &wb}) {
        w->ws().send(Json{{"type", "lobby_subscribe"}});
        lobbyWithSeekers(*w, 0);
    }
    const Json blitz{{"initial", 30000}, {"increment", 200}};
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const Json ackA = pa.request({{"type", "seek"}, {"preset", "official"}, {"clock", blitz}});
    EXPECT_EQ(ackA["type"], "ack") << ackA.dump();
    EXPECT_FALSE(ackA.contains("game"));
    // The seek waiting on a is in both nodes' lobbies.
    for (Player* w : {&wa, &wb}) {
        const Json l = lobbyWithSeekers(*w, 1);
        EXPECT_EQ(
            l["seeks"][0],
            (Json{{"preset", "official"}, {"clock", blitz}, {"rated", true}, {"players", 1}}));
    }
    // A compatible seek on b completes the pair: b launches the game (and owns it).
    const Json ackB = pb.request({{"type", "seek"}, {"preset", "official"}, {"clock", blitz}});
    ASSERT_EQ(ackB["type"], "ack") << ackB.dump();
    ASSERT_TRUE(ackB.contains("game"));
    const std::string g = ackB["game"];
    const Json toA = pa.take([](const Json& j) { return j["type"] == "matched"; });
    const Json toB = pb.take([](const Json& j) { return j["type"] == "matched"; });
    EXPECT_EQ(toA["game"], g);
    EXPECT_EQ(toB["game"], g);
    EXPECT_NE(toA["side"], toB["side"]);
    for (Player* w : {&wa, &wb}) lobbyWithSeekers(*w, 0);
    EXPECT_EQ(healthWhen(*b, [](const Json& j) { return j["leases"] == 1; })["leases"], 1);
    // pa plays it from a, through forwarding to b: setup, then a complete game.
    for (auto [p, m] : {std::pair{&pa, toA}, std::pair{&pb, toB}}) {
        const Json s = snapshotOf(*p, g);
        EXPECT_EQ(s["you"], m["side"]);
        EXPECT_EQ(s["status"], "setup");
        EXPECT_EQ(s["clock"], blitz);
    }
    for (Player* p : {&pa, &pb})
        EXPECT_EQ(p->request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    for (Player* p : {&pa, &pb})
        p->take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    const int plies = playRandom(pa, pb, g, rng);
    EXPECT_GT(plies, 0);
    EXPECT_EQ(pa.game(g).status, "finished");
    EXPECT_EQ(pb.game(g).status, "finished");
    EXPECT_EQ(storedActions(g), plies);
    EXPECT_GE(metricOf(*a, "rainet_forwarded_out_total"), plies / 2);
}

// What must not pair: incompatible seeks; a seek whose connection closed (withdrawn cluster-wide,
// no game started for it); the seek of a node that died (dropped once its liveness expired).
// And with Redis away a seek is refused (`busy`) rather than kept on one node.
TEST_F(Cluster, WithdrawnIncompatibleAndDeadNodesSeeksNeverPair) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    Player wb(b->port());
    wb.ws().send(Json{{"type", "lobby_subscribe"}});
    lobbyWithSeekers(wb, 0);
    auto games = [&] { return db_->query("SELECT count(*) FROM games"); };
    // Casual on a, rated on b: two kinds waiting, no game.
    auto pa = std::make_unique<Player>(a->port());
    EXPECT_FALSE(pa->request({{"type", "seek"}, {"rated", false}}).contains("game"));
    auto pb = std::make_unique<Player>(b->port(), storedGuest(*a));
    EXPECT_FALSE(pb->request({{"type", "seek"}, {"rated", true}}).contains("game"));
    EXPECT_EQ(lobbyWithSeekers(wb, 2)["seeks"].size(), 2u);
    // b's seeker leaves before a partner comes: its seek is withdrawn from every node's view,
    // and a rated seek on a then waits instead of starting a game with nobody.
    pb.reset();
    lobbyWithSeekers(wb, 1);
    Player pc(a->port());
    EXPECT_FALSE(pc.request({{"type", "seek"}, {"rated", true}}).contains("game"));
    lobbyWithSeekers(wb, 2);
    EXPECT_EQ(games(), "0");
    // a dies with two seeks waiting: they vanish once its liveness key expired, and a rated
    // seek on b waits (it is not paired with a dead node's client).
    a->kill(SIGKILL);
    lobbyWithSeekers(wb, 0, std::chrono::milliseconds(4 * kLeaseMs));
    Player pd(b->port(), storedGuest(*b));
    EXPECT_FALSE(pd.request({{"type", "seek"}, {"rated", true}}).contains("game"));
    lobbyWithSeekers(wb, 1);
    EXPECT_EQ(games(), "0");
    // Redis away: quick pairing is refused, not queued on b alone.
    redis_->stop();
    Player pe(b->port(), pd.token());
    const Json refused = pe.request({{"type", "seek"}, {"rated", false}});
    EXPECT_EQ(refused["code"], "busy") << refused.dump();
    EXPECT_EQ(games(), "0");
}

// --- The lobby's open games across nodes (server/cluster_lobby.h) ---

// Takes `lobby` messages of `w` until one lists exactly `n` open games; that lobby.
Json lobbyWithGames(Player& w, std::size_t n) {
    return w.take([n](const Json& j) { return j["type"] == "lobby" && j["games"].size() == n; });
}

TEST_F(Cluster, AnOpenGameOfOneNodeIsListedAndJoinedOnTheOther) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    Player wa(a->port()), wb(b->port());
    for (Player* w : {&wa, &wb}) {
        w->ws().send(Json{{"type", "lobby_subscribe"}});
        lobbyWithGames(*w, 0);
    }
    Player pa(a->port());
    const Json ack = pa.request({{"type", "create"}, {"opponent", "open"}, {"side", "1"}});
    ASSERT_EQ(ack["type"], "ack") << ack.dump();
    const std::string g = ack["game"];
    // Listed on both nodes, with the same entry.
    const Json onA = lobbyWithGames(wa, 1), onB = lobbyWithGames(wb, 1);
    EXPECT_EQ(onB["games"][0]["game"], g);
    EXPECT_EQ(onB["games"], onA["games"]);
    // A client on b subscribing later gets it too (its node's copy, not a message it missed).
    Player late(b->port());
    late.ws().send(Json{{"type", "lobby_subscribe"}});
    EXPECT_EQ(lobbyWithGames(late, 1)["games"][0]["game"], g);
    // Joined from b (forwarded to a, its owner): it leaves both lobbies, and the game starts.
    Player pb(b->port(), storedGuest(*a));
    EXPECT_EQ(pb.request({{"type", "join"}, {"game", g}})["type"], "ack");
    for (Player* w : {&wa, &wb}) lobbyWithGames(*w, 0);
    pb.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
    for (Player* p : {&pa, &pb})
        EXPECT_EQ(p->request({{"type", "setup"}, {"game", g}, {"random", true}})["type"], "ack");
    for (Player* p : {&pa, &pb})
        p->take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    std::mt19937 rng(23);
    playOne(pa, pb, g, moverAction(pa, pb, g, rng));
    EXPECT_EQ(storedActions(g), 1);
}

// --- Fan-out: a room's broadcast reaches another node's connections in one Redis message ---

// The messages `p` received from index `from` on, the snapshots answering its own `sync`s left
// out (each connection's own, at a moment of its own).
std::vector<std::string> broadcastsOf(Player& p, std::size_t from) {
    std::vector<std::string> out;
    const auto log = p.ws().log();
    for (std::size_t i = from; i < log.size(); ++i)
        if (Json::parse(log[i])["type"] != "snapshot") out.push_back(log[i]);
    return out;
}

// The last spectators count of game `g` that `p` received, once it is `n` (polled).
void spectatorsBecome(Player& p, const std::string& g, int n) {
    int last = -1;
    for (int i = 0; i < 400; ++i) {
        for (const auto& m : p.ws().log()) {
            const Json j = Json::parse(m);
            if (j["type"] == "spectators" && j["game"] == g) last = j["count"].get<int>();
        }
        if (last == n) return;
        std::this_thread::sleep_for(25ms);
    }
    ADD_FAILURE() << "spectators count " << last << ", expected " << n;
}

TEST_F(Cluster, ABroadcastToManyConnectionsOfANodeIsOneRedisMessagePerViewerClass) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(23);
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb);
    // Five spectators on b, one on a (the owner) to compare them with.
    constexpr int kRemote = 5;
    Player sa(a->port());
    std::vector<std::unique_ptr<Player>> sb;
    for (int i = 0; i < kRemote; ++i) sb.push_back(std::make_unique<Player>(b->port()));
    snapshotOf(sa, g);
    for (auto& s : sb) snapshotOf(*s, g);
    sa.sync(g);
    for (auto& s : sb) s->sync(g);
    const std::size_t fromSa = sa.ws().log().size();
    std::vector<std::size_t> fromSb;
    for (auto& s : sb) fromSb.push_back(s->ws().log().size());
    // Each action's events, as the owner published them for b: pb's text (with its ack when it
    // acted) and the spectators' one, not one message per spectator.
    int plies = 0;
    while (pa.game(g).status == "playing" && !HasFailure()) {
        const long v = pa.game(g).v;
        const auto published = metricOf(*a, "rainet_delivery_publishes_total");
        const auto delivered = metricOf(*a, "rainet_delivered_out_total");
        playOne(pa, pb, g, moverAction(pa, pb, g, rng));
        ++plies;
        const long events = pa.game(g).v - v;  // the last action also ends the game
        for (auto& s : sb) s->waitVersion(g, pa.game(g).v);
        EXPECT_LE(metricOf(*a, "rainet_delivery_publishes_total") - published, 3 * events);
        EXPECT_GE(metricOf(*a, "rainet_delivered_out_total") - delivered, (kRemote + 1) * events);
    }
    EXPECT_EQ(pa.game(g).status, "finished");
    // Every spectator on b received, message for message, what the spectator on a received.
    sa.sync(g);
    for (auto& s : sb) s->sync(g);
    const auto local = broadcastsOf(sa, fromSa);
    EXPECT_GT(local.size(), static_cast<std::size_t>(plies));
    for (int i = 0; i < kRemote; ++i) EXPECT_EQ(broadcastsOf(*sb[i], fromSb[i]), local);
    EXPECT_EQ(metricOf(*b, "rainet_delivered_in_total"),
              metricOf(*a, "rainet_delivered_out_total"));
}

TEST_F(Cluster, SpectatorsAndPresenceCountEveryNodesConnections) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    auto c = node("c");
    ASSERT_NE(c->port(), 0);
    ServerProcess *a = a_.get(), *b = b_.get();
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb);
    // Spectators on the owner a, two on b, one on c: everyone following counts four.
    Player sa(a->port()), sc(c->port());
    auto sb1 = std::make_unique<Player>(b->port());
    Player sb2(b->port());
    for (Player* s : {&sa, sb1.get(), &sb2, &sc}) snapshotOf(*s, g);
    for (Player* p : {&pa, &pb, &sa, sb1.get(), &sb2, &sc}) spectatorsBecome(*p, g, 4);
    // One of b's leaves: three, everywhere.
    sb1.reset();
    for (Player* p : {&pa, &pb, &sa, &sb2, &sc}) spectatorsBecome(*p, g, 3);
    // The player on b leaves: every follower, on every node, sees side 2 gone.
    pb.disconnect();
    for (Player* p : {&pa, &sa, &sb2, &sc})
        p->take([&](const Json& j) {
            return j["type"] == "presence" && j["game"] == g && j["side"] == "2" &&
                   j["connected"] == false;
        });
    // c's spectator leaves: two.
    sc.disconnect();
    for (Player* p : {&pa, &sa, &sb2}) spectatorsBecome(*p, g, 2);
}

TEST_F(Cluster, ARemoteSpectatorsStreamIsTheLocalOnesThroughOthersJoiningAndLeaving) {
    startTwoNodes();
    if (HasFatalFailure()) return;
    ServerProcess *a = a_.get(), *b = b_.get();
    std::mt19937 rng(31);
    Player pa(a->port()), pb(b->port(), storedGuest(*a));
    const std::string g = startGame(pa, pb);
    Player sa(a->port()), sb(b->port());
    snapshotOf(sa, g);
    snapshotOf(sb, g);
    sa.sync(g);
    sb.sync(g);
    const std::size_t fromSa = sa.ws().log().size(), fromSb = sb.ws().log().size();
    // Mid-game, other spectators come and go on both nodes (each a spectators count between
    // events): their watch is not waited for; a leaving one's snapshot is (its join counted),
    // so that the count can fall back to 2 only once every other one has left.
    std::vector<std::unique_ptr<Player>> others;
    auto leave = [&](std::unique_ptr<Player>& p) {
        p->take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
        p.reset();
    };
    int plies = 0;
    while (pa.game(g).status == "playing" && !HasFailure()) {
        if (plies % 3 == 0 && plies < 60) {
            auto p = std::make_unique<Player>((plies / 3) % 2 ? a->port() : b->port());
            p->ws().send(Json{{"type", "watch"}, {"game", g}});
            others.push_back(std::move(p));
        }
        if (plies % 5 == 4 && !others.empty()) {
            leave(others.front());
            others.erase(others.begin());
        }
        playOne(pa, pb, g, moverAction(pa, pb, g, rng));
        ++plies;
    }
    EXPECT_EQ(pa.game(g).status, "finished");
    for (auto& p : others) leave(p);
    // Every join and leave counted: both have everything the room sent them.
    spectatorsBecome(sa, g, 2);
    spectatorsBecome(sb, g, 2);
    sa.sync(g);
    sb.sync(g);
    const auto local = broadcastsOf(sa, fromSa);
    EXPECT_GT(local.size(), static_cast<std::size_t>(plies + 10));
    EXPECT_EQ(broadcastsOf(sb, fromSb), local);
}

}  // namespace
}  // namespace rainet::test

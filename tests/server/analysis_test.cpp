// GET /api/games/{id}/analysis (docs/protocol.md §10): finished games only, answered like an
// unknown game otherwise; computed from the analysed side's information set at each ply, so two
// games that differ only in facts that side did not know give byte-identical plies; the queue of
// analyses is bounded (503 busy with Retry-After beyond it).
#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <thread>

#include "players.h"

namespace rainet::test {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

// A GET whose answer's Retry-After header we also want.
struct Answer {
    int status = 0;
    std::string body, retryAfter;
};
Answer get(int port, const std::string& target) {
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                                  static_cast<unsigned short>(port)));
    http::request<http::string_body> req(http::verb::get, target, 11);
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    return {static_cast<int>(res.result_int()), res.body(),
            std::string(res[http::field::retry_after])};
}

// A game between a and b that b resigns at once (no action played).
std::string resignedGame(Player& a, Player& b) {
    const std::string g = startGame(a, b);
    EXPECT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "end");
    takeEvent(b, g, "end");
    return g;
}

TEST(Analysis, OnlyFinishedGamesAreAnalysed) {
    ServerProcess server(dbPath("analysis_finished"));
    Player a(server.port()), b(server.port());
    const auto unknown = server.http("GET", "/api/games/nosuchgame/analysis?side=1");
    EXPECT_EQ(unknown.first, 404);
    EXPECT_EQ(unknown.second, R"({"error":"unknown_game"})");
    // A game in play is never analysed (it would be an engine's help), and its answer is the
    // unknown game's, byte for byte.
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal.front());
    for (const char* side : {"1", "2"}) {
        const auto live = server.http("GET", "/api/games/" + g + "/analysis?side=" + side);
        EXPECT_EQ(live.first, 404);
        EXPECT_EQ(live.second, unknown.second);
    }
    for (const char* bad : {"", "?side=0", "?side=3", "?side=spectator", "?side=1x"}) {
        const auto r = server.http("GET", "/api/games/" + g + "/analysis" + bad);
        EXPECT_EQ(r.first, 400) << bad;
        EXPECT_EQ(Json::parse(r.second)["error"], "bad_side") << bad;
    }
    EXPECT_EQ(b.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "end");
    for (const char* side : {"1", "2"}) {
        const auto r = server.http("GET", "/api/games/" + g + "/analysis?side=" + side);
        ASSERT_EQ(r.first, 200) << r.second;
        const Json j = Json::parse(r.second);
        EXPECT_EQ(j["game"], g);
        EXPECT_EQ(j["side"], side);
        ASSERT_EQ(j["plies"].size(), 2u);  // the start and after the one action
        for (const Json& p : j["plies"]) {
            EXPECT_GE(p["win"].get<double>(), 0.0);
            EXPECT_LE(p["win"].get<double>(), 1.0);
            EXPECT_EQ(p["virus"].size(), 8u);  // nothing was revealed
            // Actions only on the analysed side's own turns.
            EXPECT_EQ(p["best"].empty(), p["to_move"] != side) << p.dump();
        }
        // The same answer again (cached or not: it is deterministic).
        EXPECT_EQ(server.http("GET", "/api/games/" + g + "/analysis?side=" + side).second,
                  r.second);
    }
}

struct Hidden {
    Json links1, links2;
    bool swap1, swap2;
};

// The leak test's script (leak_test.cpp), then side 1 resigns; returns the analyses of both
// sides.
std::pair<Json, Json> analysedScript(const Hidden& h, const std::string& name) {
    ServerProcess server(dbPath("analysis_" + name));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b, Json::object(), h.links1, h.links2);
    const std::vector<std::string> script = {
        "d2-d3", "e7-e6", h.swap1 ? "NF+b1c1:swap" : "NF+b1c1:keep",
        "VC+a1", "LB+d3", h.swap2 ? "NF+e6d7:swap" : "NF+e6d7:keep",
        "d3-d5", "FW+c5"};
    for (const std::string& action : script) playOne(a, b, g, action);
    EXPECT_EQ(a.request({{"type", "resign"}, {"game", g}})["type"], "ack");
    takeEvent(a, g, "end");
    auto analysis = [&](const char* side) {
        const auto r = server.http("GET", "/api/games/" + g + "/analysis?side=" + side);
        EXPECT_EQ(r.first, 200) << r.second;
        return r.first == 200 ? Json::parse(r.second) : Json::object();
    };
    return {analysis("1"), analysis("2")};
}

TEST(Analysis, ASideSeesNothingItDidNotKnowAtThatPly) {
    const Hidden base{{"a1", "b1", "c1", "d2"}, {"a8", "b8", "c8", "d7"}, true, true};
    // Side 1's arrangement and NF differ; side 2's VC at ply 3 shows a1: a link in base, a
    // virus here. Side 2 knew nothing of the difference before that.
    const Hidden other1{{"g1", "b1", "c1", "d2"}, {"a8", "b8", "c8", "d7"}, false, true};
    // Side 2's arrangement and NF differ; side 1 never learns an identity of side 2.
    const Hidden other2{{"a1", "b1", "c1", "d2"}, {"f8", "g8", "h8", "e7"}, true, false};
    const auto [base1, base2] = analysedScript(base, "base");
    const auto [o1side1, o1side2] = analysedScript(other1, "other1");
    const auto [o2side1, o2side2] = analysedScript(other2, "other2");
    ASSERT_EQ(base2["plies"].size(), 9u);
    // Side 1 never learnt anything of side 2: its whole analysis is the same, byte for byte.
    EXPECT_EQ(o2side1.dump(), base1.dump());
    // Side 2: the same up to the VC's ply (3), different from the reveal on.
    for (std::size_t i = 0; i <= 3; ++i)
        EXPECT_EQ(o1side2["plies"][i].dump(), base2["plies"][i].dump()) << "ply " << i;
    EXPECT_NE(o1side2["plies"][4].dump(), base2["plies"][4].dump());
    // Each side's analysis of its own different cards differs (the test is not vacuous).
    EXPECT_NE(o1side1.dump(), base1.dump());
    EXPECT_NE(o2side2.dump(), base2.dump());
    // An unrevealed opponent card appears only as a probability, strictly between 0 and 1, and
    // a1 (identified by the VC) no longer appears after it.
    for (const Json* j : {&base1, &base2, &o1side2, &o2side1}) {
        for (std::size_t i = 0; i < (*j)["plies"].size(); ++i) {
            const Json& p = (*j)["plies"][i];
            for (const auto& [square, v] : p["virus"].items()) {
                EXPECT_GT(v.get<double>(), 0.0) << square;
                EXPECT_LT(v.get<double>(), 1.0) << square;
            }
            if ((*j)["side"] == "2" && i >= 4) {
                EXPECT_FALSE(p["virus"].contains("a1"));
            }
        }
        for (const char* field : {"setups", "links", "position", "positions", "record"})
            EXPECT_FALSE(j->contains(field)) << field;
    }
}

TEST(Analysis, TheQueueIsBoundedAndAnswersBusy) {
    ServerProcess server(dbPath("analysis_busy"));
    Player a(server.port()), b(server.port());
    std::vector<std::string> games;
    for (int i = 0; i < 5; ++i) games.push_back(resignedGame(a, b));
    ASSERT_EQ(server.http("POST", "/api/test/analysis?hold=1").first, 200);
    // Nine distinct analyses asked at once: eight wait (the bound), one is refused at once.
    std::mutex mu;
    std::condition_variable cv;
    std::vector<Answer> answers(10);
    int done = 0;
    std::vector<std::thread> askers;
    auto ask = [&](std::size_t i, const std::string& target) {
        askers.emplace_back([&, i, target] {
            Answer r = get(server.port(), target);
            std::lock_guard lock(mu);
            answers[i] = std::move(r);
            ++done;
            cv.notify_all();
        });
    };
    for (std::size_t i = 0; i < 9; ++i)
        ask(i, "/api/games/" + games[i / 2] + "/analysis?side=" + (i % 2 ? "2" : "1"));
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, 10s, [&] { return done >= 1; }));
    }
    // One more request for an analysis already waiting joins it instead of being refused.
    std::size_t refused = 9;
    {
        std::lock_guard lock(mu);
        EXPECT_EQ(done, 1);
        for (std::size_t i = 0; i < 9; ++i)
            if (answers[i].status) refused = i;
    }
    ASSERT_LT(refused, 9u);
    EXPECT_EQ(answers[refused].status, 503);
    EXPECT_EQ(answers[refused].body, R"({"error":"busy"})");
    EXPECT_EQ(answers[refused].retryAfter, "5");
    const std::size_t waiting = refused == 0 ? 1 : 0;
    ask(9, "/api/games/" + games[waiting / 2] + "/analysis?side=" + (waiting % 2 ? "2" : "1"));
    ASSERT_EQ(server.http("POST", "/api/test/analysis?hold=0").first, 200);
    for (auto& t : askers) t.join();
    for (std::size_t i = 0; i < 10; ++i)
        if (i != refused) {
            EXPECT_EQ(answers[i].status, 200) << i << ": " << answers[i].body;
        }
    EXPECT_EQ(answers[9].body, answers[waiting].body);
    // Once the queue has room, the refused one is answered.
    EXPECT_EQ(get(server.port(), "/api/games/" + games[refused / 2] +
                                     "/analysis?side=" + (refused % 2 ? "2" : "1"))
                  .status,
              200);
}

}  // namespace
}  // namespace rainet::test

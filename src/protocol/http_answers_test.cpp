// The HTTP JSON answers of http_answers.h: each renders the bytes the former tree-and-dump answer
// gave (the expected texts below are those trees' dump()).
#include "protocol/http_answers.h"

#include <gtest/gtest.h>

namespace rainet::protocol {
namespace {

TEST(HttpAnswers, ArchivePlayerOmitsBotUnlessABotAccount) {
    EXPECT_EQ(render(ArchivePlayer{"p1", "Ann", std::nullopt}), R"({"id":"p1","name":"Ann"})");
    EXPECT_EQ(render(ArchivePlayer{"p2", "B\"ot", true}),
              R"({"id":"p2","name":"B\"ot","bot":true})");
    EXPECT_EQ(render(ArchivePlayers{ArchivePlayer{"computer", "computer (level 2)", {}}, {}}),
              R"j({"1":{"id":"computer","name":"computer (level 2)"},"2":null})j");
}

TEST(HttpAnswers, GameRecordAnswerIsTheFormerTree) {
    GameRecordAnswer a;
    a.game = "g1";
    a.status = GameStatus::Finished;
    a.preset = "standard";
    a.clock = ClockSetting{30000, 200, std::nullopt};
    a.players = {ArchivePlayer{"p1", "Ann", {}}, ArchivePlayer{"p2", "Bob", true}};
    a.created = "2026-01-02T03:04:05Z";
    a.result = "1-0";
    a.reason = "resign";
    a.rated = true;
    a.setups = SideSetups{{"a1", "b1"}, {}};
    a.actions = {"a1-a2"};
    a.position = "P";
    a.positions = {"S", "P"};
    a.record = "R\n";
    Json expected{{"game", "g1"},
                  {"status", "finished"},
                  {"preset", "standard"},
                  {"clock", {{"initial", 30000}, {"increment", 200}}},
                  {"players",
                   {{"1", {{"id", "p1"}, {"name", "Ann"}}},
                    {"2", {{"id", "p2"}, {"name", "Bob"}, {"bot", true}}}}},
                  {"created", "2026-01-02T03:04:05Z"},
                  {"result", "1-0"},
                  {"reason", "resign"},
                  {"rated", true},
                  {"setups", {{"1", {"a1", "b1"}}, {"2", Json::array()}}},
                  {"actions", {"a1-a2"}},
                  {"position", "P"},
                  {"positions", {"S", "P"}},
                  {"record", "R\n"}};
    EXPECT_EQ(render(a), expected.dump());
    // Before play: no clock, no setups, nulls.
    GameRecordAnswer open;
    open.game = "g2";
    open.preset = "official";
    open.created = "2026-01-02T03:04:05Z";
    EXPECT_EQ(
        render(open),
        R"({"game":"g2","status":"open","preset":"official","clock":null,"players":{"1":null,"2":null},)"
        R"("created":"2026-01-02T03:04:05Z","result":null,"reason":null,"rated":false,)"
        R"("actions":[],"position":null,"positions":[],"record":null})");
}

TEST(HttpAnswers, GameListPage) {
    GameListPage page;
    page.perPage = 20;
    page.games.push_back({"g1", GameStatus::Playing, "standard",
                          ArchivePlayers{ArchivePlayer{"p1", "Ann", {}}, std::nullopt},
                          std::nullopt, std::nullopt, false, "2026-01-02T03:04:05Z"});
    EXPECT_EQ(
        render(page),
        R"({"games":[{"game":"g1","status":"playing","preset":"standard","players":{"1":{"id":"p1","name":"Ann"},"2":null},)"
        R"("result":null,"reason":null,"rated":false,"created":"2026-01-02T03:04:05Z"}],"per_page":20,"next":null})");
    page.games.clear();
    page.next = "17_g1";
    EXPECT_EQ(render(page), R"({"games":[],"per_page":20,"next":"17_g1"})");
}

TEST(HttpAnswers, PlayerProfile) {
    const PlayerProfile p{"p1", "Ann", "account", 1623, 87, 12, 15, 8, 2, 5, true};
    const Json expected{{"id", "p1"}, {"name", "Ann"},     {"kind", "account"}, {"rating", 1623},
                        {"rd", 87},   {"rated_games", 12}, {"games", 15},       {"wins", 8},
                        {"draws", 2}, {"losses", 5},       {"bot", true}};
    EXPECT_EQ(render(p), expected.dump());
}

TEST(HttpAnswers, LeaderboardPage) {
    LeaderboardPage page;
    page.perPage = 2;
    page.total = 7;
    page.players.push_back({3, "p1", "Ann", "account", 1700, 60, 30, std::nullopt});
    page.players.push_back({4, "p2", "Bot", "account", 1650, 70, 20, true});
    page.next = "4_409a000000000000_20_9";
    EXPECT_EQ(
        render(page),
        R"({"players":[{"rank":3,"id":"p1","name":"Ann","kind":"account","rating":1700,"rd":60,"rated_games":30},)"
        R"({"rank":4,"id":"p2","name":"Bot","kind":"account","rating":1650,"rd":70,"rated_games":20,"bot":true}],)"
        R"("per_page":2,"total":7,"next":"4_409a000000000000_20_9"})");
}

TEST(HttpAnswers, GameAnalysisWritesNumbersAsDump) {
    GameAnalysis a{"g1", Side::Two, 1000, {}};
    AnalysedPlyAnswer first;
    first.ply = 0;
    first.toMove = Side::One;
    first.win = 0.5;
    first.virus.entries = {{"a8", 0.429}, {"b8", 1.0}};
    AnalysedPlyAnswer last;
    last.ply = 1;
    last.toMove = Side::Two;
    last.win = 0.0;
    last.over = true;
    last.best = {{"a8-a7", 0.25, 0.123}};
    a.plies = {first, last};
    Json virus = Json::object();
    virus["a8"] = 0.429;
    virus["b8"] = 1.0;
    Json ply0{{"ply", 0}, {"to_move", "1"}, {"win", 0.5}};
    ply0["virus"] = virus;
    ply0["best"] = Json::array();
    Json ply1{{"ply", 1}, {"to_move", "2"}, {"win", 0.0}};
    ply1["over"] = true;
    ply1["virus"] = Json::object();
    ply1["best"] = {{{"action", "a8-a7"}, {"share", 0.25}, {"win", 0.123}}};
    const Json expected{{"game", "g1"}, {"side", "2"}, {"nodes", 1000u}, {"plies", {ply0, ply1}}};
    EXPECT_EQ(render(a), expected.dump());
}

TEST(HttpAnswers, ClusterHealth) {
    EXPECT_EQ(render(ClusterHealth{"n1", ServiceState::Up, ServiceState::Down, 3}),
              R"({"node":"n1","role":"cluster","redis":"up","database":"down","leases":3})");
}

TEST(HttpAnswers, StoreTestState) {
    EXPECT_EQ(render(StoreTestState{2}), R"({"reads_delayed":2})");
}

TEST(HttpAnswers, EveryAnswerHasADistinctName) {
    const auto all = httpAnswers();
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i]->name, all[j]->name);
}

}  // namespace
}  // namespace rainet::protocol

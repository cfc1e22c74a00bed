// Operations: static files of the browser client, metrics, graceful shutdown on SIGTERM.
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "players.h"

namespace rainet::test {
namespace {

TEST(Operations, StaticFilesAndClientRoutes) {
    const std::filesystem::path web =
        std::filesystem::temp_directory_path() / ("rainet_web_" + std::to_string(::getpid()));
    std::filesystem::create_directories(web / "assets");
    std::ofstream(web / "index.html") << "<!doctype html>index";
    std::ofstream(web / "assets" / "app.js") << "console.log(1)";
    {
        ServerProcess server(dbPath("static"), {"--web", web.string()});
        EXPECT_EQ(server.http("GET", "/").second, "<!doctype html>index");
        EXPECT_EQ(server.http("GET", "/game/gABC").second, "<!doctype html>index");
        EXPECT_EQ(server.http("GET", "/assets/app.js").second, "console.log(1)");
        EXPECT_EQ(server.http("GET", "/assets/missing.js").first, 404);
        EXPECT_EQ(server.http("GET", "/assets/../../etc/passwd").first, 404);  // static_files_test
    }
    std::filesystem::remove_all(web);
}

TEST(Operations, MetricsCountActionsAndErrors) {
    ServerProcess server(dbPath("metrics"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal[0]);
    EXPECT_EQ(b.request({{"type", "act"}, {"game", g}, {"action", "a1-a2"}})["code"],
              "illegal_action");
    const std::string m = server.http("GET", "/metrics").second;
    EXPECT_NE(m.find("rainet_connections 2\n"), std::string::npos) << m;
    EXPECT_NE(m.find("rainet_actions_total 1\n"), std::string::npos);
    EXPECT_NE(m.find("rainet_games{state=\"playing\"} 1\n"), std::string::npos);
    EXPECT_NE(m.find("rainet_errors_total{code=\"illegal_action\"} 1\n"), std::string::npos);
}

TEST(Operations, SigtermClosesSocketsWithAReason) {
    ServerProcess server(dbPath("sigterm"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    playOne(a, b, g, a.game(g).legal[0]);
    const auto t0 = std::chrono::steady_clock::now();
    server.kill(SIGTERM);  // waits for the process to exit
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
    EXPECT_EQ(a.ws().closeCode(), 1001);
    EXPECT_EQ(b.ws().closeCode(), 1001);
    // The game is intact after a restart.
    server.start();
    Player back(server.port(), a.token());
    back.ws().send(Json{{"type", "watch"}, {"game", g}});
    Json snap = back.take([](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(snap["history"].size(), 1u);
    EXPECT_EQ(snap["status"], "playing");
}

}  // namespace
}  // namespace rainet::test

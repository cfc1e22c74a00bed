// The restore drill (docs/deploy.md, "Backups"): a server under load (games being played) is
// backed up with `rainet backup`, stopped, its database replaced by the backup and started again;
// every game that ended before the backup began is there with its record byte for byte, and the
// accounts log in. SQLite only: PostgreSQL's pg_dump/pg_restore are run by scripts/package_test.sh.
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "players.h"

namespace rainet::test {
namespace {
namespace fs = std::filesystem;

std::string drillBinary() {
    const char* d = std::getenv("RAINET_BINARY_DIR");
    return d ? std::string(d) + "/rainet" : std::string(RAINET_BIN);
}

// Runs `rainet ARGS` and returns its exit status and output (stdout and stderr).
std::pair<int, std::string> rainetCli(const std::string& args) {
    FILE* p = ::popen((drillBinary() + " " + args + " 2>&1").c_str(), "r");
    if (!p) return {-1, ""};
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

using DrillClock = std::chrono::steady_clock;

TEST(RestoreDrill, ABackupUnderLoadRestoresEveryGameEndedBeforeIt) {
    const std::string db = dbPath("drill");
    const std::string backup = db + ".backup";
    std::remove(backup.c_str());
    ServerProcess server(db, {}, Backend::Sqlite);
    ASSERT_NE(server.port(), 0);
    const int port = server.port();
    const std::string password = "correct horse";
    {
        Player alice(port), bob(port);
        ASSERT_EQ(
            alice.request(
                {{"type", "register"}, {"username", "DrillAlice"}, {"password", password}})["type"],
            "ack");
        ASSERT_EQ(
            bob.request(
                {{"type", "register"}, {"username", "DrillBob"}, {"password", password}})["type"],
            "ack");
    }

    // The load: pairs of players playing random games to their end, one after another; each
    // game's end is noted with the time its acknowledgement (the end event) arrived.
    std::mutex mu;
    std::vector<std::pair<std::string, DrillClock::time_point>> ended;
    std::atomic<bool> stop{false};
    std::atomic<int> actionsDuringBackup{0};
    std::atomic<bool> backingUp{false};
    std::vector<std::thread> load;
    for (int pair = 0; pair < 2; ++pair)
        load.emplace_back([&, pair] {
            Player a(port), b(port);
            std::mt19937 rng(static_cast<unsigned>(11 + pair));
            while (!stop && !::testing::Test::HasFailure()) {
                const std::string g = startGame(a, b);
                while (a.game(g).status == "playing" && !::testing::Test::HasFailure()) {
                    playOne(a, b, g, moverAction(a, b, g, rng));
                    if (backingUp) ++actionsDuringBackup;
                }
                std::lock_guard lock(mu);
                ended.emplace_back(g, DrillClock::now());
            }
        });
    const auto endedCount = [&] {
        std::lock_guard lock(mu);
        return ended.size();
    };
    for (int i = 0; i < 3000 && endedCount() < 4 && !::testing::Test::HasFailure(); ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_GE(endedCount(), 4u) << "the load played no games";

    // The backup, while the games go on.
    const auto began = DrillClock::now();
    backingUp = true;
    const auto [status, out] = rainetCli("backup --db " + db + " --to " + backup);
    backingUp = false;
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("backup: " + backup), std::string::npos) << out;
    std::this_thread::sleep_for(100ms);  // the load goes on after the backup too
    stop = true;
    for (auto& t : load) t.join();
    ASSERT_FALSE(::testing::Test::HasFailure());

    // Every game ended before the backup began: its record now (a finished game's never
    // changes), to compare with the restored server's.
    std::map<std::string, std::string> records;
    {
        std::lock_guard lock(mu);
        for (const auto& [g, at] : ended) {
            if (at >= began) continue;
            const auto [code, text] = server.http("GET", "/api/games/" + g + "/record");
            ASSERT_EQ(code, 200) << g;
            records[g] = text;
        }
    }
    ASSERT_GE(records.size(), 4u);

    // The drill: stop, replace the database by the backup, start.
    server.kill(SIGTERM);
    for (const char* ext : {"-wal", "-shm"}) std::remove((db + ext).c_str());
    fs::copy_file(backup, db, fs::copy_options::overwrite_existing);
    server.start();
    ASSERT_NE(server.port(), 0) << server.logText();
    for (const auto& [g, text] : records) {
        const auto [code, restored] = server.http("GET", "/api/games/" + g + "/record");
        EXPECT_EQ(code, 200) << g;
        EXPECT_EQ(restored, text) << g;
    }
    for (const char* name : {"DrillAlice", "DrillBob"}) {
        WsClient ws(server.port());
        const Json w = loginFirst(ws, name, password);
        EXPECT_EQ(w["type"], "welcome") << name << " " << w.dump();
    }
    std::remove(backup.c_str());
    std::printf(
        "restore drill: %zu games restored byte for byte; %d actions played during the "
        "backup\n",
        records.size(), actionsDuringBackup.load());
}

TEST(RestoreDrill, BackupRefusesWhatItCannotCopy) {
    const std::string dir = dbPath("drill_refusals") + ".d";
    fs::remove_all(dir);
    fs::create_directories(dir);
    {
        const auto [status, out] =
            rainetCli("backup --db " + dir + "/missing.db --to " + dir + "/b.db");
        EXPECT_EQ(status, 1) << out;
        EXPECT_NE(out.find("no database file"), std::string::npos) << out;
    }
    {
        std::ofstream(dir + "/junk.db") << "not a database at all, just some bytes";
        const auto [status, out] =
            rainetCli("backup --db " + dir + "/junk.db --to " + dir + "/b.db");
        EXPECT_EQ(status, 1) << out;
        EXPECT_NE(out.find("is not a SQLite database"), std::string::npos) << out;
    }
    {
        const auto [status, out] =
            rainetCli("backup --db postgresql://u@localhost/db --to " + dir + "/b.db");
        EXPECT_EQ(status, 1) << out;
        EXPECT_NE(out.find("pg_dump"), std::string::npos) << out;
    }
    {
        const std::string db = dbPath("drill_self");
        ServerProcess server(db, {}, Backend::Sqlite);
        const auto [status, out] = rainetCli("backup --db " + db + " --to " + db);
        EXPECT_EQ(status, 1) << out;
        EXPECT_NE(out.find("the database itself"), std::string::npos) << out;
        const auto [usage, text] = rainetCli("backup --db " + db);
        EXPECT_EQ(usage, 2) << text;
    }
    EXPECT_FALSE(fs::exists(dir + "/b.db"));
    EXPECT_FALSE(fs::exists(dir + "/b.db.partial"));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace rainet::test

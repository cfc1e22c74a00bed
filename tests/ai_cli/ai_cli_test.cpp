// `rainet engine`, `rainet bench` and `rainet arena` as processes: output and exit status.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include "ai/child_process.h"
#include "support/run_command.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace {

using rainet::test::CliRun;
CliRun run(const std::string& args, const std::string& input = "") {
    return rainet::test::runRainet(args, input);
}

TEST(CliEngine, ScriptedSessionOverPipes) {
    const CliRun r = run("engine --seed 3",
                         "rainet\\nnewgame side 1\\nsetup\\nposition view "
                         "xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0\\ngo nodes 100\\n"
                         "bogus\\ngo nodes\\nquit\\n");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("rainetok\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nsetup "), std::string::npos) << r.out;
    // The learned belief's prior: its training games put links in front a little more often
    // (0.45 at full strength; at the first move the opponent model's prior, 0.9, tempers it).
    EXPECT_NE(r.out.find("info pvirus d7 0.46"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nbestaction "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("info string unknown command 'bogus'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("error go: 'nodes' needs a value"), std::string::npos) << r.out;
}

TEST(CliEngine, EndOfInputLetsABoundedSearchAnswer) {
    const CliRun r = run("engine",
                         "newgame side 1\\nposition view xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 "
                         "CNcn -/- 0 0\\ngo nodes 200\\n");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("bestaction "), std::string::npos) << r.out;
}

// A real engine process through pipes; every wait is for a line (a hang fails after 60 s).
constexpr const char* kStart = "position view xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0";

// `rainet engine ARGS` as a child process; the test fails at once if it cannot start.
std::unique_ptr<rainet::ai::ChildProcess> engine(const std::string& args) {
    auto p = rainet::ai::ChildProcess::start(std::string(RAINET_BIN) + " engine " + args);
    return p.ok() ? std::move(*p) : nullptr;
}
constexpr int kHangMs = 60000;  // only a hung engine takes this long

// Lines up to and including the first that starts with `prefix`; nothing if it never comes.
std::optional<std::vector<std::string>> readUntil(rainet::ai::ChildProcess& e,
                                                  const std::string& prefix) {
    std::vector<std::string> lines;
    for (;;) {
        auto line = e.readLine(kHangMs);
        if (!line.ok()) return std::nullopt;
        lines.push_back(*line);
        if (line->rfind(prefix, 0) == 0) return lines;
    }
}

int exitStatus(rainet::ai::ChildProcess& e) {
    auto status = e.wait(kHangMs);
    return status.ok() ? *status : -2;
}

int countPrefix(const std::vector<std::string>& lines, const std::string& prefix) {
    int n = 0;
    for (const auto& l : lines) n += l.rfind(prefix, 0) == 0;
    return n;
}

// An engine searching the start with `go` (a long or infinite search), synchronised on the
// `readyok` it answers meanwhile; nullptr if it did not (or answered bestaction first).
std::unique_ptr<rainet::ai::ChildProcess> searchingEngine(const std::string& go) {
    auto e = engine("--seed 5");
    if (!e) return nullptr;
    if (!e->send("newgame side 1") || !e->send(kStart) || !e->send(go) || !e->send("isready"))
        return nullptr;
    auto ready = readUntil(*e, "readyok");
    if (!ready || countPrefix(*ready, "bestaction ") != 0) return nullptr;
    return e;
}

TEST(CliEngine, InfiniteSearchKeepsReadingUntilStop) {
    auto p = searchingEngine("go infinite");
    ASSERT_TRUE(p);
    auto& e = *p;
    ASSERT_TRUE(e.send(std::string(kStart) + " moves d2-d3 d7-d6"));  // waits for the search
    ASSERT_TRUE(e.send("go nodes 40"));
    ASSERT_TRUE(e.send("isready"));
    auto ready = readUntil(e, "readyok");  // answered during the infinite search
    ASSERT_TRUE(ready) << e.pending();
    EXPECT_EQ(countPrefix(*ready, "bestaction "), 0);
    ASSERT_TRUE(e.send("stop"));
    auto first = readUntil(e, "bestaction ");  // the infinite search's answer
    ASSERT_TRUE(first);
    auto second = readUntil(e, "bestaction ");  // then the waiting position and go
    ASSERT_TRUE(second);
    EXPECT_EQ(countPrefix(*second, "error"), 0);
    ASSERT_TRUE(e.send("quit"));
    EXPECT_EQ(exitStatus(e), 0);
}

TEST(CliEngine, EndOfInputStopsAnInfiniteSearch) {
    auto p = searchingEngine("go infinite");
    ASSERT_TRUE(p);
    auto& e = *p;
    ASSERT_TRUE(e.send("setup"));  // waits for the search
    e.closeInput();
    auto out = readUntil(e, "setup ");
    ASSERT_TRUE(out) << e.pending();
    EXPECT_EQ(countPrefix(*out, "bestaction "), 1);
    EXPECT_EQ(exitStatus(e), 0);
}

TEST(CliEngine, StopEndsALongTimedSearchAndQuitExits) {
    auto p = searchingEngine("go movetime 600000");
    ASSERT_TRUE(p);
    auto& e = *p;
    ASSERT_TRUE(e.send("stop"));
    ASSERT_TRUE(readUntil(e, "bestaction "));
    ASSERT_TRUE(e.send("go movetime 600000"));
    ASSERT_TRUE(e.send("isready"));
    ASSERT_TRUE(readUntil(e, "readyok"));
    ASSERT_TRUE(e.send("quit"));  // stops the search, answers it, exits
    ASSERT_TRUE(readUntil(e, "bestaction "));
    EXPECT_EQ(exitStatus(e), 0);
}

TEST(CliEngine, EveryGoGetsExactlyOneBestActionRegression) {
    // The reader used to flush the output while the search thread wrote it (std::cin is tied to
    // std::cout), now and then doubling a `bestaction`: an instant bot makes that race likely.
    auto p = engine("--bot random");
    ASSERT_TRUE(p);
    auto& e = *p;
    ASSERT_TRUE(e.send("newgame side 1"));
    for (int i = 0; i < 20000; ++i) {
        ASSERT_TRUE(e.send(kStart));
        ASSERT_TRUE(e.send("go"));
        ASSERT_TRUE(e.send("isready"));
        // isready may be answered before or after bestaction; both come before the next go.
        int best = 0, ready = 0;
        while (best + ready < 2) {
            auto line = e.readLine(kHangMs);
            ASSERT_TRUE(line.ok()) << "go " << i;
            best += line->rfind("bestaction ", 0) == 0;
            ready += *line == "readyok";
        }
        ASSERT_EQ(best, 1) << "go " << i;
    }
    ASSERT_TRUE(e.send("quit"));
    EXPECT_EQ(exitStatus(e), 0);
}

TEST(CliEngine, UsageErrors) {
    EXPECT_EQ(run("engine --bot nobody").status, 2);
    EXPECT_EQ(run("engine --seed").status, 2);
}

TEST(CliBench, PrintsTheCommittedNodeCount) {
    std::ifstream f(std::string(RAINET_SOURCE_DIR) + "/bench/bench_nodes.txt");
    std::string nodes;
    f >> nodes;
    const CliRun r = run("bench");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("Nodes searched: " + nodes + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Nodes/second: "), std::string::npos);
}

TEST(CliBench, SearchesWithAGivenPlayersConfiguration) {
    // The learned value without rollouts: as many plies as the tree descents, a different count.
    const CliRun r = run("bench 50 strong:eval=learned:rollout=0");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("Iterations: 750\n"), std::string::npos) << r.out;
    const CliRun plain = run("bench 50");
    EXPECT_NE(r.out.substr(r.out.find("Nodes searched")),
              plain.out.substr(plain.out.find("Nodes searched")));
    EXPECT_EQ(run("bench 50 greedy").status, 2);  // greedy does not search
    EXPECT_EQ(run("bench 50 strong:eval=oracle").status, 2);
    EXPECT_EQ(run("bench 50 strong extra").status, 2);
}

TEST(CliValue, TrainsWritesTheWeightsAndScores) {
    const std::string dir = ::testing::TempDir() + "/rainet-cli-value";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string out = dir + "/value.inc";
    const CliRun r = run("value train --games 5 --nodes 5 --seed 2 --out " + out);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("5 games: "), std::string::npos) << r.out;
    for (const char* row : {"  constant ", "  heuristic ", "  learned ", "  tempo "})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    std::ifstream written(out);
    std::string first, origin;
    std::getline(written, first);
    std::getline(written, origin);
    EXPECT_EQ(first, "// The learned value model (value.h), written by:");
    EXPECT_NE(origin.find("--games 5 --nodes 5 --seed 2 --player strong"), std::string::npos);
    // The same seed writes the same weights.
    const std::string again = dir + "/again.inc";
    ASSERT_EQ(run("value train --games 5 --nodes 5 --seed 2 --out " + again).status, 0);
    auto body = [](const std::string& file) {
        std::ifstream in(file);
        std::string line, last;
        while (std::getline(in, line)) last = line;
        return last;
    };
    EXPECT_EQ(body(out), body(again));
    EXPECT_EQ(run("value train --games 5").status, 2);  // no --out
    EXPECT_EQ(run("value train --games 2 --out " + out).status, 2);
    EXPECT_EQ(run("value train --nodes x --out " + out).status, 2);
    EXPECT_EQ(run("value train --player nobody --games 5 --out " + out).status, 1);
    EXPECT_EQ(run("value fit").status, 2);
}

TEST(CliPolicy, TrainsWritesTheWeightsAndScores) {
    const std::string dir = ::testing::TempDir() + "/rainet-cli-policy";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string out = dir + "/policy.inc";
    const CliRun r = run("policy train --games 5 --nodes 5 --seed 2 --out " + out);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("5 games: "), std::string::npos) << r.out;
    for (const char* row : {"  uniform ", "  heuristic ", "  learned ", "  escape ", "  win-now "})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    std::ifstream written(out);
    std::string first, origin;
    std::getline(written, first);
    std::getline(written, origin);
    EXPECT_EQ(first, "// The learned policy prior (policy.h), written by:");
    EXPECT_NE(origin.find("--games 5 --nodes 5 --seed 2 --player strong"), std::string::npos);
    // The same seed writes the same weights; another seed other ones.
    auto body = [](const std::string& file) {
        std::ifstream in(file);
        std::string line, last;
        while (std::getline(in, line)) last = line;
        return last;
    };
    const std::string again = dir + "/again.inc", other = dir + "/other.inc";
    ASSERT_EQ(run("policy train --games 5 --nodes 5 --seed 2 --out " + again).status, 0);
    EXPECT_EQ(body(out), body(again));
    EXPECT_EQ(body(out).rfind("{{", 0), 0u) << body(out);
    ASSERT_EQ(run("policy train --games 5 --nodes 5 --seed 3 --out " + other).status, 0);
    EXPECT_NE(body(out), body(other));
    EXPECT_EQ(run("policy train --games 5").status, 2);  // no --out
    EXPECT_EQ(run("policy train --games 2 --out " + out).status, 2);
    EXPECT_EQ(run("policy train --nodes x --out " + out).status, 2);
    EXPECT_EQ(run("policy train --player nobody --games 5 --out " + out).status, 1);
    EXPECT_EQ(run("policy fit").status, 2);
}

TEST(CliArena, PlaysAndWritesRecords) {
    const std::string dir = ::testing::TempDir() + "/rainet-cli-arena";
    std::filesystem::remove_all(dir);
    const CliRun r = run("arena greedy random --games 4 --concurrency 2 --seed 2 --records " + dir);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("greedy vs random: games 4"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Elo difference: "), std::string::npos) << r.out;
    for (int g = 1; g <= 4; ++g)
        EXPECT_TRUE(std::filesystem::exists(dir + "/game-0000" + std::to_string(g) + ".txt"));
}

TEST(CliArena, LeagueMembersByNameAndHowGamesEnded) {
    // Two fortresses offer nothing: their games end by the no-progress rule, and the arena says
    // so; nobody lost by a fourth virus.
    const CliRun r = run("arena fortress fortress --games 2 --seed 1");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("Endings: 2 no-progress draws (100.0%), 0 losses of fortress by its "
                         "fourth virus (0.0%)"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(run("arena fortres random --games 2").status, 2);
}

TEST(CliArena, ExternalEngineAgainstABot) {
    const CliRun r = run(std::string("arena 'engine:") + RAINET_BIN +
                         " engine --bot greedy' random --games 2 --seed 4");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("games 2"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("errors"), std::string::npos) << r.out;
}

TEST(CliBelief, TrainsWritesTheModelAndScores) {
    const std::string dir = ::testing::TempDir() + "/rainet-cli-belief";
    std::filesystem::remove_all(dir);
    ASSERT_EQ(run("arena greedy bait --games 10 --seed 3 --records " + dir + "/games").status, 0);
    const std::string model = dir + "/model.inc";
    const CliRun train = run("belief train --out " + model + " " + dir + "/games");
    EXPECT_EQ(train.status, 0) << train.out;
    EXPECT_NE(train.out.find("8 games fitted"), std::string::npos) << train.out;
    EXPECT_NE(train.out.find("2 held out"), std::string::npos) << train.out;
    EXPECT_NE(train.out.find("fitted       40"), std::string::npos) << train.out;
    std::ifstream written(model);
    std::string first;
    std::getline(written, first);
    EXPECT_EQ(first, "// The learned belief model (belief.h), written by:");
    // Eval scores the three beliefs at plies 10, 20, 40, here for bait's cards only, and with
    // the model just written.
    const CliRun eval = run("belief eval --cards-of bait --model " + model + " " + dir + "/games");
    EXPECT_EQ(eval.status, 0) << eval.out;
    EXPECT_NE(eval.out.find("10 games\n"), std::string::npos) << eval.out;
    for (const char* row : {"uniform      10", "heuristic    20", "fitted       40"})
        EXPECT_NE(eval.out.find(row), std::string::npos) << row << "\n" << eval.out;
    EXPECT_EQ(run("belief eval " + dir + "/nowhere").status, 1);
    EXPECT_EQ(run("belief eval --model " + dir + "/games/game-00001.txt " + dir + "/games").status,
              1);
    EXPECT_EQ(run("belief train " + dir + "/games").status, 2);  // no --out
    EXPECT_EQ(run("belief guess " + dir + "/games").status, 2);
    EXPECT_EQ(run("belief eval").status, 2);
}

TEST(CliArena, MovetimeForEveryPlayerAndAnswerTimeQuantiles) {
    // --movetime gives an engine (which has no budget of its own) its time per action; the
    // answer times are reported with their quantiles and how far they went past the movetime.
    const CliRun r = run(std::string("arena 'engine:") + RAINET_BIN +
                         " engine' greedy --games 2 --seed 3 --max-plies 12 --movetime 20");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("p99.9 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("engine: over movetime 20 ms: p50 "), std::string::npos) << r.out;
    EXPECT_EQ(run("arena greedy random --movetime 0").status, 2);
}

TEST(CliArena, UsageErrors) {
    EXPECT_EQ(run("arena greedy").status, 2);
    EXPECT_EQ(run("arena greedy nobody").status, 2);
    EXPECT_EQ(run("arena greedy random --games x").status, 2);
    EXPECT_EQ(run("arena greedy random --frobnicate").status, 2);
}

}  // namespace

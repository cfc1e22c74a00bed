// `rainet engine`, `rainet bench` and `rainet arena` as processes: output and exit status.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include "support/run_command.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
    // The learned belief's prior: its training games put links in front a little more often.
    EXPECT_NE(r.out.find("info pvirus d7 0.45"), std::string::npos) << r.out;
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

TEST(CliArena, UsageErrors) {
    EXPECT_EQ(run("arena greedy").status, 2);
    EXPECT_EQ(run("arena greedy nobody").status, 2);
    EXPECT_EQ(run("arena greedy random --games x").status, 2);
    EXPECT_EQ(run("arena greedy random --frobnicate").status, 2);
}

}  // namespace

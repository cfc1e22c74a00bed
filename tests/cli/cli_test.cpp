// The rainet binary as a user runs it: exact output for the rules commands, usage errors exit 2,
// bad input exits 1 with a clear message.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include "support/run_command.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <string>

namespace {

using rainet::test::CliRun;
CliRun run(const std::string& args) {
    return rainet::test::runRainet(args);
}

int countLines(const std::string& s) {
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

TEST(CliPerft, CountsFromTheStart) {
    CliRun r = run("perft 3");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("Nodes: 1348618\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("Speed: "), std::string::npos);
}

TEST(CliPerft, DivideListsEachRootActionSorted) {
    CliRun r = run("perft 2 --divide");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("d2-d3: 126\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NF+d2e2:swap: "), std::string::npos);
    EXPECT_NE(r.out.find("Nodes: 15822\n"), std::string::npos);
    EXPECT_EQ(countLines(r.out), 126 + 3);
    EXPECT_LT(r.out.find("FW+a2:"), r.out.find("d2-d3:"));
}

TEST(CliPerft, OfficialPresetAndPosition) {
    EXPECT_NE(run("perft 1 --preset official").out.find("Nodes: 138\n"), std::string::npos);
    CliRun r =
        run("perft 1 --position 'lll2vvv/2lL+v3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0' --preset "
            "official --divide");
    EXPECT_NE(r.out.find("d7-srv: 1\n"), std::string::npos) << r.out;
}

TEST(CliPerft, UsageErrors) {
    EXPECT_EQ(run("perft").status, 2);
    EXPECT_EQ(run("perft x").status, 2);
    EXPECT_EQ(run("perft 2 --bogus").status, 2);
    EXPECT_EQ(run("perft 2 --preset fancy").status, 2);
    CliRun r = run("perft 2 --position 'lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVQ 1 CNcn -/- 0 0'");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("board: unexpected 'Q' at character 33"), std::string::npos) << r.out;
}

TEST(CliLegal, SortedOnePerLine) {
    CliRun r = run("legal");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(countLines(r.out), 126);
    EXPECT_EQ(r.out.substr(0, 6), "FW+a2\n");
    EXPECT_NE(r.out.find("\nVC+e7\n"), std::string::npos);
}

TEST(CliApply, PrintsTheResultingPosition) {
    CliRun r = run("apply d2-d3 e7-e6 LB+d3");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "lll2vvv/3l4/4v3/8/8/3L+4/4V3/LLL2VVV 2 CNcn -/- 3 3\n");
}

TEST(CliApply, IllegalActionNamesItAndWhy) {
    CliRun r = run("apply d2-d3 e7-e5");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("action 2 'e7-e5': not a legal action for side 2"), std::string::npos)
        << r.out;
    r = run("apply d2-d9");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("action 1 'd2-d9': bad action"), std::string::npos) << r.out;
    EXPECT_EQ(run("apply").status, 2);
}

TEST(CliView, EachViewer) {
    EXPECT_EQ(run("view --as 1").out, "xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0\n");
    EXPECT_EQ(run("view --as 2").out, "lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0\n");
    EXPECT_EQ(run("view --as spectator").out, "xxx2xxx/3xx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0\n");
    EXPECT_EQ(run("view --as 3").status, 2);
    EXPECT_EQ(run("view").status, 2);
}

TEST(CliReplay, ValidRecordAndBadRecord) {
    const std::string good = testing::TempDir() + "/good.rec";
    std::ofstream(good) << "[Preset \"standard\"]\n[Result \"1-0\"]\n[Termination \"four-links\"]\n"
                           "[Position \"v5vv/4l3/4L3/8/8/8/3LVv2/LL3VVV 1 CNcn lll/- 0 "
                           "40\"]\n\n21. e6-e7 {l} 1-0\n";
    CliRun r = run(good);
    r = run("replay " + good);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out,
              "Plies: 1\nPosition: v5vv/4L3/8/8/8/8/3LVv2/LL3VVV 2 CNcn llll/- 0 41\nResult: 1-0 "
              "(four-links)\n");
    const std::string bad = testing::TempDir() + "/bad.rec";
    std::ofstream(bad) << "[Result \"*\"]\n[Setup1 \"LLLVVVLV\"]\n[Setup2 \"LLLVVVLV\"]\n\n1. "
                          "d2-d3 e7-e6 2. d3-d5 *\n";
    r = run("replay " + bad);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("ply 3: d3-d5 is not legal"), std::string::npos) << r.out;
    EXPECT_EQ(run("replay /nonexistent/file").status, 1);
    EXPECT_EQ(run("replay").status, 2);
}

// Regression (issue 10): a stack of more than 8 cards once made the position parser read past
// the hash's key table; from every door (--position, replay's [Position] tag) it is a clear error.
TEST(CliReplay, OversizedStackIsAClearError) {
    CliRun r = run("perft 1 --position '8/8/8/8/8/8/8/8 1 - LLLLLLLLL/- 0 0'");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("position: side 1 owns 9 links"), std::string::npos) << r.out;
    const std::string rec = testing::TempDir() + "/stack.rec";
    std::ofstream(rec) << "[Result \"*\"]\n[Position \"8/8/8/8/8/8/8/8 1 - -/VVVVVVVVVVVVVVVV 0 "
                          "0\"]\n\n*\n";
    r = run("replay " + rec);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("position: side 1 owns 0 links"), std::string::npos) << r.out;
}

TEST(Cli, UnknownCommandAndHelp) {
    EXPECT_EQ(run("frobnicate").status, 2);
    CliRun r = run("help");
    EXPECT_EQ(r.status, 0);
    for (const char* c : {"perft", "legal", "apply", "view", "replay"})
        EXPECT_NE(r.out.find(c), std::string::npos) << c;
}

}  // namespace

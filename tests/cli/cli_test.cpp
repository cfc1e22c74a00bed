// The rainet binary as a user runs it: exact output for the rules commands, usage errors exit 2,
// bad input exits 1 with a clear message.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include "store/store.h"
#include "support/run_command.h"

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

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

// Regression: a stack of more than 8 cards once made the position parser read past
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

// stdout and stderr apart (runRainet joins them).
struct SplitRun {
    int status;
    std::string out, err;
};
SplitRun runSplit(const std::string& args) {
    // One file per call: tests of this binary run in parallel processes (ctest -j).
    static int calls = 0;
    const std::string errFile = testing::TempDir() + "/cli_stderr_" + std::to_string(::getpid()) +
                                "_" + std::to_string(calls++) + ".txt";
    FILE* f = popen((std::string(RAINET_BIN) + " " + args + " 2>" + errFile).c_str(), "r");
    SplitRun r{-1, "", ""};
    if (!f) return r;
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(f);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::ifstream in(errFile);
    r.err.assign(std::istreambuf_iterator<char>(in), {});
    std::remove(errFile.c_str());
    return r;
}

const char* const kCommands[] = {"admin",  "apply",  "arena", "backup",   "belief", "bench",
                                 "bot",    "engine", "legal", "loadtest", "perft",  "play",
                                 "replay", "serve",  "value", "view"};

// Every subcommand reads its flags the same way: --help is its usage and options, on stdout.
TEST(CliFlags, EverySubcommandHasHelpOnStdout) {
    for (const char* c : kCommands) {
        SplitRun r = runSplit(std::string(c) + " --help");
        EXPECT_EQ(r.status, 0) << c << ": " << r.err;
        EXPECT_NE(r.out.find(std::string("Usage: rainet ") + c), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
        EXPECT_EQ(r.err, "") << c;
    }
    // The flags users and docs rely on are listed with their defaults.
    SplitRun serve = runSplit("serve --help");
    for (const char* flag : {"--listen",
                             "--db",
                             "--web",
                             "--threads",
                             "--grace",
                             "--rate",
                             "--sync",
                             "--max-connections",
                             "--max-per-address",
                             "--hello-timeout",
                             "--identities-per-minute",
                             "--trust-proxy",
                             "--metrics-listen",
                             "--password-cost",
                             "--expire-open",
                             "--expire-setup",
                             "--expire-abandoned",
                             "--expire-computer",
                             "--arena-schedule",
                             "--spectator-chat",
                             "--chat-filter",
                             "--test-mode"})
        EXPECT_NE(serve.out.find(flag), std::string::npos) << flag;
    EXPECT_NE(serve.out.find("127.0.0.1:8080"), std::string::npos) << serve.out;
    SplitRun loadtest = runSplit("loadtest --help");
    for (const char* flag :
         {"--port", "--join-port", "--games", "--spectators", "--pace", "--seconds", "--ramp",
          "--server-pid", "--abandon", "--sample", "--db-file"})
        EXPECT_NE(loadtest.out.find(flag), std::string::npos) << flag;
}

// An unknown flag or a bad value: the reason and the usage line on stderr, exit 2, nothing done.
TEST(CliFlags, BadFlagsAreUsageErrorsThatDoNothing) {
    const std::string db = testing::TempDir() + "/cli_flags.db";
    std::remove(db.c_str());
    for (const std::string& args : std::vector<std::string>{
             "serve --db " + db + " --bogus", "serve --db " + db + " --threads many",
             "serve --db " + db + " --sync sometimes", "serve --db " + db + " --expire-later 5",
             "loadtest --games x", "loadtest --abandon 101", "loadtest --join-port 0",
             "bench 10 20", "engine --seed", "arena greedy random --frobnicate", "belief train",
             "perft 2 --depth 3", "play --bogus", "bot --user robo --frobnicate"}) {
        SplitRun r = runSplit(args);
        EXPECT_EQ(r.status, 2) << args << "\n" << r.out << r.err;
        EXPECT_EQ(r.out, "") << args;
        const std::string name = args.substr(0, args.find(' '));
        EXPECT_EQ(r.err.rfind("rainet " + name + ": ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("usage: rainet " + name), std::string::npos) << r.err;
    }
    std::ifstream created(db);
    EXPECT_FALSE(created.good()) << "a refused serve created its database";
    EXPECT_NE(runSplit("serve --bogus").err.find("--bogus"), std::string::npos);
}

// The operator's recurring arenas are checked before anything is opened: a malformed or
// out-of-bounds spec is a clear error, exit 2, and no database.
TEST(CliFlags, AMalformedArenaScheduleStopsTheServerAtStart) {
    const std::string db = testing::TempDir() + "/cli_arena.db";
    std::remove(db.c_str());
    for (const char* spec : {"3+2@60/99", "3+2", "0+2@60/30"}) {
        SplitRun r =
            runSplit("serve --listen 127.0.0.1:0 --db " + db + " --arena-schedule " + spec);
        EXPECT_EQ(r.status, 2) << spec << "\n" << r.err;
        EXPECT_NE(r.err.find("--arena-schedule: not a schedule"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(spec), std::string::npos) << r.err;
    }
    std::ifstream created(db);
    EXPECT_FALSE(created.good()) << "a refused serve created its database";
}

// A flag given twice counts once, the last time (scripts append to a command line).
TEST(CliFlags, TheLastOfARepeatedFlagCounts) {
    const std::string official = run("perft 1 --preset official").out;
    const std::string standard = run("perft 1").out;
    ASSERT_NE(official.substr(0, official.find('\n')), standard.substr(0, standard.find('\n')));
    CliRun r = run("perft 1 --preset standard --preset official");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), official.substr(0, official.find('\n')));
}

// `rainet admin` on a database: what each action prints, its effect as the next action sees
// it, the moderation log, and clear errors (exit 1) that change nothing.
TEST(CliAdmin, RolesBansMutesAndTheLog) {
    const std::string db = testing::TempDir() + "/cli_admin.db";
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((db + ext).c_str());
    {
        auto st = rainet::store::Store::open(db);
        ASSERT_TRUE(st) << st.error().message;
        auto p = (*st)->createPlayer("pK", "hk", "kurisu");
        ASSERT_TRUE(p);
        ASSERT_EQ(*(*st)->registerAccount(p->id, "Kurisu", "not a real hash"),
                  rainet::store::Registration::Registered);
    }
    auto admin = [&](const std::string& args) { return runSplit("admin --db " + db + " " + args); };
    SplitRun r = admin("grant kurisu moderator --reason 'lab member'");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "Kurisu is now moderator\n");
    r = admin("grant KURISU moderator");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "rainet admin: Kurisu is already moderator\n");
    EXPECT_EQ(admin("grant kurisu janitor").err,
              "rainet admin: no role janitor (moderator or admin)\n");
    EXPECT_EQ(admin("ban nobody").err, "rainet admin: no player named nobody\n");
    EXPECT_EQ(admin("mute kurisu").err, "rainet admin: mute needs --minutes N\n");
    EXPECT_EQ(admin("unmute kurisu").err, "rainet admin: Kurisu is not muted\n");
    r = admin("mute pK --minutes 60 --reason spam");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("Kurisu is muted until 20", 0), 0u) << r.out;
    EXPECT_EQ(admin("ban kurisu").out, "Kurisu is banned\n");
    EXPECT_EQ(admin("unban kurisu").out, "Kurisu is no longer banned\n");
    EXPECT_EQ(admin("reports").out, "no open reports\n");
    EXPECT_EQ(admin("close-report 7").err, "rainet admin: no open report #7\n");
    r = admin("log");
    EXPECT_EQ(r.status, 0) << r.err;
    // Newest first: "<date> <time> UTC operator <action> <player>[: reason]".
    std::vector<std::string> lines;
    for (std::size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(r.out.substr(at + 21, nl - at - 21));
    EXPECT_EQ(lines.size(), 4u) << r.out;
    if (lines.size() == 4) {
        EXPECT_EQ(lines[0], "operator unban Kurisu");
        EXPECT_EQ(lines[1], "operator ban Kurisu");
        EXPECT_EQ(lines[2].rfind("operator mute Kurisu: spam; until ", 0), 0u) << lines[2];
        EXPECT_EQ(lines[3], "operator grant moderator Kurisu: lab member");
    }
    // Usage errors: exit 2, nothing done.
    EXPECT_EQ(admin("frobnicate kurisu").status, 2);
    EXPECT_EQ(admin("ban").status, 1);
    EXPECT_EQ(runSplit("admin ban kurisu").status, 2);  // no --db
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((db + ext).c_str());
}

// A player's data as JSON, then its account closed: the name freed, the player anonymised.
TEST(CliAdmin, ExportThenCloseAnAccount) {
    const std::string db = testing::TempDir() + "/cli_privacy.db";
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((db + ext).c_str());
    {
        auto st = rainet::store::Store::open(db);
        ASSERT_TRUE(st) << st.error().message;
        auto p = (*st)->createPlayer("pM", "hm", "mayuri");
        ASSERT_TRUE(p);
        ASSERT_EQ(*(*st)->registerAccount(p->id, "Mayuri", "not a real hash"),
                  rainet::store::Registration::Registered);
    }
    auto admin = [&](const std::string& args) { return runSplit("admin --db " + db + " " + args); };
    SplitRun r = admin("export mayuri");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"username\": \"Mayuri\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"id\": \"pM\""), std::string::npos) << r.out;
    r = admin("close mayuri --reason 'asked by the player'");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "Mayuri's account is closed; its games remain, by \"deleted player\"\n");
    EXPECT_EQ(admin("export mayuri").err, "rainet admin: no player named mayuri\n");
    r = admin("export pM");
    EXPECT_NE(r.out.find("\"name\": \"deleted player\""), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Mayuri"), std::string::npos) << r.out;
    EXPECT_NE(admin("log").out.find("operator close_account deleted player: asked by the player"),
              std::string::npos);
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((db + ext).c_str());
}

TEST(Cli, UnknownCommandAndHelp) {
    EXPECT_EQ(run("frobnicate").status, 2);
    CliRun r = run("help");
    EXPECT_EQ(r.status, 0);
    for (const char* c : {"perft", "legal", "apply", "view", "replay"})
        EXPECT_NE(r.out.find(c), std::string::npos) << c;
}

}  // namespace

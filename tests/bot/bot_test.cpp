// `rainet bot` over a real server against a person (`rainet play` driven through stdin): a whole
// game with the project's own engine, the bot flagged to the person and in the HTTP API; an open
// game joined as a challenge, a draw offer declined; the server killed and restarted mid-game
// (the bot reconnects, resumes and finishes), and the bot itself killed and started again (it
// finds its game); an engine that crashes or plays an illegal action makes the bot resign and
// exit, not hang; command-line and account errors.
#include <nlohmann/json.hpp>
#include <random>

#include "play/play_process.h"
#include "play/tournament_host.h"

namespace rainet::test {
namespace {

using Json = nlohmann::json;

std::string writePassword(const std::string& name, const std::string& password) {
    const std::string path = tempPath(name + "_password");
    std::ofstream(path) << password << "\n";
    return path;
}

std::vector<std::string> human(const Server& s, const std::string& name) {
    const std::string token = tempPath(name + "_token");
    std::remove(token.c_str());
    return {"--server", s.url(), "--token-file", token, "--name", name};
}

// `rainet bot` as "robo" with the project's engine (a small fixed budget: quick, reproducible).
std::vector<std::string> botArgs(const Server& s, const std::string& engine,
                                 std::vector<std::string> more) {
    std::vector<std::string> a{"--server",
                               s.url(),
                               "--engine",
                               engine,
                               "--user",
                               "robo",
                               "--password-file",
                               writePassword("robo", "robot-password"),
                               "--register",
                               "--seed",
                               "5"};
    a.insert(a.end(), more.begin(), more.end());
    return a;
}
const std::string kEngine = std::string(RAINET_BIN) + " engine --bot level1";

// The person's side of a game with the bot, random legal actions until the end; returns the
// number of actions played.
int playToTheEnd(Play& p, std::mt19937& rng) {
    int turns = 0;
    while (playTurn(p, rng)) {
        if (++turns > 1000) break;
    }
    return turns;
}

// The person seeks; the bot (seeking already) is paired with it; the person sets up at random.
std::string pairWithTheBot(Play& bot, Play& p) {
    bot.expect("bot: seeking a game");
    p.expect("connected to ");
    p.type("seek");
    p.expect("matched: game ");
    const std::string line = p.restOfLine();
    p.type("setup random");
    bot.expect("bot: playing game ");
    return line.substr(0, line.find(','));
}

TEST(Bot, PlaysAWholeGameAgainstAPersonWhoSeesItFlagged) {
    Server server("bot_whole");
    Play bot(botArgs(server, kEngine, {"--accept", "quick", "--games", "1", "--nodes", "200"}),
             "bot");
    bot.expect("bot: engine '");
    bot.expect("bot: registered the bot account robo");
    bot.expect("bot: logged in as robo (p");
    // Seeks show in the lobby; the person's terminal marks the bot in the game.
    Play p(human(server, "alice"));
    const std::string game = pairWithTheBot(bot, p);
    p.expect("robo (1500) (bot)  ");  // connected: not "(away)"
    std::mt19937 rng(11);
    const int turns = playToTheEnd(p, rng);
    EXPECT_GT(turns, 0);
    const std::string end = p.output().substr(p.output().rfind("\ngame g"));
    EXPECT_NE(end.find("game over: "), std::string::npos) << end;
    // Played to an end of the rules: the bot neither resigned nor lost on an error.
    EXPECT_TRUE(end.find("four links") != std::string::npos ||
                end.find("four viruses") != std::string::npos ||
                end.find("no progress") != std::string::npos)
        << end;
    bot.expect("bot: game " + game + " over: ");
    bot.expect("bot: played 1 game(s); exiting");
    EXPECT_EQ(bot.wait(), 0) << bot.output();
    EXPECT_EQ(bot.output().find("resigning"), std::string::npos) << bot.output();
    // The record and the profile say so too; the person is not flagged.
    const Json record = Json::parse(server.get("/api/games/" + game));
    const bool botIsOne = record["players"]["1"]["name"] == "robo";
    EXPECT_EQ(record["players"][botIsOne ? "1" : "2"].value("bot", false), true) << record;
    EXPECT_FALSE(record["players"][botIsOne ? "2" : "1"].contains("bot")) << record;
    EXPECT_EQ(record["status"], "finished");
    const std::string botId = record["players"][botIsOne ? "1" : "2"]["id"];
    const Json profile = Json::parse(server.get("/api/players/" + botId));
    EXPECT_EQ(profile.value("bot", false), true) << profile;
    EXPECT_EQ(profile["kind"], "account");
    EXPECT_EQ(profile["games"], 1);
    // The password never appears in the bot's output.
    EXPECT_EQ(bot.output().find("robot-password"), std::string::npos);
    RecordProperty("turns", turns);
}

TEST(Bot, JoinsAnOpenGameAndDeclinesADrawOffer) {
    Server server("bot_join");
    Play p(human(server, "alice"));
    p.expect("connected to ");
    p.type("new open side 1");
    p.expect("created game g");
    const std::string game = "g" + p.restOfLine();
    Play bot(botArgs(server, kEngine, {"--accept", "challenges", "--games", "1", "--nodes", "100"}),
             "bot");
    bot.expect("bot: joining game " + game);
    p.expect("robo joined as side 2");
    p.type("setup random");
    std::mt19937 rng(5);
    ASSERT_TRUE(playTurn(p, rng));  // side 1 moves, then the bot
    ASSERT_FALSE(legalAfterWait(p).empty());
    p.type("draw");
    bot.expect("bot: declining the draw offer");
    p.expect("side 2 (robo) declined the draw");
    p.type("resign");
    bot.expect("bot: game " + game + " over: 0-1 (resign), won");
    EXPECT_EQ(bot.wait(), 0) << bot.output();
}

TEST(Bot, ResumesTheGameAfterTheServerRestarts) {
    Server server("bot_restart");
    Play bot(botArgs(server, kEngine, {"--accept", "quick", "--games", "1", "--nodes", "100"}),
             "bot");
    Play p(human(server, "alice"));
    const std::string game = pairWithTheBot(bot, p);
    std::mt19937 rng(17);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(playTurn(p, rng));
    ASSERT_FALSE(legalAfterWait(p).empty());  // the bot has answered: the person is to move
    server.kill(SIGKILL);
    bot.expect("bot: connection lost (");
    server.start();
    bot.expect("bot: reconnected", 20s);
    p.expect("reconnected", 20s);
    const int turns = playToTheEnd(p, rng);
    EXPECT_GT(turns, 0);
    bot.expect("bot: game " + game + " over: ", 30s);
    EXPECT_EQ(bot.wait(), 0) << bot.output();
    EXPECT_EQ(bot.output().find("resigning"), std::string::npos) << bot.output();
    const Json record = Json::parse(server.get("/api/games/" + game));
    EXPECT_EQ(record["status"], "finished");
    EXPECT_NE(record["reason"], "resign");
    EXPECT_NE(record["reason"], "abandoned");
}

// The bot process killed mid-game and started again: it logs in (its --register finds the
// username taken by itself), finds the game in its welcome and plays it on to the end.
TEST(Bot, ARestartedBotFindsItsGameAndPlaysItOn) {
    Server server("bot_again");
    const auto args =
        botArgs(server, kEngine, {"--accept", "quick", "--games", "1", "--nodes", "100"});
    auto first = std::make_unique<Play>(args, "bot");
    Play p(human(server, "alice"));
    const std::string game = pairWithTheBot(*first, p);
    std::mt19937 rng(23);
    for (int i = 0; i < 2; ++i) ASSERT_TRUE(playTurn(p, rng));
    ASSERT_FALSE(legalAfterWait(p).empty());  // the bot has answered: the person is to move
    first.reset();                            // SIGKILL
    Play again(args, "bot");
    again.expect("bot: logged in as robo");
    again.expect("bot: playing game " + game);
    playToTheEnd(p, rng);
    again.expect("bot: game " + game + " over: ", 30s);
    EXPECT_EQ(again.wait(), 0) << again.output();
    EXPECT_EQ(again.output().find("seeking"), std::string::npos) << again.output();
    EXPECT_EQ(again.output().find("resigning"), std::string::npos) << again.output();
    const Json record = Json::parse(server.get("/api/games/" + game));
    EXPECT_EQ(record["status"], "finished");
    EXPECT_NE(record["reason"], "resign");
}

// A fake engine in the shell: it answers the handshake and `setup`, then `go` with `onGo`.
std::string fakeEngine(const std::string& onGo) {
    return "while read l; do case \"$l\" in rainet) echo 'id name fake'; echo rainetok;; "
           "setup) echo 'setup LLLLVVVV';; go*) " +
           onGo + ";; esac; done";
}

void expectResignsAtItsTurn(const std::string& engine, const std::string& why) {
    Server server("bot_fail");
    Play bot(botArgs(server, engine, {"--accept", "quick", "--games", "1"}), "bot");
    Play p(human(server, "alice"));
    const std::string game = pairWithTheBot(bot, p);
    std::mt19937 rng(3);
    playToTheEnd(p, rng);  // at most one action: the bot resigns at its first turn
    bot.expect("bot: game " + game + ": " + why);
    bot.expect("; resigning");
    bot.expect("bot: game " + game + " over: ");
    EXPECT_NE(bot.restOfLine().find("(resign), lost"), std::string::npos) << bot.output();
    EXPECT_EQ(bot.wait(), 1) << bot.output();  // an engine failed: status 1
    const Json record = Json::parse(server.get("/api/games/" + game));
    EXPECT_EQ(record["reason"], "resign");
}

TEST(Bot, ResignsWhenTheEngineCrashes) {
    expectResignsAtItsTurn(fakeEngine("exit 3"), "the engine failed: ");
}

TEST(Bot, ResignsWhenTheEnginePlaysAnIllegalAction) {
    expectResignsAtItsTurn(fakeEngine("echo 'bestaction a4-a5'"),
                           "the engine played an illegal action 'a4-a5'");
}

// Two bots in an arena: one asked for it by id, one joining any open tournament that admits
// bots. They are paired at the start, play, are paired again; at the end each writes its rank
// and the one asked for that tournament alone exits.
TEST(Bot, PlaysAnArenaFromItsStartToItsEnd) {
    Server server("bot_arena");
    Host host(server);
    const std::string closed = host.createArena(false);  // no bots: --tournaments leaves it
    const std::string t = host.createArena(true);
    ASSERT_FALSE(t.empty());
    Play one(botArgs(server, kEngine, {"--tournament", t, "--nodes", "50"}), "bot");
    one.expect("bot: joined tournament " + t);
    std::vector<std::string> second = botArgs(server, kEngine, {"--tournaments", "--nodes", "50"});
    second[5] = "robo2";  // --user
    Play two(second, "bot");
    two.expect("bot: joined tournament " + t);
    // Paired at the start (the scheduler runs on the test clock), with each other.
    server.advance(1);
    one.expect("bot: playing game ", 20s);
    const std::string game = one.restOfLine();
    two.expect("bot: playing game " + game, 20s);
    // Played to its end, then paired again at once.
    one.expect("bot: game " + game + " over: ", 120s);
    one.expect("bot: playing game ", 20s);
    // The arena's end: the game in play ends on time, and the tournament with it.
    server.advance(31000);
    one.expect("bot: tournament " + t + " finished: rank ", 120s);
    two.expect("bot: tournament " + t + " finished: rank ", 120s);
    EXPECT_EQ(one.wait(), 0) << one.output();
    EXPECT_EQ(two.output().find("joining tournament " + closed), std::string::npos) << two.output();
    const Json record = Json::parse(server.get("/api/games/" + game));
    EXPECT_EQ(record["status"], "finished");
    EXPECT_NE(record["reason"], "resign") << "no engine failed";
}

// A tournament that cannot be played: the bot says why and exits with status 1.
TEST(Bot, ATournamentThatAdmitsNoBotsIsRefused) {
    Server server("bot_arena_refused");
    Host host(server);
    const std::string t = host.createArena(false);
    Play bot(botArgs(server, kEngine, {"--tournament", t}), "bot");
    bot.expect("bot: could not join tournament " + t + ": this tournament admits no bot accounts");
    EXPECT_EQ(bot.wait(), 1) << bot.output();
    Play unknown(botArgs(server, kEngine, {"--tournament", "tNOPE"}), "bot");
    unknown.expect("bot: could not join tournament tNOPE: no tournament has this id");
    EXPECT_EQ(unknown.wait(), 1) << unknown.output();
}

TEST(Bot, CommandLineAndAccountErrors) {
    Server server("bot_errors");
    {
        Play bot({"--user", "robo"}, "bot");
        EXPECT_EQ(bot.wait(), 2);
        EXPECT_NE(bot.output().find("--engine is required"), std::string::npos) << bot.output();
    }
    {
        Play bot(botArgs(server, kEngine, {"--accept", "blitz"}), "bot");
        EXPECT_EQ(bot.wait(), 2);
        EXPECT_NE(bot.output().find("--accept: 'quick' and/or 'challenges', not 'blitz'"),
                  std::string::npos)
            << bot.output();
    }
    {
        Play bot(botArgs(server, "/nonexistent/engine", {}), "bot");
        EXPECT_EQ(bot.wait(), 1);
        EXPECT_NE(bot.output().find("rainet bot: engine '/nonexistent/engine'"), std::string::npos)
            << bot.output();
    }
    // A person's account is not a bot account: the bot refuses to play as it.
    Play p(human(server, "alice"));
    p.expect("connected to ");
    p.type("register alice");
    p.type("correct horse");
    p.expect("registered: ");
    auto args = botArgs(server, kEngine, {});
    args[5] = "alice";
    args[7] = writePassword("alice", "correct horse");
    args.erase(std::find(args.begin(), args.end(), "--register"));
    Play bot(args, "bot");
    EXPECT_EQ(bot.wait(), 1);
    EXPECT_NE(bot.output().find("'alice' is not a bot account"), std::string::npos) << bot.output();
    // A wrong password: refused, status 1.
    args[7] = writePassword("alice", "wrong horse!");
    Play wrong(args, "bot");
    EXPECT_EQ(wrong.wait(), 1);
    EXPECT_NE(wrong.output().find("login refused: "), std::string::npos) << wrong.output();
}

}  // namespace
}  // namespace rainet::test

// `rainet play` driven through stdin against a real server, as a person at a terminal would use
// it: a whole game against the computer, two terminal players and a spectator (who must never see
// a hidden identity), a server killed and restarted mid-game with a request in flight, bad
// input answered with clear messages, accounts (register here, log in there), quick pairing, and
// chat kept in its room (players apart from spectators).
#include <sys/stat.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>

#include "client/play_local.h"
#include "client/play_render.h"
#include "core/view.h"
#include "play/play_process.h"
#include "play/tournament_host.h"
#include "support/run_command.h"

namespace rainet::test {
namespace {

using Json = nlohmann::json;

std::vector<std::string> common(const Server& s, const std::string& name) {
    const std::string token = tempPath(name + "_token");
    std::remove(token.c_str());
    return {"--server", s.url(), "--token-file", token, "--name", name};
}

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The words of `line` in sorted order, separated by one space.
std::string sorted(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    std::sort(w.begin(), w.end());
    std::string out;
    for (const auto& x : w) out += (out.empty() ? "" : " ") + x;
    return out;
}

// The text from the last board header ("game gN ...") of `out` on.
std::string lastGame(const std::string& out) {
    return out.substr(out.rfind("\ngame g") + 1);
}

// Every card cell of every board line printed ("1L", "2?+", ...).
std::vector<std::string> cardCells(const std::string& out) {
    static const std::regex board(R"(^[1-8]  (.*)[1-8]$)");
    static const std::regex cell(R"([12][LV?][+!#]*)");
    std::vector<std::string> cells;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, board)) continue;
        const std::string row = m[1];
        for (auto it = std::sregex_iterator(row.begin(), row.end(), cell);
             it != std::sregex_iterator(); ++it)
            cells.push_back(it->str());
    }
    return cells;
}

// Fails when a board in `out` shows an identity of `side`'s cards that is not face up.
void expectHidden(const std::string& out, char side) {
    for (const std::string& c : cardCells(out)) {
        if (c[0] == side && c[1] != '?') {
            EXPECT_NE(c.find('!'), std::string::npos) << "hidden identity shown: " << c;
        }
    }
}

TEST(Play, FullGameAgainstTheComputer) {
    Server server("computer");
    const auto args = common(server, "alice");
    Play p(args + std::vector<std::string>{"--computer", "1"});
    p.expect("connected to " + server.url() + " as alice");
    p.expect("created game g");
    p.expect("you are side ");
    p.type("setup random");
    p.expect("(you) has arranged its cards: links on ");
    std::mt19937 rng(7);
    int turns = 0;
    while (playTurn(p, rng)) ASSERT_LT(++turns, 1000);
    EXPECT_GT(turns, 0);
    const std::string end = lastGame(p.output());
    EXPECT_NE(end.find("game over: "), std::string::npos) << end;
    EXPECT_NE(end.find("finished"), std::string::npos);
    // Played to an end of the rules, not abandoned.
    EXPECT_TRUE(end.find("four links") != std::string::npos ||
                end.find("four viruses") != std::string::npos ||
                end.find("no progress") != std::string::npos)
        << end;
    RecordProperty("turns", turns);
    // At the end every identity is shown: no `?` on the final board.
    EXPECT_FALSE(cardCells(end).empty());
    for (const std::string& c : cardCells(end)) EXPECT_NE(c[1], '?') << end;
    p.type("history");
    p.expect("1. side 1 ");
    p.type("quit");
    EXPECT_EQ(p.wait(), 0);
    // The token is kept for the next run, readable by its owner only.
    struct stat st {};
    ASSERT_EQ(::stat(args[3].c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    std::ifstream in(args[3]);
    std::string token;
    in >> token;
    EXPECT_EQ(token.size(), 64u);
    // Coming back with it is coming back as the same player.
    Play again(args);
    again.expect("connected to " + server.url() + " as alice");
    again.closeInput();
    EXPECT_EQ(again.wait(), 0);
}

TEST(Play, TwoPlayersAndASpectatorWhoSeesNoHiddenIdentity) {
    Server server("two");
    Play a(common(server, "alice"));
    a.expect("connected to ");
    a.type("new invite side 1");
    a.expect("created game ");
    const std::string g = a.restOfLine();
    a.expect("waiting for an opponent");
    // `rainet play GAME` takes the free seat of an open game.
    Play b(common(server, "bob") + std::vector<std::string>{g});
    b.expect("joined game " + g);
    b.expect("you are side 2");
    a.expect("bob joined as side 2");
    Play c(common(server, "carol") + std::vector<std::string>{g});
    c.expect("you are watching");
    a.type("setup random");
    b.type("setup a8 b8 c8 d7");
    b.expect("side 2 (you) has arranged its cards: links on ");
    EXPECT_EQ(sorted(b.restOfLine()), "a8 b8 c8 d7");
    std::mt19937 rng(11);
    int ply = 0;
    for (; ply < 30; ++ply)
        if (!playTurn(ply % 2 ? b : a, rng)) break;
    ASSERT_EQ(ply, 30) << "the random game ended early; pick another seed";
    // The spectator shows exactly the board of the server's spectator view.
    c.expect("ply 30  no progress");
    b.expect("ply 30  no progress");
    const Json record = Json::parse(server.get("/api/games/" + g));
    const std::string view = record["position"];
    auto parsed = View::parse(view, Viewer::Spectator);
    ASSERT_TRUE(parsed.ok()) << view;
    c.expect(client::play::renderBoard(parsed->fields(), Side::One, false));
    // Nobody saw what they may not: the spectator no identity (but face-up cards), each player
    // none of the opponent's.
    expectHidden(c.output(), '1');
    expectHidden(c.output(), '2');
    expectHidden(a.output(), '2');
    expectHidden(b.output(), '1');
    EXPECT_FALSE(cardCells(c.output()).empty());

    // A draw offered and declined, then a resignation.
    b.type("draw");
    a.expect("side 2 (bob) offers a draw: accept or decline");
    c.expect("side 2 (bob) offers a draw");
    a.type("decline");
    b.expect("side 1 (alice) declined the draw");
    b.type("resign");
    for (Play* p : {&a, &b, &c}) p->expect("game over: 1-0, side 1");
    // The end shows every identity, also to the spectator.
    c.expect("side 2's links were on ");
    EXPECT_EQ(sorted(c.restOfLine()), "a8 b8 c8 d7");
    for (const std::string& cell : cardCells(lastGame(c.output()))) EXPECT_NE(cell[1], '?');

    // A rematch: offered by one, accepted by the other; both follow the new game.
    a.type("rematch");
    b.expect("side 1 (alice) asks for a rematch: accept");
    b.type("accept");
    a.expect("following the rematch ");
    b.expect("following the rematch ");
    b.expect("you are side 1");
    a.expect("you are side 2");
    for (Play* p : {&a, &b, &c}) p->type("quit");
    for (Play* p : {&a, &b, &c}) EXPECT_EQ(p->wait(), 0);
}

TEST(Play, ReconnectsAfterTheServerRestartsAndResendsWhatWasNotAcknowledged) {
    Server server("restart");
    Play p(common(server, "alice") + std::vector<std::string>{"--computer", "2"});
    p.expect("created game ");
    const std::string g = p.restOfLine();
    p.type("setup random");
    std::mt19937 rng(5);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(playTurn(p, rng));
    auto legal = legalAfterWait(p);
    ASSERT_FALSE(legal.empty());
    // The action goes to a server that no longer reads, which then dies: never acknowledged.
    server.pause();
    const std::string action = legal[rng() % legal.size()];
    p.type(action);
    std::this_thread::sleep_for(200ms);
    server.kill(SIGKILL);
    p.expect("connection lost");
    server.start();
    p.expect("reconnected", 15s);
    // Resent with its id after resuming: applied once, and the game goes on.
    p.expect(" (you) played " + action);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(playTurn(p, rng));
    p.type("wait");
    p.type("resign");
    p.expect("game over: ");
    // Every action was applied once and shown once: as many as the archive holds.
    const Json record = Json::parse(server.get("/api/games/" + g));
    static const std::regex played(R"(^side [12].* played )");
    int shown = 0;
    std::istringstream out(p.output());
    for (std::string line; std::getline(out, line);) shown += std::regex_search(line, played);
    EXPECT_EQ(shown, static_cast<int>(record["actions"].size()));
    p.type("quit");
    EXPECT_EQ(p.wait(), 0);
}

TEST(Play, BadInputIsExplainedAndNothingIsSent) {
    Server server("bad");
    Play p(common(server, "alice"));
    p.expect("connected to ");
    p.type("fly");
    p.expect("unknown command 'fly' (type help for the list)");
    p.type("resign");
    p.expect("no game shown: new, join GAME or watch GAME");
    p.type("new blitz");
    p.expect("new: unexpected 'blitz'");
    p.type("new computer 1 side 1");
    p.expect("created game ");
    p.type("d2-d3");
    p.expect("the game is setup: no actions");
    p.type("setup a1 b1 c1 z9");
    p.expect("'z9' is not a square (a1 to h8)");
    // Errors of the server are printed with their message.
    p.type("setup a8 b8 c8 d7");
    p.expect("(bad_setup)");
    p.type("setup a1 b1 c1 d2");
    p.expect("side 1 (you) has arranged its cards: links on ");
    EXPECT_EQ(sorted(p.restOfLine()), "a1 b1 c1 d2");
    p.type("wait");
    p.type("d2-d9");
    p.expect("'d2-d9' is not an action: ");
    p.type("h8-h7");
    p.expect("h8-h7 is not legal here (legal lists your actions)");
    p.type("NF+d2e2");
    p.expect("say whether NF swaps: NF+d2e2:swap or NF+d2e2:keep");
    p.type("claim");
    p.expect("(cannot_claim)");
    p.type("join g999");
    p.expect("(unknown_game)");
    // Still in the game: a legal action is played.
    p.type("d2-d3");
    p.expect("side 1 (you) played d2-d3");
    p.type("quit");
    EXPECT_EQ(p.wait(), 0);
    // Only the requests that passed the client's checks reached the server: it refused exactly
    // the three sent (bad_setup, cannot_claim, unknown_game), no action and no malformed message.
    const std::string metrics = server.get("/metrics");
    auto errors = [&](const std::string& code) {
        const std::string name = "rainet_errors_total{code=\"" + code + "\"} ";
        const auto at = metrics.find(name);
        return at == std::string::npos ? -1 : std::stoi(metrics.substr(at + name.size()));
    };
    EXPECT_EQ(errors("bad_setup"), 1) << metrics;
    EXPECT_EQ(errors("cannot_claim"), 1);
    EXPECT_EQ(errors("unknown_game"), 1);
    for (const char* code : {"illegal_action", "not_your_turn", "wrong_status", "bad_message",
                             "unknown_type", "bad_json"})
        EXPECT_EQ(errors(code), 0) << code;
}

TEST(Play, AScriptThroughStdinRunsInOrderAndEndsWithItsInput) {
    Server server("script");
    const auto args = common(server, "alice");
    std::string line;
    for (const auto& a : args) line += " " + a;
    const CliRun r = runRainet("play" + line,
                               "new computer 2 side 1\\nsetup random\\nwait\\nd2-d3\\nwait\\n"
                               "history\\nresign\\n");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("1. side 1 d2-d3\n2. side 2 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("game over: 0-1, side 2 wins by resignation"), std::string::npos);
}

TEST(Play, CommandLineErrors) {
    Server server("cmdline");
    Play bad({"--server", "http://127.0.0.1/ws"});
    bad.expect("is not a server address like ws://127.0.0.1:8080/ws");
    EXPECT_EQ(bad.wait(), 2);
    Play unreachable({"--server", "ws://127.0.0.1:1/ws", "--token-file", tempPath("none")});
    unreachable.expect("rainet play: cannot reach ws://127.0.0.1:1/ws");
    EXPECT_EQ(unreachable.wait(), 1);
    Play badTournament({"--tournament", "x"});
    badTournament.expect("--tournament: tournament-join needs one tournament id");
    EXPECT_EQ(badTournament.wait(), 2);
    Play twoThings({"--tournament", "t1", "--computer", "1"});
    twoThings.expect("--tournament goes with no GAME, --computer or --challenge");
    EXPECT_EQ(twoThings.wait(), 2);
}

// `rainet play --local`: two people at one terminal, driven through stdin as they would type. Every
// hand-over prompt stands alone on a cleared screen (the board before it is cleared away, and the
// next board is drawn only after Enter and another clear); each board shows the other side's
// face-down cards as `?`; the game ends with the result its final position says.
TEST(Play, LocalGameHandsOverOnACleanScreenAndEndsWithTheRightResult) {
    Play p({"--local", "--seed", "9", "--names", "Alice,Bob"});
    for (int setup = 0; setup < 2; ++setup) {
        p.expect("press Enter");
        p.type("");
        p.type("setup random");
    }
    std::mt19937 rng(21);
    int turns = 0;
    while (p.expectOneOf({"press Enter", "game over: "}, 10s) == 0) {
        ASSERT_LT(++turns, 3000);
        p.type("");
        p.type("legal");
        p.expect("legal (");
        const std::string line = p.restOfLine();
        std::istringstream in(line.substr(line.find("): ") + 3));
        std::vector<std::string> legal;
        for (std::string a; in >> a;) legal.push_back(a);
        ASSERT_FALSE(legal.empty()) << line;
        p.type(legal[rng() % legal.size()]);
    }
    EXPECT_EQ(p.wait(), 0);
    EXPECT_GT(turns, 0);

    // Split at each screen clear: a hand-over part holds its prompt alone.
    const std::string& out = p.output();
    const std::string clear = client::play::kClearScreen;
    std::vector<std::string> parts;
    std::size_t at = 0;
    for (auto c = out.find(clear); c != std::string::npos; c = out.find(clear, at)) {
        parts.push_back(out.substr(at, c - at));
        at = c + clear.size();
    }
    parts.push_back(out.substr(at));
    int handovers = 0;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (!parts[i].starts_with("Pass to ")) continue;
        ++handovers;
        EXPECT_EQ(parts[i].find('\n'), std::string::npos) << "more than the prompt: " << parts[i];
        EXPECT_TRUE(cardCells(parts[i]).empty());
        const char side = parts[i].starts_with("Pass to Alice (side 1)") ? '1' : '2';
        const std::string& board = parts[i + 1];
        EXPECT_TRUE(
            board.starts_with(std::string("game local  standard  casual  you are side ") + side))
            << board.substr(0, 200);
        // Until the end, this side's board hides the other side's identities.
        const std::string shown = board.substr(0, board.find("\ngame local"));
        expectHidden(shown, side == '1' ? '2' : '1');
    }
    EXPECT_EQ(handovers, turns + 2);

    // The right result: the one the final position (all identities shown) says.
    const std::string end = out.substr(out.rfind("game over: "));
    static const std::regex seat(R"(side ([12])  (Alice|Bob)  stack (\d) links? (\d) virus(es)?)");
    int links[2] = {-1, -1}, viruses[2] = {-1, -1};
    const std::string final = out.substr(out.rfind("\ngame local"));
    for (auto it = std::sregex_iterator(final.begin(), final.end(), seat);
         it != std::sregex_iterator(); ++it) {
        const int i = (*it)[1].str()[0] - '1';
        links[i] = std::stoi((*it)[3]);
        viruses[i] = std::stoi((*it)[4]);
    }
    ASSERT_GE(links[0], 0) << final;
    ASSERT_GE(links[1], 0) << final;
    if (end.starts_with("game over: 1-0")) {
        EXPECT_TRUE(links[0] == 4 || viruses[1] == 4) << final;
        EXPECT_NE(end.find("Alice (side 1): won, Bob (side 2): lost"), std::string::npos) << end;
    } else if (end.starts_with("game over: 0-1")) {
        EXPECT_TRUE(links[1] == 4 || viruses[0] == 4) << final;
        EXPECT_NE(end.find("Alice (side 1): lost, Bob (side 2): won"), std::string::npos) << end;
    } else {
        EXPECT_TRUE(end.starts_with("game over: 1/2-1/2, drawn by no progress")) << end;
        EXPECT_NE(end.find("Alice (side 1): draw, Bob (side 2): draw"), std::string::npos) << end;
    }
    RecordProperty("turns", turns);
}

TEST(Play, LocalCommandLineErrors) {
    Play server({"--local", "--server", "ws://127.0.0.1:1/ws"});
    server.expect("--local plays without a server: no --server");
    EXPECT_EQ(server.wait(), 2);
    Play names({"--local", "--names", "Alice"});
    names.expect("--names: two names separated by a comma");
    EXPECT_EQ(names.wait(), 2);
    Play seed({"--local", "--seed", "-1"});
    seed.expect("--seed: a positive number");
    EXPECT_EQ(seed.wait(), 2);
    Play rules({"--local", "--preset", "house"});
    rules.expect("--preset: standard or official");
    EXPECT_EQ(rules.wait(), 2);
    Play preset({"--preset", "official"});
    preset.expect("--preset goes with --local");
    EXPECT_EQ(preset.wait(), 2);
}

// The number after `code` in the server's /metrics errors counter (-1 when absent).
int serverErrors(const Server& server, const std::string& code) {
    const std::string metrics = server.get("/metrics");
    const std::string name = "rainet_errors_total{code=\"" + code + "\"} ";
    const auto p = metrics.find(name);
    return p == std::string::npos ? -1 : std::stoi(metrics.substr(p + name.size()));
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::string t;
    in >> t;
    return t;
}

TEST(Play, RegisterHereLogInThereAsTheSamePlayer) {
    Server server("accounts");
    const auto argsA = common(server, "alice");
    Play a(argsA);
    a.expect("connected to ");
    a.type("whoami");
    a.expect("you are alice (");
    const std::string id = a.restOfLine().substr(0, 2);  // "p1" in test mode
    ASSERT_EQ(id[0], 'p');
    // The server's rules for passwords: its own message, nothing decided here.
    a.type("register alice");
    a.type("short");
    a.expect("error: 'password' must be a string of 8 to 128 characters (bad_message)");
    a.type("register alice");
    a.type("correct horse");
    a.expect("registered: you are now the account alice (" + id + "), account, rating 1500");
    a.type("name Okabe");
    a.expect("error: an account is named after its username (bad_message)");

    // Another terminal, another token file: a guest until it logs in as alice.
    const auto argsB = common(server, "bob");
    Play b(argsB);
    b.expect("connected to ");
    b.type("name Robert");
    b.expect("your name is now Robert");
    b.type("whoami");
    b.expect("you are Robert (");
    EXPECT_NE(b.restOfLine().substr(0, 2), id);
    const std::string guestToken = readFile(argsB[3]);
    // A seek of the guest is withdrawn before logging in (the server would pair the guest).
    b.type("seek");
    b.expect("seeking standard, no clock, rated: waiting");
    b.type("login ALICE");
    b.type("");  // no password: nothing sent
    b.expect("no password given: nothing sent");
    b.type("login ALICE");
    b.type("wrong horse");
    b.expect("no longer seeking");
    b.expect("error: wrong username or password (bad_credentials)");
    b.type("lobby");
    b.expect("no open games (new open creates one)\n");
    b.type("whoami");  // the lobby printed nothing after that line: no seek waits
    EXPECT_EQ(b.expect("you are Robert").find("seeks waiting"), std::string::npos);
    b.type("login ALICE");
    b.type("correct horse");
    b.expect("logged in as alice (" + id + "), account, rating 1500");
    b.type("whoami");
    b.expect("you are alice (" + id + "), account, rating 1500");
    // The login's token replaced the guest's in the token file, readable by its owner only.
    const std::string token = readFile(argsB[3]);
    EXPECT_EQ(token.size(), 64u);
    EXPECT_NE(token, guestToken);
    EXPECT_NE(token, readFile(argsA[3]));
    struct stat st {};
    ASSERT_EQ(::stat(argsB[3].c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    b.type("quit");
    EXPECT_EQ(b.wait(), 0);
    // A later run with that file is alice.
    Play again({"--server", server.url(), "--token-file", argsB[3]});
    again.expect("connected to " + server.url() + " as alice (" + id + ")");
    // Logging out forgets the token: a new guest from then on.
    again.type("logout");
    again.expect("logged out");
    again.expect("you are now a new guest: ");
    EXPECT_EQ(again.restOfLine().find(id + ")"), std::string::npos);
    again.type("quit");
    EXPECT_EQ(again.wait(), 0);
    EXPECT_NE(readFile(argsB[3]), token);
    // The passwords never appear in the output.
    for (const Play* p : {&a, &b, &again})
        for (const char* secret : {"correct horse", "wrong horse", "short"})
            EXPECT_EQ(p->output().find(secret), std::string::npos) << secret;
    a.type("quit");
    EXPECT_EQ(a.wait(), 0);
}

TEST(Play, SeekPairsTwoPlayersWhoChatApartFromTheSpectators) {
    Server server("seek");
    Play a(common(server, "alice"));
    Play b(common(server, "bob"));
    a.expect("connected to ");
    b.expect("connected to ");
    // A seek can be withdrawn.
    a.type("seek official casual");
    a.expect("seeking official, no clock, casual: waiting for an opponent");
    a.type("unseek");
    a.expect("no longer seeking");
    // alice seeks and waits (for a script, `wait` holds until the pairing and the setup).
    a.type("seek clock 5+3");
    a.expect("seeking standard, clock 5:00+3s, rated: waiting for an opponent");
    a.type("wait");
    a.type("setup random");
    b.type("lobby");
    b.expect(
        "seeks waiting (seek the same to be paired):\n  standard, clock 5:00+3s, rated  "
        "1 player\n");
    b.type("seek clock 5+3");
    a.expect("matched: game ");
    const std::string matchedA = a.restOfLine();  // "g1, you are side N (following it)"
    b.expect("matched: game ");
    const std::string matchedB = b.restOfLine();
    const std::string g = matchedA.substr(0, matchedA.find(','));
    EXPECT_EQ(matchedB.substr(0, matchedB.find(',')), g);
    const bool aIsSide1 = matchedA.find("you are side 1") != std::string::npos;
    Play& one = aIsSide1 ? a : b;
    Play& two = aIsSide1 ? b : a;
    const std::string oneName = aIsSide1 ? "alice" : "bob";
    const std::string twoName = aIsSide1 ? "bob" : "alice";
    a.expect("standard  rated  you are side ");
    b.expect("standard  rated  you are side ");
    b.type("setup random");
    // A spectator, who gets its own room.
    Play c(common(server, "carol") + std::vector<std::string>{g});
    c.expect("you are watching");

    // Chat: players to players, spectators to spectators; a line too long is refused here.
    one.type("say good luck, " + twoName);
    one.expect("[players] " + oneName + ": good luck, " + twoName);
    two.expect("[players] " + oneName + ": good luck, " + twoName);
    two.type(std::string("say ").append(301, 'x'));
    two.expect("a chat line is at most 300 characters, not 301; nothing was sent");
    two.type("'thanks");
    one.expect("[players] " + twoName + ": thanks");
    c.type("'who wins?");
    c.expect("[spectators] carol: who wins?");
    c.type("say nothing");  // nobody else watching: only carol sees it
    c.expect("[spectators] carol: nothing");

    // A few actions; every chat line above reached every room before them.
    std::mt19937 rng(3);
    for (int ply = 0; ply < 4; ++ply) ASSERT_TRUE(playTurn(ply % 2 ? two : one, rng));
    c.expect("ply 4  no progress");
    two.expect("ply 4  no progress");
    // A later spectator gets its room's history with the snapshot, not the players'.
    Play d(common(server, "dave") + std::vector<std::string>{g});
    d.expect("you are watching");
    d.expect("[spectators] carol: who wins?\n[spectators] carol: nothing\n");
    // The end of a rated game shows the rating change (side 2 resigns, side 1 to move).
    two.type("resign");
    for (Play* p : {&one, &two, &c, &d}) p->expect("game over: 1-0, side 1");
    one.expect("ratings: side 1 " + oneName + " (you) 1500 -> ");
    const std::string change = one.restOfLine();
    EXPECT_NE(change.find("(+"), std::string::npos) << change;
    EXPECT_NE(change.find(", side 2 " + twoName + " 1500 -> "), std::string::npos) << change;
    EXPECT_NE(change.find("(-"), std::string::npos) << change;
    one.type("whoami");
    one.expect("you are " + oneName);
    EXPECT_EQ(one.restOfLine().find("rating 1500"), std::string::npos);
    for (Play* p : {&a, &b, &c, &d}) p->type("quit");
    for (Play* p : {&a, &b, &c, &d}) EXPECT_EQ(p->wait(), 0);
    // Nobody saw the other room's lines.
    for (const Play* p : {&a, &b}) EXPECT_EQ(p->output().find("[spectators]"), std::string::npos);
    for (const Play* p : {&c, &d}) EXPECT_EQ(p->output().find("[players]"), std::string::npos);
    // The line too long never reached the server.
    EXPECT_EQ(serverErrors(server, "bad_message"), 0);
}

TEST(Play, ChallengeByNameAnsweredFromAnotherTerminal) {
    Server server("play_challenge");
    Play b(common(server, "bob"));
    b.expect("connected to ");
    b.type("register bob_term");
    b.type("correct horse");
    b.expect("registered: you are now the account bob_term");
    // `rainet play --challenge`: the challenge goes out once connected.
    Play a(common(server, "alice") + std::vector<std::string>{"--challenge", "bob_term"});
    a.expect("challenged bob_term: c");
    b.expect("from alice: challenge-accept ");
    const std::string rest = b.restOfLine();
    const std::string id = rest.substr(0, rest.find(' '));
    b.type("challenges");
    b.expect("challenges received:\n  " + id);
    b.type("challenge-decline " + id + " soon");
    b.expect("error: 'reason' must be one of");
    b.type("challenge-accept " + id);
    b.expect("matched: game ");
    a.expect("challenge " + id + " accepted");
    a.expect("matched: game ");
    // The challenger was told in its notifications too.
    a.type("notifications");
    a.expect("* challenge_accepted");
    // Nobody by that name: the server's error.
    a.type("challenge nobody_here");
    a.expect("error: no player has this id or username (unknown_player)");
}

// Two people in an arena from the terminal: listed, joined, paired at the start (each game
// followed at once), a berserk seen by the opponent, a game resigned and the two paired again,
// the end with the standings.
TEST(Play, AnArenaIsListedJoinedAndPlayedToItsStandings) {
    Server server("arena");
    Host host(server);
    const std::string t = host.createArena(false);
    Play a(common(server, "alice"));
    Play b(common(server, "bob") + std::vector<std::string>{"--tournament", t});
    a.expect("connected to ");
    b.expect("connected to ");
    a.type("tournaments");
    a.expect("tournaments:\n  " + t +
             "  Bot arena  arena standard, clock 0:30+0s, rated  created, ");
    a.type("tournament-join " + t);
    a.expect("joined tournament " + t + ": each game it pairs you in is followed at once");
    b.expect("joined tournament " + t);  // --tournament
    a.type("tournament-join tNOPE");
    a.expect("error: no tournament has this id (unknown_tournament)");
    a.type("tournament-join");
    a.expect("tournament-join needs one tournament id, e.g. tournament-join tR2K8QW1");
    server.advance(1);           // the start, on the test clock
    a.expect("matched: game ");  // the pairings, then the new standings
    const std::string line = a.restOfLine();
    a.expect("tournament " + t + "  Bot arena  arena standard, clock 0:30+0s, rated  running");
    const std::string g = line.substr(0, line.find(','));
    b.expect("matched: game " + g);
    // alice berserks before her first action: bob is told.
    a.type("berserk");
    const std::string aSide = line.find("you are side 1") != std::string::npos ? "1" : "2";
    b.expect("side " + aSide + " berserked: half the clock, no increment");
    a.type("berserk");
    a.expect("(berserk_refused)");
    // bob resigns: both are paired again at once.
    b.type("resign");
    b.expect("matched: game ");
    const std::string again = b.restOfLine();
    EXPECT_NE(again.substr(0, again.find(',')), g);
    a.expect("matched: game " + again.substr(0, again.find(',')));
    // The end: the game in play finishes (alice resigns) and the standings are written.
    server.advance(31000);
    a.type("resign");
    a.expect("tournament " + t + "  Bot arena  arena standard, clock 0:30+0s, rated  finished, " +
             "2 players\n  1. ");
    b.expect("  finished, 2 players\n  1. ");
    b.expect("  2. ");
}

TEST(Play, CorrespondenceGamesAreListedWithWhoseMoveItIs) {
    Server server("play_corr");
    Play a(common(server, "alice"));
    a.expect("connected to ");
    a.type("new invite side 1 clock 4d");
    a.expect("days per move are 1, 2, 3, 5, 7 or 14");
    a.type("new invite side 1 clock 3d");
    a.expect("created game ");
    const std::string g = a.restOfLine();
    Play b(common(server, "bob") + std::vector<std::string>{g});
    b.expect("joined game " + g);
    b.type("setup random");
    a.type("setup random");
    a.type("wait");  // until play starts: side 1, alice, moves first
    a.type("games");
    a.expect("correspondence games:\n  " + g + " vs bob (3 days per move): your move, due ");
    // `rainet play --games` lists them once connected (bob's token: the same player).
    Play b2({"--server", server.url(), "--token-file", tempPath("bob_token"), "--games"});
    b2.expect("correspondence games:\n  " + g + " vs alice (3 days per move): their move, due ");
    for (Play* p : {&a, &b, &b2}) p->type("quit");
    for (Play* p : {&a, &b, &b2}) EXPECT_EQ(p->wait(), 0);
}

}  // namespace
}  // namespace rainet::test

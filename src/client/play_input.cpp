#include "client/play_input.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "core/action.h"

namespace rainet::client::play {
namespace {

// 'text' (built by appending: GCC 12 warns falsely about "'" + std::string(...)).
std::string quote(std::string_view text) {
    std::string s = "'";
    s.append(text);
    s += '\'';
    return s;
}

std::vector<std::string> words(std::string_view line) {
    std::vector<std::string> out;
    std::istringstream in{std::string(line)};
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::optional<int> number(std::string_view s) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

// `clock MIN+INC|none` with w[i] the word "clock" (of `new` or `seek`): the value after it read
// into the pair (none: both unset), and i moved onto it.
[[nodiscard]] std::optional<Error> readClock(const std::vector<std::string>& w, std::size_t& i,
                                             std::optional<int>& initialCs,
                                             std::optional<int>& incrementCs) {
    if (i + 1 >= w.size()) return Error{"clock needs MIN+INC (e.g. 5+3) or none"};
    if (lower(w[++i]) == "none") {
        initialCs.reset();
        incrementCs.reset();
        return std::nullopt;
    }
    auto c = parseClock(w[i]);
    if (!c) return c.error();
    initialCs = c->initialCs;
    incrementCs = c->incrementCs;
    return std::nullopt;
}

Result<Input> parseNew(const std::vector<std::string>& w) {
    Input in;
    in.kind = Input::Kind::New;
    NewGame& g = in.game;
    for (std::size_t i = 1; i < w.size(); ++i) {
        const std::string a = lower(w[i]);
        const bool hasNext = i + 1 < w.size();
        if (a == "open" || a == "invite") {
            g.opponent = a;
        } else if (a == "computer") {
            g.opponent = a;
            if (hasNext && number(w[i + 1])) {
                g.level = *number(w[++i]);
                if (g.level < 1 || g.level > 5)
                    return Error{"the computer's level is 1 to 5, not " + w[i]};
            }
        } else if (a == "standard" || a == "official") {
            g.preset = a;
        } else if (a == "rated" || a == "casual") {
            g.rated = a == "rated";
        } else if (a == "side") {
            if (!hasNext) return Error{"side needs 1, 2 or random"};
            const std::string s = lower(w[++i]);
            if (s != "1" && s != "2" && s != "random")
                return Error{"side is 1, 2 or random, not '" + w[i] + "'"};
            g.side = s;
        } else if (a == "clock") {
            if (auto e = readClock(w, i, g.initialCs, g.incrementCs)) return *e;
        } else {
            return Error{
                "new: unexpected '" + w[i] +
                "' (new [computer LEVEL|open|invite] [standard|official] [side 1|2|random] "
                "[clock MIN+INC] [rated|casual])"};
        }
    }
    return in;
}

Result<Input> parseSeek(const std::vector<std::string>& w) {
    Input in;
    in.kind = Input::Kind::Seek;
    SeekSpec& k = in.seek;
    for (std::size_t i = 1; i < w.size(); ++i) {
        const std::string a = lower(w[i]);
        if (a == "standard" || a == "official") {
            k.preset = a;
        } else if (a == "rated" || a == "casual") {
            k.rated = a == "rated";
        } else if (a == "clock") {
            if (auto e = readClock(w, i, k.initialCs, k.incrementCs)) return *e;
        } else {
            return Error{"seek: unexpected " + quote(w[i]) +
                         " (seek [standard|official] [clock MIN+INC|none] [rated|casual])"};
        }
    }
    return in;
}

bool validUsername(std::string_view u);  // below

// `challenge USERNAME [standard|official] [clock MIN+INC|none] [rated|casual] [side 1|2|random]`
Result<Input> parseChallenge(const std::vector<std::string>& w) {
    const char* usage =
        " (challenge USERNAME [standard|official] [clock MIN+INC|none] [rated|casual] [side "
        "1|2|random])";
    if (w.size() < 2) return Error{std::string("challenge needs a username") + usage};
    if (!validUsername(w[1]))
        return Error{quote(w[1]) + " is not a username: 3 to 24 letters, digits, '_' or '-'"};
    Input in;
    in.kind = Input::Kind::Challenge;
    in.username = w[1];
    SeekSpec& k = in.seek;
    for (std::size_t i = 2; i < w.size(); ++i) {
        const std::string a = lower(w[i]);
        if (a == "standard" || a == "official") {
            k.preset = a;
        } else if (a == "rated" || a == "casual") {
            k.rated = a == "rated";
        } else if (a == "clock") {
            if (auto e = readClock(w, i, k.initialCs, k.incrementCs)) return *e;
        } else if (a == "side" && i + 1 < w.size() &&
                   (w[i + 1] == "1" || w[i + 1] == "2" || lower(w[i + 1]) == "random")) {
            in.game.side = lower(w[++i]);
        } else {
            return Error{"challenge: unexpected " + quote(w[i]) + usage};
        }
    }
    return in;
}

// `challenge-accept ID`, `challenge-decline ID [REASON]`
Result<Input> parseChallengeAnswer(const std::vector<std::string>& w, bool accept) {
    Input in;
    in.kind = accept ? Input::Kind::ChallengeAccept : Input::Kind::ChallengeDecline;
    const std::string cmd = w[0];
    if (w.size() < 2 || w.size() > (accept ? 2u : 3u) || w[1].empty() || w[1][0] != 'c')
        return Error{accept ? "challenge-accept needs a challenge id, e.g. challenge-accept c1"
                            : "challenge-decline needs a challenge id and may give a reason "
                              "(generic, later, too_fast, too_slow, timed, rated, casual, "
                              "preset, no_bots)"};
    in.gameId = w[1];
    if (w.size() == 3) in.reason = lower(w[2]);
    return in;
}

// What follows the first word of `line`, trimmed.
std::string restAfterWord(std::string_view line) {
    auto isSpace = [](char c) { return c == ' ' || c == '\t'; };
    std::size_t i = 0;
    while (i < line.size() && isSpace(line[i])) ++i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    while (i < line.size() && isSpace(line[i])) ++i;
    std::size_t end = line.size();
    while (end > i && isSpace(line[end - 1])) --end;
    return std::string(line.substr(i, end - i));
}

bool validUsername(std::string_view u) {
    return u.size() >= 3 && u.size() <= 24 && std::all_of(u.begin(), u.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
           });
}

Result<Input> parseSetup(const std::vector<std::string>& w) {
    Input in;
    if (w.size() == 2 && lower(w[1]) == "random") {
        in.kind = Input::Kind::SetupRandom;
        return in;
    }
    if (w.size() != 5)
        return Error{
            "setup needs 'random' or the four squares of your links, e.g. setup a1 b1 c1 d2"};
    in.kind = Input::Kind::SetupLinks;
    std::set<std::string> seen;
    for (std::size_t i = 1; i < w.size(); ++i) {
        const std::string sq = lower(w[i]);
        if (!parseSquare(sq)) return Error{"'" + w[i] + "' is not a square (a1 to h8)"};
        if (!seen.insert(sq).second) return Error{"square " + sq + " is given twice"};
        in.links.push_back(sq);
    }
    return in;
}

Result<Input> parseAct(const std::string& text) {
    auto a = parseAction(text, true);
    if (!a) return Error{"'" + text + "' is not an action: " + a.error().message};
    // NF without :swap/:keep reads as the public form; the mover must say which.
    if (a->type() == ActionType::NotFound && text.find(':') == std::string::npos)
        return Error{"say whether NF swaps: " + text + ":swap or " + text + ":keep"};
    Input in;
    in.kind = Input::Kind::Act;
    in.action = toString(*a);
    return in;
}

}  // namespace

Result<std::string> checkChat(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return Error{"nothing to say: say TEXT"};
    const auto last = text.find_last_not_of(" \t");
    const std::string_view t = text.substr(first, last - first + 1);
    std::size_t codePoints = 0;
    for (unsigned char c : t) {
        if (c < 0x20 || c == 0x7f) return Error{"a chat line cannot hold control characters"};
        if ((c & 0xC0) != 0x80) ++codePoints;  // not a UTF-8 continuation byte
    }
    if (codePoints > kMaxChat)
        return Error{"a chat line is at most " + std::to_string(kMaxChat) + " characters, not " +
                     std::to_string(codePoints) + "; nothing was sent"};
    return std::string(t);
}

Result<std::string> parseGameId(std::string_view text) {
    std::string t(text);
    if (auto p = t.rfind("/game/"); p != std::string::npos) t = t.substr(p + 6);
    while (!t.empty() && t.back() == '/') t.pop_back();
    const bool ok = t.size() >= 2 && t.size() <= 32 && t[0] == 'g' &&
                    std::all_of(t.begin(), t.end(),
                                [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
    if (!ok) return Error{quote(text) + " is not a game id (like gK3P9QX2)"};
    return t;
}

Result<ClockSpec> parseClock(std::string_view text) {
    const Error bad{quote(text) + " is not a clock: write MIN+INC, e.g. 5+3, or Nd, e.g. 3d"};
    if (text.size() >= 2 && (text.back() == 'd' || text.back() == 'D')) {  // days per move
        const auto days = number(text.substr(0, text.size() - 1));
        if (!days) return bad;
        if (*days != 1 && *days != 2 && *days != 3 && *days != 5 && *days != 7 && *days != 14)
            return Error{"days per move are 1, 2, 3, 5, 7 or 14"};
        return ClockSpec{*days * kDayCs, kDaysPerMove};
    }
    const auto plus = text.find('+');
    if (plus == std::string_view::npos) return bad;
    const std::string minutes(text.substr(0, plus));
    const auto inc = number(text.substr(plus + 1));
    double m = 0;
    try {
        std::size_t used = 0;
        m = std::stod(minutes, &used);
        if (used != minutes.size()) return bad;
    } catch (const std::exception&) {
        return bad;
    }
    if (!inc) return bad;
    const int initial = static_cast<int>(std::lround(m * 6000));
    if (initial < 1 || initial > 360000)
        return Error{"the clock's minutes are more than 0, at most 60"};
    if (*inc < 0 || *inc > 60) return Error{"the clock's increment is 0 to 60 seconds"};
    return ClockSpec{initial, *inc * 100};
}

Result<ServerUrl> parseServerUrl(std::string_view text) {
    const Error bad{quote(text) + " is not a server address like ws://127.0.0.1:8080/ws"};
    if (text.rfind("ws://", 0) != 0) return bad;
    std::string rest(text.substr(5));
    ServerUrl u;
    if (auto slash = rest.find('/'); slash != std::string::npos) {
        u.path = rest.substr(slash);
        rest = rest.substr(0, slash);
    }
    if (auto colon = rest.rfind(':'); colon != std::string::npos) {
        auto port = number(std::string_view(rest).substr(colon + 1));
        if (!port || *port < 1 || *port > 65535) return bad;
        u.port = *port;
        rest = rest.substr(0, colon);
    }
    if (rest.empty()) return bad;
    u.host = rest;
    return u;
}

Result<Input> parseInput(std::string_view line) {
    const std::vector<std::string> w = words(line);
    Input in;
    if (w.empty()) return in;
    // 'TEXT is short for say TEXT.
    if (const auto first = line.find_first_not_of(" \t"); line[first] == '\'') {
        auto text = checkChat(line.substr(first + 1));
        if (!text) return text.error();
        in.kind = Input::Kind::Say;
        in.text = *text;
        return in;
    }
    const std::string cmd = lower(w[0]);
    struct Simple {
        const char* word;
        Input::Kind kind;
    };
    static const Simple simple[] = {
        {"help", Input::Kind::Help},
        {"?", Input::Kind::Help},
        {"quit", Input::Kind::Quit},
        {"exit", Input::Kind::Quit},
        {"lobby", Input::Kind::Lobby},
        {"legal", Input::Kind::Legal},
        {"board", Input::Kind::Board},
        {"history", Input::Kind::History},
        {"wait", Input::Kind::Wait},
        {"resign", Input::Kind::Resign},
        {"draw", Input::Kind::Draw},
        {"accept", Input::Kind::Accept},
        {"decline", Input::Kind::Decline},
        {"rematch", Input::Kind::Rematch},
        {"claim", Input::Kind::Claim},
        {"abort", Input::Kind::Abort},
        {"logout", Input::Kind::Logout},
        {"whoami", Input::Kind::Whoami},
        {"unseek", Input::Kind::Unseek},
        {"challenges", Input::Kind::Challenges},
        {"notifications", Input::Kind::Notifications},
        {"tournaments", Input::Kind::Tournaments},
        {"berserk", Input::Kind::Berserk},
        {"games", Input::Kind::MyGames},
    };
    for (const Simple& s : simple) {
        if (cmd != s.word) continue;
        if (w.size() > 1) return Error{cmd + " takes no arguments"};
        in.kind = s.kind;
        return in;
    }
    if (cmd == "new") return parseNew(w);
    if (cmd == "seek") return parseSeek(w);
    if (cmd == "challenge") return parseChallenge(w);
    if (cmd == "challenge-accept" || cmd == "challenge-decline")
        return parseChallengeAnswer(w, cmd == "challenge-accept");
    if (cmd == "say") {
        auto text = checkChat(restAfterWord(line));
        if (!text) return text.error();
        in.kind = Input::Kind::Say;
        in.text = *text;
        return in;
    }
    if (cmd == "register" || cmd == "login") {
        in.kind = cmd == "login" ? Input::Kind::Login : Input::Kind::Register;
        if (w.size() != 2)
            return Error{cmd + " needs a username, e.g. " + cmd +
                         " alice (the password is asked for next)"};
        if (!validUsername(w[1]))
            return Error{quote(w[1]) + " is not a username: 3 to 24 letters, digits, '_' or '-'"};
        in.username = w[1];
        return in;
    }
    if (cmd == "name") {
        in.kind = Input::Kind::Rename;
        in.text = restAfterWord(line);
        if (in.text.empty()) return Error{"name needs the new name, e.g. name Okabe"};
        return in;
    }
    if (cmd == "setup") return parseSetup(w);
    if (cmd == "tournament-join" || cmd == "tournament-withdraw") {
        in.kind = cmd == "tournament-join" ? Input::Kind::TournamentJoin
                                           : Input::Kind::TournamentWithdraw;
        if (w.size() != 2 || w[1].size() < 2 || w[1][0] != 't')
            return Error{cmd + " needs one tournament id, e.g. " + cmd + " tR2K8QW1"};
        in.tournament = w[1];
        return in;
    }
    if (cmd == "join" || cmd == "watch") {
        in.kind = cmd == "join" ? Input::Kind::Join : Input::Kind::Watch;
        if (w.size() == 1 && cmd == "join") return in;  // the game being looked at
        if (w.size() != 2) return Error{cmd + " needs one game id, e.g. " + cmd + " gK3P9QX2"};
        auto id = parseGameId(w[1]);
        if (!id) return id.error();
        in.gameId = *id;
        return in;
    }
    if (w.size() == 1 &&
        (w[0].find('-') != std::string::npos || w[0].find('+') != std::string::npos))
        return parseAct(w[0]);
    return Error{"unknown command '" + w[0] + "' (type help for the list)"};
}

const char* gameCommandsHelp() {
    return R"(  setup SQ SQ SQ SQ           put your links on these four setup squares, viruses on the rest
  ACTION                      play an action in notation, e.g. d2-d3, LB+d2, FW+e5, VC+e7,
                              NF+d2e2:swap, d8-srv (only one of those `legal` lists)
  legal                       list your legal actions
  board                       show the game again
  history                     the actions played so far
)";
}

const char* boardLegendHelp() {
    return R"(board: 1L/1V side 1's link/virus, 2? a card whose identity you cannot see; marks: + LB,
       ! face up (VC), # on its owner's firewall; F1/F2 a firewall, [] an empty exit
)";
}

const std::string& helpText() {
    static const std::string text =
        std::string(R"(commands:
  lobby                       list the open games and the seeks waiting
  new [computer LEVEL|open|invite] [standard|official] [side 1|2|random] [clock MIN+INC|none]
      [rated|casual]          create a game (default: open, standard, random side, no clock,
                              rated between people)
  seek [standard|official] [clock MIN+INC|none] [rated|casual]
                              be paired with the next player seeking the same kind of game;
                              the new game is followed at once
  unseek                      stop seeking
  challenge USERNAME [standard|official] [clock MIN+INC|none] [rated|casual] [side 1|2|random]
                              challenge a player by name; it lapses after 10 minutes
  challenges                  the challenges waiting, received and sent
  challenge-accept ID         accept a challenge (its game is followed at once)
  challenge-decline ID [REASON]
                              decline: generic, later, too_fast, too_slow, timed, rated,
                              casual, preset or no_bots
  notifications               your notifications, newest first
  tournaments                 the tournaments: running, upcoming, finished
  tournament-join ID          join a tournament: each game it pairs you in is followed at once
  tournament-withdraw ID      leave a tournament for good (your points stay)
  berserk                     in a tournament game, before your first action: half your clock,
                              no increment, a bonus point for a long win
  games                       your correspondence games (clock Nd), your moves first
  join GAME                   take the free seat of a game (join alone: the game shown)
  watch GAME                  follow a game (as its player if you are seated in it)
  setup random                let the server arrange your cards
)") + gameCommandsHelp() +
        R"(  wait                        read no more input until it is your turn or the game ends
  resign                      give up the game
  draw / accept / decline     offer a draw; accept or decline an offer (draw or rematch)
  rematch                     after the end: ask for (or accept) a rematch, sides swapped
  claim                       claim the win when the opponent has been away too long
  abort                       abort before both sides have played
  say TEXT  (or 'TEXT)        chat in the game shown: players talk to players, spectators to
                              spectators
  register USERNAME           make this player an account (the password is asked for next)
  login USERNAME              play as an account from here (the password is asked for next)
  logout                      forget this identity here; go on as a new guest
  whoami                      your player id, name, kind and rating
  name NEW                    change your display name (guests only)
  help                        this list
  quit                        leave (the game goes on; `rainet play GAME` comes back to it)
)" + boardLegendHelp();
    return text;
}

}  // namespace rainet::client::play

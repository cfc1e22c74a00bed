#pragma once
// What a person types at the `rainet play` prompt, read into a value: one line is one command.
// Reading checks only the form (a known word, well-formed squares, game ids, clocks, action
// notation); whether an action is legal is the server's to say (the client compares it with the
// `legal` list the server sent), and whether a command fits the game is decided when it is sent.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace rainet::client::play {

// The options of `new`: what the `create` message of docs/protocol.md §4 asks for.
struct NewGame {
    std::string opponent = "open";  // open, invite, computer
    int level = 1;                  // 1-5, for the computer
    std::string preset = "standard";
    std::string side = "random";                // 1, 2, random
    std::optional<int> initialCs, incrementCs;  // both set for a timed game
    std::optional<bool> rated;                  // unset: the server's default (rated)
};

// The options of `seek`: the kind of game to be paired for (docs/protocol.md §4, seek).
struct SeekSpec {
    std::string preset = "standard";
    std::optional<int> initialCs, incrementCs;  // both set for a timed game
    std::optional<bool> rated;                  // unset: the server's default (rated)
};

struct Input {
    enum class Kind {
        Empty,
        Help,
        Quit,
        Lobby,
        New,
        Join,
        Watch,
        SetupRandom,
        SetupLinks,
        Act,
        Legal,
        Board,
        History,
        Wait,
        Resign,
        Draw,
        Accept,
        Decline,
        Rematch,
        Claim,
        Abort,
        Register,
        Login,
        Logout,
        Whoami,
        Say,
        Seek,
        Unseek,
        Rename,
        Challenge,
        ChallengeAccept,
        ChallengeDecline,
        Challenges,
        Notifications,
        Tournaments,
        TournamentJoin,
        TournamentWithdraw,
        Berserk,
        MyGames,
    };
    Kind kind = Kind::Empty;
    NewGame game;                    // New
    std::string gameId;              // Join, Watch (empty: the current game)
    std::string tournament;          // TournamentJoin, TournamentWithdraw
    std::vector<std::string> links;  // SetupLinks: four squares as typed, lower case
    std::string action;              // Act: canonical notation
    SeekSpec seek;                   // Seek
    std::string username;            // Register, Login (the password is the next line)
    std::string text;                // Say: the chat line, trimmed; Rename: the new name
    // Challenge: the challenged (username), the kind of game in `seek` and the side in `game`;
    // ChallengeAccept, ChallengeDecline: the challenge's id in `gameId`, a decline's reason here
    std::string reason = "generic";
};

// The longest chat line the server takes, in code points (docs/protocol.md §4, chat).
constexpr std::size_t kMaxChat = 300;

// A chat line as the server will take it: trimmed of surrounding spaces, 1 to kMaxChat code
// points, no control characters. The error says why not.
Result<std::string> checkChat(std::string_view text);

// Reads one line; an error says what is wrong in a sentence fit to print.
Result<Input> parseInput(std::string_view line);

// A game id (`g` then letters and digits) or a link ending in /game/<id>.
Result<std::string> parseGameId(std::string_view text);

// `MIN+INC`: minutes (may have a fraction) and seconds of increment, as centiseconds.
// A correspondence clock (`Nd`: N days per move) has incrementCs kDaysPerMove and initialCs
// the N days in cs, as the server carries it (protocol::kCorrespondence).
struct ClockSpec {
    int initialCs = 0, incrementCs = 0;
};
inline constexpr int kDaysPerMove = -1;
inline constexpr int kDayCs = 24 * 3600 * 100;
Result<ClockSpec> parseClock(std::string_view text);

// ws://HOST[:PORT][/PATH] (default port 80, path /ws).
struct ServerUrl {
    std::string host;
    int port = 80;
    std::string path = "/ws";
};
Result<ServerUrl> parseServerUrl(std::string_view text);

// The text of `help`.
const std::string& helpText();
// Parts of it shared with the help of `rainet play --local`: the commands acting in a game (from
// `setup SQ...` to `history`) and the legend of the board.
const char* gameCommandsHelp();
const char* boardLegendHelp();

}  // namespace rainet::client::play

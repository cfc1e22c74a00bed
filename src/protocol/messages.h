#pragma once
// The JSON messages between the server and its clients (docs/protocol.md): client messages are
// parsed and validated here into ClientMessage values; server messages are rendered with the
// helpers below. Nothing here knows about sockets or game state.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.h"

namespace rainet::protocol {

using Json = nlohmann::ordered_json;  // keys keep insertion order: "type" first

constexpr std::size_t kMaxFrame = 4096;          // larger frames get too_large
constexpr std::size_t kMaxFrameHard = 64 << 10;  // larger frames close the connection

// Error codes of docs/protocol.md §7, in that order.
enum class ErrorCode : std::uint8_t {
    BadJson,
    BadMessage,
    UnknownType,
    TooLarge,
    RateLimited,
    NotAuthenticated,
    UnknownGame,
    NotAPlayer,
    WrongStatus,
    NotYourTurn,
    IllegalAction,
    StaleVersion,
    BadSetup,
    AlreadySetUp,
    NoDrawOffer,
    CannotClaim,
    CannotAbort,
    NoRematchOffer,
    BadCredentials,
    UsernameTaken,
    AlreadyRegistered,
    UnknownPlayer,
    UnknownChallenge,
    ChallengeRefused,
    Busy,
    UnknownTournament,
    AlreadyJoined,
    NotJoined,
    TournamentOver,
    TournamentFull,
    Withdrawn,
    BerserkRefused,
    TooManyTournaments,
    Banned,
    Muted,
    ChatRefused,
    Forbidden,
    Internal,
};
constexpr int kErrorCodeCount = static_cast<int>(ErrorCode::Internal) + 1;
const char* codeName(ErrorCode c);

enum class MsgType : std::uint8_t {
    Hello,
    Create,
    Join,
    Watch,
    Resume,
    Leave,
    Setup,
    Act,
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    ClaimWin,
    Abort,
    LobbySubscribe,
    LobbyUnsubscribe,
    Ping,
    Rematch,
    RematchDecline,
    Rename,
    Register,
    Login,
    Logout,
    Chat,
    Seek,
    Unseek,
    TournamentCreate,
    TournamentJoin,
    TournamentPause,
    TournamentWithdraw,
    TournamentWatch,
    TournamentUnwatch,
    Tournaments,
    Berserk,
    Notifications,
    NotificationsRead,
    Challenge,
    ChallengeAccept,
    ChallengeDecline,
    ChallengeCancel,
    Challenges,
    ChallengeSettings,
    Follow,
    Unfollow,
    Following,
    MyGames,
    Block,
    Unblock,
    Blocked,
    Report,
    Reports,
    Moderate,
};

struct ClockSpec {
    int initial = 0;    // cs
    int increment = 0;  // cs; kCorrespondence for days per move
    bool operator==(const ClockSpec&) const = default;
};
// A correspondence clock ({"days": N} in the protocol) is carried wherever a clock goes (games,
// seeks, challenges, the lobby) as initial = N days in cs and this increment, which no real-time
// clock has: each move must be made within the N days, the time left is not carried over.
inline constexpr int kCorrespondence = -1;
inline constexpr int kDayCs = 24 * 3600 * 100;
inline constexpr int kCorrespondenceDays[] = {1, 2, 3, 5, 7, 14};
[[nodiscard]] inline bool isCorrespondence(int increment) {
    return increment == kCorrespondence;
}

// One validated client message; only the fields of its type are meaningful.
struct ClientMessage {
    MsgType type = MsgType::Ping;
    Json id;           // null when absent; echoed verbatim in ack / error
    std::string game;  // empty when absent
    // hello, rename
    std::string token, name;
    // create
    std::string preset = "standard";
    std::optional<ClockSpec> clock;
    std::string side = "random";    // "1", "2", "random"
    std::string opponent = "open";  // "open", "invite", "computer"
    int level = 1;
    std::optional<bool> rated;  // absent: rated unless against the computer
    // resume / act
    std::optional<std::int64_t> v;
    // resume: the `n` of the last chat line received (the lines after it are sent again)
    std::optional<std::int64_t> chatSeen;
    // setup: squares, validated against the side by the game
    std::vector<Square> links;
    bool random = false;
    // act
    std::string action;
    // register / login (register checks the rules below; login only the sizes)
    std::string username, password;
    bool bot = false;  // register: a bot account (played by a program, docs/bot.md)
    // chat: 1 to kMaxChat characters, trimmed, no control characters
    std::string text;
    // tournament_*: the tournament's id
    std::string tournament;
    // tournament_create (the clock is `clock`, required; the name is `name`, up to
    // kMaxTournamentName characters; `preset` and `rated` as in create)
    std::string format = "arena";
    std::int64_t startsIn = 0;  // s from now
    int minutes = 0;            // an arena's length
    // tournament_create: bot accounts may join; challenge_settings: bots may challenge
    bool bots = false;
    // notifications: the page's older end (0: from the newest) and size (1 to 50)
    std::int64_t before = 0;
    int limit = 20;
    // notifications_read: every notification with an id up to this one
    std::int64_t upTo = 0;
    // challenge (the challenged: `player`, a public id, or `username`), follow, unfollow
    std::string player;
    // challenge_accept / _decline / _cancel: the challenge's id; a decline's reason
    std::string challenge, reason = "generic";
    // seek: seconds after which the computer takes the seat if nobody came (0: never; absent:
    // the server's default, 20 s for a guest and never for an account)
    std::optional<int> computerAfter;
    // challenge_settings: who may challenge ("everyone", "followed", "nobody")
    std::string from;
    // follow: also a follow_started_game notification when the player starts a game
    bool starts = false;
    // report: `player`, `game` (optional), `reason` (kReportReasons), `text` (up to
    // kMaxReportText bytes, may be empty)
    // moderate: `action` (kModerateActions; here modAction), `player` or `report`, `minutes`
    // (a mute's; here muteMinutes), `text` (the reason, as a report's)
    std::string modAction;
    std::int64_t report = 0;
    int muteMinutes = 0;
};
// The reasons a player may be reported for, and what a moderator may do over the protocol
// (docs/protocol.md, "Moderation").
inline constexpr std::string_view kReportReasons[] = {"insult",   "spam", "cheating",
                                                      "stalling", "name", "other"};
inline constexpr std::string_view kModerateActions[] = {"mute", "unmute", "ban", "unban",
                                                        "close_report"};
constexpr std::size_t kMaxReportText = 500;    // bytes of a report's (or an action's) text
constexpr int kMaxMuteMinutes = 30 * 24 * 60;  // a mute over the protocol: at most 30 days
// The reasons a challenge may be declined with (docs/protocol.md, "Challenges").
inline constexpr std::string_view kDeclineReasons[] = {
    "generic", "later", "too_fast", "too_slow", "timed", "rated", "casual", "preset", "no_bots"};
constexpr std::size_t kMaxTournamentName = 60;  // characters (code points)
constexpr std::size_t kMaxChat = 300;           // characters (code points) of one chat message
constexpr std::size_t kMaxName = 24;            // characters (code points) of a display name
constexpr std::size_t kMaxToken = 128;          // longer tokens are unknown ones (never issued)

// Account rules (docs/protocol.md §2): usernames of 3 to 24 letters, digits, '_' or '-', unique
// whatever their case; passwords of 8 to 128 characters.
bool validUsername(std::string_view u);
bool validPassword(std::string_view p);

struct Failure {
    ErrorCode code;
    std::string message;
    Json id;           // echoed when the message had a usable one
    std::string game;  // echoed likewise
};

// Parses one text frame. Fails with bad_json, unknown_type or bad_message.
std::variant<ClientMessage, Failure> parseClientMessage(std::string_view text);

// Whether a message of this type must carry an id (it changes state).
bool needsId(MsgType t);

// Rendering helpers. Every server message is one compact JSON object.
std::string renderError(ErrorCode code, std::string_view message, const Json& id = nullptr,
                        std::string_view game = {});
std::string renderAck(const Json& id, std::string_view game = {},
                      std::optional<std::int64_t> v = std::nullopt);
// A clock setting as in `create`: {"initial": cs, "increment": cs}, or null when untimed (0).
Json clockJson(int initial, int increment);
Json setupJson(Side s, std::uint8_t links);  // the link squares of a setup mask
std::optional<std::uint8_t> setupMask(Side s, const std::vector<Square>& links);  // bad: nullopt

}  // namespace rainet::protocol

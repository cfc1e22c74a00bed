#include "protocol/messages.h"

#include <algorithm>
#include <iterator>

#include "core/action.h"
#include "protocol/server_messages.h"
#include "protocol/text.h"

namespace rainet::protocol {

const char* codeName(ErrorCode c) {
    return nameOf(c).data();  // the literals of EnumInfo<ErrorCode> end with a NUL
}

namespace {

struct TypeEntry {
    const char* name;
    MsgType type;
};
constexpr TypeEntry kTypes[] = {
    {"hello", MsgType::Hello},
    {"create", MsgType::Create},
    {"join", MsgType::Join},
    {"watch", MsgType::Watch},
    {"resume", MsgType::Resume},
    {"leave", MsgType::Leave},
    {"setup", MsgType::Setup},
    {"act", MsgType::Act},
    {"resign", MsgType::Resign},
    {"draw_offer", MsgType::DrawOffer},
    {"draw_accept", MsgType::DrawAccept},
    {"draw_decline", MsgType::DrawDecline},
    {"claim_win", MsgType::ClaimWin},
    {"abort", MsgType::Abort},
    {"lobby_subscribe", MsgType::LobbySubscribe},
    {"lobby_unsubscribe", MsgType::LobbyUnsubscribe},
    {"ping", MsgType::Ping},
    {"rematch", MsgType::Rematch},
    {"rematch_decline", MsgType::RematchDecline},
    {"rename", MsgType::Rename},
    {"register", MsgType::Register},
    {"login", MsgType::Login},
    {"logout", MsgType::Logout},
    {"chat", MsgType::Chat},
    {"seek", MsgType::Seek},
    {"unseek", MsgType::Unseek},
    {"tournament_create", MsgType::TournamentCreate},
    {"tournament_join", MsgType::TournamentJoin},
    {"tournament_pause", MsgType::TournamentPause},
    {"tournament_withdraw", MsgType::TournamentWithdraw},
    {"tournament_watch", MsgType::TournamentWatch},
    {"tournament_unwatch", MsgType::TournamentUnwatch},
    {"tournaments", MsgType::Tournaments},
    {"berserk", MsgType::Berserk},
    {"notifications", MsgType::Notifications},
    {"notifications_read", MsgType::NotificationsRead},
    {"challenge", MsgType::Challenge},
    {"challenge_accept", MsgType::ChallengeAccept},
    {"challenge_decline", MsgType::ChallengeDecline},
    {"challenge_cancel", MsgType::ChallengeCancel},
    {"challenges", MsgType::Challenges},
    {"challenge_settings", MsgType::ChallengeSettings},
    {"follow", MsgType::Follow},
    {"unfollow", MsgType::Unfollow},
    {"following", MsgType::Following},
    {"my_games", MsgType::MyGames},
    {"block", MsgType::Block},
    {"unblock", MsgType::Unblock},
    {"blocked", MsgType::Blocked},
    {"report", MsgType::Report},
    {"reports", MsgType::Reports},
    {"moderate", MsgType::Moderate},
};

bool usesGame(MsgType t) {
    switch (t) {
        case MsgType::Hello:
        case MsgType::Create:
        case MsgType::LobbySubscribe:
        case MsgType::LobbyUnsubscribe:
        case MsgType::Ping:
        case MsgType::Rename:
        case MsgType::Register:
        case MsgType::Login:
        case MsgType::Logout:
        case MsgType::Seek:
        case MsgType::Unseek:
        case MsgType::TournamentCreate:
        case MsgType::TournamentJoin:
        case MsgType::TournamentPause:
        case MsgType::TournamentWithdraw:
        case MsgType::TournamentWatch:
        case MsgType::TournamentUnwatch:
        case MsgType::Tournaments:
        case MsgType::Notifications:
        case MsgType::NotificationsRead:
        case MsgType::Challenge:
        case MsgType::ChallengeAccept:
        case MsgType::ChallengeDecline:
        case MsgType::ChallengeCancel:
        case MsgType::Challenges:
        case MsgType::ChallengeSettings:
        case MsgType::Follow:
        case MsgType::Unfollow:
        case MsgType::Following:
        case MsgType::MyGames:
        case MsgType::Block:
        case MsgType::Unblock:
        case MsgType::Blocked:
        case MsgType::Report:
        case MsgType::Reports:
        case MsgType::Moderate:
            return false;
        default:
            return true;
    }
}

bool validId(const Json& id) {
    if (id.is_number_integer()) return true;
    return id.is_string() && !id.get_ref<const std::string&>().empty() &&
           id.get_ref<const std::string&>().size() <= 64;
}

// Why free text (protocol/text.h) in field `field` ("name" or "text") is refused; null if it is
// not.
const char* textError(std::string_view field, TextProblem p) {
    static_assert(kMaxName == 24 && kMaxChat == 300, "the limits the messages below state");
    const bool name = field == "name";
    switch (p) {
        case TextProblem::None:
            return nullptr;
        case TextProblem::BadUtf8:
            return name ? "'name' is not valid UTF-8" : "'text' is not valid UTF-8";
        case TextProblem::TooLong:
            return name ? "'name' is longer than 24 characters"
                        : "'text' is longer than 300 characters";
        case TextProblem::Forbidden:
            return name ? "'name' has a control or bidi-override character"
                        : "'text' has a control or bidi-override character";
        case TextProblem::Blank:
            return name ? "'name' is only spaces" : "'text' is only spaces";
    }
    return nullptr;
}

bool validGameId(const std::string& g) {
    if (g.empty() || g.size() > 32) return false;
    for (char c : g)
        if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return true;
}

}  // namespace

bool needsId(MsgType t) {
    switch (t) {
        case MsgType::Create:
        case MsgType::Join:
        case MsgType::Setup:
        case MsgType::Act:
        case MsgType::Resign:
        case MsgType::DrawOffer:
        case MsgType::DrawAccept:
        case MsgType::DrawDecline:
        case MsgType::ClaimWin:
        case MsgType::Abort:
        case MsgType::Rematch:
        case MsgType::RematchDecline:
        case MsgType::Rename:
        case MsgType::Register:
        case MsgType::Logout:
        case MsgType::Seek:
        case MsgType::Unseek:
        case MsgType::TournamentCreate:
        case MsgType::TournamentJoin:
        case MsgType::TournamentPause:
        case MsgType::TournamentWithdraw:
        case MsgType::Berserk:
        case MsgType::NotificationsRead:
        case MsgType::Challenge:
        case MsgType::ChallengeAccept:
        case MsgType::ChallengeDecline:
        case MsgType::ChallengeCancel:
        case MsgType::ChallengeSettings:
        case MsgType::Follow:
        case MsgType::Unfollow:
        case MsgType::Block:
        case MsgType::Unblock:
        case MsgType::Report:
        case MsgType::Moderate:
            return true;
        default:
            return false;
    }
}

std::variant<ClientMessage, Failure> parseClientMessage(std::string_view text) {
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Failure{ErrorCode::BadJson, "not a JSON object", nullptr, {}};
    ClientMessage m;
    Failure f{ErrorCode::BadMessage, "", nullptr, {}};
    if (auto it = j.find("id"); it != j.end() && validId(*it)) m.id = f.id = *it;
    if (auto it = j.find("game");
        it != j.end() && it->is_string() && validGameId(it->get_ref<const std::string&>()))
        m.game = f.game = it->get<std::string>();
    auto bad = [&](std::string why) {
        f.message = std::move(why);
        return f;
    };
    auto t = j.find("type");
    if (t == j.end() || !t->is_string()) return bad("missing string field 'type'");
    const std::string& tn = t->get_ref<const std::string&>();
    bool known = false;
    for (const auto& e : kTypes)
        if (tn == e.name) m.type = e.type, known = true;
    if (!known) {
        f.code = ErrorCode::UnknownType;
        return bad("unknown message type");
    }
    if (j.contains("id") && !validId(j["id"]))
        return bad("'id' must be an integer or a string of 1 to 64 bytes (UTF-8)");
    if (needsId(m.type) && m.id.is_null()) return bad("missing 'id'");
    if (usesGame(m.type) && m.game.empty()) return bad("missing or malformed 'game'");

    auto str = [&](const char* key, std::string& out, std::size_t max) -> bool {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return true;
        if (!it->is_string() || it->get_ref<const std::string&>().size() > max) return false;
        out = it->get<std::string>();
        return true;
    };
    // A display name, for hello and rename: 1 to kMaxName code points, not all spaces, none of
    // them a control or bidi character (protocol/text.h). Absent (or "" in hello): no name.
    auto badName = [&](std::string& name) -> const char* {
        auto it = j.find("name");
        if (it == j.end() || it->is_null()) return nullptr;
        if (!it->is_string()) return "'name' must be a string";
        name = it->get<std::string>();
        if (name.empty()) return nullptr;
        return textError("name", checkText(name, kMaxName));
    };
    switch (m.type) {
        case MsgType::TournamentJoin:
        case MsgType::TournamentPause:
        case MsgType::TournamentWithdraw:
        case MsgType::TournamentWatch:
        case MsgType::TournamentUnwatch:
            if (auto it = j.find("tournament"); it == j.end() || !it->is_string() ||
                                                !validGameId(it->get_ref<const std::string&>()))
                return bad("missing or malformed 'tournament'");
            m.tournament = j["tournament"].get<std::string>();
            break;
        case MsgType::TournamentCreate: {
            auto it = j.find("name");
            if (it == j.end() || !it->is_string()) return bad("'name' must be a string");
            m.name = it->get<std::string>();
            if (m.name.empty() || checkText(m.name, kMaxTournamentName) != TextProblem::None)
                return bad("'name' must be 1 to 60 characters, no control characters");
            if (!str("format", m.format, 16) || m.format != "arena")
                return bad("'format' must be \"arena\"");
            if (!str("preset", m.preset, 16) || (m.preset != "standard" && m.preset != "official"))
                return bad("'preset' must be \"standard\" or \"official\"");
            auto c = j.find("clock");
            if (c == j.end() || !c->is_object())
                return bad("'clock' must be an object: tournaments are timed");
            auto in = c->find("initial");
            auto inc = c->find("increment");
            if (in == c->end() || !in->is_number_integer() || *in < 3000 || *in > 360000)
                return bad("'clock.initial' must be an integer from 3000 to 360000 (cs)");
            if (inc == c->end() || !inc->is_number_integer() || *inc < 0 || *inc > 6000)
                return bad("'clock.increment' must be an integer from 0 to 6000 (cs)");
            m.clock = ClockSpec{in->get<int>(), inc->get<int>()};
            auto starts = j.find("startsIn");
            if (starts == j.end() || !starts->is_number_integer() || *starts < 0 ||
                *starts > 7 * 24 * 3600)
                return bad("'startsIn' must be an integer from 0 to 604800 (s)");
            m.startsIn = starts->get<std::int64_t>();
            auto minutes = j.find("minutes");
            if (minutes == j.end() || !minutes->is_number_integer() || *minutes < 5 ||
                *minutes > 360)
                return bad("'minutes' must be an integer from 5 to 360");
            m.minutes = minutes->get<int>();
            if (auto r = j.find("rated"); r != j.end() && !r->is_null()) {
                if (!r->is_boolean()) return bad("'rated' must be a boolean");
                m.rated = r->get<bool>();
            }
            if (auto b = j.find("bots"); b != j.end() && !b->is_null()) {
                if (!b->is_boolean()) return bad("'bots' must be a boolean");
                m.bots = b->get<bool>();
            }
            break;
        }
        case MsgType::Hello:
            if (auto it = j.find("token"); it != j.end() && !it->is_null()) {
                if (!it->is_string()) return bad("'token' must be a string");
                // A token longer than any the server issues cannot be known: like any unknown
                // token it gives a new guest (docs/protocol.md section 2).
                if (it->get_ref<const std::string&>().size() <= kMaxToken)
                    m.token = it->get<std::string>();
            }
            if (auto why = badName(m.name)) return bad(why);
            break;
        case MsgType::Rename:
            if (auto why = badName(m.name)) return bad(why);
            if (m.name.empty()) return bad("'name' must be a string of 1 to 24 characters");
            break;
        case MsgType::Chat: {
            auto it = j.find("text");
            if (it == j.end() || !it->is_string()) return bad("'text' must be a string");
            const std::string& raw = it->get_ref<const std::string&>();
            const auto first = raw.find_first_not_of(" \t\r\n");
            if (first == std::string::npos) return bad("'text' is empty");
            m.text = raw.substr(first, raw.find_last_not_of(" \t\r\n") - first + 1);
            if (auto why = textError("text", checkText(m.text, kMaxChat))) return bad(why);
            break;
        }
        case MsgType::Create:
        case MsgType::Seek:  // a seek names the game it wants like create does
        case MsgType::Challenge: {
            if (!str("preset", m.preset, 16) || (m.preset != "standard" && m.preset != "official"))
                return bad("'preset' must be \"standard\" or \"official\"");
            if (!str("side", m.side, 8) || (m.side != "1" && m.side != "2" && m.side != "random"))
                return bad("'side' must be \"1\", \"2\" or \"random\"");
            if (!str("opponent", m.opponent, 16) ||
                (m.opponent != "open" && m.opponent != "invite" && m.opponent != "computer"))
                return bad("'opponent' must be \"open\", \"invite\" or \"computer\"");
            if (auto it = j.find("level"); it != j.end() && !it->is_null()) {
                if (!it->is_number_integer() || *it < 1 || *it > 5)
                    return bad("'level' must be an integer from 1 to 5");
                m.level = it->get<int>();
            }
            if (auto it = j.find("rated"); it != j.end() && !it->is_null()) {
                if (!it->is_boolean()) return bad("'rated' must be a boolean");
                m.rated = it->get<bool>();
            }
            if (auto it = j.find("clock"); it != j.end() && !it->is_null()) {
                if (!it->is_object()) return bad("'clock' must be an object or null");
                if (auto days = it->find("days"); days != it->end()) {
                    const bool allowedDays =
                        days->is_number_integer() &&
                        std::ranges::find(kCorrespondenceDays, days->get<int>()) !=
                            std::end(kCorrespondenceDays);
                    if (!allowedDays) return bad("'clock.days' must be 1, 2, 3, 5, 7 or 14");
                    // Beside `days` only what the server shows with it (a clock sent back).
                    const Json shown = clockJson(days->get<int>() * kDayCs, kCorrespondence);
                    for (const auto& [k, v] : it->items())
                        if (!shown.contains(k) || shown[k] != v)
                            return bad("'clock.days' comes alone, or as the server shows it");
                    if (m.opponent == "computer")
                        return bad("correspondence games are between people, not the computer");
                    m.clock = ClockSpec{days->get<int>() * kDayCs, kCorrespondence};
                    break;
                }
                auto in = it->find("initial");
                auto inc = it->find("increment");
                if (in == it->end() || !in->is_number_integer() || *in < 1 || *in > 360000)
                    return bad("'clock.initial' must be an integer from 1 to 360000 (cs)");
                ClockSpec c{in->get<int>(), 0};
                if (inc != it->end()) {
                    if (!inc->is_number_integer() || *inc < 0 || *inc > 6000)
                        return bad("'clock.increment' must be an integer from 0 to 6000 (cs)");
                    c.increment = inc->get<int>();
                }
                m.clock = c;
            }
            break;
        }
        case MsgType::Resume: {
            auto it = j.find("v");
            if (it == j.end() || !it->is_number_integer() || *it < 0)
                return bad("'v' must be a non-negative integer");
            m.v = it->get<std::int64_t>();
            if (auto c = j.find("chat"); c != j.end() && !c->is_null()) {
                if (!c->is_number_integer() || *c < 0)
                    return bad("'chat' must be a non-negative integer");
                m.chatSeen = c->get<std::int64_t>();
            }
            break;
        }
        case MsgType::Setup: {
            if (auto it = j.find("random"); it != j.end() && !it->is_null()) {
                if (!it->is_boolean()) return bad("'random' must be a boolean");
                m.random = it->get<bool>();
            }
            auto it = j.find("links");
            if (m.random) break;
            if (it == j.end() || !it->is_array())
                return bad("'links' must be an array of 4 squares (or 'random': true)");
            for (const auto& s : *it)
                if (!s.is_string()) return bad("'links' must hold square names");
            // Well-formed but not an arrangement (a wrong count, a bad square): bad_setup, as
            // for squares of the wrong side.
            f.code = ErrorCode::BadSetup;
            if (it->size() != 4) return bad("'links' must name exactly 4 squares");
            for (const auto& s : *it) {
                auto sq = parseSquare(s.get_ref<const std::string&>());
                if (!sq) return bad("'links': " + sq.error().message);
                m.links.push_back(*sq);
            }
            f.code = ErrorCode::BadMessage;
            break;
        }
        case MsgType::Act: {
            if (!str("action", m.action, 32) || m.action.empty())
                return bad("'action' must be an action string");
            if (auto it = j.find("v"); it != j.end() && !it->is_null()) {
                if (!it->is_number_integer() || *it < 0)
                    return bad("'v' must be a non-negative integer");
                m.v = it->get<std::int64_t>();
            }
            break;
        }
        case MsgType::Register:
            if (!str("username", m.username, 64) || !validUsername(m.username))
                return bad("'username' must be 3 to 24 letters, digits, '_' or '-'");
            if (!str("password", m.password, 1024) || !validPassword(m.password))
                return bad("'password' must be a string of 8 to 128 characters");
            if (auto it = j.find("bot"); it != j.end() && !it->is_null()) {
                if (!it->is_boolean()) return bad("'bot' must be a boolean");
                m.bot = it->get<bool>();
            }
            break;
        case MsgType::Notifications:
            if (auto it = j.find("before"); it != j.end() && !it->is_null()) {
                if (!it->is_number_integer() || *it < 0)
                    return bad("'before' must be a non-negative integer");
                m.before = it->get<std::int64_t>();
            }
            if (auto it = j.find("limit"); it != j.end() && !it->is_null()) {
                if (!it->is_number_integer() || *it < 1 || *it > 50)
                    return bad("'limit' must be an integer from 1 to 50");
                m.limit = it->get<int>();
            }
            break;
        case MsgType::ChallengeAccept:
        case MsgType::ChallengeDecline:
        case MsgType::ChallengeCancel:
            if (!str("challenge", m.challenge, 32) || !validGameId(m.challenge))
                return bad("'challenge' must be a challenge id");
            if (m.type == MsgType::ChallengeDecline) {
                if (!str("reason", m.reason, 16) ||
                    std::find(std::begin(kDeclineReasons), std::end(kDeclineReasons), m.reason) ==
                        std::end(kDeclineReasons))
                    return bad(
                        "'reason' must be one of generic, later, too_fast, too_slow, timed, "
                        "rated, casual, preset, no_bots");
            }
            break;
        case MsgType::ChallengeSettings: {
            if (!str("from", m.from, 16) ||
                (m.from != "everyone" && m.from != "followed" && m.from != "nobody"))
                return bad("'from' must be \"everyone\", \"followed\" or \"nobody\"");
            auto it = j.find("bots");
            if (it == j.end() || !it->is_boolean()) return bad("'bots' must be a boolean");
            m.bots = it->get<bool>();
            break;
        }
        case MsgType::Follow:
        case MsgType::Unfollow:
        case MsgType::Block:
        case MsgType::Unblock:
            if (!str("player", m.player, 32) || !validGameId(m.player))
                return bad("'player' must be a player id");
            if (auto it = j.find("starts"); it != j.end() && !it->is_null()) {
                if (!it->is_boolean()) return bad("'starts' must be a boolean");
                m.starts = it->get<bool>();
            }
            break;
        case MsgType::Report:
        case MsgType::Moderate: {
            if (!str("player", m.player, 32) || (!m.player.empty() && !validGameId(m.player)))
                return bad("'player' must be a player id");
            if (m.type == MsgType::Report) {
                if (m.player.empty()) return bad("'player' must be a player id");
                m.reason.clear();
                if (!str("reason", m.reason, 16) ||
                    std::find(std::begin(kReportReasons), std::end(kReportReasons), m.reason) ==
                        std::end(kReportReasons))
                    return bad(
                        "'reason' must be one of insult, spam, cheating, stalling, name, other");
            } else {
                if (!str("action", m.modAction, 16) ||
                    std::find(std::begin(kModerateActions), std::end(kModerateActions),
                              m.modAction) == std::end(kModerateActions))
                    return bad("'action' must be one of mute, unmute, ban, unban, close_report");
                if (m.modAction == "close_report") {
                    auto it = j.find("report");
                    if (it == j.end() || !it->is_number_integer() || *it < 1)
                        return bad("'report' must be a report id");
                    m.report = it->get<std::int64_t>();
                } else if (m.player.empty()) {
                    return bad("'player' must be a player id");
                }
                if (m.modAction == "mute") {
                    auto it = j.find("minutes");
                    if (it == j.end() || !it->is_number_integer() || *it < 1 ||
                        *it > kMaxMuteMinutes)
                        return bad("'minutes' must be an integer from 1 to 43200");
                    m.muteMinutes = it->get<int>();
                }
            }
            auto it = j.find("text");
            if (it != j.end() && !it->is_null()) {
                if (!it->is_string()) return bad("'text' must be a string");
                if (it->get_ref<const std::string&>().size() > kMaxReportText)
                    return bad("'text' is longer than 500 bytes");
                m.text = it->get<std::string>();
                const TextProblem p = checkText(m.text, kMaxReportText);
                if (p == TextProblem::BadUtf8) return bad("'text' is not valid UTF-8");
                if (p == TextProblem::Forbidden)
                    return bad("'text' has a control or bidi-override character");
                if (p == TextProblem::Blank) m.text.clear();
            }
            break;
        }
        case MsgType::NotificationsRead: {
            auto it = j.find("upTo");
            if (it == j.end() || !it->is_number_integer() || *it < 0)
                return bad("'upTo' must be a non-negative integer");
            m.upTo = it->get<std::int64_t>();
            break;
        }
        case MsgType::Login:
            if (!str("username", m.username, 64) || m.username.empty())
                return bad("'username' must be a string");
            if (!str("password", m.password, 1024) || m.password.empty())
                return bad("'password' must be a string");
            break;
        default:
            break;
    }
    if (m.type == MsgType::Seek)
        if (auto it = j.find("computer_after"); it != j.end() && !it->is_null()) {
            if (!it->is_number_integer() || *it < 0 || *it > 600)
                return bad("'computer_after' must be an integer from 0 to 600 (seconds)");
            m.computerAfter = it->get<int>();
        }
    if (m.type == MsgType::Challenge) {
        // The challenged: by player id or by username, one of them.
        if (!str("player", m.player, 32) || (!m.player.empty() && !validGameId(m.player)))
            return bad("'player' must be a player id");
        if (!str("username", m.username, 64) || (!m.username.empty() && !validUsername(m.username)))
            return bad("'username' must be 3 to 24 letters, digits, '_' or '-'");
        if (m.player.empty() == m.username.empty())
            return bad("name the challenged player by 'player' (an id) or 'username', one of them");
        if (m.opponent != "open") return bad("a challenge has no 'opponent'");
    }
    return m;
}

bool validUsername(std::string_view u) {
    if (u.size() < 3 || u.size() > 24) return false;
    for (char c : u)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
    return true;
}

bool validPassword(std::string_view p) {
    std::size_t chars = 0;  // UTF-8 code points: bytes that do not continue one
    for (char c : p)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
    return chars >= 8 && chars <= 128;
}

std::string renderError(ErrorCode code, std::string_view message, const Json& id,
                        std::string_view game) {
    return render(
        ErrorMessage{code, message, id.is_null() ? std::nullopt : std::optional(id), game});
}

std::string renderAck(const Json& id, std::string_view game, std::optional<std::int64_t> v) {
    return render(Ack{id, game, v, std::nullopt, std::nullopt});
}

Json clockJson(int initial, int increment) {
    if (!initial) return nullptr;
    if (isCorrespondence(increment))
        return {{"initial", initial}, {"increment", 0}, {"days", initial / kDayCs}};
    return {{"initial", initial}, {"increment", increment}};
}

Json setupJson(Side s, std::uint8_t links) {
    return setupSquares(s, links);
}

std::optional<std::uint8_t> setupMask(Side s, const std::vector<Square>& links) {
    if (links.size() != 4) return std::nullopt;
    std::uint8_t mask = 0;
    for (Square sq : links) {
        int found = -1;
        for (int i = 0; i < 8; ++i)
            if (setupSquare(s, i) == sq) found = i;
        if (found < 0 || (mask & (1u << found))) return std::nullopt;
        mask |= static_cast<std::uint8_t>(1u << found);
    }
    return mask;
}

}  // namespace rainet::protocol

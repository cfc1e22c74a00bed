#include "client/play_follower.h"

namespace rainet::client::play {
namespace {

std::string str(const Json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int sideIndex(const std::string& side) {
    return side == "2" ? 1 : 0;
}

std::vector<std::string> strings(const Json& j) {
    std::vector<std::string> out;
    if (!j.is_array()) return out;
    for (const Json& x : j)
        if (x.is_string()) out.push_back(x.get<std::string>());
    return out;
}

std::optional<Clocks> clocksOf(const Json& j, SteadyTime now) {
    if (!j.is_object()) return std::nullopt;
    Clocks c;
    c.cs[0] = j.value("1", 0L);
    c.cs[1] = j.value("2", 0L);
    c.running = str(j, "running");
    c.received = now;
    return c;
}

std::optional<Seat> seatOf(const Json& j) {
    if (!j.is_object()) return std::nullopt;
    Seat s;
    s.id = str(j, "id");
    s.name = str(j, "name");
    s.connected = j.value("connected", true);
    s.bot = j.value("bot", false);
    if (auto it = j.find("rating"); it != j.end() && it->is_number())
        s.rating = static_cast<int>(it->get<double>());
    return s;
}

Ending endingOf(const Json& j) {
    Ending e;
    e.result = str(j, "result");
    e.winner = str(j, "winner");
    e.reason = str(j, "reason");
    e.position = str(j, "position");
    if (auto it = j.find("setups"); it != j.end() && it->is_object())
        for (int i = 0; i < 2; ++i) e.setups[i] = strings(it->value(i ? "2" : "1", Json()));
    if (auto it = j.find("ratings"); it != j.end() && it->is_object())
        for (int i = 0; i < 2; ++i) {
            const Json r = it->value(i ? "2" : "1", Json());
            if (r.is_object() && r.contains("before") && r.contains("after") &&
                r["before"].is_number() && r["after"].is_number())
                e.ratings[i] = Ending::RatingChange{static_cast<int>(r["before"].get<double>()),
                                                    static_cast<int>(r["after"].get<double>())};
        }
    return e;
}

std::string seatName(const GameState& s, const std::string& side) {
    const auto& seat = s.seats[sideIndex(side)];
    std::string who = "side " + side;
    if (side == s.you) return who + " (you)";
    if (seat && !seat->name.empty()) who += " (" + seat->name + ")";
    return who;
}

}  // namespace

ChatLine chatLineOf(const Json& j) {
    ChatLine c;
    if (!j.is_object()) return c;
    c.channel = str(j, "channel");
    const Json from = j.value("from", Json::object());
    if (from.is_object()) {
        c.fromId = str(from, "id");
        c.fromName = str(from, "name");
    }
    c.side = str(j, "side");
    c.text = str(j, "text");
    if (auto it = j.find("at"); it != j.end() && it->is_number_integer())
        c.at = it->get<long long>();
    return c;
}

std::vector<ChatLine> unseenChat(const std::vector<ChatLine>& history,
                                 const std::optional<ChatLine>& lastShown, std::size_t max) {
    std::size_t from = history.size() > max ? history.size() - max : 0;
    if (lastShown)
        for (std::size_t i = history.size(); i-- > 0;)
            if (history[i] == *lastShown) {
                from = i + 1;
                break;
            }
    return {history.begin() + static_cast<std::ptrdiff_t>(from), history.end()};
}

GameFollower::Outcome GameFollower::take(const Json& j, SteadyTime now) {
    if (!j.is_object() || str(j, "game") != s_.game) return Outcome::Ignored;
    const std::string type = str(j, "type");
    if (type == "snapshot") {
        applySnapshot(j, now);
        resumePending_ = false;
        return Outcome::Applied;
    }
    if (type == "presence") {
        auto& seat = s_.seats[sideIndex(str(j, "side"))];
        if (!seat) return Outcome::Ignored;
        seat->connected = j.value("connected", false);
        return Outcome::Applied;
    }
    if (type != "event" || !j.contains("v") || !j["v"].is_number_integer()) return Outcome::Ignored;
    const long v = j["v"].get<long>();
    if (s_.v < 0 || v <= s_.v) return Outcome::Ignored;  // before the snapshot, or seen already
    if (v > s_.v + 1) {
        if (resumePending_) return Outcome::Ignored;
        resumePending_ = true;
        return Outcome::Gap;
    }
    applyEvent(j, now);
    s_.v = v;
    resumePending_ = false;
    return Outcome::Applied;
}

void GameFollower::applySnapshot(const Json& j, SteadyTime now) {
    GameState s;
    s.game = s_.game;
    s.v = j.value("v", 0L);
    s.you = str(j, "you");
    s.status = str(j, "status");
    s.preset = j.contains("preset") ? str(j, "preset") : "standard";
    s.opponent = str(j, "opponent");
    if (j.contains("level") && j["level"].is_number_integer()) s.level = j["level"].get<int>();
    if (j.contains("rated") && j["rated"].is_boolean()) s.rated = j["rated"].get<bool>();
    if (auto it = j.find("clock"); it != j.end() && it->is_object()) {
        s.initialCs = it->value("initial", 0);
        s.incrementCs = it->value("increment", 0);
    }
    s.clocks = clocksOf(j.value("clocks", Json()), now);
    if (auto it = j.find("players"); it != j.end() && it->is_object())
        for (int i = 0; i < 2; ++i) s.seats[i] = seatOf(it->value(i ? "2" : "1", Json()));
    if (auto it = j.find("setup"); it != j.end() && it->is_object())
        for (int i = 0; i < 2; ++i) s.setupDone[i] = it->value(i ? "2" : "1", false);
    s.links = strings(j.value("links", Json()));
    s.view = str(j, "view");
    s.legal = strings(j.value("legal", Json()));
    for (const Json& h : j.value("history", Json::array())) {
        if (!h.is_object()) continue;
        s.history.push_back(
            {h.value("ply", 0), str(h, "side"), str(h, "action"), str(h, "revealed")});
    }
    s.drawOffer = str(j, "draw_offer");
    s.graceCs = j.value("grace", 0L);
    if (auto it = j.find("result"); it != j.end() && it->is_object()) s.ending = endingOf(*it);
    if (auto it = j.find("rematch"); it != j.end() && it->is_object()) {
        s.rematchOffer = str(*it, "offer");
        s.nextGame = str(*it, "next_game");
    }
    for (const Json& c : j.value("chat", Json::array()))
        if (c.is_object()) s.chat.push_back(chatLineOf(c));
    s_ = std::move(s);
}

void GameFollower::applyEvent(const Json& j, SteadyTime now) {
    const std::string kind = str(j, "kind");
    const std::string side = str(j, "side");
    if (kind == "joined") {
        s_.seats[sideIndex(side)] = seatOf(j.value("player", Json::object()));
        s_.status = "setup";
    } else if (kind == "setup") {
        s_.setupDone[sideIndex(side)] = true;
        if (j.contains("links")) s_.links = strings(j["links"]);
    } else if (kind == "start" || kind == "action") {
        s_.status = "playing";
        s_.view = str(j, "view");
        s_.legal = strings(j.value("legal", Json()));
        s_.clocks = clocksOf(j.value("clocks", Json()), now);
        if (kind == "action") {
            s_.history.push_back({j.value("ply", 0), side, str(j, "action"), str(j, "revealed")});
            s_.drawOffer.clear();
        }
    } else if (kind == "draw_offer") {
        s_.drawOffer = side;
    } else if (kind == "draw_decline") {
        s_.drawOffer.clear();
    } else if (kind == "end") {
        s_.ending = endingOf(j);
        s_.status = s_.ending->reason == "aborted" ? "aborted" : "finished";
        for (int i = 0; i < 2; ++i)  // the seats show the ratings after the game
            if (s_.ending->ratings[i] && s_.seats[i])
                s_.seats[i]->rating = s_.ending->ratings[i]->after;
        s_.legal.clear();
        s_.drawOffer.clear();
        s_.clocks = clocksOf(j.value("clocks", Json()), now);
    } else if (kind == "rematch_offer") {
        s_.rematchOffer = side;
    } else if (kind == "rematch_decline") {
        s_.rematchOffer.clear();
    } else if (kind == "rematch") {
        s_.rematchOffer.clear();
        s_.nextGame = str(j, "next_game");
    }
}

std::string describeEvent(const Json& j, const GameState& s) {
    const std::string kind = str(j, "kind");
    const std::string side = str(j, "side");
    if (kind == "joined") {
        std::string name = str(j.value("player", Json::object()), "name");
        return (name.empty() ? "a player" : name) + " joined as side " + side;
    }
    if (kind == "setup") {
        std::string line = seatName(s, side) + " has arranged its cards";
        if (j.contains("links")) {
            line += ": links on";
            for (const auto& sq : strings(j["links"])) line += " " + sq;
        }
        return line;
    }
    if (kind == "start") return "both sides are set up: play starts, side 1 to move";
    if (kind == "action") {
        std::string line = seatName(s, side) + " played " + str(j, "action");
        if (auto r = str(j, "revealed"); !r.empty()) line += " (revealed a " + r + ")";
        return line;
    }
    if (kind == "draw_offer")
        return seatName(s, side) + " offers a draw" +
               (s.isPlayer() && side != s.you ? ": accept or decline" : "");
    if (kind == "draw_decline") return seatName(s, side) + " declined the draw";
    if (kind == "end") return "";  // the end is shown with the board
    if (kind == "rematch_offer")
        return seatName(s, side) + " asks for a rematch" +
               (s.isPlayer() && side != s.you ? ": accept (or rematch) or decline" : "");
    if (kind == "rematch_decline") return seatName(s, side) + " declined the rematch";
    if (kind == "rematch") return "rematch agreed: the new game is " + str(j, "next_game");
    return "";
}

Json GameFollower::rejoin() {
    if (s_.v < 0) return {{"type", "watch"}, {"game", game()}};
    resumeSent();
    return {{"type", "resume"}, {"game", game()}, {"v", s_.v}};
}

}  // namespace rainet::client::play

#include "server/archive.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

#include "core/position.h"
#include "core/record.h"
#include "core/view.h"
#include "protocol/messages.h"

namespace rainet::server {

using protocol::Json;

namespace {

std::string isoTime(std::int64_t unixMs) {
    const std::time_t t = static_cast<std::time_t>(unixMs / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

bool isOver(const std::string& status) {
    return status == "finished" || status == "aborted";
}

Json playerJson(store::Store& store, const store::GameRow& g, int i) {
    if (g.player[i]) {
        if (auto p = store.playerById(g.player[i])) return {{"id", p->publicId}, {"name", p->name}};
        return nullptr;
    }
    if (g.opponent == "computer" && g.status != "open")
        return {{"id", "computer"}, {"name", "computer (level " + std::to_string(g.level) + ")"}};
    return nullptr;
}

Json resultOrNull(const std::string& s) {
    return s.empty() ? Json(nullptr) : Json(s);
}

// The server's end reasons (docs/protocol.md) as record terminations (docs/record-format.md).
std::string termination(const std::string& reason) {
    if (reason == "four_links") return "four-links";
    if (reason == "four_viruses") return "four-viruses";
    if (reason == "no_progress") return "no-progress";
    if (reason == "resign") return "resignation";
    if (reason == "abandoned") return "abandonment";
    return reason;  // time, agreement, aborted
}

std::string name(const Json& player) {
    return player.is_object() ? player["name"].get<std::string>() : "?";
}

}  // namespace

namespace {

// The record of GET /api/games/{id}, as a JSON value.
std::optional<Json> gameRecord(store::Store& store, const std::string& id) {
    auto d = store.loadGame(id);
    if (!d) return std::nullopt;
    const store::GameRow& g = d->game;
    const bool over = isOver(g.status);
    Json j;
    j["game"] = g.id;
    j["status"] = g.status;
    j["preset"] = g.preset;
    j["clock"] = protocol::clockJson(g.clockInitial, g.clockIncrement);
    j["players"] = {{"1", playerJson(store, g, 0)}, {"2", playerJson(store, g, 1)}};
    j["created"] = isoTime(g.created);
    j["result"] = resultOrNull(g.result);
    j["reason"] = resultOrNull(g.reason);
    j["rated"] = g.rated;
    if (over) {
        Json setups;
        for (int i = 0; i < 2; ++i)
            setups[i ? "2" : "1"] =
                d->setup[i] < 0 ? Json::array()
                                : protocol::setupJson(i ? Side::Two : Side::One,
                                                      static_cast<std::uint8_t>(d->setup[i]));
        j["setups"] = setups;
    }
    Json actions = Json::array();
    Json position = nullptr;
    Json recordText = nullptr;
    Json positions = Json::array();
    if (d->setup[0] >= 0 && d->setup[1] >= 0) {
        Record rec;
        rec.setTag("Event", "rainet game");
        rec.setTag("GameId", g.id);
        std::string date = isoTime(g.created).substr(0, 10);  // YYYY.MM.DD
        std::replace(date.begin(), date.end(), '-', '.');
        rec.setTag("Date", date);
        rec.setTag("Side1", name(j["players"]["1"]));
        rec.setTag("Side2", name(j["players"]["2"]));
        rec.setTag("TimeControl", g.clockInitial ? std::to_string(g.clockInitial / 100) + "+" +
                                                       std::to_string(g.clockIncrement / 100)
                                                 : "-");
        rec.rules = Rules::byName(g.preset).value_or(Rules::standard());
        rec.setup1 = static_cast<std::uint8_t>(d->setup[0]);
        rec.setup2 = static_cast<std::uint8_t>(d->setup[1]);
        rec.result = g.result == "1-0"       ? Outcome::Side1Wins
                     : g.result == "0-1"     ? Outcome::Side2Wins
                     : g.result == "1/2-1/2" ? Outcome::Draw
                                             : Outcome::Ongoing;
        if (!g.reason.empty()) rec.termination = termination(g.reason);
        auto p = Position::fromSetups(static_cast<std::uint8_t>(d->setup[0]),
                                      static_cast<std::uint8_t>(d->setup[1]),
                                      Rules::byName(g.preset).value_or(Rules::standard()));
        if (p) {
            // The position after every ply (full once over, the spectator's view before), so a
            // replay screen renders what the engine computed instead of re-applying actions.
            Position pos = *p;
            auto render = [&] {
                return over ? pos.toString() : View::of(pos, Viewer::Spectator).toString();
            };
            positions.push_back(render());
            for (const auto& row : d->actions) {
                auto a = parseAction(row.action);
                if (!a || !pos.isLegal(*a)) break;
                actions.push_back(toString(*a, over ? Notation::Full : Notation::Public));
                rec.actions.push_back(*a);
                pos.doAction(*a);
                positions.push_back(render());
            }
            position = render();
        }
        recordText = over ? writeFullRecord(rec) : writePublicRecord(rec);
    }
    j["actions"] = std::move(actions);
    j["position"] = std::move(position);
    j["positions"] = std::move(positions);
    j["record"] = std::move(recordText);
    return j;
}

}  // namespace

std::optional<std::string> gameRecordJson(store::Store& store, const std::string& id) {
    auto j = gameRecord(store, id);
    return j ? std::optional<std::string>(j->dump()) : std::nullopt;
}

std::optional<std::string> gameRecordText(store::Store& store, const std::string& id) {
    auto j = gameRecord(store, id);
    if (!j || !(*j)["record"].is_string()) return std::nullopt;
    return (*j)["record"].get<std::string>();
}

std::string gameListJson(store::Store& store, const std::string& player, const std::string& status,
                         int page, int perPage) {
    std::int64_t total = 0;
    Json games = Json::array();
    for (const auto& s : store.listGames(player, status, page, perPage, &total)) {
        Json players;
        for (int i = 0; i < 2; ++i) {
            const char* key = i ? "2" : "1";
            if (!s.publicIds[i].empty())
                players[key] = {{"id", s.publicIds[i]}, {"name", s.names[i]}};
            else
                players[key] = playerJson(store, s.game, i);
        }
        games.push_back({{"game", s.game.id},
                         {"status", s.game.status},
                         {"preset", s.game.preset},
                         {"players", players},
                         {"result", resultOrNull(s.game.result)},
                         {"reason", resultOrNull(s.game.reason)},
                         {"rated", s.game.rated},
                         {"created", isoTime(s.game.created)}});
    }
    return Json{
        {"games", std::move(games)}, {"page", page}, {"per_page", perPage}, {"total", total}}
        .dump();
}

std::optional<std::string> playerProfileJson(store::Store& store, const std::string& publicId) {
    auto s = store.playerStats(publicId);
    if (!s) return std::nullopt;
    const store::PlayerRow& p = s->player;
    return Json{{"id", p.publicId},        {"name", p.name},
                {"kind", p.kind},          {"rating", std::lround(p.rating)},
                {"rd", std::lround(p.rd)}, {"rated_games", p.ratedGames},
                {"games", s->games},       {"wins", s->wins},
                {"draws", s->draws},       {"losses", s->losses}}
        .dump();
}

std::string leaderboardJson(store::Store& store, int page, int perPage) {
    std::int64_t total = 0;
    Json players = Json::array();
    std::int64_t rank = static_cast<std::int64_t>(page - 1) * perPage;
    for (const auto& p : store.leaderboard(page, perPage, &total))
        players.push_back({{"rank", ++rank},
                           {"id", p.publicId},
                           {"name", p.name},
                           {"kind", p.kind},
                           {"rating", std::lround(p.rating)},
                           {"rd", std::lround(p.rd)},
                           {"rated_games", p.ratedGames}});
    return Json{
        {"players", std::move(players)}, {"page", page}, {"per_page", perPage}, {"total", total}}
        .dump();
}

}  // namespace rainet::server

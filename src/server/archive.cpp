#include "server/archive.h"

#include <chrono>
#include <ctime>

#include "core/position.h"
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

Json clockJson(const store::GameRow& g) {
    if (!g.clockInitial) return nullptr;
    return {{"initial", g.clockInitial}, {"increment", g.clockIncrement}};
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

}  // namespace

std::optional<std::string> gameRecordJson(store::Store& store, const std::string& id) {
    auto d = store.loadGame(id);
    if (!d) return std::nullopt;
    const store::GameRow& g = d->game;
    const bool over = isOver(g.status);
    Json j;
    j["game"] = g.id;
    j["status"] = g.status;
    j["preset"] = g.preset;
    j["clock"] = clockJson(g);
    j["players"] = {{"1", playerJson(store, g, 0)}, {"2", playerJson(store, g, 1)}};
    j["created"] = isoTime(g.created);
    j["result"] = resultOrNull(g.result);
    j["reason"] = resultOrNull(g.reason);
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
    if (d->setup[0] >= 0 && d->setup[1] >= 0) {
        auto p = Position::fromSetups(static_cast<std::uint8_t>(d->setup[0]),
                                      static_cast<std::uint8_t>(d->setup[1]),
                                      Rules::byName(g.preset).value_or(Rules::standard()));
        if (p) {
            Position pos = *p;
            for (const auto& row : d->actions) {
                auto a = parseAction(row.action);
                if (!a || !pos.isLegal(*a)) break;
                actions.push_back(toString(*a, over ? Notation::Full : Notation::Public));
                pos.doAction(*a);
            }
            position = over ? pos.toString() : View::of(pos, Viewer::Spectator).toString();
        }
    }
    j["actions"] = std::move(actions);
    j["position"] = std::move(position);
    return j.dump();
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
                         {"created", isoTime(s.game.created)}});
    }
    return Json{
        {"games", std::move(games)}, {"page", page}, {"per_page", perPage}, {"total", total}}
        .dump();
}

}  // namespace rainet::server

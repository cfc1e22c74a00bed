#include "server/archive.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/position.h"
#include "core/record.h"
#include "core/view.h"
#include "protocol/http_answers.h"
#include "server/bot_workers.h"

namespace rainet::server {

using store::Lookup;

namespace {

std::string isoTime(std::int64_t unixMs) {
    const std::time_t t = static_cast<std::time_t>(unixMs / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

Result<std::optional<protocol::ArchivePlayer>> archivePlayer(store::Store& store,
                                                             const store::GameRow& g, int i) {
    if (g.player[i]) {
        auto p = store.playerById(g.player[i]);
        if (!p) return p.error();
        if (!*p) return std::optional<protocol::ArchivePlayer>();
        return std::optional(protocol::ArchivePlayer{
            (*p)->publicId, (*p)->name, (*p)->bot ? std::optional(true) : std::nullopt});
    }
    if (g.opponent == "computer" && g.status != GameStatus::Open)
        return std::optional(protocol::ArchivePlayer{"computer", botLabel(g.level), std::nullopt});
    return std::optional<protocol::ArchivePlayer>();
}

// Both seats of `g`.
Result<protocol::ArchivePlayers> archivePlayers(store::Store& store, const store::GameRow& g) {
    protocol::ArchivePlayers out;
    for (int i = 0; i < 2; ++i) {
        auto p = archivePlayer(store, g, i);
        if (!p) return p.error();
        (i ? out.two : out.one) = std::move(*p);
    }
    return out;
}

bool isIdChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// Decimal digits only, at most 19 of them.
std::optional<std::uint64_t> number(std::string_view s) {
    if (s.empty() || s.size() > 19) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
}

std::optional<std::string> orNull(const std::string& s) {
    return s.empty() ? std::nullopt : std::optional(s);
}

// The server's end reasons (docs/protocol.md) as record terminations (docs/record-format.md).
std::string termination(const std::string& reason) {
    const auto e = parseGameEnd(reason);
    return e ? terminationName(*e) : reason;
}

std::string name(const std::optional<protocol::ArchivePlayer>& player) {
    return player ? player->name : "?";
}

}  // namespace

namespace {

// The record of GET /api/games/{id}.
Lookup<protocol::GameRecordAnswer> gameRecord(store::Store& store, const std::string& id) {
    auto found = store.loadGame(id);
    if (!found) return found.error();
    if (!*found) return std::nullopt;
    const store::GameData* d = &**found;
    const store::GameRow& g = d->game;
    auto players = archivePlayers(store, g);
    if (!players) return players.error();
    const bool over = isOver(g.status);
    protocol::GameRecordAnswer j;
    j.game = g.id;
    j.status = g.status;
    j.preset = g.preset;
    j.clock = protocol::clockSetting(g.clockInitial, g.clockIncrement);
    j.players = std::move(*players);
    j.created = isoTime(g.created);
    j.result = orNull(g.result);
    j.reason = orNull(g.reason);
    j.rated = g.rated;
    if (over) {
        auto squares = [&](int i) {
            return d->setup[i] < 0 ? std::vector<std::string>()
                                   : protocol::setupSquares(i ? Side::Two : Side::One,
                                                            static_cast<std::uint8_t>(d->setup[i]));
        };
        j.setups = protocol::SideSetups{squares(0), squares(1)};
    }
    if (d->setup[0] >= 0 && d->setup[1] >= 0) {
        Record rec;
        rec.setTag("Event", "rainet game");
        rec.setTag("GameId", g.id);
        std::string date = isoTime(g.created).substr(0, 10);  // YYYY.MM.DD
        std::replace(date.begin(), date.end(), '-', '.');
        rec.setTag("Date", date);
        rec.setTag("Side1", name(j.players.one));
        rec.setTag("Side2", name(j.players.two));
        rec.setTag("TimeControl", g.clockInitial ? std::to_string(g.clockInitial / 100) + "+" +
                                                       std::to_string(g.clockIncrement / 100)
                                                 : "-");
        rec.rules = Rules::byName(g.preset).value_or(Rules::standard());
        rec.setup1 = static_cast<std::uint8_t>(d->setup[0]);
        rec.setup2 = static_cast<std::uint8_t>(d->setup[1]);
        rec.result = outcomeOf(g.result);
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
            j.positions.push_back(render());
            for (const auto& row : d->actions) {
                auto a = parseAction(row.action);
                if (!a || !pos.isLegal(*a)) break;
                j.actions.push_back(toString(*a, over ? Notation::Full : Notation::Public));
                rec.actions.push_back(*a);
                pos.doAction(*a);
                j.positions.push_back(render());
            }
            j.position = render();
        }
        j.record = over ? writeFullRecord(rec) : writePublicRecord(rec);
    }
    return j;
}

}  // namespace

Lookup<std::string> gameRecordJson(store::Store& store, const std::string& id) {
    auto j = gameRecord(store, id);
    if (!j) return j.error();
    if (!*j) return std::nullopt;
    return protocol::render(**j);
}

Lookup<std::string> gameRecordText(store::Store& store, const std::string& id) {
    auto j = gameRecord(store, id);
    if (!j) return j.error();
    if (!*j || !(*j)->record) return std::nullopt;
    return std::move(*(*j)->record);
}

std::string gameCursor(const store::GameKey& k) {
    return std::to_string(k.created) + "_" + k.id;
}

std::optional<store::GameKey> parseGameCursor(std::string_view s) {
    const auto sep = s.find('_');
    if (sep == s.npos || sep + 1 >= s.size() || s.size() - sep - 1 > 64) return std::nullopt;
    auto created = number(s.substr(0, sep));
    if (!created || *created > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    const std::string_view id = s.substr(sep + 1);
    if (!std::all_of(id.begin(), id.end(), isIdChar)) return std::nullopt;
    return store::GameKey{static_cast<std::int64_t>(*created), std::string(id)};
}

Result<std::string> gameListJson(store::Store& store, const std::string& player,
                                 const std::string& status,
                                 const std::optional<store::GameKey>& after, int perPage) {
    // One more than asked: whether there is a next page, without counting.
    auto list = store.listGames(player, status, after, perPage + 1);
    if (!list) return list.error();
    const bool more = list->size() > static_cast<std::size_t>(perPage);
    if (more) list->pop_back();
    protocol::GameListPage page;
    page.perPage = perPage;
    for (const auto& s : *list) {
        protocol::ArchivePlayers players;
        for (int i = 0; i < 2; ++i) {
            auto& seat = i ? players.two : players.one;
            if (!s.publicIds[i].empty()) {
                seat = protocol::ArchivePlayer{s.publicIds[i], s.names[i], std::nullopt};
            } else {
                auto p = archivePlayer(store, s.game, i);
                if (!p) return p.error();
                seat = std::move(*p);
            }
        }
        page.games.push_back({s.game.id, s.game.status, s.game.preset, std::move(players),
                              orNull(s.game.result), orNull(s.game.reason), s.game.rated,
                              isoTime(s.game.created)});
    }
    if (more) page.next = gameCursor({list->back().game.created, list->back().game.id});
    return protocol::render(page);
}

Lookup<std::string> playerProfileJson(store::Store& store, const std::string& publicId) {
    auto found = store.playerStats(publicId);
    if (!found) return found.error();
    if (!*found) return std::nullopt;
    const store::PlayerStats& s = **found;
    const store::PlayerRow& p = s.player;
    return protocol::render(protocol::PlayerProfile{
        p.publicId, p.name, p.kind, std::lround(p.rating), std::lround(p.rd), p.ratedGames, s.games,
        s.wins, s.draws, s.losses, p.bot ? std::optional(true) : std::nullopt});
}

// rank_ratingbits_ratedgames_id: the rank of the last row shown, then its sort key (the rating's
// IEEE 754 bits in hex, so that it is exact).
std::string rankCursor(const RankCursor& c) {
    std::uint64_t bits;
    std::memcpy(&bits, &c.key.rating, sizeof bits);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(bits));
    return std::to_string(c.rank) + "_" + hex + "_" + std::to_string(c.key.ratedGames) + "_" +
           std::to_string(c.key.id);
}

std::optional<RankCursor> parseRankCursor(std::string_view s) {
    std::string_view part[4];
    for (int i = 0; i < 4; ++i) {
        const auto sep = i < 3 ? s.find('_') : s.size();
        if (sep == s.npos) return std::nullopt;
        part[i] = s.substr(0, sep);
        s.remove_prefix(i < 3 ? sep + 1 : sep);
    }
    auto rank = number(part[0]), games = number(part[2]), id = number(part[3]);
    if (!rank || !games || !id || part[1].size() != 16 || *rank > 1'000'000'000'000 ||
        *games > INT32_MAX || *id > static_cast<std::uint64_t>(INT64_MAX))
        return std::nullopt;
    std::uint64_t bits = 0;
    for (char c : part[1]) {
        const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0) return std::nullopt;
        bits = bits << 4 | static_cast<std::uint64_t>(v);
    }
    RankCursor c;
    std::memcpy(&c.key.rating, &bits, sizeof bits);
    if (!std::isfinite(c.key.rating)) return std::nullopt;
    c.rank = static_cast<std::int64_t>(*rank);
    c.key.ratedGames = static_cast<int>(*games);
    c.key.id = static_cast<std::int64_t>(*id);
    return c;
}

Result<std::string> leaderboardJson(store::Store& store, const std::optional<RankCursor>& after,
                                    int perPage) {
    auto total = store.ratedPlayers();
    if (!total) return total.error();
    auto list = store.leaderboard(after ? std::optional(after->key) : std::nullopt, perPage + 1);
    if (!list) return list.error();
    const bool more = list->size() > static_cast<std::size_t>(perPage);
    if (more) list->pop_back();
    protocol::LeaderboardPage page;
    page.perPage = perPage;
    page.total = *total;
    std::int64_t rank = after ? after->rank : 0;
    for (const auto& p : *list)
        page.players.push_back({++rank, p.publicId, p.name, p.kind, std::lround(p.rating),
                                std::lround(p.rd), p.ratedGames,
                                p.bot ? std::optional(true) : std::nullopt});
    if (more) {
        const store::PlayerRow& last = list->back();
        page.next = rankCursor({rank, {last.rating, last.ratedGames, last.id}});
    }
    return protocol::render(page);
}

}  // namespace rainet::server

#include "tournament/arena.h"

#include <algorithm>
#include <numeric>

#include "tournament/berserk.h"

namespace rainet::tournament {

bool Arena::finished(std::int64_t nowMs) const {
    if (!over(nowMs)) return false;
    return std::none_of(games_.begin(), games_.end(),
                        [](const ArenaGameRecord& g) { return !g.over; });
}

std::optional<std::string_view> Arena::joinRefusal(PlayerKey p, std::int64_t nowMs,
                                                   int maxPlayers) const {
    if (over(nowMs)) return "tournament_over";
    auto it = players_.find(p);
    if (it != players_.end()) {
        if (it->second.state == EntrantState::Withdrawn) return "withdrawn";
        if (it->second.state == EntrantState::Active) return "already_joined";
        return std::nullopt;
    }
    if (static_cast<int>(players_.size()) >= maxPlayers) return "tournament_full";
    return std::nullopt;
}

std::optional<std::string_view> Arena::join(PlayerKey p, int rating, std::int64_t nowMs,
                                            int maxPlayers) {
    if (auto why = joinRefusal(p, nowMs, maxPlayers)) return why;
    auto it = players_.find(p);
    if (it != players_.end()) {
        it->second.state = EntrantState::Active;
        return std::nullopt;
    }
    ArenaPlayer a;
    a.player = p;
    a.rating = rating;
    players_.emplace(p, std::move(a));
    return std::nullopt;
}

std::optional<std::string_view> Arena::pause(PlayerKey p, std::int64_t nowMs) {
    auto it = players_.find(p);
    if (it == players_.end() || it->second.state == EntrantState::Withdrawn) return "not_joined";
    if (over(nowMs)) return "tournament_over";
    it->second.state = EntrantState::Paused;
    return std::nullopt;
}

std::optional<std::string_view> Arena::withdraw(PlayerKey p) {
    auto it = players_.find(p);
    if (it == players_.end() || it->second.state == EntrantState::Withdrawn) return "not_joined";
    it->second.state = EntrantState::Withdrawn;
    return std::nullopt;
}

std::vector<Pairing> Arena::pairings(std::int64_t nowMs) const {
    if (!arenaPairs(nowMs, starts_, ends_)) return {};
    std::vector<Waiting> waiting;
    for (const auto& [key, a] : players_) {
        if (a.state != EntrantState::Active || !a.game.empty()) continue;
        waiting.push_back(
            {key, a.sheet.points, a.rating, a.lastOpponent, a.firstSides, a.secondSides});
    }
    return pairArena(std::move(waiting));
}

void Arena::gameStarted(const std::string& game, const Pairing& p, std::int64_t nowMs) {
    ArenaGameRecord g;
    g.game = game;
    g.player[0] = p.first;
    g.player[1] = p.second;
    g.started = nowMs;
    for (int i = 0; i < 2; ++i) {
        auto it = players_.find(g.player[i]);
        if (it == players_.end()) continue;
        it->second.game = game;
        g.rating[i] = it->second.rating;
        ++(i == 0 ? it->second.firstSides : it->second.secondSides);
    }
    gameIndex_[game] = games_.size();
    games_.push_back(std::move(g));
}

std::optional<std::string_view> Arena::berserk(const std::string& game, PlayerKey p,
                                               int ownActions) {
    auto it = gameIndex_.find(game);
    if (it == gameIndex_.end()) return "unknown_game";
    ArenaGameRecord& g = games_[it->second];
    const int side = g.player[0] == p ? 0 : g.player[1] == p ? 1 : -1;
    if (side < 0) return "not_a_player";
    if (auto why = berserkRefusal(!g.over, g.berserk[side], ownActions)) return why;
    g.berserk[side] = true;
    return std::nullopt;
}

bool Arena::gameEnded(const std::string& game, std::optional<GameOutcome> outcome,
                      const int actions[2], std::int64_t endedMs) {
    auto it = gameIndex_.find(game);
    if (it == gameIndex_.end()) return false;
    ArenaGameRecord& g = games_[it->second];
    if (g.over) return false;
    g.over = true;
    g.outcome = outcome;
    g.actions[0] = actions[0];
    g.actions[1] = actions[1];
    g.ended = endedMs;
    score(g);
    return true;
}

void Arena::score(ArenaGameRecord& g) {
    for (int i = 0; i < 2; ++i) {
        auto it = players_.find(g.player[i]);
        if (it == players_.end()) continue;
        ArenaPlayer& a = it->second;
        if (a.game == g.game) a.game.clear();
        a.lastOpponent = g.player[1 - i];
    }
    if (!countsForArena(g.started, ends_) || !g.outcome) return;
    g.counted = true;
    for (int i = 0; i < 2; ++i) {
        auto it = players_.find(g.player[i]);
        if (it == players_.end()) continue;
        ArenaPlayer& a = it->second;
        Outcome o = Outcome::Draw;
        if (*g.outcome == GameOutcome::FirstWins) o = i == 0 ? Outcome::Win : Outcome::Loss;
        if (*g.outcome == GameOutcome::SecondWins) o = i == 1 ? Outcome::Win : Outcome::Loss;
        addArenaGame(a.sheet, {o, g.berserk[i], g.actions[i]});
        a.opponentRatingSum += g.rating[1 - i];
    }
}

const ArenaPlayer* Arena::player(PlayerKey p) const {
    auto it = players_.find(p);
    return it == players_.end() ? nullptr : &it->second;
}

const ArenaGameRecord* Arena::game(const std::string& id) const {
    auto it = gameIndex_.find(id);
    return it == gameIndex_.end() ? nullptr : &games_[it->second];
}

std::vector<ArenaRank> Arena::standings() const {
    std::vector<ArenaEntry> entries;
    entries.reserve(players_.size());
    for (const auto& [key, a] : players_) {
        entries.push_back({key, a.rating, a.sheet, a.opponentRatingSum});
    }
    return rankArena(entries);
}

Arena Arena::rebuild(std::int64_t startsMs, std::int64_t endsMs,
                     const std::vector<StoredPlayer>& players,
                     const std::vector<ArenaGameRecord>& games) {
    Arena a(startsMs, endsMs);
    for (const StoredPlayer& p : players) {
        ArenaPlayer ap;
        ap.player = p.player;
        ap.rating = p.rating;
        ap.state = p.state;
        a.players_.emplace(p.player, std::move(ap));
    }
    // Started in order of start (sides counted, players busy), then scored in order of end so
    // that streaks come out as they were live; games still in play keep their players busy.
    std::vector<std::size_t> order(games.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return games[x].started < games[y].started;
    });
    for (const std::size_t i : order) {
        const ArenaGameRecord& g = games[i];
        a.gameStarted(g.game, {g.player[0], g.player[1]}, g.started);
        ArenaGameRecord& mine = a.games_.back();
        mine.rating[0] = g.rating[0];
        mine.rating[1] = g.rating[1];
        mine.berserk[0] = g.berserk[0];
        mine.berserk[1] = g.berserk[1];
    }
    std::vector<const ArenaGameRecord*> ended;
    for (const ArenaGameRecord& g : games) {
        if (g.over) ended.push_back(&g);
    }
    std::stable_sort(
        ended.begin(), ended.end(),
        [](const ArenaGameRecord* x, const ArenaGameRecord* y) { return x->ended < y->ended; });
    for (const ArenaGameRecord* g : ended) a.gameEnded(g->game, g->outcome, g->actions, g->ended);
    return a;
}

}  // namespace rainet::tournament

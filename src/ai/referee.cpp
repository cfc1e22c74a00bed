#include "ai/referee.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace rainet::ai {

namespace {
Outcome loss(Side s) {
    return s == Side::One ? Outcome::Side2Wins : Outcome::Side1Wins;
}
}  // namespace

GameRecord playGame(Player& one, Player& two, const GameOptions& options) {
    GameRecord r;
    r.rules = options.rules;
    Player* players[2] = {&one, &two};
    for (Side s : {Side::One, Side::Two}) {
        const int fixed = options.setup[index(s)];
        if (fixed >= 0) {
            // The player still hears that a game starts; its own choice is overridden.
            auto ignored = players[index(s)]->newGame(s, options.rules);
            (void)ignored;
            r.setups[index(s)] = static_cast<std::uint8_t>(fixed);
            continue;
        }
        auto setup = players[index(s)]->newGame(s, options.rules);
        if (!setup.ok() || std::popcount(static_cast<unsigned>(*setup)) != 4) {
            r.error = "side " + std::to_string(sideNumber(s)) + " gave no valid arrangement" +
                      (setup.ok() ? std::string() : ": " + setup.error().message);
            r.outcome = loss(s);
            return r;
        }
        r.setups[index(s)] = *setup;
    }
    auto start = Position::fromSetups(r.setups[0], r.setups[1], options.rules);
    if (!start.ok()) {
        r.error = start.error().message;
        return r;
    }
    Position pos = *start;
    InfoSet knowledge[2] = {InfoSet(View::of(pos, Viewer::Side1)),
                            InfoSet(View::of(pos, Viewer::Side2))};
    for (Side s : {Side::One, Side::Two}) players[index(s)]->started(knowledge[index(s)].view());
    while (!pos.isOver()) {
        if (options.maxPlies && static_cast<int>(r.actions.size()) >= options.maxPlies) {
            r.outcome = Outcome::Draw;
            return r;
        }
        const Side mover = pos.toMove();
        const auto t0 = std::chrono::steady_clock::now();
        auto chosen = players[index(mover)]->act(knowledge[index(mover)], options.budget);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        r.maxThinkMs[index(mover)] = std::max(r.maxThinkMs[index(mover)], ms);
        r.totalThinkMs[index(mover)] += ms;
        ++r.moves[index(mover)];
        r.thinkMs[index(mover)].push_back(ms);
        if (!chosen.ok() || !pos.isLegal(*chosen)) {
            r.error = "side " + std::to_string(sideNumber(mover)) +
                      (chosen.ok() ? " played an illegal action " + toString(*chosen)
                                   : " failed: " + chosen.error().message);
            r.outcome = loss(mover);
            return r;
        }
        for (Side s : {Side::One, Side::Two}) {
            if (auto err = knowledge[index(s)].observe(observe(pos, *chosen, viewerOf(s)))) {
                r.error = "referee: " + err->message;
                r.outcome = Outcome::Draw;
                return r;
            }
        }
        pos.doAction(*chosen);
        r.actions.push_back(*chosen);
    }
    r.outcome = pos.outcome();
    r.reason = pos.endReason();
    return r;
}

Record toRecord(const GameRecord& r, const std::string& name1, const std::string& name2,
                const std::string& gameId) {
    Record rec;
    rec.setTag("Event", "rainet arena");
    rec.setTag("Side1", name1);
    rec.setTag("Side2", name2);
    if (!gameId.empty()) rec.setTag("GameId", gameId);
    rec.rules = r.rules;
    rec.setup1 = r.setups[0];
    rec.setup2 = r.setups[1];
    rec.actions = r.actions;
    rec.result = r.outcome;
    if (!r.error.empty()) {
        rec.termination = "forfeit";
        rec.setTag("Forfeit", r.error);
    } else if (r.reason != EndReason::None) {
        rec.termination = endReasonName(r.reason);
    } else if (r.outcome == Outcome::Draw) {
        rec.termination = "max-plies";
    }
    return rec;
}

std::string formatRecord(const GameRecord& r, const std::string& name1, const std::string& name2,
                         const std::string& gameId) {
    return writeFullRecord(toRecord(r, name1, name2, gameId));
}

}  // namespace rainet::ai

#pragma once
// Analysis of a finished game for one side: at every ply, what the AI makes of the
// position knowing only what that side knew then (its information set at that ply: its own
// cards, the identities revealed so far, the public history), never the truth of the game's end.
// Per ply: the belief P(virus) of each unidentified opponent card, the win chance of the side,
// and, when it is that side's turn, the search's most visited actions. Each search has a fixed
// budget of iterations and a seed drawn from the information set itself, so the same
// information set gives the same result, byte for byte, whatever else the game holds.
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "core/infoset.h"
#include "core/position.h"

namespace rainet::ai {

struct AnalysedAction {
    Action action;
    double share = 0.0;  // of the root's visits
    double win = 0.5;    // mean reward for the side to move after trying it
};

struct PlyAnalysis {
    int ply = 0;  // actions played before this position
    Side toMove = Side::One;
    bool over = false;  // the referee announced the end here (public)
    double win = 0.5;   // the analysed side's win chance (1 / 0 / 0.5 once over)
    std::vector<std::pair<Square, double>> virus;  // unidentified opponent cards on the board
    std::vector<AnalysedAction> best;              // only on the analysed side's turns
};

struct AnalysisConfig {
    std::uint64_t nodes = 1000;  // search iterations per ply
    std::size_t topActions = 3;
};

// One position, from `knowledge` alone (its viewer is the analysed side). `outcome` is the
// referee's announcement, when the game ended at this position (public to everyone).
PlyAnalysis analysePly(const InfoSet& knowledge, Side side, Outcome outcome,
                       const AnalysisConfig& config);

// The seed of a ply's search: a hash of the information set (view and observed history).
std::uint64_t infoSetSeed(const InfoSet& knowledge);

// Every ply of a game played from `start` with `actions` (all legal), for `side`. The truth is
// used only through what the referee tells `side` (core observe()) and announces (the end).
// `progress`, if set, is called before each ply; returning false stops (nullopt).
std::optional<std::vector<PlyAnalysis>> analyseGame(const Position& start,
                                                    const std::vector<Action>& actions, Side side,
                                                    const AnalysisConfig& config,
                                                    const std::function<bool(int)>& progress = {});

}  // namespace rainet::ai

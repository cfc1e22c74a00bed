#pragma once
// Heuristic knowledge shared by the bots: a static evaluation of a full (sampled) position for one
// side, and a cheap score of each action that looks only at what the mover may know (its own
// identities and public ones), used by the greedy bot's tie-breaks, rollouts and search priors.
#include "core/position.h"
#include "core/types.h"

namespace rainet::ai {

// Manhattan distance from a square to the nearer of a set of exit squares.
int exitDistance(Square s, Bitboard exits);

// Evaluation of a full position from `us`'s point of view, in "links" (a captured or escaped link
// is worth about 1). Finished games give +/-kWinScore.
constexpr double kWinScore = 100.0;
double evaluate(const Position& p, Side us);
// The evaluation squashed into a reward in [0, 1] (1 = sure win for `us`): 1 / (1 + e^(-k e)).
constexpr double kRewardSquash = 1.1;
double evaluateReward(const Position& p, Side us, double squash = kRewardSquash);

// A quick preference for action `a` of the side to move in `p`, using only what that side may
// know: its own identities, and the opponent's identities only when public (face up). Higher is
// better; about -10..+100.
double actionPrior(const Position& p, Action a);

}  // namespace rainet::ai

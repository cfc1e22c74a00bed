#pragma once
// A yardstick, not a strong player: it pushes its viruses towards the opponent's cards to be taken
// and keeps its links back, running one only when the way to an exit is short and unguarded. A
// bot that treats every approaching card as a likely virus wins against it; one that takes
// whatever approaches loses by its fourth virus (the former strong bot scored about half).
#include "ai/bot.h"

namespace rainet::ai {

class BaitBot : public Bot {
  public:
    std::string name() const override { return "bait"; }
    // Any arrangement (the bait is in the play, not the setup).
    std::uint8_t chooseSetup(Side, const Rules&, Rng& rng) override { return randomSetup(rng); }
    Action chooseAction(const InfoSet& knowledge, const Budget& budget, Rng& rng) override;
};

// The bait bot's preference for action `a` of the side to move in `p` (its own identities are
// real, the opponent's unknown unless face up); higher is better.
double baitScore(const Position& p, Action a);

}  // namespace rainet::ai

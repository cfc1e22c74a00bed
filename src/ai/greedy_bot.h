#pragma once
// One-ply heuristic player: every legal action is played in a few worlds sampled from the belief
// and scored with the static evaluation (eval.h), so it takes captures that are likely links and
// safe, runs its links for the exits, and avoids taking likely viruses. With `noise` > 0 it plays
// a uniformly random action with that probability (the easiest level).
#include "ai/bot.h"

namespace rainet::ai {

// A mixed setup strategy: every arrangement is possible, those with a link in front (d/e) and
// links on both wings a little more likely.
std::uint8_t mixedSetup(Rng& rng);

class GreedyBot : public Bot {
  public:
    explicit GreedyBot(std::string name = "greedy", double noise = 0.0, int worlds = 8)
        : name_(std::move(name)), noise_(noise), worlds_(worlds) {}
    std::string name() const override { return name_; }
    std::uint8_t chooseSetup(Side, const Rules&, Rng& rng) override { return mixedSetup(rng); }
    Action chooseAction(const InfoSet& knowledge, const Budget& budget, Rng& rng) override;

  private:
    std::string name_;
    double noise_;
    int worlds_;
};

}  // namespace rainet::ai

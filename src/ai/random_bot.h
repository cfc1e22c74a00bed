#pragma once
// The baseline: a uniformly random legal action and a uniformly random arrangement.
#include "ai/bot.h"

namespace rainet::ai {

class RandomBot : public Bot {
  public:
    std::string name() const override { return "random"; }
    std::uint8_t chooseSetup(Side, const Rules&, Rng& rng) override { return randomSetup(rng); }
    Action chooseAction(const InfoSet& knowledge, const Budget&, Rng& rng) override {
        const ActionList legal = knowledge.view().legalActions();
        return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
    }
};

}  // namespace rainet::ai

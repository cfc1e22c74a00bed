#include "ai/greedy_bot.h"

#include <vector>

#include "ai/belief.h"
#include "ai/eval.h"

namespace rainet::ai {

std::uint8_t mixedSetup(Rng& rng) {
    // Setup squares 0-2 are the left wing (a b c), 3-5 the right wing (f g h), 6-7 the front.
    std::vector<std::uint8_t> arrangements;
    std::vector<double> weights;
    double total = 0.0;
    for (unsigned m = 0; m < 256; ++m) {
        if (std::popcount(m) != 4) continue;
        double w = 1.0;
        if (m & 0xC0) w += 0.5;
        if ((m & 0x07) && (m & 0x38)) w += 0.5;
        arrangements.push_back(static_cast<std::uint8_t>(m));
        weights.push_back(w);
        total += w;
    }
    double u = rng.uniform() * total;
    for (std::size_t i = 0; i < arrangements.size(); ++i) {
        u -= weights[i];
        if (u < 0) return arrangements[i];
    }
    return arrangements.back();
}

Action GreedyBot::chooseAction(const InfoSet& knowledge, const Budget&, Rng& rng) {
    const ActionList legal = knowledge.view().legalActions();
    if (legal.size() == 1) return legal[0];
    if (noise_ > 0 && rng.uniform() < noise_)
        return legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
    const Side us = knowledge.view().toMove();
    const Belief belief(knowledge);
    std::vector<double> score(legal.size(), 0.0);
    for (int w = 0; w < worlds_; ++w) {
        Position world = belief.sample(rng);
        const PositionState saved = world.state();
        for (int i = 0; i < legal.size(); ++i) {
            world.doAction(legal[i]);
            score[i] += evaluate(world, us);
            world.undoAction(saved);
        }
    }
    // The prior only breaks near-ties; a random tie-break keeps the play unpredictable.
    const Position sample = belief.sample(rng);
    double best = -1e18;
    std::vector<int> bestIdx;
    for (int i = 0; i < legal.size(); ++i) {
        const double s = score[i] / worlds_ + 0.01 * actionPrior(sample, legal[i]);
        if (s > best + 1e-9) {
            best = s;
            bestIdx = {i};
        } else if (s > best - 1e-9) {
            bestIdx.push_back(i);
        }
    }
    return legal[bestIdx[rng.below(static_cast<std::uint32_t>(bestIdx.size()))]];
}

}  // namespace rainet::ai

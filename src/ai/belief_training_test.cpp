// The belief model's fit recovers a known model, and belief scores are computed on real games.
#include "ai/belief_training.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ai/greedy_bot.h"
#include "ai/referee.h"

namespace rainet::ai {
namespace {

TEST(BeliefTraining, FitRecoversTheModelThatMadeTheData) {
    EvidenceModel truth;
    truth.weights[kBias] = -0.3;
    truth.weights[kProgress] = 0.4;
    truth.weights[kApproaches] = -0.8;
    truth.weights[kOnExit] = 1.5;
    BeliefDataset data;
    Rng rng(5);
    for (int i = 0; i < 40000; ++i) {
        CardFeatures f{};
        f[kBias] = 1;
        f[kProgress] = static_cast<double>(rng.below(9)) - 3;
        f[kApproaches] = rng.below(4);
        f[kOnExit] = rng.below(5) == 0;
        double z = 0;
        for (int j = 0; j < kFeatureCount; ++j) z += truth.weights[j] * f[j];
        data.features.push_back(f);
        data.link.push_back(rng.uniform() < 1 / (1 + std::exp(-z)));
    }
    data.escapedLinks = 9;
    data.escapedViruses = 2;
    const EvidenceModel m = fitEvidenceModel(data, 0.0);
    for (int j = 0; j < kFeatureCount; ++j)
        EXPECT_NEAR(m.weights[j], truth.weights[j], 0.1) << featureName(j);
    EXPECT_NEAR(m.escaped, std::log(10.0 / 3.0), 1e-12);
    // The text written for belief_weights.inc reads back (to 6 decimals).
    const auto back = parseEvidenceModel(formatEvidenceModel(m, "a test"));
    ASSERT_TRUE(back.ok()) << back.error().message;
    for (int j = 0; j < kFeatureCount; ++j) EXPECT_NEAR(back->weights[j], m.weights[j], 1e-6);
    EXPECT_NEAR(back->escaped, m.escaped, 1e-6);
    EXPECT_FALSE(parseEvidenceModel("{{1, 2}}, 3").ok());
    EXPECT_FALSE(parseEvidenceModel("{{1, 2, x}}, 3").ok());
}

TEST(BeliefTraining, ScoresAndSamplesComeFromRealGames) {
    std::vector<Record> games;
    for (int g = 0; g < 4; ++g) {
        BotPlayer one(std::make_unique<GreedyBot>(), 10 + g),
            two(std::make_unique<GreedyBot>(), 20 + g);
        games.push_back(toRecord(playGame(one, two, GameOptions{}), "greedy", "greedy"));
    }
    BeliefDataset data;
    for (const Record& r : games) addSamples(r, 2, data);
    EXPECT_GT(data.features.size(), 100u);
    EXPECT_EQ(data.features.size(), data.link.size());
    const BeliefScore uniform = scoreBelief(games, 10, Evidence::None);
    // 4 games, both views, up to 8 hidden cards each.
    EXPECT_GT(uniform.cards, 40);
    EXPECT_LE(uniform.cards, 64);
    // Near 1/2 for every card this early (ln 2 and 0.25 with no reveal at all).
    EXPECT_GT(uniform.logLoss, 0.5);
    EXPECT_LT(uniform.logLoss, 0.9);
    EXPECT_GT(uniform.brier, 0.15);
    EXPECT_LT(uniform.brier, 0.3);
    const BeliefScore heuristic = scoreBelief(games, 10, Evidence::Heuristic);
    EXPECT_EQ(heuristic.cards, uniform.cards);
}

}  // namespace
}  // namespace rainet::ai

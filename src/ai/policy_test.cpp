// The learned policy prior: its features on hand-made positions and against the heuristic
// actionPrior (which they span), their blindness to the opponent's hidden identities, the fit on
// data drawn from a known model, the committed weights file, the trainer's determinism for a
// seed, and the search option.
#include "ai/policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ai/eval.h"
#include "ai/greedy_bot.h"
#include "ai/ismcts.h"
#include "ai/policy_training.h"
#include "ai/random_bot.h"
#include "ai/referee.h"
#include "ai/value_training.h"
#include "ai/weights_text.h"
#include "support/search_games.h"
#include "support/source_files.h"

namespace rainet::ai {
namespace {

Position parse(const std::string& text) {
    auto p = Position::parse(text);
    EXPECT_TRUE(p.ok()) << text << ": " << (p.ok() ? "" : p.error().message);
    return *p;
}

Action parseAction(const std::string& text) {
    auto a = rainet::parseAction(text);
    EXPECT_TRUE(a.ok()) << text;
    return *a;
}

void expectFeatures(const Position& p, const std::string& action,
                    std::initializer_list<std::pair<PolicyFeature, double>> nonZero) {
    PolicyFeatures expected{};
    for (const auto& [j, v] : nonZero) expected[j] = v;
    const Action a = parseAction(action);
    ASSERT_TRUE(p.isLegal(a)) << action;
    const PolicyFeatures got = policyFeatures(p, a);
    for (int j = 0; j < kPolicyFeatureCount; ++j)
        EXPECT_EQ(got[j], expected[j]) << policyFeatureName(j) << " of " << action;
}

// Side 1's link on e8 (an exit of side 2), next to side 2's cards on f8 and e7.
const char* kLinkOnExit = "lll1Lvvv/3lv3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 2";

TEST(Policy, FeaturesOfALinkOnTheOpponentsExit) {
    const Position p = parse(kLinkOnExit);
    expectFeatures(p, "e8-srv", {{kEscape, 1}});
    // To d8: still on an exit, next to c8 and d7; it leaves f8's and e7's neighbourhood.
    expectFeatures(p, "e8-d8",
                   {{kLinkMove, 1}, {kLinkToExit, 1}, {kLinkThreatenedAfter, 1}, {kLinkFlees, 1}});
    // Takes the face-down f8, one step further from the exits, next to g8.
    expectFeatures(p, "e8-f8",
                   {{kLinkMove, 1},
                    {kLinkProgress, -1},
                    {kLinkThreatenedAfter, 1},
                    {kLinkFlees, 1},
                    {kCaptureUnknown, 1}});
    // A virus forward, next to nothing; the VC on d7 (far from side 1's exits).
    expectFeatures(p, "e2-e3", {{kVirusProgress, 1}});
    expectFeatures(p, "VC+d7", {{kCheckFar, 1}});
    expectFeatures(p, "LB+a1", {{kBoostLink, 1}});
    expectFeatures(p, "LB+f1", {{kBoostVirus, 1}});
}

TEST(Policy, FeaturesOfKnownCardsStacksAndTerminalCards) {
    // Side 1 has three links and three viruses stacked, its boosted link on e8 is known to side 2
    // (its VC used); side 1 knows f8 to be a link (its VC used); FW on f2.
    const Position p = parse("ll2L+!l!2/3vl3/8/8/8/8/V4F2/VVV5 1 Nn LLLvvv/- 0 30");
    expectFeatures(p, "e8-srv", {{kEscape, 1}, {kWinNow, 1}});
    // f8 has no side 2 neighbour but e8: the link is not threatened there.
    expectFeatures(p, "e8-f8",
                   {{kLinkMove, 1},
                    {kLinkProgress, -1},
                    {kLinkFlees, 1},
                    {kMoverFaceUp, 1},
                    {kBoostedMove, 1},
                    {kCaptureKnownLink, 1},
                    {kWinNow, 1}});
    // e7 is face down (a link in truth): with three viruses stacked a fourth would lose.
    expectFeatures(p, "e8-e7",
                   {{kLinkMove, 1},
                    {kLinkProgress, -1},
                    {kLinkThreatenedAfter, 1},
                    {kLinkFlees, 1},
                    {kMoverFaceUp, 1},
                    {kBoostedMove, 1},
                    {kCaptureUnknown, 1},
                    {kCaptureUnknown3V, 1}});
    expectFeatures(p, "LB-e8", {{kBoostDetach, 1}});
    expectFeatures(p, "FW-f2", {{kFirewallRemove, 1}});
    expectFeatures(p, "a2-a3", {{kVirusProgress, 1}});
    // A known virus taken; an unknown card next to side 1's exits taken.
    const Position q = parse("lll1Lv!vv/3lv3/8/8/8/8/4V3/LLL2VVV 1 Ncn -/- 0 2");
    expectFeatures(q, "e8-f8",
                   {{kLinkMove, 1},
                    {kLinkProgress, -1},
                    {kLinkThreatenedAfter, 1},
                    {kLinkFlees, 1},
                    {kCaptureKnownVirus, 1}});
    const Position r = parse("lll2vvv/4v3/8/8/8/V7/2Ll4/LLL2VVV 1 CNcn -/- 0 2");
    expectFeatures(r, "c2-d2",
                   {{kLinkMove, 1},
                    {kLinkProgress, 1},
                    {kLinkFlees, 1},
                    {kCaptureUnknown, 1},
                    {kCaptureUnknownNear, 1}});
}

// The heuristic prior as weights of the features: every quantity and threshold it uses is one.
PolicyModel heuristicAsModel() {
    PolicyModel m;
    auto& w = m.weights;
    w[kEscape] = 100;
    w[kEnterVirus] = -10;
    w[kLinkProgress] = 1.5;
    w[kLinkToExit] = 4;
    w[kLinkThreatenedAfter] = -2;
    w[kVirusThreatenedAfter] = 0.5;
    w[kCaptureUnknown] = 1;
    w[kCaptureUnknownNear] = 3;
    w[kCaptureKnownLink] = 8;
    w[kCaptureKnownVirus] = -6;
    w[kCheckNear] = 2;
    w[kCheckFar] = -2;
    w[kBoostLink] = 0.5;
    w[kBoostVirus] = -3;
    w[kBoostDetach] = w[kFirewallPlace] = w[kFirewallRemove] = w[kNotFound] = -3;
    return m;
}

// Every position of a few games of greedy against random (captures, escapes, terminal cards).
std::vector<Position> gamePositions() {
    std::vector<Position> out;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        BotPlayer one(std::make_unique<GreedyBot>(), seed);
        BotPlayer two(std::make_unique<RandomBot>(), seed + 100);
        GameOptions go;
        go.setup[0] = 0x0F;
        go.setup[1] = 0x33;
        go.maxPlies = 300;
        const GameRecord r = playGame(one, two, go);
        Position p = *toRecord(r, "greedy", "random", "1").initialPosition();
        for (Action a : r.actions) {
            out.push_back(p);
            p.doAction(a);
        }
    }
    return out;
}

TEST(Policy, FeaturesSpanTheHeuristicPrior) {
    const PolicyModel h = heuristicAsModel();
    int actions = 0, kinds[8] = {};
    for (const Position& p : gamePositions()) {
        for (Action a : p.legalActions()) {
            ASSERT_DOUBLE_EQ(learnedActionPrior(p, a, h), actionPrior(p, a))
                << toString(a) << " in " << p.toString();
            ++actions;
            ++kinds[static_cast<int>(a.type())];
        }
    }
    EXPECT_GT(actions, 1000);
    for (int k = 0; k < 8; ++k) EXPECT_GT(kinds[k], 0) << "action type " << k;
}

TEST(Policy, TheSearchsScoreIsTheTrainersDotProduct) {
    // The search sums only the features that apply (learnedActionPrior); the trainer fits on the
    // dense vector (policyFeatures, policyScore): the same score, for the committed model and for
    // one that weighs every feature differently (so that a feature one of them skipped would show).
    PolicyModel distinct;
    for (int j = 0; j < kPolicyFeatureCount; ++j) distinct.weights[j] = 1.0 + 1.0 / (j + 2);
    int actions = 0;
    for (const Position& p : gamePositions()) {
        for (Action a : p.legalActions()) {
            for (const PolicyModel* m :
                 {&learnedPolicyModel(), static_cast<const PolicyModel*>(&distinct)})
                ASSERT_NEAR(learnedActionPrior(p, a, *m), policyScore(*m, policyFeatures(p, a)),
                            1e-12)
                    << toString(a) << " in " << p.toString();
            ++actions;
        }
    }
    EXPECT_GT(actions, 1000);
}

TEST(Policy, FeaturesIgnoreTheOpponentsHiddenIdentities) {
    // Side 2's face-down cards with links and viruses exchanged: every action's features agree.
    const Position p = parse(kLinkOnExit);
    const Position q = parse("vvv1Llll/3vl3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 2");
    for (Action a : p.legalActions()) EXPECT_EQ(policyFeatures(p, a), policyFeatures(q, a));
}

// A dataset of `n` decisions of 2-9 actions with random features, the choice drawn from the
// softmax of `truth` (and the heuristic column its score times 1 / temperature, when given).
PolicyDataset drawn(const PolicyModel& truth, int n, std::uint64_t seed) {
    PolicyDataset d;
    Rng rng(seed);
    for (int i = 0; i < n; ++i) {
        const int count = 2 + static_cast<int>(rng.below(8));
        std::vector<double> z;
        double sum = 0;
        for (int k = 0; k < count; ++k) {
            std::array<float, kPolicyFeatureCount> row{};
            PolicyFeatures x{};
            for (int j = 0; j < kPolicyFeatureCount; ++j)
                if (rng.uniform() < 0.3) x[j] = row[j] = static_cast<float>(rng.below(3));
            d.features.push_back(row);
            z.push_back(std::exp(policyScore(truth, x)));
            d.heuristic.push_back(static_cast<float>(policyScore(truth, x) / 0.5));
            sum += z.back();
        }
        double u = rng.uniform() * sum;
        int chosen = 0;
        while (chosen < count - 1 && (u -= z[chosen]) > 0) ++chosen;
        d.chosen.push_back(static_cast<std::uint32_t>(chosen));
        d.begin.push_back(static_cast<std::uint32_t>(d.features.size()));
    }
    return d;
}

TEST(PolicyTraining, FitRecoversTheModelThatDrewTheChoices) {
    PolicyModel truth;
    for (int j = 0; j < kPolicyFeatureCount; ++j) truth.weights[j] = 0.1 * (j % 7) - 0.3;
    const PolicyDataset d = drawn(truth, 20000, 5);
    const PolicyModel m = fitPolicyModel(d, 1.0);
    for (int j = 0; j < kPolicyFeatureCount; ++j)
        EXPECT_NEAR(m.weights[j], truth.weights[j], 0.08) << policyFeatureName(j);
    // The heuristic column is the true score / 0.5: its temperature is 0.5.
    EXPECT_NEAR(fitHeuristicTemperature(d), 0.5, 0.03);
    // The truth scores better than a uniform choice, and the fit about as well as the truth.
    const PolicyScore fitted = scorePolicy(m, d), uniform = scoreUniformPolicy(d);
    EXPECT_LT(fitted.logLoss, uniform.logLoss - 0.05);
    EXPECT_NEAR(fitted.logLoss, scorePolicy(truth, d).logLoss, 0.01);
    EXPECT_NEAR(scoreHeuristicPolicy(0.5, d).logLoss, scorePolicy(truth, d).logLoss, 1e-4);
}

TEST(PolicyTraining, ScoresOfAHandMadeDataset) {
    // Two decisions: {a, b} with a chosen, {a, b, c} with c chosen; the heuristic column 1, 0 / 0,
    // 0, 2.
    PolicyDataset d;
    d.features.resize(5);
    d.heuristic = {1, 0, 0, 0, 2};
    d.begin = {0, 2, 5};
    d.chosen = {0, 2};
    const PolicyScore u = scoreUniformPolicy(d);
    EXPECT_EQ(u.decisions, 2);
    EXPECT_NEAR(u.logLoss, (std::log(2.0) + std::log(3.0)) / 2, 1e-12);
    EXPECT_DOUBLE_EQ(u.top1, 0.5);  // ties go to the first listed: right in the first only
    const PolicyScore h = scoreHeuristicPolicy(1.0, d);
    EXPECT_DOUBLE_EQ(h.top1, 1.0);
    const double first = -std::log(std::exp(1.0) / (std::exp(1.0) + 1.0));
    const double second = -std::log(std::exp(2.0) / (std::exp(2.0) + 2.0));
    EXPECT_NEAR(h.logLoss, (first + second) / 2, 1e-12);
}

TEST(PolicyTraining, SelfPlayAndFitAreDeterministicForASeed) {
    SelfPlayOptions o;
    o.games = 3;
    o.nodes = 8;
    o.seed = 7;
    o.maxPlies = 80;
    PolicyModel models[2];
    std::size_t decisions[2] = {0, 0};
    for (int run = 0; run < 2; ++run) {
        auto games = playSelfPlay(o);
        ASSERT_TRUE(games.ok()) << games.error().message;
        PolicyDataset data;
        for (const Record& g : *games) addPolicySamples(g, data);
        decisions[run] = data.decisions();
        ASSERT_GT(data.decisions(), 20u);
        EXPECT_EQ(data.begin.size(), data.decisions() + 1);
        EXPECT_EQ(data.features.size(), data.heuristic.size());
        models[run] = fitPolicyModel(data, 1.0);
        // The first decision is the first ply's: its chosen row is the played action's features.
        const Record& g = games->front();
        const Position start = *g.initialPosition();
        const ActionList actions = searchActions(start);
        ASSERT_EQ(data.begin[1], static_cast<std::uint32_t>(actions.size()));
        ASSERT_EQ(actions[static_cast<int>(data.chosen[0])], g.actions.front());
        const PolicyFeatures f = policyFeatures(start, g.actions.front());
        for (int j = 0; j < kPolicyFeatureCount; ++j)
            EXPECT_EQ(data.features[data.chosen[0]][j], static_cast<float>(f[j]));
        EXPECT_EQ(data.heuristic[data.chosen[0]],
                  static_cast<float>(actionPrior(start, g.actions.front())));
    }
    EXPECT_EQ(decisions[0], decisions[1]);
    EXPECT_EQ(models[0].weights, models[1].weights);
    // The fit moved off zero (the data says something).
    double norm = 0;
    for (double w : models[0].weights) norm += std::abs(w);
    EXPECT_GT(norm, 0.1);
}

TEST(Policy, CommittedWeightsFileLoadsAsCompiledIn) {
    const auto text = rainet::test::readSourceFile("src/ai/policy_weights.inc");
    ASSERT_TRUE(text) << "src/ai/policy_weights.inc (RAINET_SOURCE_DIR)";
    auto numbers = readWeightNumbers(*text);
    ASSERT_TRUE(numbers.ok()) << numbers.error().message;
    ASSERT_EQ(numbers->size(), static_cast<std::size_t>(kPolicyFeatureCount));
    for (int j = 0; j < kPolicyFeatureCount; ++j)
        EXPECT_DOUBLE_EQ((*numbers)[j], learnedPolicyModel().weights[j]) << policyFeatureName(j);
    // Written and read back (to 6 decimals).
    PolicyModel w;
    for (int j = 0; j < kPolicyFeatureCount; ++j) w.weights[j] = 0.25 * j - 1.5;
    auto back = readWeightNumbers(formatPolicyModel(w, "a test"));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, std::vector<double>(w.weights.begin(), w.weights.end()));
}

TEST(PolicySearch, LearnedPriorReachesTheTreeAndTheRollouts) {
    // strong with the learned prior in the tree, or in the rollouts, plays legal actions,
    // deterministically, and not the same game as with the heuristic (the option reaches the
    // search).
    auto play = [](ActionPriorSource tree, ActionPriorSource rollouts) {
        SearchConfig c = strongConfig();
        c.prior = tree;
        c.rolloutPolicy = rollouts;
        return test::strongAgainstGreedy(c);
    };
    using S = ActionPriorSource;
    const auto heuristic = play(S::Heuristic, S::Heuristic);
    const auto tree = play(S::Learned, S::Heuristic);
    EXPECT_EQ(tree, play(S::Learned, S::Heuristic));
    EXPECT_NE(tree, heuristic);
    EXPECT_NE(play(S::Heuristic, S::Learned), heuristic);
    // strong's default: the learned prior in the tree, the heuristic's argmax in the rollouts
    // (under the rules it was fitted on: below).
    EXPECT_EQ(strongConfig().prior, S::Learned);
    EXPECT_EQ(strongConfig().rolloutPolicy, S::Heuristic);
}

TEST(PolicySearch, TheLearnedPriorOrdersOnlyUnderTheRulesItWasFittedOn) {
    // Fitted on the standard preset's games: any rule that allows moves it never saw (official's
    // three options, each on its own) makes the search order by the heuristic prior.
    EXPECT_TRUE(learnedPriorFits(Rules::standard()));
    EXPECT_FALSE(learnedPriorFits(Rules::official()));
    Rules r = Rules::standard();
    r.ownExitEntry = true;
    EXPECT_FALSE(learnedPriorFits(r));
    r = Rules::standard();
    r.boostedExitToServer = true;
    EXPECT_FALSE(learnedPriorFits(r));
    r = Rules::standard();
    r.firewallUnderOwnCard = true;
    EXPECT_FALSE(learnedPriorFits(r));
    r = Rules::standard();
    r.noProgressLimit = 60;  // the same moves
    EXPECT_TRUE(learnedPriorFits(r));

    auto play = [](ActionPriorSource tree, ActionPriorSource rollouts, Rules rules) {
        SearchConfig c = strongConfig();
        c.prior = tree;
        c.rolloutPolicy = rollouts;
        return test::strongAgainstGreedy(c, rules);
    };
    using S = ActionPriorSource;
    // Official: the learned prior, in the tree or the rollouts, plays the heuristic's game...
    const auto heuristic = play(S::Heuristic, S::Heuristic, Rules::official());
    EXPECT_EQ(play(S::Learned, S::Heuristic, Rules::official()), heuristic);
    EXPECT_EQ(play(S::Learned, S::Learned, Rules::official()), heuristic);
    // ... while under the standard rules the same game differs.
    EXPECT_NE(play(S::Learned, S::Heuristic, Rules::standard()),
              play(S::Heuristic, S::Heuristic, Rules::standard()));
}

}  // namespace
}  // namespace rainet::ai

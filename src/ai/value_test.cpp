// The learned value: its features on hand-made positions, its symmetry (the two sides' values sum
// to 1, a colour mirror gets the same value), the committed weights file, and the trainer's
// determinism for a seed.
#include "ai/value.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ai/greedy_bot.h"
#include "ai/ismcts.h"
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

// The expected features: zero but for the given ones.
ValueFeatures only(std::initializer_list<std::pair<ValueFeature, double>> nonZero) {
    ValueFeatures f{};
    for (const auto& [j, v] : nonZero) f[j] = v;
    return f;
}

void expectFeatures(const Position& p, Side us, const ValueFeatures& expected) {
    const ValueFeatures got = valueFeatures(p, us);
    for (int j = 0; j < kValueFeatureCount; ++j)
        EXPECT_EQ(got[j], expected[j]) << valueFeatureName(j) << " in " << p.toString();
}

// The same position with the colours exchanged (board reflected across the middle: the exits
// stay on files d and e) and the other side to move, one ply later so the parity still matches.
Position mirrored(const Position& p) {
    std::istringstream in(p.toString());
    std::string board, mover, once, stacks;
    int noProgress = 0, ply = 0;
    in >> board >> mover >> once >> stacks >> noProgress >> ply;
    auto swapCase = [](std::string s) {
        for (char& c : s)
            c = std::isupper(static_cast<unsigned char>(c))
                    ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                    : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return s;
    };
    std::vector<std::string> ranks;
    std::istringstream rs(board);
    for (std::string r; std::getline(rs, r, '/');) ranks.insert(ranks.begin(), swapCase(r));
    std::string flipped;
    for (const auto& r : ranks) flipped += (flipped.empty() ? "" : "/") + r;
    // Once-per-game cards in canonical order.
    const std::string swappedOnce = swapCase(once);
    std::string onceText;
    for (char c : std::string("CNcn"))
        if (swappedOnce.find(c) != std::string::npos) onceText += c;
    if (onceText.empty()) onceText = "-";
    const auto slash = stacks.find('/');
    const std::string swappedStacks =
        swapCase(stacks.substr(slash + 1)) + "/" + swapCase(stacks.substr(0, slash));
    const std::string text = flipped + " " + (mover == "1" ? "2" : "1") + " " + onceText + " " +
                             swappedStacks + " " + std::to_string(noProgress) + " " +
                             std::to_string(ply + 1);
    return parse(text);
}

TEST(Value, FeaturesOfTheStartAreOnlyTheTempo) {
    const Position p = Position::start();
    expectFeatures(p, Side::One, only({{kTempo, 1}}));
    expectFeatures(p, Side::Two, only({{kTempo, -1}}));
}

TEST(Value, FeaturesOfALinkOnTheOpponentsExit) {
    // Side 1's link on e8 (an exit of side 2), next to side 2's viruses on f8 and e7.
    const Position p = parse("lll1Lvvv/3lv3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 2");
    expectFeatures(p, Side::One,
                   only({{kTempo, 1},
                         {kLinksOnExit, 1},
                         {kEscapeNow, 1},
                         {kLinksThreatened, 1},
                         {kVirusesInContact, -2}}));
    // The opponent's view is the negation (and with side 2 to move the link is en prise).
    ValueFeatures negated = valueFeatures(p, Side::One);
    for (double& x : negated) x = -x;
    expectFeatures(p, Side::Two, negated);
}

TEST(Value, FeaturesOfBoostFirewallStacksAndFaceUpCards) {
    // Side 1's LB on its link d3, its FW on f2, side 2 to move.
    expectFeatures(parse("lll2vvv/3l4/4v3/8/8/3L+4/4VF2/LLL2VVV 2 CNcn -/- 3 3"), Side::One,
                   only({{kTempo, -1}, {kBoostedLink, 1}, {kFirewallPlaced, 1}}));
    // Side 2 has captured a link and escaped two links and a virus: 3 links, 1 virus.
    expectFeatures(parse("llv2vv1/8/8/8/8/8/3V4/LLL2VVV 1 CNcn -/Lllv 0 20"), Side::One,
                   only({{kTempo, 1}, {kStackLinks, -3}, {kStackLinks3, -1}, {kStackViruses, -1}}));
    // Side 1's link d2 face up (side 2 has used its VC).
    expectFeatures(parse("lll2vvv/3lv3/8/8/8/8/3L!V3/LLL2VVV 1 CNn -/- 0 2"), Side::One,
                   only({{kTempo, 1}, {kFaceUpLinks, 1}, {kCheckUnused, 1}}));
}

TEST(Value, SymmetricPositionsGetSymmetricValues) {
    // Positions from a few greedy games: the sides' values sum to 1 and the colour mirror of a
    // position has the same features and value for the mirrored side.
    const ValueModel& m = learnedValueModel();
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        BotPlayer one(std::make_unique<GreedyBot>(), seed),
            two(std::make_unique<GreedyBot>(), seed + 9);
        GameOptions go;
        go.maxPlies = 60;
        const GameRecord r = playGame(one, two, go);
        Position p = *Position::fromSetups(r.setups[0], r.setups[1]);
        for (Action a : r.actions) {
            p.doAction(a);
            if (p.isOver()) break;
            EXPECT_NEAR(learnedReward(p, Side::One, m) + learnedReward(p, Side::Two, m), 1.0,
                        1e-12);
            const Position q = mirrored(p);
            EXPECT_EQ(valueFeatures(q, Side::Two), valueFeatures(p, Side::One)) << p.toString();
            EXPECT_DOUBLE_EQ(learnedReward(q, Side::Two, m), learnedReward(p, Side::One, m));
        }
    }
}

TEST(Value, FinishedGamesAreCertain) {
    const Position won = parse("1lv2vv1/8/8/8/8/8/3V4/LLL2VVV 2 CNcn -/Llllv 0 21");
    ASSERT_TRUE(won.isOver());
    EXPECT_EQ(learnedReward(won, Side::Two), 1.0);
    EXPECT_EQ(learnedReward(won, Side::One), 0.0);
}

// Reads what formatValueModel wrote (only this test reads a value weights file: the program
// compiles value_weights.inc in).
Result<ValueModel> parseValueModel(const std::string& text) {
    auto read = readWeightNumbers(text);
    if (!read.ok()) return read.error();
    const std::vector<double>& numbers = *read;
    if (numbers.size() != kValueFeatureCount)
        return Error{"expected " + std::to_string(kValueFeatureCount) + " numbers, found " +
                     std::to_string(numbers.size())};
    ValueModel m;
    for (int j = 0; j < kValueFeatureCount; ++j) m.weights[j] = numbers[j];
    return m;
}

TEST(Value, CommittedWeightsFileLoadsAsCompiledIn) {
    const auto text = rainet::test::readSourceFile("src/ai/value_weights.inc");
    ASSERT_TRUE(text) << "src/ai/value_weights.inc (RAINET_SOURCE_DIR)";
    auto m = parseValueModel(*text);
    ASSERT_TRUE(m.ok()) << m.error().message;
    for (int j = 0; j < kValueFeatureCount; ++j)
        EXPECT_DOUBLE_EQ(m->weights[j], learnedValueModel().weights[j]) << valueFeatureName(j);
    // Written and read back (to 6 decimals); a wrong count is an error.
    ValueModel w;
    for (int j = 0; j < kValueFeatureCount; ++j) w.weights[j] = 0.25 * j - 1.5;
    auto back = parseValueModel(formatValueModel(w, "a test"));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->weights, w.weights);
    EXPECT_FALSE(parseValueModel("{{1, 2, 3}}").ok());
    EXPECT_FALSE(parseValueModel("{{1, x}}").ok());
}

TEST(ValueTraining, SelfPlayAndFitAreDeterministicForASeed) {
    SelfPlayOptions o;
    o.games = 3;
    o.nodes = 8;
    o.seed = 7;
    o.maxPlies = 80;
    ValueModel models[2];
    std::size_t samples[2] = {0, 0};
    std::vector<std::vector<Action>> actions[2];
    for (int run = 0; run < 2; ++run) {
        auto games = playSelfPlay(o);
        ASSERT_TRUE(games.ok()) << games.error().message;
        ASSERT_EQ(games->size(), 3u);
        ValueDataset data;
        for (const Record& g : *games) {
            addValueSamples(g, data);
            actions[run].push_back(g.actions);
        }
        samples[run] = data.features.size();
        EXPECT_EQ(data.features.size(), data.won.size());
        EXPECT_EQ(data.features.size(), data.heuristic.size());
        models[run] = fitValueModel(data, 1.0);
    }
    EXPECT_EQ(actions[0], actions[1]);
    EXPECT_EQ(samples[0], samples[1]);
    EXPECT_EQ(models[0].weights, models[1].weights);
    // Another seed plays other games.
    o.seed = 8;
    auto other = playSelfPlay(o);
    ASSERT_TRUE(other.ok());
    EXPECT_NE(other->front().actions, actions[0].front());
}

TEST(ValueTraining, SamplesAreLabelledByTheMoversResult) {
    // One game replayed: every sample's label says whether the side to move won.
    SelfPlayOptions o;
    o.games = 1;
    o.nodes = 8;
    o.seed = 3;
    auto games = playSelfPlay(o);
    ASSERT_TRUE(games.ok());
    ValueDataset data;
    addValueSamples(games->front(), data);
    ASSERT_GT(data.won.size(), 2u);
    // Consecutive positions have opposite movers (no pass in the rules), so opposite labels.
    for (std::size_t i = 1; i < data.won.size(); ++i) {
        EXPECT_NE(data.won[i], data.won[i - 1]);
        EXPECT_EQ(data.features[i][kTempo], 1.0);  // always from the side to move
    }
}

TEST(ValueTraining, PredictionScores) {
    const auto s = scorePredictions({0.5, 0.9, 0.2}, {true, true, true});
    EXPECT_EQ(s.positions, 3);
    EXPECT_NEAR(s.logLoss, -(std::log(0.5) + std::log(0.9) + std::log(0.2)) / 3, 1e-12);
    EXPECT_NEAR(s.brier, (0.25 + 0.01 + 0.64) / 3, 1e-12);
}

TEST(ValueTraining, HeuristicScaleRecalibratesTheSquashedScore) {
    // Outcomes drawn with P(win) = sigmoid(0.5 * logit(h)): the fitted scale is about 0.5.
    ValueDataset data;
    Rng rng(11);
    for (int i = 0; i < 20000; ++i) {
        const double h = 0.02 + 0.96 * rng.uniform();
        const double p = 1.0 / (1.0 + std::exp(-0.5 * std::log(h / (1 - h))));
        data.heuristic.push_back(h);
        data.won.push_back(rng.uniform() < p);
    }
    const double a = fitHeuristicScale(data);
    EXPECT_NEAR(a, 0.5, 0.05);
    EXPECT_NEAR(predictHeuristic(a, data)[0],
                1.0 / (1.0 + std::exp(-a * std::log(data.heuristic[0] / (1 - data.heuristic[0])))),
                1e-12);
}

TEST(ValueSearch, LearnedEvalWithoutRolloutsSearchesAndDiffers) {
    // strong with the learned value and no rollout plays legal actions, deterministically, and
    // not the same game as with the heuristic (the option reaches the search).
    auto play = [](LeafEval eval, int rollout) {
        SearchConfig c = strongConfig();
        c.eval = eval;
        c.rolloutDepth = rollout;
        return test::strongAgainstGreedy(c);
    };
    const auto learned = play(LeafEval::Learned, 0);
    EXPECT_EQ(learned, play(LeafEval::Learned, 0));
    EXPECT_NE(learned, play(LeafEval::Heuristic, 0));
}

}  // namespace
}  // namespace rainet::ai

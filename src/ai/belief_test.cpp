// The belief respects InfoSet's exact constraints, and behavioural evidence moves it the right way.
#include <gtest/gtest.h>

#include <cmath>

#include "ai/belief.h"
#include "ai/bot.h"
#include "support/infoset_helpers.h"

namespace rainet::ai {
namespace {

// Plays `moves` in `pos`, side 1's knowledge `k` following.
void play(Position& pos, InfoSet& k, std::initializer_list<const char*> moves) {
    for (const char* m : moves) {
        const Action a = *parseAction(m);
        ASSERT_TRUE(pos.isLegal(a)) << m << " in " << pos.toString();
        ASSERT_FALSE(k.observe(observe(pos, a, Viewer::Side1)).has_value());
        pos.doAction(a);
    }
}

TEST(Belief, ProbabilitiesRespectExactConstraints) {
    Rng rng(9);
    for (int g = 0; g < 20; ++g) {
        Position pos = *Position::fromSetups(randomSetup(rng), randomSetup(rng));
        InfoSet k(View::of(pos, Viewer::Side1));
        while (!pos.isOver() && pos.ply() < 150) {
            const Belief b(k);
            const View& v = k.view();
            // Own cards and identified opponent cards are certain.
            for (Bitboard c = v.cards(Side::One); c;) {
                const Square s = popLsb(c);
                EXPECT_EQ(b.virusProbability(s), pos.isLinkAt(s) ? 0.0 : 1.0);
            }
            for (Bitboard c = v.cards(Side::Two) & ~v.unknown(Side::Two); c;) {
                const Square s = popLsb(c);
                EXPECT_EQ(b.virusProbability(s), pos.isLinkAt(s) ? 0.0 : 1.0);
            }
            // Every consistent assignment has the same number of links, so the expected number of
            // links among the hidden cards is exact whatever the weights.
            const HiddenCards& h = k.hidden(Side::Two);
            double expectedLinks = 0.0;
            for (std::size_t j = 0; j < h.assignments.size(); ++j)
                expectedLinks += b.weights(Side::Two)[j] *
                                 std::popcount(static_cast<unsigned>(h.assignments[j]));
            double onBoard = 0.0;
            for (const auto& [sq, pv] : b.virusProbabilities(Side::Two)) {
                EXPECT_GE(pv, 0.0);
                EXPECT_LE(pv, 1.0);
                onBoard += 1.0 - pv;
            }
            double escaped = 0.0;
            for (std::size_t i = 0; i < h.squares.size(); ++i) {
                if (h.squares[i] >= 0) continue;
                for (std::size_t j = 0; j < h.assignments.size(); ++j)
                    if ((h.assignments[j] >> i) & 1) escaped += b.weights(Side::Two)[j];
            }
            EXPECT_NEAR(onBoard + escaped, expectedLinks, 1e-9);
            // A sample is a consistent world: it projects to the same view.
            const Position w = b.sample(rng);
            EXPECT_EQ(View::of(w, Viewer::Side1).toString(), v.toString());
            const ActionList legal = pos.legalActions();
            const Action a = legal[static_cast<int>(rng.below(legal.size()))];
            ASSERT_FALSE(k.observe(observe(pos, a, Viewer::Side1)).has_value());
            pos.doAction(a);
        }
    }
}

TEST(Belief, WithoutEvidenceItIsTheUniformInfoSetDistribution) {
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    const Belief b(k, Evidence::None);
    for (const auto& [sq, pv] : b.virusProbabilities(Side::Two))
        EXPECT_NEAR(pv, 1.0 - test::linkProbability(k, sq), 1e-12);
}

TEST(Belief, CardsHeadingForTheExitsLookLikeLinks) {
    // Side 2 walks its d7 card down towards side 1's exits while the others stay home.
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    play(pos, k, {"a1-a2", "d7-d6", "a2-a3", "d6-d5", "a3-a4", "d5-d4"});
    const Belief b(k);
    const double runner = b.virusProbability(*parseSquare("d4"));
    const double stayer = b.virusProbability(*parseSquare("e7"));
    EXPECT_LT(runner, 0.45);
    EXPECT_GT(stayer, 0.5);
    // Nothing identified yet: the evidence counts at the prior's half strength.
    EXPECT_NEAR(b.reliability(Side::Two), 0.5, 1e-12);
}

TEST(Belief, EvidenceIsCalibratedOnIdentifiedCards) {
    // Side 2's runner turns out to be a virus (captured on d3): running no longer reads as
    // "link", and a second runner counts for less than the first did.
    // Side 2: links on a8 b8 c8 f8, viruses on g8 h8 d7 e7.
    Position pos = *Position::fromSetups(0x0F, 0x0F);
    InfoSet k(View::of(pos, Viewer::Side1));
    play(pos, k, {"a1-a2", "e7-e6", "a2-a3", "e6-e5", "a3-a4", "e5-e4", "a4-a5", "e4-e3"});
    const double before = Belief(k).reliability(Side::Two);
    play(pos, k, {"e2-e3"});  // side 1 captures the runner: a virus
    const Belief after(k);
    EXPECT_LT(after.reliability(Side::Two), before);
    for (const auto& [sq, pv] : after.virusProbabilities(Side::Two)) {
        EXPECT_GE(pv, 0.0);
        EXPECT_LE(pv, 1.0);
    }
}

TEST(Belief, LearnedModelReadsARunnerAtFullStrength) {
    // The committed model, fitted on self-play, reads a card walking to the exits as a link
    // before anything is identified (no refit yet).
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    play(pos, k, {"a1-a2", "d7-d6", "a2-a3", "d6-d5", "a3-a4", "d5-d4"});
    const Belief b(k, Evidence::Learned);
    EXPECT_EQ(b.reliability(Side::Two), 0.0);  // nothing identified: the offline model as it is
    EXPECT_EQ(b.adaptedWeights(Side::Two), learnedModel().weights);
    EXPECT_LT(b.virusProbability(*parseSquare("d4")), 0.4);
    EXPECT_LT(b.virusProbability(*parseSquare("d4")), b.virusProbability(*parseSquare("e7")) - 0.1);
}

TEST(Belief, LearnedModelIsRefittedOnIdentifiedCards) {
    // A model that reads runners as links meets a runner that is a virus: once it is captured,
    // the weight of progress drops, and the other runner stands out less from a card that stayed
    // home.
    EvidenceModel model;
    model.weights[kProgress] = 0.5;
    Position pos = *Position::fromSetups(0x0F, 0x0F);  // side 2: viruses on g8 h8 d7 e7
    InfoSet k(View::of(pos, Viewer::Side1));
    play(pos, k,
         {"a1-a2", "e7-e6", "a2-a3", "e6-e5", "a3-a4", "e5-e4", "a4-a5", "e4-e3", "a5-a6", "d7-d6",
          "h1-h2", "d6-d5"});
    auto gap = [](const Belief& b) {
        return b.virusProbability(*parseSquare("a8")) - b.virusProbability(*parseSquare("d5"));
    };
    // (A Belief reads the InfoSet it was made from: measure before the next action.)
    const double gapBefore = gap(Belief(k, Evidence::Learned, &model));
    EXPECT_EQ(Belief(k, Evidence::Learned, &model).adaptedWeights(Side::Two)[kProgress], 0.5);
    EXPECT_GT(gapBefore, 0.1);
    play(pos, k, {"e2-e3"});  // side 1 captures the first runner: a virus
    const Belief after(k, Evidence::Learned, &model);
    EXPECT_EQ(after.reliability(Side::Two), 1.0);
    EXPECT_LT(after.adaptedWeights(Side::Two)[kProgress], 0.48);
    EXPECT_LT(gap(after), gapBefore);
}

TEST(Belief, NotFoundMergesTheEvidenceOfBothCards) {
    // Side 2's d7 card runs, then NF swaps-or-keeps it with a8: both share the evidence.
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    play(pos, k, {"a1-a2", "d7-d6", "a2-a3", "d6-d5", "a3-a4", "NF+d5a8:swap"});
    const Belief b(k);
    EXPECT_NEAR(b.virusProbability(*parseSquare("d5")), b.virusProbability(*parseSquare("a8")),
                1e-9);
    EXPECT_LT(b.virusProbability(*parseSquare("d5")), b.virusProbability(*parseSquare("e7")));
}

}  // namespace
}  // namespace rainet::ai

namespace rainet::ai {
namespace {

TEST(Belief, WorldsWhereTheGameWouldBeOverGetNoWeight) {
    // Side 2 has captured one link of side 1 and escaped three unidentified cards: if all three
    // were links it would have won, so the game going on rules that out.
    const Position pos = *Position::parse("llv2vv1/8/8/8/8/8/3V4/LLL2VVV 1 CNcn -/Lllv 0 20");
    const InfoSet k(View::of(pos, Viewer::Side1));
    const Belief b(k);
    const HiddenCards& h = k.hidden(Side::Two);
    unsigned escaped = 0;
    for (std::size_t i = 0; i < h.squares.size(); ++i)
        if (h.squares[i] == HiddenCards::kEscaped) escaped |= 1u << i;
    ASSERT_EQ(std::popcount(escaped), 3);
    double sum = 0.0;
    int excluded = 0;
    for (std::size_t j = 0; j < h.assignments.size(); ++j) {
        sum += b.weights(Side::Two)[j];
        if ((h.assignments[j] & escaped) == escaped) {
            EXPECT_EQ(b.weights(Side::Two)[j], 0.0);
            ++excluded;
        }
    }
    EXPECT_GT(excluded, 0);
    EXPECT_NEAR(sum, 1.0, 1e-9);
    Rng rng(1);
    for (int i = 0; i < 200; ++i) EXPECT_FALSE(b.sample(rng).isOver());
}

TEST(Belief, LearnedEvidenceIsTemperedByThePurposefulnessOfTheOpponent) {
    // A runner read as a link by a purposeful opponent's model says nothing if the opponent plays
    // at random: purposeful 0 gives InfoSet's uniform distribution, 1 the belief as it was.
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    play(pos, k, {"a1-a2", "d7-d6", "a2-a3", "d6-d5", "a3-a4", "d5-d4"});
    const Belief full(k, Evidence::Learned), plain(k, Evidence::Learned, nullptr, 1.0);
    const Belief random(k, Evidence::Learned, nullptr, 0.0), uniform(k, Evidence::None);
    const Belief half(k, Evidence::Learned, nullptr, 0.5);
    const Square d4 = *parseSquare("d4");
    EXPECT_EQ(full.virusProbability(d4), plain.virusProbability(d4));
    EXPECT_LT(full.virusProbability(d4), uniform.virusProbability(d4) - 0.1);
    EXPECT_NEAR(random.virusProbability(d4), uniform.virusProbability(d4), 1e-12);
    EXPECT_GT(half.virusProbability(d4), full.virusProbability(d4));
    EXPECT_LT(half.virusProbability(d4), uniform.virusProbability(d4));
    EXPECT_EQ(random.purposeful(Side::Two), 0.0);
    EXPECT_EQ(random.purposeful(Side::One), 1.0);  // our own cards: nothing to temper
}

}  // namespace
}  // namespace rainet::ai

// The belief respects InfoSet's exact constraints, and behavioural evidence moves it the right way.
#include <gtest/gtest.h>

#include <cmath>

#include "ai/belief.h"
#include "ai/bot.h"

namespace rainet::ai {
namespace {

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
    const Belief b(k, false);
    for (const auto& [sq, pv] : b.virusProbabilities(Side::Two))
        EXPECT_NEAR(pv, 1.0 - k.linkProbability(sq), 1e-12);
}

TEST(Belief, CardsHeadingForTheExitsLookLikeLinks) {
    // Side 2 walks its d7 card down towards side 1's exits while the others stay home.
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    const char* moves[] = {"a1-a2", "d7-d6", "a2-a3", "d6-d5", "a3-a4", "d5-d4"};
    for (const char* m : moves) {
        const Action a = *parseAction(m);
        ASSERT_TRUE(pos.isLegal(a)) << m;
        ASSERT_FALSE(k.observe(observe(pos, a, Viewer::Side1)).has_value());
        pos.doAction(a);
    }
    const Belief b(k);
    const double runner = b.virusProbability(*parseSquare("d4"));
    const double stayer = b.virusProbability(*parseSquare("e7"));
    EXPECT_LT(runner, 0.4);
    EXPECT_GT(stayer, 0.5);
}

TEST(Belief, NotFoundMergesTheEvidenceOfBothCards) {
    // Side 2's d7 card runs, then NF swaps-or-keeps it with a8: both share the evidence.
    Position pos = Position::start();
    InfoSet k(View::of(pos, Viewer::Side1));
    for (const char* m : {"a1-a2", "d7-d6", "a2-a3", "d6-d5", "a3-a4", "NF+d5a8:swap"}) {
        const Action a = *parseAction(m);
        ASSERT_TRUE(pos.isLegal(a)) << m;
        ASSERT_FALSE(k.observe(observe(pos, a, Viewer::Side1)).has_value());
        pos.doAction(a);
    }
    const Belief b(k);
    EXPECT_NEAR(b.virusProbability(*parseSquare("d5")), b.virusProbability(*parseSquare("a8")),
                1e-9);
    EXPECT_LT(b.virusProbability(*parseSquare("d5")), b.virusProbability(*parseSquare("e7")));
}

}  // namespace
}  // namespace rainet::ai

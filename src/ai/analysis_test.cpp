// The analysis of a game for one side depends on that side's information set only: two games
// that differ only in what the side did not know give byte-identical plies until it learns the
// difference. And what it reports is well formed: probabilities for exactly the unidentified
// opponent cards, actions only on its own turns, the announced result once over.
#include <gtest/gtest.h>

#include "ai/analysis.h"
#include "ai/bot.h"
#include "core/view.h"

namespace rainet::ai {
namespace {

bool samePly(const PlyAnalysis& a, const PlyAnalysis& b) {
    if (a.ply != b.ply || a.toMove != b.toMove || a.over != b.over || a.win != b.win ||
        a.virus != b.virus || a.best.size() != b.best.size())
        return false;
    for (std::size_t i = 0; i < a.best.size(); ++i)
        if (a.best[i].action != b.best[i].action || a.best[i].share != b.best[i].share ||
            a.best[i].win != b.best[i].win)
            return false;
    return true;
}

// Random actions from `start` that tell side 1 nothing of side 2's identities (no capture, no
// VC, no escape), up to `maxPlies`.
std::vector<Action> playWithoutReveals(Position p, Rng& rng, int maxPlies) {
    std::vector<Action> actions;
    while (!p.isOver() && static_cast<int>(actions.size()) < maxPlies) {
        ActionList quiet;
        for (Action a : p.legalActions())
            if (!observe(p, a, Viewer::Side1).revealedLink && a.type() != ActionType::Enter)
                quiet.push(a);
        if (quiet.empty()) break;
        const Action a =
            quiet[static_cast<int>(rng.below(static_cast<std::uint32_t>(quiet.size())))];
        actions.push_back(a);
        p.doAction(a);
    }
    return actions;
}

TEST(Analysis, HiddenFactsTheSideDidNotKnowChangeNothing) {
    Rng rng(13);
    AnalysisConfig config;
    config.nodes = 150;
    for (int g = 0; g < 4; ++g) {
        const std::uint8_t own = randomSetup(rng), theirs = randomSetup(rng);
        std::uint8_t other = randomSetup(rng);
        while (other == theirs) other = randomSetup(rng);
        const Position a = *Position::fromSetups(own, theirs);
        const Position b = *Position::fromSetups(own, other);
        const std::vector<Action> actions = playWithoutReveals(a, rng, 30);
        EXPECT_GE(actions.size(), 6u) << "game " << g << ": too short to test anything";
        // The same actions are legal in b: legality never depends on hidden identities, and
        // nothing was captured.
        const auto pa = analyseGame(a, actions, Side::One, config);
        const auto pb = analyseGame(b, actions, Side::One, config);
        ASSERT_TRUE(pa && pb);
        ASSERT_EQ(pa->size(), actions.size() + 1);
        ASSERT_EQ(pb->size(), pa->size());
        for (std::size_t i = 0; i < pa->size(); ++i)
            EXPECT_TRUE(samePly((*pa)[i], (*pb)[i])) << "game " << g << " ply " << i;
        // Side 2's analysis of the same games is about its own (different) cards: it differs.
        const auto qa = analyseGame(a, actions, Side::Two, config);
        const auto qb = analyseGame(b, actions, Side::Two, config);
        bool differs = false;
        for (std::size_t i = 0; i < qa->size(); ++i) differs |= !samePly((*qa)[i], (*qb)[i]);
        EXPECT_TRUE(differs) << "game " << g;
    }
}

TEST(Analysis, ReportsBeliefsForUnidentifiedCardsAndActionsOnOwnTurns) {
    Rng rng(5);
    const std::uint8_t s1 = randomSetup(rng), s2 = randomSetup(rng);
    Position p = *Position::fromSetups(s1, s2);
    std::vector<Action> actions;
    for (int i = 0; i < 60 && !p.isOver(); ++i) {
        const ActionList legal = p.legalActions();
        actions.push_back(
            legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))]);
        p.doAction(actions.back());
    }
    AnalysisConfig config;
    config.nodes = 100;
    const auto plies = analyseGame(*Position::fromSetups(s1, s2), actions, Side::Two, config);
    ASSERT_TRUE(plies);
    InfoSet k(View::of(*Position::fromSetups(s1, s2), Viewer::Side2));
    Position truth = *Position::fromSetups(s1, s2);
    for (std::size_t i = 0; i < plies->size(); ++i) {
        const PlyAnalysis& a = (*plies)[i];
        EXPECT_EQ(a.ply, static_cast<int>(i));
        // Exactly the opponent's unidentified cards on the board, each with a probability.
        Bitboard hidden = k.view().cards(Side::One) & k.view().unknown(Side::One);
        EXPECT_EQ(a.virus.size(), static_cast<std::size_t>(popcount(hidden))) << "ply " << i;
        for (const auto& [sq, v] : a.virus) {
            EXPECT_TRUE(hidden & bit(sq)) << squareName(sq);
            EXPECT_GE(v, 0.0);
            EXPECT_LE(v, 1.0);
        }
        EXPECT_GE(a.win, 0.0);
        EXPECT_LE(a.win, 1.0);
        if (a.toMove == Side::Two && !a.over) {
            ASSERT_FALSE(a.best.empty()) << "ply " << i;
            EXPECT_LE(a.best.size(), config.topActions);
            double shares = 0;
            for (const auto& b : a.best) {
                EXPECT_TRUE(truth.isLegal(b.action)) << toString(b.action);
                shares += b.share;
            }
            EXPECT_LE(shares, 1.0 + 1e-9);
            for (std::size_t j = 1; j < a.best.size(); ++j)
                EXPECT_GE(a.best[j - 1].share, a.best[j].share);
        } else {
            EXPECT_TRUE(a.best.empty()) << "ply " << i;
        }
        if (i < actions.size()) {
            ASSERT_FALSE(k.observe(observe(truth, actions[i], Viewer::Side2)));
            truth.doAction(actions[i]);
        }
    }
}

TEST(Analysis, AFinishedGameEndsOnTheAnnouncedResult) {
    Rng rng(21);
    for (int g = 0; g < 3; ++g) {
        const std::uint8_t s1 = randomSetup(rng), s2 = randomSetup(rng);
        Position p = *Position::fromSetups(s1, s2);
        std::vector<Action> actions;
        while (!p.isOver()) {
            const ActionList legal = p.legalActions();
            actions.push_back(
                legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))]);
            p.doAction(actions.back());
        }
        AnalysisConfig config;
        config.nodes = 20;
        for (Side side : {Side::One, Side::Two}) {
            const auto plies = analyseGame(*Position::fromSetups(s1, s2), actions, side, config);
            ASSERT_TRUE(plies);
            ASSERT_EQ(plies->size(), actions.size() + 1);
            const PlyAnalysis& last = plies->back();
            EXPECT_TRUE(last.over);
            const Outcome o = p.outcome();
            const double expected = o == Outcome::Draw                                 ? 0.5
                                    : (o == Outcome::Side1Wins) == (side == Side::One) ? 1.0
                                                                                       : 0.0;
            EXPECT_EQ(last.win, expected);
            for (std::size_t i = 0; i + 1 < plies->size(); ++i) EXPECT_FALSE((*plies)[i].over);
        }
    }
}

TEST(Analysis, StopsWhenAskedTo) {
    Rng rng(3);
    const Position p = *Position::fromSetups(randomSetup(rng), randomSetup(rng));
    const std::vector<Action> actions = {p.legalActions()[0]};
    AnalysisConfig config;
    config.nodes = 10;
    int calls = 0;
    EXPECT_FALSE(analyseGame(p, actions, Side::One, config, [&](int ply) {
        ++calls;
        return ply < 1;
    }));
    EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace rainet::ai

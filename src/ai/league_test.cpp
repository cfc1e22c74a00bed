// The league's styles (league.h): legal play in both presets, the same game from the same seeds,
// and each style's defining habit visible in its games.
#include <gtest/gtest.h>

#include <string>

#include "ai/eval.h"
#include "ai/league.h"
#include "ai/referee.h"

namespace rainet::ai {
namespace {

GameRecord play(const std::string& one, const std::string& two, std::uint64_t seed,
                const Rules& rules) {
    BotPlayer a(makeBot(one), seed * 2 + 1), b(makeBot(two), seed * 2 + 2);
    GameOptions options;
    options.rules = rules;
    options.maxPlies = 400;
    return playGame(a, b, options);
}

// The actions side 1 played in `r`, with the position before each.
std::vector<std::pair<Position, Action>> sideOneActions(const GameRecord& r) {
    Position pos = *Position::fromSetups(r.setups[0], r.setups[1], r.rules);
    std::vector<std::pair<Position, Action>> out;
    for (Action a : r.actions) {
        if (pos.toMove() == Side::One) out.emplace_back(pos, a);
        pos.doAction(a);
    }
    return out;
}

TEST(League, TenMembersSelectableByName) {
    ASSERT_GE(leagueNames().size(), 10u);
    const auto all = botNames();
    for (const auto& name : leagueNames()) {
        auto bot = makeBot(name);
        ASSERT_NE(bot, nullptr) << name;
        EXPECT_EQ(bot->name(), name);
        EXPECT_NE(std::find(all.begin(), all.end(), name), all.end()) << name;
    }
    EXPECT_EQ(makeLeagueBot("strong"), nullptr);
}

TEST(League, EveryMemberPlaysOnlyLegalActionsInBothPresets) {
    // The referee ends a game at the first illegal action with an error; each member plays both
    // sides against random, greedy and the next member.
    const auto names = leagueNames();
    int games = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string opponents[] = {"random", "greedy", names[(i + 1) % names.size()]};
        for (const Rules& rules : {Rules::standard(), Rules::official()}) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                const auto& other = opponents[seed - 1];
                for (const GameRecord& r : {play(names[i], other, seed, rules),
                                            play(other, names[i], seed + 10, rules)}) {
                    ASSERT_TRUE(r.error.empty()) << names[i] << " vs " << other << ": " << r.error;
                    EXPECT_NE(r.outcome, Outcome::Ongoing);
                    ++games;
                }
            }
        }
    }
    EXPECT_EQ(games, static_cast<int>(names.size()) * 12);
}

TEST(League, DeterministicBySeed) {
    for (const auto& name : leagueNames()) {
        const GameRecord a = play(name, "random", 5, Rules::standard());
        const GameRecord b = play(name, "random", 5, Rules::standard());
        EXPECT_EQ(a.actions, b.actions) << name;
        EXPECT_EQ(a.setups[0], b.setups[0]) << name;
        const GameRecord c = play(name, "random", 6, Rules::standard());
        EXPECT_NE(a.actions, c.actions) << name;
    }
}

// How many of the first `n` actions of side 1 in games of `name` against greedy satisfy `is`.
template <class F>
int count(const std::string& name, std::size_t n, F&& is) {
    int hits = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const auto acts = sideOneActions(play(name, "greedy", seed, Rules::standard()));
        for (std::size_t i = 0; i < std::min(n, acts.size()); ++i)
            hits += is(acts[i].first, acts[i].second) ? 1 : 0;
    }
    return hits;
}

TEST(League, CheckerPlaysVirusCheckerAndNotFoundAtTheFirstChance) {
    EXPECT_EQ(count("checker", 2,
                    [](const Position&, Action a) {
                        return a.type() == ActionType::Check || a.type() == ActionType::NotFound;
                    }),
              20);
}

TEST(League, RusherBoostsALink) {
    EXPECT_EQ(count("rusher", 1,
                    [](const Position& p, Action a) {
                        return a.type() == ActionType::BoostAttach && p.isLinkAt(a.from());
                    }),
              10);
}

TEST(League, CamperPutsItsFirewallOnTheWayToItsExits) {
    EXPECT_EQ(count("camper", 1,
                    [](const Position&, Action a) {
                        return a.type() == ActionType::FirewallPlace &&
                               exitDistance(a.from(), exitsOf(Side::One)) <= 2;
                    }),
              10);
}

TEST(League, FortressKeepsItsLinksHomeAndOffersNothing) {
    // Over its first 30 actions (300 over ten games) no link leaves the back rank and no card
    // steps next to an opponent's, but for a rare flight from a threat with nowhere safer to go.
    EXPECT_LE(count("fortress", 30,
                    [](const Position& p, Action a) {
                        if (a.type() != ActionType::Move) return false;
                        const Bitboard theirs = p.cards(Side::Two);
                        if (theirs & bit(a.to())) return false;  // a capture at the door
                        return (p.isLinkAt(a.from()) && rankOf(a.to()) > 0) ||
                               (neighbours(theirs) & bit(a.to()));
                    }),
              3);
}

TEST(League, BaitersOfferVirusesAndBlufferRunsThem) {
    // Moves of a virus towards the opponent's exits against those of a link, first 20 actions.
    auto forward = [](const std::string& name, bool virus) {
        return count(name, 20, [virus](const Position& p, Action a) {
            return a.type() == ActionType::Move && p.isLinkAt(a.from()) != virus &&
                   rankOf(a.to()) > rankOf(a.from());
        });
    };
    for (const char* name : {"baiter", "indie-bait", "bluffer"})
        EXPECT_GT(forward(name, true), 3 * forward(name, false)) << name;
}

TEST(League, TraderTakesWhatItCan) {
    // Of its actions with a capture available (20 games), nearly all capture.
    int available = 0, taken = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        for (const auto& [pos, a] :
             sideOneActions(play("trader", "greedy", seed, Rules::standard()))) {
            bool any = false;
            for (Action b : pos.legalActions())
                any |= b.type() == ActionType::Move && (pos.cards(Side::Two) & bit(b.to())) &&
                       !(pos.faceUp() & bit(b.to()));
            if (!any) continue;
            ++available;
            taken += a.type() == ActionType::Move && (pos.cards(Side::Two) & bit(a.to()));
        }
    }
    ASSERT_GT(available, 10);
    EXPECT_GE(taken, available * 9 / 10);
}

}  // namespace
}  // namespace rainet::ai

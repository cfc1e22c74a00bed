// Information sets against exhaustive enumeration: every hidden arrangement and NF swap bit is
// replayed, and the full positions whose observations match the viewer's must be exactly the
// consistent worlds the InfoSet keeps; its sampler must be uniform over them.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "core/infoset.h"
#include "support/core_helpers.h"
#include "support/infoset_helpers.h"

namespace rainet {
namespace {

std::vector<std::uint8_t> allArrangements() {
    std::vector<std::uint8_t> out;
    for (int m = 0; m < 256; ++m)
        if (std::popcount(static_cast<unsigned>(m)) == 4)
            out.push_back(static_cast<std::uint8_t>(m));
    return out;
}

// Plays `actions` from the setups; returns the viewer's observations (empty optional if a step is
// illegal or the game ended early) and the final position.
std::optional<std::vector<Observation>> observations(std::uint8_t s1, std::uint8_t s2,
                                                     const std::vector<std::string>& actions,
                                                     Viewer v, Position& final) {
    Position p = *Position::fromSetups(s1, s2);
    std::vector<Observation> out;
    for (const auto& text : actions) {
        const Action a = *parseAction(text);
        if (!p.isLegal(a)) return std::nullopt;
        out.push_back(observe(p, a, v));
        p.doAction(a);
    }
    final = p;
    return out;
}

struct Scenario {
    const char* name;
    std::vector<std::string> actions;  // with the real NF swap bits
};

// VC shows e7, side 2 then plays NF on it and d7; the card from e7 is later captured on e4.
const Scenario kScenarios[] = {
    {"check_then_notfound_then_capture",
     {"VC+e7", "NF+d7e7:swap", "d2-d3", "e7-e6", "e2-e3", "e6-e5", "d3-d4", "e5-e4", "e3-e4"}},
    {"escape_and_own_notfound",
     {"NF+d2e2:swap", "e7-e6", "d2-d3", "e6-e5", "d3-d4", "e5-e4", "VC+e4", "e4-e3", "d4-d5",
      "e3-e2", "d5-d6", "e2-e1", "d6-c6", "e1-srv"}},
};

class InfoSetEnumeration : public ::testing::TestWithParam<std::tuple<int, Viewer, int>> {};

TEST_P(InfoSetEnumeration, WorldsAreExactlyTheConsistentPositions) {
    const auto [scenarioIndex, viewer, setupSeed] = GetParam();
    const Scenario& sc = kScenarios[scenarioIndex];
    const auto arrangements = allArrangements();
    const std::uint8_t real1 = arrangements[(setupSeed * 17) % 70],
                       real2 = arrangements[(setupSeed * 29 + 5) % 70];
    Position real;
    auto realObs = observations(real1, real2, sc.actions, viewer, real);
    ASSERT_TRUE(realObs.has_value());

    InfoSet info(View::of(*Position::fromSetups(real1, real2), viewer));
    for (const Observation& o : *realObs) ASSERT_FALSE(info.observe(o).has_value());
    EXPECT_EQ(info.view().toString(), View::of(real, viewer).toString());

    // Exhaustive: every arrangement of the sides the viewer cannot see, every swap bit.
    std::set<std::string> expected;
    const bool sees1 = seesIdentitiesOf(viewer, Side::One),
               sees2 = seesIdentitiesOf(viewer, Side::Two);
    const std::vector<std::uint8_t> c1 = sees1 ? std::vector<std::uint8_t>{real1} : arrangements;
    const std::vector<std::uint8_t> c2 = sees2 ? std::vector<std::uint8_t>{real2} : arrangements;
    std::vector<std::vector<std::string>> variants{sc.actions};
    for (std::size_t i = 0; i < sc.actions.size(); ++i) {
        if (sc.actions[i].rfind("NF+", 0) != 0) continue;
        const std::size_t n = variants.size();
        for (std::size_t k = 0; k < n; ++k) {
            auto v = variants[k];
            v[i] = v[i].substr(0, 7) + (v[i].substr(7) == ":swap" ? ":keep" : ":swap");
            variants.push_back(v);
        }
    }
    for (auto m1 : c1)
        for (auto m2 : c2)
            for (const auto& actions : variants) {
                Position final;
                auto obs = observations(m1, m2, actions, viewer, final);
                if (obs && *obs == *realObs) expected.insert(final.toString());
            }
    std::set<std::string> got;
    for (const Position& w : info.worlds()) got.insert(w.toString());
    EXPECT_EQ(got, expected);
    EXPECT_EQ(test::worldCount(info), expected.size());
    RecordProperty("worlds", static_cast<int>(expected.size()));
    EXPECT_GT(expected.size(), 1u);
    EXPECT_TRUE(expected.count(real.toString()));

    // Uniform sampling: a chi-square test over the worlds with a fixed seed.
    std::map<std::string, int> counts;
    Rng rng(99);
    const int perWorld = 40;
    const int samples = perWorld * static_cast<int>(expected.size());
    for (int i = 0; i < samples; ++i) {
        const std::string s = info.sample(rng).toString();
        ASSERT_TRUE(expected.count(s)) << "sampled an inconsistent world " << s;
        ++counts[s];
    }
    double chi2 = 0;
    for (const auto& w : expected) chi2 += std::pow(counts[w] - perWorld, 2) / perWorld;
    const double df = static_cast<double>(expected.size()) - 1;
    EXPECT_LT(chi2, df + 6 * std::sqrt(2 * df) + 10) << "worlds " << expected.size();
}

INSTANTIATE_TEST_SUITE_P(Scenarios, InfoSetEnumeration,
                         ::testing::Combine(::testing::Values(0, 1),
                                            ::testing::Values(Viewer::Side1, Viewer::Side2,
                                                              Viewer::Spectator),
                                            ::testing::Values(0, 1, 2)));

TEST(InfoSet, SpectatorKnowsBothSidesIndependently) {
    Position p = Position::start();
    InfoSet info(View::of(p, Viewer::Spectator));
    EXPECT_EQ(test::worldCount(info), 70u * 70u);
    for (const char* a : {"VC+e7", "VC+e2"}) {
        const Action x = *parseAction(a);
        ASSERT_FALSE(info.observe(observe(p, x, Viewer::Spectator)).has_value());
        p.doAction(x);
    }
    EXPECT_EQ(test::worldCount(info), 35u * 35u);  // e7 and e2 are known viruses
    EXPECT_EQ(test::linkProbability(info, makeSquare(4, 6)), 0.0);
    EXPECT_DOUBLE_EQ(test::linkProbability(info, makeSquare(0, 7)), 4.0 / 7.0);
}

TEST(InfoSet, NotFoundAfterCheckKeepsOneVirusBetweenTheTwo) {
    Position p = Position::start();  // e7 is a virus, d7 a link
    InfoSet info(View::of(p, Viewer::Side1));
    for (const char* a : {"VC+e7", "NF+d7e7:keep"}) {
        const Action x = *parseAction(a);
        ASSERT_FALSE(info.observe(observe(p, x, Viewer::Side1)).has_value());
        p.doAction(x);
    }
    // At least one of d7, e7 is a virus (counts alone would allow both to be links), and the two
    // are now alike to side 1.
    const double pd7 = test::linkProbability(info, makeSquare(3, 6)),
                 pe7 = test::linkProbability(info, makeSquare(4, 6));
    EXPECT_DOUBLE_EQ(pd7, pe7);
    EXPECT_GT(pd7, 0.0);
    EXPECT_LT(pd7, 0.5);
    bool bothViruses = false;
    for (const Position& w : info.worlds()) {
        const int links = w.isLinkAt(makeSquare(3, 6)) + w.isLinkAt(makeSquare(4, 6));
        EXPECT_LE(links, 1) << w.toString();
        bothViruses |= links == 0;
    }
    EXPECT_TRUE(bothViruses);
}

TEST(InfoSet, BadObservationChangesNothing) {
    InfoSet info(View::of(Position::start(), Viewer::Side2));
    const std::string before = info.view().toString();
    EXPECT_TRUE(info.observe(Observation{*parseAction("d2-d4"), false, std::nullopt}).has_value());
    EXPECT_TRUE(info.observe(Observation{*parseAction("VC+e7"), false, std::nullopt})
                    .has_value());  // lacks reveal; and not side 1's
    EXPECT_EQ(info.view().toString(), before);
    EXPECT_TRUE(info.history().empty());
}

}  // namespace
}  // namespace rainet

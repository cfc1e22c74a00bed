// Perft from fixed positions: exact counts at depths 1-3, each checked against the committed
// number AND against the independent reference generator in tests/support (no shared code).
#include <gtest/gtest.h>

#include "core/perft.h"
#include "support/reference_rules.h"

namespace rainet {
namespace {

struct PerftCase {
    const char* name;
    const char* position;
    bool official;
    std::uint64_t counts[3];
};

const PerftCase kCases[] = {
    {"start", "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", false, {126, 15822, 1348618}},
    {"start_official",
     "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0",
     true,
     {138, 18994, 1810082}},
    {"boosts",
     "lll3vv/3l1v2/8/3L+4/4v+3/8/2L1V3/LL3VVV 1 CNcn -/- 8 8",
     false,
     {134, 17847, 1699574}},
    {"firewalls",
     "lll2v1v/3lv3/8/5v#2/2L#5/8/3LV3/L1L2VVV 1 CNcn -/- 10 10",
     false,
     {88, 7744, 402596}},
    {"vc_nf_spent", "lll2vvv/3l4/4v3/8/8/3V4/4L3/LLL2VVV 1 - -/- 6 6", false, {65, 4168, 147406}},
    {"reveals",
     "lll2vvv/3l4/8/3L!4/4v+!3/8/1L2V3/L1L2VVV 1 Nn -/- 10 10",
     false,
     {126, 15302, 1304387}},
    {"stacks_near_four",
     "v7/1v1l4/8/2L1v3/3vL3/8/L6L/5V2 1 Nn lll/VVV 3 60",
     false,
     {91, 8283, 490253}},
    {"no_progress_limit",
     "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 98 98",
     false,
     {126, 15822, 0}},
    {"official_exits",
     "lll1v1vv/2lL+4/8/8/8/4v+3/4V3/LL1L1VVV 1 CNcn -/- 14 14",
     true,
     {143, 20031, 2012338}},
};

void PrintTo(const PerftCase& c, std::ostream* os) {
    *os << c.name;
}

class Perft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(Perft, EngineMatchesCommittedCounts) {
    const PerftCase& c = GetParam();
    auto p = Position::parse(c.position, c.official ? Rules::official() : Rules::standard());
    ASSERT_TRUE(p.ok()) << p.error().message;
    for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(*p, d), c.counts[d - 1]) << "depth " << d;
    EXPECT_EQ(p->toString(), c.position);  // perft leaves the position as it found it
}

TEST_P(Perft, ReferenceMatchesCommittedCounts) {
    const PerftCase& c = GetParam();
    auto s = reference::parse(c.position);
    ASSERT_TRUE(s.has_value());
    const reference::Options o{c.official, 100};
    for (int d = 1; d <= 3; ++d)
        EXPECT_EQ(reference::perft(*s, d, o), c.counts[d - 1]) << "depth " << d;
}

TEST_P(Perft, DivideMatchesReferencePerRootAction) {
    const PerftCase& c = GetParam();
    Position p = *Position::parse(c.position, c.official ? Rules::official() : Rules::standard());
    auto s = *reference::parse(c.position);
    const reference::Options o{c.official, 100};
    for (auto& [a, n] : perftDivide(p, 2)) {
        auto child = reference::apply(s, toString(a), o);
        ASSERT_TRUE(child.has_value()) << toString(a);
        EXPECT_EQ(reference::perft(*child, 1, o), n) << toString(a);
    }
}

INSTANTIATE_TEST_SUITE_P(Positions, Perft, ::testing::ValuesIn(kCases),
                         [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace rainet

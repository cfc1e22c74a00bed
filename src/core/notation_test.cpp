// Notation (RULES.md §7): squares, actions, position and view strings; errors name the field and
// the offending character; malformed input never crashes and never yields a half-built state.
#include <gtest/gtest.h>

#include "core/position.h"
#include "core/random.h"
#include "core/record.h"
#include "core/view.h"

namespace rainet {
namespace {

TEST(Notation, Squares) {
    EXPECT_EQ(squareName(0), "a1");
    EXPECT_EQ(squareName(63), "h8");
    EXPECT_EQ(*parseSquare("e4"), makeSquare(4, 3));
    for (const char* bad : {"", "a", "i1", "a9", "a0", "A1", "e44"})
        EXPECT_FALSE(parseSquare(bad).ok()) << bad;
}

TEST(Notation, EveryActionFormRoundTrips) {
    for (const char* s : {"d2-d3", "d2-e3", "d8-srv", "LB+d2", "LB-d3", "FW+e5", "FW-e5", "VC+e7",
                          "NF+d2e2:swap", "NF+d2e2:keep"}) {
        auto a = parseAction(s);
        ASSERT_TRUE(a.ok()) << s;
        EXPECT_EQ(toString(*a), s);
    }
}

TEST(Notation, NotFoundSquaresAscendingAndPublicForm) {
    EXPECT_FALSE(parseAction("NF+e2d2:swap").ok());
    EXPECT_EQ(toString(Action::notFound(12, 11, true)), "NF+d2e2:swap");
    EXPECT_EQ(toString(*parseAction("NF+d2e2:swap"), Notation::Public), "NF+d2e2");
    EXPECT_FALSE(parseAction("NF+d2e2").ok());
    EXPECT_TRUE(parseAction("NF+d2e2", true).ok());
}

TEST(Notation, MalformedActionsAreErrors) {
    for (const char* bad :
         {"", "d2", "d2-", "d2-d2", "d2d3", "d2-z3", "LB+", "LB+d9", "FW*e5", "VC+e7x",
          "NF+d2e2:maybe", "NF+d2:swap", "xx-srv", "d2-srvx", "d2-d3-d4", "ЖЖ-d3"}) {
        EXPECT_FALSE(parseAction(bad).ok()) << bad;
    }
}

TEST(PositionString, StartRoundTrips) {
    auto p = Position::parse(Position::kStartString);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->toString(), Position::kStartString);
}

void expectError(const std::string& text, const std::string& fragment) {
    auto p = Position::parse(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_NE(p.error().message.find(fragment), std::string::npos)
        << text << " -> " << p.error().message;
}

TEST(PositionString, ErrorsNameTheFieldAndCharacter) {
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVQ 1 CNcn -/- 0 0",
                "board: unexpected 'Q' at character 33");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3 1 CNcn -/- 0 0", "board: fewer than 8 ranks");
    expectError("lll2vvv/3lv4/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0",
                "board: rank 7 has more than 8 squares");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 3 CNcn -/- 0 0",
                "side to move: expected 1 or 2");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 NC -/- 0 0",
                "once-per-game cards: unexpected 'C'");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -- 0 0", "stacks: expected two stacks");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- x 0",
                "no-progress counter: unexpected 'x'");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 01", "ply number: leading zero");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0", "expected 6 fields");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV  1 CNcn -/- 0 0", "side to move: empty field");
    expectError("lll2vvv/3lv3/8/8/8/8/3LX3/LLL2VVV 1 CNcn -/- 0 0", "X/x appear only in views");
    expectError("lll2vvv/3lv3/8/8/8/8/3L!+V3/LLL2VVV 1 CNcn -/- 0 0", "out of order");
    expectError("lll2vvv/3lv3/8/8/44/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", "two digits in a row");
}

TEST(PositionString, SemanticChecks) {
    expectError("lll2vvv/3lv3/8/8/8/8/3LL3/LLL2VVV 1 CNcn -/- 0 0", "side 1 owns 5 links");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLLV1VVV 1 CNcn -/- 0 0", "side 1 owns 5 viruses");
    expectError("lll2vvv/3lv3/8/8/8/8/3L+V+3/LLL2VVV 1 CNcn -/- 0 0", "more than one LB carrier");
    EXPECT_TRUE(Position::parse("lll2vvv/3lv3/8/8/F7/8/3LV3/LLL2VVV 1 CNcn -/- 0 0").ok());
    expectError("lll2vvv/3lv3/8/8/F6F/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", "more than one firewall");
    expectError("lll2vvv/3lv3/8/8/8/8/4V3/LLLL1VVV 1 CNcn -/- 0 0", "own exit");
    expectError("lll2vvv/3lv3/8/8/8/8/3L!V!3/LLL2VVV 1 Ccn -/- 0 0", "more than one face-up card");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 0 0", "cannot move at ply 0");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 4 2", "larger than the ply number");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 102 102", "beyond the limit");
    expectError("3lvvvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", "side 2 owns 2 links");
    EXPECT_TRUE(
        Position::parse("lll2vvv/3lv3/8/8/8/8/4V3/LLLL1VVV 2 CNcn -/- 1 1", Rules::official())
            .ok());
}

// Regression (found by fuzzing): the parser accepts up to 16 cards per stack and
// Position::parse hashed before validating, so a stack of more than 8 of one kind indexed past the
// hash's key table (UBSan: index out of bounds in computeHash). Now the semantic check comes
// first and these are plain errors.
TEST(PositionString, OversizedStacksAreErrorsNotHashed) {
    expectError("8/8/8/8/8/8/8/8 1 - LLLLLLLLL/- 0 0", "position: side 1 owns 9 links");
    expectError("8/8/8/8/8/8/8/8 1 - -/VVVVVVVVVVVVVVVV 0 0", "position: side 1 owns 0 links");
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn llllllllllllllll/- 0 0",
                "stacks: side 1's stack holds more than 4 of a kind");
}

TEST(PositionString, FirewallOnAnExitOrUnderTheOpponentIsRejected) {
    expectError("lll2vvv/3lv3/8/8/8/8/3LV3/LLLF1VVV 1 CNcn -/- 0 0", "firewall stands on an exit");
    EXPECT_FALSE(Position::parse("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0 ").ok());
}

// Robustness: every prefix, random bytes, and single-character mutations of valid strings give
// errors or valid positions, never crashes (this suite also runs under ASan + UBSan).
TEST(ParserRobustness, TruncationsOfValidStrings) {
    for (const std::string& s :
         {std::string(Position::kStartString),
          std::string("v7/1v1l4/8/2L1v3/3vL3/8/L6L/5V2 1 Nn lll/VVV 3 60"),
          std::string("lll2vvv/3l4/8/3L!4/4v+!3/8/1L2V3/L1L2VVV 1 Nn -/- 10 10")}) {
        for (std::size_t n = 0; n < s.size(); ++n) {
            // A prefix may happen to be valid ("... 60" cut to "... 6"); then it must round-trip.
            auto p = Position::parse(s.substr(0, n));
            if (p.ok()) {
                EXPECT_EQ(p->toString(), s.substr(0, n));
            }
            if (s == Position::kStartString) {
                EXPECT_FALSE(p.ok()) << s.substr(0, n);
            }
            (void)View::parse(s.substr(0, n), Viewer::Spectator);
        }
    }
}

TEST(ParserRobustness, OversizedInput) {
    std::string big(1 << 20, 'v');
    EXPECT_FALSE(Position::parse(big).ok());
    EXPECT_FALSE(parseAction(big).ok());
    EXPECT_FALSE(parseRecord(big).ok());
    std::string deep = std::string(Position::kStartString) + std::string(500, '9');
    EXPECT_FALSE(Position::parse(deep).ok());
}

TEST(ParserRobustness, RandomBytesAndMutations) {
    Rng rng(7);
    const std::string base(Position::kStartString);
    const std::string alphabet = "lLvVxXfF+!#/12345678 -CNcn09\x00\xff";
    int accepted = 0;
    for (int i = 0; i < 200000; ++i) {
        std::string s;
        if (i % 2) {
            s = base;
            const int edits = 1 + static_cast<int>(rng.below(3));
            for (int e = 0; e < edits; ++e) {
                const std::size_t at = rng.below(static_cast<std::uint32_t>(s.size()));
                const char c = alphabet[rng.below(static_cast<std::uint32_t>(alphabet.size()))];
                switch (rng.below(3)) {
                    case 0:
                        s[at] = c;
                        break;
                    case 1:
                        s.insert(s.begin() + static_cast<long>(at), c);
                        break;
                    default:
                        s.erase(at, 1);
                }
            }
        } else {
            const int n = static_cast<int>(rng.below(90));
            for (int k = 0; k < n; ++k) s += static_cast<char>(rng.below(256));
        }
        auto p = Position::parse(s);
        if (p.ok()) {
            ++accepted;
            ASSERT_FALSE(p->validate().has_value());
            ASSERT_EQ(Position::parse(p->toString())->toString(), p->toString());
        }
        for (Viewer v : {Viewer::Side1, Viewer::Side2, Viewer::Spectator}) (void)View::parse(s, v);
        (void)parseAction(s.substr(0, 16));
        (void)parseAction(s.substr(0, 16), true);
    }
    EXPECT_GT(accepted, 0);  // some mutations stay valid (e.g. swapping identities)
}

TEST(ParserRobustness, RandomRecords) {
    Rng rng(11);
    const std::string base =
        "[Preset \"standard\"]\n[Result \"*\"]\n[Setup1 \"LLLVVVLV\"]\n[Setup2 \"LLLVVVLV\"]\n\n1. "
        "d2-d3 e7-e6 *\n";
    for (int i = 0; i < 20000; ++i) {
        std::string s = base;
        const int edits = 1 + static_cast<int>(rng.below(4));
        for (int e = 0; e < edits; ++e) {
            const std::size_t at = rng.below(static_cast<std::uint32_t>(s.size()));
            s[at] = static_cast<char>(rng.below(256));
        }
        auto r = parseRecord(s);
        if (r.ok() && !r->isPublic) (void)replay(*r);
    }
    SUCCEED();
}

TEST(ViewString, ParseRespectsWhatTheViewerMaySee) {
    EXPECT_TRUE(
        View::parse("xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", Viewer::Side1).ok());
    EXPECT_FALSE(
        View::parse("xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", Viewer::Side2).ok());
    EXPECT_FALSE(
        View::parse("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0", Viewer::Spectator).ok());
    EXPECT_TRUE(
        View::parse("xxx2xxx/3xx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0", Viewer::Spectator).ok());
    EXPECT_FALSE(
        View::parse("xxx2xxx/3xx3/8/8/8/8/3XX3/XXX3XX 1 CNcn -/- 0 0", Viewer::Spectator).ok());
}

}  // namespace
}  // namespace rainet

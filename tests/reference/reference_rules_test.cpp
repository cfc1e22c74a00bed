// Tests of the reference rules themselves: every example of RULES.md section 8, every decision of
// docs/rules.md (in both presets where they differ), position strings, and perft from the start.
#include "support/reference_rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace rainet::reference {
namespace {

const Options kStandard{};
const Options kOfficial{.official = true};

constexpr const char* kStart = "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0";

State pos(std::string_view text) {
    std::optional<State> state = parse(text);
    if (!state) throw std::runtime_error("position does not parse: " + std::string(text));
    return *state;
}

State play(const State& state, std::string_view action, const Options& options) {
    std::optional<State> next = apply(state, action, options);
    if (!next) throw std::runtime_error("action is not legal: " + std::string(action));
    return *next;
}

bool has(const std::vector<std::string>& actions, std::string_view action) {
    return std::find(actions.begin(), actions.end(), action) != actions.end();
}

bool legal(std::string_view position, std::string_view action, const Options& options) {
    return has(legalActions(pos(position), options), action);
}

// The legal actions whose text starts with `prefix`, e.g. all moves of the card on c3 ("c3-").
std::vector<std::string> withPrefix(const std::vector<std::string>& actions,
                                    std::string_view prefix) {
    std::vector<std::string> out;
    for (const std::string& a : actions) {
        if (a.starts_with(prefix)) out.push_back(a);
    }
    return out;
}

// Moves and escapes: the actions that start with a square.
std::vector<std::string> cardActions(const std::vector<std::string>& actions) {
    std::vector<std::string> out;
    for (const std::string& a : actions) {
        if (a[0] >= 'a' && a[0] <= 'h') out.push_back(a);
    }
    return out;
}

using Strings = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// Position strings

TEST(ReferencePosition, StartPositionRoundTrips) {
    State start = pos(kStart);
    EXPECT_EQ(format(start), kStart);
    EXPECT_EQ(start.sideToMove, 1);
    EXPECT_EQ(start.board[0][0].card.owner, 1);  // a1
    EXPECT_FALSE(start.board[0][0].card.virus);  // a link
    EXPECT_TRUE(start.board[7][7].card.virus);   // h8, a side-2 virus
    EXPECT_EQ(start.board[6][3].card.owner, 2);  // d7
    EXPECT_EQ(start.board[0][3].card.owner, 0);  // d1, an exit, is empty
}

TEST(ReferencePosition, CanonicalStringsRoundTrip) {
    for (const char* text : {
             kStart,
             // Every mark: boosted, face up (side 2 used VC), on its owner's firewall; an empty
             // square with side 2's firewall; captures and escapes in both stacks.
             "l1l3v1/3l4/1f3v+2/8/2L+!#5/8/4V3/LL3V1V 1 CNn lLv/Vv 5 40",
             // Empty firewall squares of both sides, nothing left of the once-per-game cards.
             "lll2vvv/3lv3/8/4F3/8/2f5/3LV3/LLL2VVV 1 - -/- 0 10",
             // A side-2 card on its own firewall, side 1's card revealed, side 2 to move.
             "lll2vv#v/3lv3/8/8/8/8/3L!V3/LLL2VVV 2 Nn -/- 1 3",
             // A side-2 card on side 1's exit, both VC used; side 2 has three escapes.
             "v4vvv/8/8/8/8/8/3LV3/LLLl1VVV 2 Nn -/lll 5 21",
         }) {
        std::optional<State> state = parse(text);
        ASSERT_TRUE(state) << text;
        EXPECT_EQ(format(*state), text);
    }
}

TEST(ReferencePosition, StacksAreWrittenCapturesFirstThenLinksFirst) {
    // Order within a stack is free on input; the writer emits captures before escapes and, within
    // each, links before viruses.
    EXPECT_EQ(format(pos("l1l3v1/3l4/1f3v+2/8/2L+!#5/8/4V3/LL3V1V 1 CNn Lvl/vV 5 40")),
              "l1l3v1/3l4/1f3v+2/8/2L+!#5/8/4V3/LL3V1V 1 CNn lLv/Vv 5 40");
}

TEST(ReferencePosition, StackLettersFollowOrigin) {
    // Side 1 captured a side-2 link (lowercase in side 1's stack) and escaped a link (uppercase).
    State s = pos("l1l3v1/3l4/1f3v+2/8/2L+!#5/8/4V3/LL3V1V 1 CNn lLv/Vv 5 40");
    EXPECT_EQ(s.stacks[0].capturedLinks, 1);
    EXPECT_EQ(s.stacks[0].capturedViruses, 1);
    EXPECT_EQ(s.stacks[0].escapedLinks, 1);
    EXPECT_EQ(s.stacks[0].escapedViruses, 0);
    EXPECT_EQ(s.stacks[1].capturedViruses, 1);  // 'V': a side-1 virus captured by side 2
    EXPECT_EQ(s.stacks[1].escapedViruses, 1);   // 'v': side 2's own escaped virus
}

TEST(ReferencePosition, MalformedStringsAreRejected) {
    for (const char* text : {
             "",
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0",      // five fields
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0 0",  // seven fields
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV  1 CNcn -/- 0 0",   // double space
             "lll2vvv/3lv3/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0",      // seven ranks
             "lll3vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0",    // nine files
             "lll1vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0",    // seven files
             "lll2vvv/3lv3/44/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0",   // two digits in a row
             "lll2vvv/3lv3/8/8/8/8/3LX3/LLL2VVV 1 CNcn -/- 0 0",    // unknown letter
             "lll2vvv/3lv3/8/8/8/8/3L!+V3/LLL2VVV 2 CNn -/- 1 1",   // marks out of order
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 3 CNcn -/- 0 0",    // side 3
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 NCcn -/- 0 0",    // wrong order
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CCcn -/- 0 0",    // repeated letter
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn - 0 0",      // one stack
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn /- 0 0",     // empty stack, no '-'
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 01 1",   // leading zero
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- -1 0",   // negative
         }) {
        EXPECT_FALSE(parse(text)) << text;
    }
}

TEST(ReferencePosition, InvalidPositionsAreRejected) {
    for (const char* text : {
             // A side does not own exactly 4 links and 4 viruses.
             "lll2vvv/3lv3/8/8/8/8/3LL3/LLL2VVV 1 CNcn -/- 0 0",
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn L/- 0 0",
             // A stack with more than 4 of a kind (5 links for side 1).
             "5vvv/4v3/8/8/8/8/4V3/LLL2VVV 1 CNcn llllL/- 0 20",
             // Two LB carriers of one side.
             "lll2vvv/3lv3/8/8/8/8/3L+V+3/LLL2VVV 1 CNcn -/- 2 2",
             // Two firewalls of one side.
             "lll2vvv/3lv3/8/8/2F2F2/8/3LV3/LLL2VVV 1 CNcn -/- 2 2",
             // A firewall on an exit.
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLLF1VVV 1 CNcn -/- 2 2",
             // A face-up card while the opponent's VC is unused.
             "lll2vvv/3lv3/8/8/8/8/3L!V3/LLL2VVV 2 CNcn -/- 1 1",
             // Two face-up cards of one side.
             "lll2vvv/3lv3/8/8/8/8/3L!V!3/LLL2VVV 2 CNn -/- 1 1",
             // Side to move does not match the ply's parity.
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 0 0",
             // No-progress counter larger than the ply number.
             "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 4 2",
         }) {
        EXPECT_FALSE(parse(text)) << text;
    }
}

// ---------------------------------------------------------------------------------------------
// Perft from the start position

TEST(ReferencePerft, StartDepth1Standard) {
    // Side 1 to move, standard preset:
    //   moves 10: a1-a2 b1-b2 c1-c2 f1-f2 g1-g2 h1-h2 d2-c2 d2-d3 e2-e3 e2-f2 (c1, f1, d2, e2 may
    //             not enter the own exits d1/e1);
    //   LB attaches 8: one per own card;
    //   FW placements 44: 64 squares - 16 cards - 4 exits (all empty);
    //   VC targets 8: the face-down side-2 cards;
    //   NF 56: C(8,2) = 28 pairs x (:swap, :keep).
    // 10 + 8 + 44 + 8 + 56 = 126.
    std::vector<std::string> actions = legalActions(pos(kStart), kStandard);
    EXPECT_EQ(cardActions(actions).size(), 10u);
    EXPECT_EQ(withPrefix(actions, "LB+").size(), 8u);
    EXPECT_EQ(withPrefix(actions, "FW+").size(), 44u);
    EXPECT_EQ(withPrefix(actions, "VC+").size(), 8u);
    EXPECT_EQ(withPrefix(actions, "NF+").size(), 56u);
    EXPECT_EQ(actions.size(), 126u);
    EXPECT_EQ(perft(pos(kStart), 1, kStandard), 126u);
}

TEST(ReferencePerft, StartDepth1Official) {
    // Official: 4 more moves onto the own exits (c1-d1, d2-d1, e2-e1, f1-e1) and 8 more FW
    // placements (under each own card): 14 + 8 + 52 + 8 + 56 = 138.
    std::vector<std::string> actions = legalActions(pos(kStart), kOfficial);
    EXPECT_EQ(cardActions(actions).size(), 14u);
    EXPECT_EQ(withPrefix(actions, "LB+").size(), 8u);
    EXPECT_EQ(withPrefix(actions, "FW+").size(), 52u);
    EXPECT_EQ(withPrefix(actions, "VC+").size(), 8u);
    EXPECT_EQ(withPrefix(actions, "NF+").size(), 56u);
    EXPECT_EQ(perft(pos(kStart), 1, kOfficial), 138u);
}

TEST(ReferencePerft, StartDepth2Standard) {
    // Side 2 answers with its own 126 (by symmetry), except after a side-1 FW placement: side 2
    // then has one FW square less (125), and a wall on a7 b7 d6 e6 g7 h7 blocks one side-2 move,
    // on c7 or f7 two (10 in all). The cards never touch at depth 2.
    //   moves 10 x 126 + LB 8 x 126 + FW (44 x 125 - 10) + VC 8 x 126 + NF 56 x 126
    //   = 1260 + 1008 + 5490 + 1008 + 7056 = 15822.
    EXPECT_EQ(perft(pos(kStart), 2, kStandard), 15822u);
}

TEST(ReferencePerft, StartDepth2Official) {
    // Side 2 has 138 answers, except: after the 4 side-1 moves onto its own exit (c1-d1 d2-d1
    // e2-e1 f1-e1), the vacated square is a new FW square for side 2 (139); after the 44 side-1
    // FW placements on empty squares, side 2 has 137 minus the 10 blocked moves; the 8 placements
    // under side-1 cards change nothing for side 2.
    //   moves (4 x 139 + 10 x 138) + LB 8 x 138 + FW (44 x 137 - 10 + 8 x 138) + VC 8 x 138
    //   + NF 56 x 138 = 1936 + 1104 + 7122 + 1104 + 7728 = 18994.
    EXPECT_EQ(perft(pos(kStart), 2, kOfficial), 18994u);
}

TEST(ReferencePerft, StartDepth3) {
    // Not derived by hand; the values this reference computes, for cross-checking the engine.
    EXPECT_EQ(perft(pos(kStart), 3, kStandard), 1348618u);
    EXPECT_EQ(perft(pos(kStart), 3, kOfficial), 1810082u);
}

TEST(ReferencePerft, DepthZeroIsOne) {
    EXPECT_EQ(perft(pos(kStart), 0, kStandard), 1u);
}

// ---------------------------------------------------------------------------------------------
// RULES.md section 8

// A boosted side-1 card on c3 (c1 is empty, d2 holds an own card).
TEST(ReferenceRulesExamples, BoostedCardCapturesOnSecondSquare) {
    // c4 empty, a side-2 card on c5: c3-c5 captures on the second square.
    const char* text = "ll3vvv/3lv3/8/2l5/8/2L+5/3LV3/LL3VVV 1 CNcn -/- 4 4";
    EXPECT_EQ(withPrefix(legalActions(pos(text), kStandard), "c3-"),
              (Strings{"c3-a3", "c3-b2", "c3-b3", "c3-b4", "c3-c1", "c3-c2", "c3-c4", "c3-c5",
                       "c3-d3", "c3-d4", "c3-e3"}));
    State after = play(pos(text), "c3-c5", kStandard);
    EXPECT_EQ(format(after), "ll3vvv/3lv3/8/2L+5/8/8/3LV3/LL3VVV 2 CNcn l/- 0 5");
}

TEST(ReferenceRulesExamples, BoostedCardCaptureOnFirstSquareStops) {
    // A side-2 card on c4: northward only c3-c4 (capture, stop); b4 and d4 are still reached
    // through b3 and d3.
    const char* text = "ll3vvv/3lv3/8/8/2l5/2L+5/3LV3/LL3VVV 1 CNcn -/- 4 4";
    for (const Options& o : {kStandard, kOfficial}) {
        EXPECT_EQ(withPrefix(legalActions(pos(text), o), "c3-"),
                  (Strings{"c3-a3", "c3-b2", "c3-b3", "c3-b4", "c3-c1", "c3-c2", "c3-c4", "c3-d3",
                           "c3-d4", "c3-e3"}));
    }
    EXPECT_FALSE(apply(pos(text), "c3-c5", kStandard));
}

TEST(ReferenceRulesExamples, CardOnOpponentExitEntersServer) {
    // A side-1 link on d8 (an opponent exit) plays d8-srv; it goes face down into side 1's stack.
    const char* text = "lllL1vvv/3lv3/8/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    for (const Options& o : {kStandard, kOfficial}) {
        EXPECT_EQ(withPrefix(legalActions(pos(text), o), "d8-"),
                  (Strings{"d8-c8", "d8-d7", "d8-e8", "d8-srv"}));
        EXPECT_EQ(format(play(pos(text), "d8-srv", o)),
                  "lll2vvv/3lv3/8/8/8/8/3LV3/LL3VVV 2 CNcn L/- 0 11");
    }
}

TEST(ReferenceRulesExamples, BoostedCardStopsOnOpponentExitInStandard) {
    // A boosted side-1 card on d7, d8 empty: d7-d8 but not d7-srv in standard; it may not pass
    // over d8 either (d7-e8 would need it; e7 holds a side-2 card).
    const char* text = "lll2vvv/3L+v3/3l4/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    std::vector<std::string> actions = legalActions(pos(text), kStandard);
    EXPECT_TRUE(has(actions, "d7-d8"));
    EXPECT_FALSE(has(actions, "d7-srv"));
    EXPECT_FALSE(has(actions, "d7-e8"));
    EXPECT_TRUE(has(actions, "d7-c8"));  // through the empty c7, capturing on c8
    EXPECT_FALSE(apply(pos(text), "d7-srv", kStandard));
}

TEST(ReferenceRulesExamples, OwnExitIsForbiddenInStandardOnly) {
    State start = pos(kStart);
    for (const char* move : {"c1-d1", "d2-d1", "e2-e1", "f1-e1"}) {
        EXPECT_FALSE(has(legalActions(start, kStandard), move)) << move;
        EXPECT_FALSE(apply(start, move, kStandard)) << move;
        EXPECT_TRUE(has(legalActions(start, kOfficial), move)) << move;
    }
    EXPECT_EQ(format(play(start, "d2-d1", kOfficial)),
              "lll2vvv/3lv3/8/8/8/8/4V3/LLLL1VVV 2 CNcn -/- 1 1");
}

TEST(ReferenceRulesExamples, NotFoundLeavesBoostOnItsSquare) {
    // d2 carries LB, e2 was revealed by side 2's VC.
    const char* text = "lll2vvv/3lv3/8/8/8/8/3L+V!3/LLL2VVV 1 CNn -/- 2 2";
    State swapped = play(pos(text), "NF+d2e2:swap", kStandard);
    EXPECT_EQ(format(swapped), "lll2vvv/3lv3/8/8/8/8/3V+L3/LLL2VVV 2 Cn -/- 3 3");
    State kept = play(pos(text), "NF+d2e2:keep", kStandard);
    EXPECT_EQ(format(kept), "lll2vvv/3lv3/8/8/8/8/3L+V3/LLL2VVV 2 Cn -/- 3 3");
}

// Actions that end the game: the fourth link or virus reaching a stack, by capture or escape.
TEST(ReferenceRulesExamples, TheFourthLinkOrVirusEndsTheGame) {
    struct Ending {
        const char* what;
        const char* before;
        const char* action;
        const char* after;
        Outcome outcome;
    };
    const Ending endings[] = {
        {"capturing the fourth link wins", "5vvv/4v3/8/3l4/3L4/8/4V3/LLL2VVV 1 CNcn lll/- 3 20",
         "d4-d5", "5vvv/4v3/8/3L4/8/8/4V3/LLL2VVV 2 CNcn llll/- 0 21", Outcome::Side1Wins},
        {"capturing the fourth virus loses", "lll5/3l4/8/3v4/3L4/8/4V3/LLL2VVV 1 CNcn vvv/- 3 20",
         "d4-d5", "lll5/3l4/8/3L4/8/8/4V3/LLL2VVV 2 CNcn vvvv/- 0 21", Outcome::Side2Wins},
        {"escaping the own fourth virus loses", "lllV1vvv/3lv3/8/8/8/8/3L4/LLL5 1 CNcn VVV/- 0 20",
         "d8-srv", "lll2vvv/3lv3/8/8/8/8/3L4/LLL5 2 CNcn VVVV/- 0 21", Outcome::Side2Wins},
        {"side 2 escaping its fourth link wins", "v4vvv/8/8/8/8/8/3LV3/LLLl1VVV 2 CNcn -/lll 5 21",
         "d1-srv", "v4vvv/8/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/llll 0 22", Outcome::Side2Wins},
        {"side 2 capturing side 1's fourth link wins",
         "lll2vvv/3l4/8/8/4L3/4v3/4V3/5VVV 2 CNcn -/LLL 0 21", "e3-e4",
         "lll2vvv/3l4/8/8/4v3/8/4V3/5VVV 1 CNcn -/LLLL 0 22", Outcome::Side2Wins},
    };
    for (const Ending& e : endings) {
        SCOPED_TRACE(e.what);
        EXPECT_TRUE(legal(e.before, e.action, kStandard));
        State after = play(pos(e.before), e.action, kStandard);
        EXPECT_EQ(format(after), e.after);
        EXPECT_EQ(outcome(after, kStandard), e.outcome);
        EXPECT_TRUE(legalActions(after, kStandard).empty());
    }
}

// ---------------------------------------------------------------------------------------------
// docs/rules.md: movement

TEST(ReferenceDecisions, BoostedMoveMayNotPassOverOpponentExitInStandard) {
    // Boosted side-1 card on d7, d8 empty, e7 holds a side-2 card: e8 is reachable only over d8.
    const char* text = "lll2vvv/3L+v3/3l4/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    EXPECT_FALSE(legal(text, "d7-e8", kStandard));
    EXPECT_TRUE(legal(text, "d7-e8", kOfficial));
}

TEST(ReferenceDecisions, BoostedMoveMayPassOverOwnExitInOfficialOnly) {
    // Boosted d2, own card on c2, c1 and d1 empty: c1 is reachable only over d1 (the own exit),
    // e1 (own exit) over d1.
    const char* text = "lll2vvv/3lv3/8/8/8/8/2LL+V3/LL3VVV 1 CNcn -/- 2 2";
    EXPECT_EQ(withPrefix(legalActions(pos(text), kStandard), "d2-"),
              (Strings{"d2-c3", "d2-d3", "d2-d4", "d2-e3"}));
    EXPECT_EQ(withPrefix(legalActions(pos(text), kOfficial), "d2-"),
              (Strings{"d2-c1", "d2-c3", "d2-d1", "d2-d3", "d2-d4", "d2-e1", "d2-e3"}));
}

TEST(ReferenceDecisions, NoCardPassesThroughAnyFirewall) {
    // Boosted c3, side 1's own firewall on the empty c4: c3-c4 (onto the own wall) is legal,
    // c3-c5 (through it) is not.
    const char* own = "lll2vvv/3lv3/8/8/2F5/2L+5/3LV3/LL3VVV 1 CNcn -/- 2 2";
    for (const Options& o : {kStandard, kOfficial}) {
        EXPECT_TRUE(legal(own, "c3-c4", o));
        EXPECT_FALSE(legal(own, "c3-c5", o));
        EXPECT_TRUE(legal(own, "c3-b4", o));  // through b3
    }
    EXPECT_EQ(format(play(pos(own), "c3-c4", kStandard)),
              "lll2vvv/3lv3/8/8/2L+#5/8/3LV3/LL3VVV 2 CNcn -/- 3 3");

    // Side 2's firewall on c4: neither onto it nor through it.
    const char* theirs = "lll2vvv/3lv3/8/8/2f5/2L+5/3LV3/LL3VVV 1 CNcn -/- 2 2";
    for (const Options& o : {kStandard, kOfficial}) {
        EXPECT_FALSE(legal(theirs, "c3-c4", o));
        EXPECT_FALSE(legal(theirs, "c3-c5", o));
    }
}

TEST(ReferenceDecisions, CardNeverEntersOpponentFirewall) {
    // Side 2's firewall on d3 in front of d2.
    const char* text = "lll2vvv/3lv3/8/8/8/3f4/3LV3/LLL2VVV 1 CNcn -/- 2 2";
    EXPECT_FALSE(legal(text, "d2-d3", kStandard));
    EXPECT_FALSE(legal(text, "d2-d3", kOfficial));
    // A side-1 card on its own firewall (safe zone) on d6 cannot be captured by d7.
    const char* safe = "lll2vvv/3lv3/3L#4/8/8/8/4V3/LLL2VVV 2 CNcn -/- 5 5";
    EXPECT_FALSE(legal(safe, "d7-d6", kStandard));
    EXPECT_TRUE(legal(safe, "d7-c7", kStandard));
    // The card leaves its firewall behind when it moves on.
    EXPECT_EQ(format(play(play(pos(safe), "a8-a7", kStandard), "d6-c6", kStandard)),
              "1ll2vvv/l2lv3/2LF4/8/8/8/4V3/LLL2VVV 2 CNcn -/- 7 7");
}

TEST(ReferenceDecisions, BoostedStepIntoServerInOfficialOnly) {
    // Boosted side-1 card on d7 next to the empty exit d8.
    const char* text = "lll2vvv/3L+v3/3l4/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    EXPECT_FALSE(legal(text, "d7-srv", kStandard));
    EXPECT_TRUE(legal(text, "d7-srv", kOfficial));
    // It escapes, and its LB goes back to the hand.
    State after = play(pos(text), "d7-srv", kOfficial);
    EXPECT_EQ(format(after), "lll2vvv/4v3/3l4/8/8/8/3LV3/LL3VVV 2 CNcn L/- 0 11");
    State next = play(after, "a8-a7", kOfficial);
    EXPECT_TRUE(has(legalActions(next, kOfficial), "LB+d2"));

    // Not without LB.
    const char* plain = "lll2vvv/3Lv3/3l4/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    EXPECT_FALSE(legal(plain, "d7-srv", kOfficial));
    // Not when the exit holds a card (then d7-d8 captures and stops).
    const char* occupied = "lllv1vv1/3L+v3/3l4/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    EXPECT_FALSE(legal(occupied, "d7-srv", kOfficial));
    EXPECT_TRUE(legal(occupied, "d7-d8", kOfficial));
}

TEST(ReferenceDecisions, EscapeFromExitNextToOtherExitIsOneAction) {
    // Boosted side-1 card on e8 with d8 empty (official): "e8-srv" both as the plain escape and as
    // the boosted step over d8; it is listed once.
    const char* text = "lll1L+vvv/3lv3/8/8/8/8/3LV3/LL3VVV 1 CNcn -/- 10 10";
    std::vector<std::string> actions = legalActions(pos(text), kOfficial);
    EXPECT_EQ(std::count(actions.begin(), actions.end(), "e8-srv"), 1);
}

TEST(ReferenceDecisions, TwoPathsToOneSquareAreOneAction) {
    // Boosted c3 reaches d4 through c4 and through d3: one action.
    const char* text = "lll2vvv/3lv3/8/8/8/2L+5/3LV3/LL3VVV 1 CNcn -/- 2 2";
    std::vector<std::string> actions = legalActions(pos(text), kStandard);
    EXPECT_EQ(std::count(actions.begin(), actions.end(), "c3-d4"), 1);
}

TEST(ReferenceDecisions, CapturedBoostedCardReturnsLineBoost) {
    // Side 2 captures side 1's boosted card on d6; side 1 may attach LB again.
    const char* text = "lll2vvv/3lv3/3L+4/8/8/8/4V3/LLL2VVV 2 CNcn -/- 5 5";
    State after = play(pos(text), "d7-d6", kStandard);
    EXPECT_EQ(format(after), "lll2vvv/4v3/3l4/8/8/8/4V3/LLL2VVV 1 CNcn -/L 0 6");
    std::vector<std::string> actions = legalActions(after, kStandard);
    EXPECT_EQ(withPrefix(actions, "LB+").size(), 7u);
    EXPECT_TRUE(withPrefix(actions, "LB-").empty());
}

// ---------------------------------------------------------------------------------------------
// docs/rules.md: terminal cards

TEST(ReferenceDecisions, LineBoostAttachAndDetach) {
    State start = pos(kStart);
    State boosted = play(start, "LB+d2", kStandard);
    EXPECT_EQ(format(boosted), "lll2vvv/3lv3/8/8/8/8/3L+V3/LLL2VVV 2 CNcn -/- 1 1");
    State back = play(boosted, "a8-a7", kStandard);
    std::vector<std::string> actions = legalActions(back, kStandard);
    EXPECT_TRUE(withPrefix(actions, "LB+").empty());  // LB is on the board, not in the hand
    EXPECT_EQ(withPrefix(actions, "LB-"), (Strings{"LB-d2"}));
    EXPECT_EQ(format(play(back, "LB-d2", kStandard)),
              "1ll2vvv/l2lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 3 3");
}

TEST(ReferenceDecisions, FirewallUnderOwnCardInOfficialOnly) {
    State start = pos(kStart);
    EXPECT_FALSE(has(legalActions(start, kStandard), "FW+a1"));
    EXPECT_TRUE(has(legalActions(start, kOfficial), "FW+a1"));
    State walled = play(start, "FW+a1", kOfficial);
    EXPECT_EQ(format(walled), "lll2vvv/3lv3/8/8/8/8/3LV3/L#LL2VVV 2 CNcn -/- 1 1");
    // Never under an opponent card, never on an exit.
    for (const Options& o : {kStandard, kOfficial}) {
        std::vector<std::string> actions = legalActions(start, o);
        for (const char* square : {"a8", "d7", "d1", "e1", "d8", "e8"}) {
            EXPECT_FALSE(has(actions, std::string("FW+") + square)) << square;
        }
    }
}

TEST(ReferenceDecisions, OneFirewallPerSideAndRemoval) {
    State walled = play(pos(kStart), "FW+a1", kOfficial);
    State back = play(walled, "a8-a7", kOfficial);
    std::vector<std::string> actions = legalActions(back, kOfficial);
    EXPECT_TRUE(withPrefix(actions, "FW+").empty());
    EXPECT_EQ(withPrefix(actions, "FW-"), (Strings{"FW-a1"}));
    // The card on it stays.
    EXPECT_EQ(format(play(back, "FW-a1", kOfficial)),
              "1ll2vvv/l2lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 3 3");
}

TEST(ReferenceDecisions, FirewallNotOnOpponentFirewall) {
    // Side 2's firewall on e5: side 1 may not place on e5; side 1 may not remove it.
    const char* text = "lll2vvv/3lv3/8/4f3/8/8/3LV3/LLL2VVV 1 CNcn -/- 2 2";
    std::vector<std::string> actions = legalActions(pos(text), kStandard);
    EXPECT_FALSE(has(actions, "FW+e5"));
    EXPECT_FALSE(has(actions, "FW-e5"));
    EXPECT_EQ(withPrefix(actions, "FW+").size(), 43u);
}

TEST(ReferenceDecisions, VirusCheckerRevealsOnceAndOnlyOpponentCards) {
    State start = pos(kStart);
    std::vector<std::string> targets = withPrefix(legalActions(start, kStandard), "VC+");
    EXPECT_EQ(targets,
              (Strings{"VC+a8", "VC+b8", "VC+c8", "VC+d7", "VC+e7", "VC+f8", "VC+g8", "VC+h8"}));
    State checked = play(start, "VC+d7", kStandard);
    EXPECT_EQ(format(checked), "lll2vvv/3l!v3/8/8/8/8/3LV3/LLL2VVV 2 Ncn -/- 1 1");
    // The revealed card stays face up when it moves; side 1 has no second VC.
    State moved = play(checked, "d7-d6", kStandard);
    EXPECT_EQ(format(moved), "lll2vvv/4v3/3l!4/8/8/8/3LV3/LLL2VVV 1 Ncn -/- 2 2");
    EXPECT_TRUE(withPrefix(legalActions(moved, kStandard), "VC+").empty());
}

TEST(ReferenceDecisions, NotFoundCountsSwapAndKeepEvenForEqualIdentities) {
    State start = pos(kStart);
    std::vector<std::string> actions = legalActions(start, kStandard);
    EXPECT_TRUE(has(actions, "NF+a1b1:swap"));  // two links
    EXPECT_TRUE(has(actions, "NF+a1b1:keep"));
    EXPECT_EQ(play(start, "NF+a1b1:swap", kStandard), play(start, "NF+a1b1:keep", kStandard));
    // Squares in ascending rank*8+file: h1 (7) before d2 (11).
    EXPECT_TRUE(has(actions, "NF+h1d2:swap"));
    EXPECT_FALSE(has(actions, "NF+d2h1:swap"));
    EXPECT_FALSE(apply(start, "NF+d2h1:swap", kStandard));
    // The short form is what others see; it is not an action.
    EXPECT_FALSE(apply(start, "NF+a1b1", kStandard));
    // Once per game.
    State used = play(play(start, "NF+c1f1:swap", kStandard), "a8-a7", kStandard);
    EXPECT_EQ(format(used), "1ll2vvv/l2lv3/8/8/8/8/3LV3/LLV2LVV 1 Ccn -/- 2 2");
    EXPECT_TRUE(withPrefix(legalActions(used, kStandard), "NF+").empty());
}

// ---------------------------------------------------------------------------------------------
// docs/rules.md: end of the game

TEST(ReferenceDecisions, NoProgressDrawWhenCounterReachesLimit) {
    const char* text = "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 99 99";
    State before = pos(text);
    EXPECT_EQ(outcome(before, kStandard), Outcome::Ongoing);
    State after = play(before, "a8-a7", kStandard);
    EXPECT_EQ(format(after), "1ll2vvv/l2lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 100 100");
    EXPECT_EQ(outcome(after, kStandard), Outcome::Draw);
    EXPECT_TRUE(legalActions(after, kStandard).empty());
    EXPECT_EQ(perft(after, 1, kStandard), 0u);
    EXPECT_EQ(perft(after, 0, kStandard), 1u);
    EXPECT_FALSE(apply(after, "a1-a2", kStandard));
    // With no limit, or a higher one, play goes on.
    EXPECT_EQ(outcome(after, Options{.noProgressLimit = 0}), Outcome::Ongoing);
    EXPECT_EQ(outcome(after, Options{.noProgressLimit = 101}), Outcome::Ongoing);
    EXPECT_EQ(legalActions(after, Options{.noProgressLimit = 0}).size(), 126u);
}

TEST(ReferenceDecisions, CaptureAtTheLimitResetsTheCounter) {
    // Counter at 99; side 1 captures on d5: counter 0, no draw.
    const char* text = "lll2vvv/4v3/8/3l4/3L4/8/4V3/LLL2VVV 1 CNcn -/- 99 100";
    State after = play(pos(text), "d4-d5", kStandard);
    EXPECT_EQ(after.noProgress, 0);
    EXPECT_EQ(outcome(after, kStandard), Outcome::Ongoing);
}

TEST(ReferenceDecisions, StacksAreCheckedBeforeTheCounter) {
    const char* text = "5vvv/4v3/8/8/3L4/8/4V3/LLL2VVV 2 CNcn llll/- 120 121";
    EXPECT_EQ(outcome(pos(text), kStandard), Outcome::Side1Wins);
    EXPECT_EQ(perft(pos(text), 2, kStandard), 0u);
}

// ---------------------------------------------------------------------------------------------
// Consistency over random games

TEST(ReferenceConsistency, RandomGamesStayWellFormed) {
    // Random games (card actions preferred, so that many end by a win or loss): at every step the
    // action list is sorted and unique, empty exactly when the game is over, every listed action
    // applies, and every position reached is valid and round-trips through its string.
    for (const Options& o : {kStandard, kOfficial, Options{.noProgressLimit = 0}}) {
        std::mt19937 rng(12345);
        int decided = 0;
        for (int game = 0; game < 40; ++game) {
            State s = pos(kStart);
            for (int ply = 0; ply < 1000; ++ply) {
                std::vector<std::string> actions = legalActions(s, o);
                ASSERT_TRUE(std::is_sorted(actions.begin(), actions.end()));
                ASSERT_EQ(std::adjacent_find(actions.begin(), actions.end()), actions.end());
                std::string text = format(s);
                std::optional<State> reparsed = parse(text);
                ASSERT_TRUE(reparsed) << text;
                ASSERT_EQ(*reparsed, s) << text;
                ASSERT_EQ(actions.empty(), outcome(s, o) != Outcome::Ongoing) << text;
                if (actions.empty()) break;
                std::vector<std::string> moves = cardActions(actions);
                const std::vector<std::string>& pool =
                    !moves.empty() && rng() % 4 ? moves : actions;
                const std::string& action = pool[rng() % pool.size()];
                std::optional<State> next = apply(s, action, o);
                ASSERT_TRUE(next) << text << " " << action;
                ASSERT_EQ(next->ply, s.ply + 1);
                ASSERT_NE(next->sideToMove, s.sideToMove);
                s = *next;
            }
            Outcome result = outcome(s, o);
            if (result == Outcome::Side1Wins || result == Outcome::Side2Wins) ++decided;
        }
        EXPECT_GT(decided, 0);
    }
}

}  // namespace
}  // namespace rainet::reference

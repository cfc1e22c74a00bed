// One named test per rule of RULES.md §§3-6 and per example of §8, in both presets where they
// differ.
#include <gtest/gtest.h>

#include "core/view.h"
#include "support/core_helpers.h"

namespace rainet {
namespace {

using test::legal;
using test::play;
using test::pos;

const Rules kStd = Rules::standard();
const Rules kOff = Rules::official();
const std::string kStart(Position::kStartString);

// ---- §3 setup ----------------------------------------------------------------------------------

TEST(Setup, EachSideHasEightCardsOnItsSetupSquares) {
    Position p = *Position::fromSetups(0b00001111, 0b11110000);
    const Bitboard s1 = bit(0) | bit(1) | bit(2) | bit(5) | bit(6) | bit(7) | bit(11) | bit(12);
    EXPECT_EQ(p.cards(Side::One), s1);
    EXPECT_EQ(popcount(p.cards(Side::Two)), 8);
    EXPECT_EQ(popcount(p.links(Side::One)), 4);
    EXPECT_EQ(p.links(Side::One), bit(0) | bit(1) | bit(2) | bit(5));
}

TEST(Setup, ArrangementNeedsExactlyFourLinks) {
    EXPECT_FALSE(Position::fromSetups(0b00011111, 0b00001111).ok());
    EXPECT_FALSE(Position::fromSetups(0b00001111, 0b00000111).ok());
    int arrangements = 0;
    for (int m = 0; m < 256; ++m)
        arrangements += Position::fromSetups(static_cast<std::uint8_t>(m), 0x0F).ok();
    EXPECT_EQ(arrangements, 70);
}

TEST(Setup, NothingOnExitsAndAllTerminalCardsInHand) {
    Position p = Position::start();
    EXPECT_EQ(p.allCards() & kAllExits, 0u);
    EXPECT_EQ(p.unused(), kCheck1 | kNotFound1 | kCheck2 | kNotFound2);
    EXPECT_EQ(p.boost(), 0u);
    EXPECT_EQ(p.firewall(Side::One) | p.firewall(Side::Two), 0u);
    EXPECT_EQ(p.toString(), kStart);
}

// ---- §4 a turn ---------------------------------------------------------------------------------

TEST(Turn, ExactlyOneActionAndNoPass) {
    Position p = Position::start();
    EXPECT_FALSE(p.legalActions().empty());
    p = play(p, {"d2-d3"});
    EXPECT_EQ(p.toMove(), Side::Two);
    EXPECT_EQ(p.ply(), 1);
}

TEST(Move, OneSquareOrthogonallyNeverDiagonally) {
    Position p = Position::start();
    EXPECT_TRUE(legal(p, "d2-d3"));
    EXPECT_TRUE(legal(p, "c1-c2"));
    EXPECT_FALSE(legal(p, "d2-c3"));
    EXPECT_FALSE(legal(p, "d2-d4"));  // not boosted
}

TEST(Move, NotOntoOwnCard) {
    EXPECT_FALSE(legal(Position::start(), "c1-b1"));
}

TEST(Move, NotOntoOwnExitInStandard) {
    EXPECT_FALSE(legal(Position::start(), "c1-d1"));
    EXPECT_FALSE(legal(Position::start(), "d2-d1"));
}

TEST(Move, OntoOwnExitInOfficial) {
    EXPECT_TRUE(legal(Position::start(kOff), "c1-d1"));
    EXPECT_TRUE(legal(Position::start(kOff), "e2-e1"));
}

TEST(Move, NotOntoOpponentFirewall) {
    Position p = play(Position::start(), {"d2-d3", "FW+d4"});
    EXPECT_FALSE(legal(p, "d3-d4"));
    EXPECT_EQ(p.toString(), "lll2vvv/3lv3/8/8/3f4/3L4/4V3/LLL2VVV 1 CNcn -/- 2 2");
}

TEST(Move, CaptureRevealsAndStacksTheCard) {
    Position p = pos("ll3vvv/3lv3/8/2l5/2L5/8/3LV3/LL3VVV 1 CNcn -/- 0 0");
    p = play(p, {"c4-c5"});
    EXPECT_EQ(p.stack(Side::One).capturedLinks, 1);
    EXPECT_EQ(p.noProgress(), 0);
    EXPECT_EQ(p.toString(), "ll3vvv/3lv3/8/2L5/8/8/3LV3/LL3VVV 2 CNcn l/- 0 1");
    // The capture is public: every viewer learns the identity.
    EXPECT_EQ(View::of(p, Viewer::Spectator).toString(),
              "xx3xxx/3xx3/8/2X5/8/8/3XX3/XX3XXX 2 CNcn l/- 0 1");
}

TEST(Move, OwnFirewallIsASafeZone) {
    // Side 1's card stands on its own firewall on d4; side 2's card on d5 cannot take it.
    Position p = pos("lll2vvv/4v3/8/3l4/3L#4/8/4V3/LLL2VVV 2 CNcn -/- 3 3");
    EXPECT_FALSE(legal(p, "d5-d4"));
    EXPECT_TRUE(legal(p, "d5-c5"));
}

TEST(Enter, FromOpponentExitIntoOwnStackFaceDown) {
    Position p = pos("lllL1vvv/3lv3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0");
    ASSERT_TRUE(legal(p, "d8-srv"));
    EXPECT_FALSE(legal(p, "a1-srv"));
    p = play(p, {"d8-srv"});
    EXPECT_EQ(p.stack(Side::One).escapedLinks, 1);
    EXPECT_EQ(p.toString(), "lll2vvv/3lv3/8/8/8/8/4V3/LLL2VVV 2 CNcn L/- 0 1");
    // The opponent does not learn what escaped.
    EXPECT_EQ(View::of(p, Viewer::Side2).toString(),
              "lll2vvv/3lv3/8/8/8/8/4X3/XXX2XXX 2 CNcn X/- 0 1");
}

TEST(Enter, VirusMayEscapeAndCountsAgainstItsOwner) {
    Position p = pos("lllV1vvv/3lv3/8/8/8/8/3L4/LLL2VVV 1 CNcn -/- 0 0");
    p = play(p, {"d8-srv"});
    EXPECT_EQ(p.stack(Side::One).escapedViruses, 1);
    EXPECT_EQ(p.stack(Side::One).viruses(), 1);
}

TEST(LineBoost, AttachAndDetachAreActions) {
    Position p = play(Position::start(), {"LB+d2", "e7-e6"});
    EXPECT_EQ(p.boost(), bit(makeSquare(3, 1)));
    EXPECT_FALSE(legal(p, "LB+c1"));  // LB is on the board
    p = play(p, {"LB-d2"});
    EXPECT_EQ(p.boost(), 0u);
}

TEST(LineBoost, TwoSquaresStraightOrTurning) {
    Position p = play(Position::start(), {"LB+d2", "e7-e6"});
    EXPECT_TRUE(legal(p, "d2-d4"));
    EXPECT_TRUE(legal(p, "d2-c3"));
    EXPECT_TRUE(legal(p, "d2-d3"));
    EXPECT_FALSE(legal(p, "d2-d1"));  // own exit
}

TEST(LineBoost, CannotJumpOverACard) {
    Position p = pos("ll3vvv/3lv3/8/8/2l5/2L+5/3LV3/LL3VVV 1 CNcn -/- 0 0");
    EXPECT_FALSE(legal(p, "c3-c5"));
    EXPECT_TRUE(legal(p, "c3-c4"));
}

TEST(LineBoost, NoCardPassesThroughAnyFirewallEvenItsOwners) {
    Position p = play(Position::start(), {"LB+d2", "e7-e6", "FW+d3", "e6-e5"});
    EXPECT_FALSE(legal(p, "d2-d4"));  // through own firewall
    EXPECT_TRUE(legal(p, "d2-d3"));   // onto it is fine
    EXPECT_TRUE(legal(p, "d2-c3"));   // around via c2
}

TEST(LineBoost, StopsOnOpponentExitInStandard) {
    Position p = pos("lll2vvv/2lL+v3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0");
    EXPECT_TRUE(legal(p, "d7-d8"));
    EXPECT_FALSE(legal(p, "d7-srv"));
    // Passing over an opponent exit is not allowed either: c8 is reachable only through d8... or c7
    // (occupied).
    EXPECT_FALSE(legal(p, "d7-e8") && !legal(p, "d7-e7"));
}

TEST(LineBoost, ExitToServerInOneActionInOfficial) {
    Position p = pos("lll2vvv/2lL+v3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0", kOff);
    EXPECT_TRUE(legal(p, "d7-srv"));
    p = play(p, {"d7-srv"});
    EXPECT_EQ(p.stack(Side::One).escapedLinks, 1);
    EXPECT_EQ(p.boost(), 0u);  // LB back in hand
}

TEST(LineBoost, PassesOverOpponentExitOnlyInOfficial) {
    // Boosted side-1 card on c8 with c7 blocked: e8 is reachable only over d8.
    const char* text = "llL+2vvv/2llv3/8/8/8/8/3LV3/LL3VVV 1 CNcn -/- 0 0";
    EXPECT_FALSE(legal(pos(text), "c8-e8"));
    EXPECT_TRUE(legal(pos(text, kOff), "c8-e8"));
}

TEST(LineBoost, ReturnsToHandWhenCarrierIsCaptured) {
    Position p = pos("ll3vvv/3lv3/8/2l+5/2L5/8/3LV3/LL3VVV 1 CNcn -/- 0 0");
    p = play(p, {"c4-c5"});
    EXPECT_EQ(p.boost(), 0u);
    EXPECT_TRUE(legal(p, "LB+a8"));  // side 2 has it back
}

TEST(LineBoost, CarrierIsPublic) {
    Position p = play(Position::start(), {"LB+d2"});
    EXPECT_EQ(View::of(p, Viewer::Side2).toString(),
              "lll2vvv/3lv3/8/8/8/8/3X+X3/XXX2XXX 2 CNcn -/- 1 1");
}

TEST(FireWall, PlacedOnAnyEmptyNonExitSquare) {
    Position p = Position::start();
    EXPECT_TRUE(legal(p, "FW+e5"));
    EXPECT_TRUE(legal(p, "FW+a7"));
    EXPECT_FALSE(legal(p, "FW+d1"));  // exit
    EXPECT_FALSE(legal(p, "FW+e8"));  // opponent exit
    EXPECT_FALSE(legal(p, "FW+a8"));  // opponent card
    EXPECT_FALSE(legal(p, "FW+a1"));  // own card (standard)
    EXPECT_EQ(p.legalActions().size(), 126);
}

TEST(FireWall, UnderOwnCardOnlyInOfficial) {
    EXPECT_TRUE(legal(Position::start(kOff), "FW+a1"));
    EXPECT_FALSE(legal(Position::start(kOff), "FW+a8"));
    Position p = play(Position::start(kOff), {"FW+a1"});
    EXPECT_EQ(p.toString(), "lll2vvv/3lv3/8/8/8/8/3LV3/L#LL2VVV 2 CNcn -/- 1 1");
}

TEST(FireWall, OneOnTheBoardAndOnlyTheOwnerRemovesIt) {
    Position p = play(Position::start(), {"FW+e5"});
    EXPECT_FALSE(legal(p, "FW-e5"));  // side 2 cannot remove it
    p = play(p, {"e7-e6"});
    EXPECT_FALSE(legal(p, "FW+c4"));
    EXPECT_TRUE(legal(p, "FW-e5"));
    p = play(p, {"FW-e5"});
    EXPECT_EQ(p.firewall(Side::One), 0u);
}

TEST(FireWall, RemovingLeavesTheOwnCardOnIt) {
    Position p = pos("lll2vvv/4v3/8/3l4/3L#4/8/4V3/LLL2VVV 1 CNcn -/- 2 2");
    p = play(p, {"FW-d4"});
    EXPECT_EQ(p.toString(), "lll2vvv/4v3/8/3l4/3L4/8/4V3/LLL2VVV 2 CNcn -/- 3 3");
}

TEST(VirusChecker, RevealsOneFaceDownOpponentCardOncePerGame) {
    Position p = play(Position::start(), {"VC+e7"});
    EXPECT_EQ(p.faceUp(), bit(makeSquare(4, 6)));
    EXPECT_EQ(View::of(p, Viewer::Spectator).toString(),
              "xxx2xxx/3xv!3/8/8/8/8/3XX3/XXX2XXX 2 Ncn -/- 1 1");
    p = play(p, {"a8-a7", "d2-d3", "a7-a6"});
    EXPECT_FALSE(legal(p, "VC+d7"));  // once per game
}

TEST(VirusChecker, CannotTargetARevealedCard) {
    // A face-up card exists only once the opponent's single VC is spent, so no position offers
    // VC on it; the reader rejects a face-up card while the opponent's VC is unused.
    EXPECT_FALSE(Position::parse("lll2vvv/3lv!3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0").ok());
    Position p = pos("lll2vvv/3lv!3/8/8/8/8/3LV3/LLL2VVV 1 Ncn -/- 0 0");
    EXPECT_FALSE(legal(p, "VC+e7"));
    for (Action a : p.legalActions()) EXPECT_NE(a.type(), ActionType::Check);
}

TEST(NotFound, SwapOrKeepAndBothBecomeFaceDown) {
    Position p = play(Position::start(), {"d2-d3", "VC+d3"});
    EXPECT_TRUE(p.faceUp() & bit(makeSquare(3, 2)));
    Position swapped = play(p, {"NF+e2d3:swap"});
    Position kept = play(p, {"NF+e2d3:keep"});
    EXPECT_EQ(swapped.faceUp(), 0u);
    EXPECT_EQ(kept.faceUp(), 0u);
    EXPECT_FALSE(swapped.isLinkAt(makeSquare(3, 2)));
    EXPECT_TRUE(swapped.isLinkAt(makeSquare(4, 1)));
    EXPECT_TRUE(kept.isLinkAt(makeSquare(3, 2)));
    // The opponent and spectators see the same view either way.
    for (Viewer v : {Viewer::Side2, Viewer::Spectator})
        EXPECT_EQ(View::of(swapped, v).toString(), View::of(kept, v).toString());
    EXPECT_NE(View::of(swapped, Viewer::Side1).toString(),
              View::of(kept, Viewer::Side1).toString());
}

TEST(NotFound, OncePerGameWithTwoDifferentOwnCards) {
    Position p = play(Position::start(), {"NF+d2e2:keep", "a8-a7"});
    EXPECT_FALSE(legal(p, "NF+a1b1:keep"));
    EXPECT_FALSE(parseAction("NF+d2d2:keep").ok());
    EXPECT_FALSE(legal(Position::start(), "NF+d2d7:keep"));
}

TEST(NotFound, PublicNotationHidesTheSwap) {
    EXPECT_EQ(toString(test::act("NF+d2e2:swap"), Notation::Public), "NF+d2e2");
    Position p = Position::start();
    EXPECT_EQ(observe(p, test::act("NF+d2e2:swap"), Viewer::Side2),
              observe(p, test::act("NF+d2e2:keep"), Viewer::Side2));
}

// ---- §5 end of the game ------------------------------------------------------------------------

const char* kThreeLinks = "v5vv/4l3/4L3/8/8/8/3LVv2/LL3VVV 1 CNcn lll/- 0 40";
const char* kThreeViruses = "l5ll/4v3/4L3/8/8/8/3LVl2/LL3VVV 1 CNcn vvv/- 0 40";
const char* kThreeEscapedViruses = "lllV1vvv/3lv3/8/8/8/8/3L4/LL3L2 1 CNcn VVV/- 0 40";

TEST(End, FourLinksInTheStackWins) {
    Position p = play(pos(kThreeLinks), {"e6-e7"});
    EXPECT_EQ(p.outcome(), Outcome::Side1Wins);
    EXPECT_EQ(p.endReason(), EndReason::FourLinks);
    EXPECT_TRUE(p.legalActions().empty());
}

TEST(End, FourVirusesInTheStackLoses) {
    Position p = play(pos(kThreeViruses), {"e6-e7"});
    EXPECT_EQ(p.outcome(), Outcome::Side2Wins);
    EXPECT_EQ(p.endReason(), EndReason::FourViruses);
}

TEST(End, EscapingOwnFourthVirusLoses) {
    Position p = play(pos(kThreeEscapedViruses), {"d8-srv"});
    EXPECT_EQ(p.outcome(), Outcome::Side2Wins);
}

TEST(End, EscapesAndCapturesCountTogether) {
    // Two captured links and one escaped: the next escaped link wins.
    Position p = pos("llL2vvv/3v4/8/8/8/8/3LV3/L4VVV 1 CNcn llL/- 0 40");
    EXPECT_EQ(p.stack(Side::One).links(), 3);
    p = play(p, {"c8-d8", "a8-a7", "d8-srv"});
    EXPECT_EQ(p.outcome(), Outcome::Side1Wins);
}

TEST(End, NoProgressDrawAfterTheLimit) {
    Position p = pos("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 99 99");
    EXPECT_FALSE(p.isOver());
    p = play(p, {"e7-e6"});
    EXPECT_EQ(p.outcome(), Outcome::Draw);
    EXPECT_EQ(p.endReason(), EndReason::NoProgress);
    EXPECT_EQ(p.countLegalActions(), 0);
}

TEST(End, NoProgressLimitZeroMeansNone) {
    Rules r = kStd;
    r.noProgressLimit = 0;
    Position p = pos("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 2 CNcn -/- 99 99", r);
    p = play(p, {"e7-e6", "d2-d3"});
    EXPECT_FALSE(p.isOver());
}

TEST(End, CaptureResetsTheNoProgressCounter) {
    Position p = pos("ll3vvv/3lv3/8/2l5/2L5/8/3LV3/LL3VVV 1 CNcn -/- 50 50");
    p = play(p, {"c4-c5"});
    EXPECT_EQ(p.noProgress(), 0);
}

TEST(End, ASideAlwaysHasALegalAction) {
    // Firewall on the board: it can always be removed.
    Position p = play(Position::start(), {"FW+e5"});
    EXPECT_GT(p.countLegalActions(), 0);
}

// ---- §6 hidden information ---------------------------------------------------------------------

TEST(Views, OwnerSeesOwnCardsOpponentAndSpectatorDoNot) {
    Position p = Position::start();
    EXPECT_EQ(View::of(p, Viewer::Side1).toString(),
              "xxx2xxx/3xx3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0");
    EXPECT_EQ(View::of(p, Viewer::Side2).toString(),
              "lll2vvv/3lv3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0");
    EXPECT_EQ(View::of(p, Viewer::Spectator).toString(),
              "xxx2xxx/3xx3/8/8/8/8/3XX3/XXX2XXX 1 CNcn -/- 0 0");
}

TEST(Views, OwnEscapedCardVisibleToOwnerOnly) {
    Position p = play(pos("lllL1vvv/3lv3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0"), {"d8-srv"});
    EXPECT_EQ(View::of(p, Viewer::Side1).toString(),
              "xxx2xxx/3xx3/8/8/8/8/4V3/LLL2VVV 2 CNcn L/- 0 1");
    EXPECT_EQ(View::of(p, Viewer::Spectator).toString(),
              "xxx2xxx/3xx3/8/8/8/8/4X3/XXX2XXX 2 CNcn X/- 0 1");
}

// ---- §8 examples -------------------------------------------------------------------------------

TEST(Examples, BoostedCaptureOnTheSecondSquare) {
    Position p = pos("ll3vvv/3lv3/8/2l5/8/2L+5/3LV3/LL3VVV 1 CNcn -/- 0 0");
    EXPECT_TRUE(legal(p, "c3-c5"));
    Position q = play(p, {"c3-c5"});
    EXPECT_EQ(q.stack(Side::One).capturedLinks, 1);
}

TEST(Examples, BoostedCardBlockedOnTheFirstSquareCapturesAndStops) {
    Position p = pos("ll3vvv/3lv3/8/8/2l5/2L+5/3LV3/LL3VVV 1 CNcn -/- 0 0");
    EXPECT_TRUE(legal(p, "c3-c4"));
    EXPECT_FALSE(legal(p, "c3-c5"));
    int north = 0;
    for (Action a : p.legalActions())
        if (a.type() == ActionType::Move && a.from() == makeSquare(2, 2) && fileOf(a.to()) == 2 &&
            a.to() > a.from())
            ++north;
    EXPECT_EQ(north, 1);
}

TEST(Examples, CardOnOpponentExitEntersTheServer) {
    EXPECT_TRUE(legal(pos("lllL1vvv/3lv3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0"), "d8-srv"));
}

TEST(Examples, BoostedCardReachesTheExitButNotTheServerInStandard) {
    Position p = pos("lll2vvv/2lL+v3/8/8/8/8/4V3/LLL2VVV 1 CNcn -/- 0 0");
    EXPECT_TRUE(legal(p, "d7-d8"));
    EXPECT_FALSE(legal(p, "d7-srv"));
}

TEST(Examples, SideOneMayNotMoveOntoItsExits) {
    Position p = pos("lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0");
    for (const char* a : {"c1-d1", "d2-d1", "e2-e1"}) EXPECT_FALSE(legal(p, a)) << a;
}

TEST(Examples, BoostStaysOnItsSquareAfterNotFoundSwap) {
    Position p = play(Position::start(), {"LB+d2", "e7-e6", "NF+d2e2:swap"});
    EXPECT_EQ(p.boost(), bit(makeSquare(3, 1)));
    EXPECT_FALSE(p.isLinkAt(makeSquare(3, 1)));
    EXPECT_TRUE(p.isLinkAt(makeSquare(4, 1)));
    EXPECT_EQ(p.toString(), "lll2vvv/3l4/4v3/8/8/8/3V+L3/LLL2VVV 2 Ccn -/- 3 3");
}

TEST(Examples, ThirdLinkPlusCapturedLinkWins) {
    EXPECT_EQ(play(pos(kThreeLinks), {"e6-e7"}).outcome(), Outcome::Side1Wins);
}

TEST(Examples, ThirdVirusPlusCapturedVirusLoses) {
    EXPECT_EQ(play(pos(kThreeViruses), {"e6-e7"}).outcome(), Outcome::Side2Wins);
}

TEST(Examples, EscapingOwnFourthVirusLoses) {
    EXPECT_EQ(play(pos(kThreeEscapedViruses), {"d8-srv"}).outcome(), Outcome::Side2Wins);
}

}  // namespace
}  // namespace rainet

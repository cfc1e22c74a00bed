#pragma once
// What one side's cards have done, card by card, as seen by the opponent: the behaviour features
// from which the belief (belief.h) weighs each unidentified card as a link or a virus. The history
// is walked backwards while following each physical card; an NF mixes the two cards' features
// half and half (either may now carry either identity). Cards identified so far (captured, or
// face up after VC) get their features too: they calibrate the evidence during the game.
#include <array>
#include <vector>

#include "core/infoset.h"

namespace rainet::ai {

// Features of one card (sums over its observed actions, then its state now).
enum Feature : int {
    kBias,          // 1
    kMoves,         // moves made
    kProgress,      // sum of steps towards the opponent's exits (away: negative)
    kNearExit,      // steps that ended next to an exit, coming closer
    kCaptures,      // captures made
    kFlees,         // steps out of a threat (not capturing)
    kApproaches,    // steps into contact with an opponent card (not capturing)
    kBoosts,        // LINE BOOST attached to it
    kOnExit,        // standing on an opponent's exit now
    kExitDistance,  // distance to the nearer opponent exit now
    kThreatened,    // next to an opponent card now
    kAdvance,       // ranks away from its own back rank now
    kFeatureCount
};
using CardFeatures = std::array<double, kFeatureCount>;
const char* featureName(int f);

struct Behaviour {
    // InfoSet::hidden(side) order; escaped cards have only move features (kOnExit etc. 0).
    std::vector<CardFeatures> hidden;
    std::vector<bool> escaped;
    // Cards identified so far, with their features up to their identification.
    std::vector<CardFeatures> known;
    std::vector<bool> knownLink;
};

// The behaviour of `side`'s cards in `knowledge` (any viewer that does not see them).
Behaviour behaviourOf(const InfoSet& knowledge, Side side);

// What one move adds to the moving card's features (kMoves..kApproaches), given the cards on the
// board before it; `capture` when it takes a card.
CardFeatures moveFeatures(Side mover, Action move, Bitboard theirCards, bool capture);
// Sets the state features (kOnExit..kAdvance) of a card of `side` on `sq`.
void setStateFeatures(CardFeatures& f, Side side, Square sq, Bitboard theirCards);
// How far one action of the side to move in `p` changes the log-odds "link" of the card it acts
// on, under the weights `w`, as a reader of its behaviour would see it (0 for actions on no
// card). Moves and LINE BOOST attaches only; escapes and captured cards speak for themselves.
double logOddsChange(const Position& p, Action a, const CardFeatures& w);

}  // namespace rainet::ai

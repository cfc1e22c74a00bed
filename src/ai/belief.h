#pragma once
// What a player believes about the opponent's hidden cards. The exact constraints come from the
// InfoSet (its consistent assignments: 4 links and 4 viruses per side, reveals, captures, escapes,
// NF merging two cards' identities); on top of them, evidence from the opponent's behaviour (cards
// that head for the exits or escape, that flee from threats, that attack) gives each unidentified
// card a likelihood ratio link:virus. Each consistent assignment is weighted by the product of its
// cards' likelihoods; P(virus) of a card and sampled worlds follow those weights. The evidence is
// calibrated on the opponent's cards identified so far (a random player's behaviour says little).
#include <utility>
#include <vector>

#include "core/infoset.h"
#include "core/position.h"
#include "core/random.h"

namespace rainet::ai {

class Belief {
  public:
    // With `useEvidence` false the weights are uniform (exactly InfoSet's own distribution).
    explicit Belief(const InfoSet& knowledge, bool useEvidence = true);

    // Probability that the card on `sq` is a virus (0 or 1 for identified cards and own cards).
    double virusProbability(Square sq) const;
    // P(virus) of every unidentified card of `side` on the board, by square.
    std::vector<std::pair<Square, double>> virusProbabilities(Side side) const;
    // A full position consistent with the knowledge, drawn with the belief's weights.
    Position sample(Rng& rng) const;
    // Log likelihood ratio link:virus of each hidden card of `side` (InfoSet::hidden order).
    const std::vector<double>& evidence(Side side) const { return logRatio_[index(side)]; }
    // Normalized weight of each consistent assignment of `side` (InfoSet::hidden order).
    const std::vector<double>& weights(Side side) const { return weights_[index(side)]; }
    // How far the opponent's behaviour has predicted the identities revealed so far, in [0, 1]:
    // the factor applied to the evidence (0.5 before any reveal).
    double reliability(Side side) const { return reliability_[index(side)]; }

  private:
    void gatherEvidence(Side side);
    const InfoSet* knowledge_;
    std::vector<double> logRatio_[2];
    std::vector<double> weights_[2];
    std::vector<double> cumulative_[2];
    double reliability_[2] = {0.0, 0.0};
};

}  // namespace rainet::ai

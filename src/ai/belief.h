#pragma once
// What a player believes about the opponent's hidden cards. The exact constraints come from the
// InfoSet (its consistent assignments: 4 links and 4 viruses per side, reveals, captures, escapes,
// NF merging two cards' identities); on top of them, evidence from the opponent's behaviour
// (behaviour.h: cards that head for the exits or escape, that flee from threats, that offer
// themselves) gives each unidentified card a log likelihood ratio link:virus. Each consistent
// assignment is weighted by the product of its cards' likelihoods; P(virus) of a card and sampled
// worlds follow those weights. Two models of the evidence:
// - Heuristic: hand-set weights, scaled by how well they predicted the cards identified so far
//   (the belief of `ismcts-v1`);
// - Learned: a logistic model of P(link | behaviour) fitted on self-play games
//   (`rainet belief train`, weights in belief_weights.inc), refitted during the game on the
//   cards identified so far (MAP weights with the offline model as the prior), and tempered by
//   the probability that the opponent plays purposefully at all (opponent_model.h): a random
//   player's boosts and walks onto our exits say nothing, and reading them as a purposeful
//   player's made `strong` take its fourth virus.
#include <utility>
#include <vector>

#include "ai/behaviour.h"
#include "core/infoset.h"
#include "core/position.h"
#include "core/random.h"

namespace rainet::ai {

enum class Evidence { None, Heuristic, Learned };

// The learned model: log-odds of "link" = weights . features; escaped unidentified cards get
// `escaped` (their history ends at an exit).
struct EvidenceModel {
    CardFeatures weights{};
    double escaped = 0.0;
};
// The committed model (belief_weights.inc).
const EvidenceModel& learnedModel();

class Belief {
  public:
    // Evidence::None gives uniform weights (exactly InfoSet's own distribution). `model` replaces
    // the committed learned model (training evaluates candidates with it). `purposeful`: the
    // probability that the opponent of the viewer plays purposefully (opponent_model.h); the
    // learned evidence of its cards is multiplied by it.
    explicit Belief(const InfoSet& knowledge, Evidence evidence = Evidence::Heuristic,
                    const EvidenceModel* model = nullptr, double purposeful = 1.0);

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
    // Heuristic: how far the behaviour predicted the cards identified so far, in [0, 1], the
    // factor applied to the evidence (0.5 before any reveal). Learned: the number of identified
    // cards the model was refitted on.
    double reliability(Side side) const { return reliability_[index(side)]; }
    // Learned: the factor applied to `side`'s evidence (the constructor's `purposeful` for cards
    // the viewer does not own, 1 otherwise).
    double purposeful(Side side) const { return purposeful_[index(side)]; }
    // Learned: the model's weights for `side` after the in-game refit.
    const CardFeatures& adaptedWeights(Side side) const { return adapted_[index(side)]; }

  private:
    void heuristicEvidence(Side side, const Behaviour& b);
    void learnedEvidence(Side side, const Behaviour& b, const EvidenceModel& model);
    const InfoSet* knowledge_;
    std::vector<double> logRatio_[2];
    std::vector<double> weights_[2];
    std::vector<double> cumulative_[2];
    double reliability_[2] = {0.0, 0.0};
    double purposeful_[2] = {1.0, 1.0};
    CardFeatures adapted_[2] = {};
};

}  // namespace rainet::ai

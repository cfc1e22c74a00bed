#pragma once
// Fitting and judging the learned belief (belief.h) on full game records: every few plies of
// every game, each side's view of the opponent's unidentified cards on the board gives samples
// (the behaviour features of a card, and whether it truly is a link). The model is a logistic
// regression fitted by Newton's method with an L2 penalty (deterministic: no random stream).
// `rainet belief train|eval` (src/cli/belief.cpp) drive it.
#include <string>
#include <vector>

#include "ai/belief.h"
#include "core/record.h"

namespace rainet::ai {

struct BeliefDataset {
    std::vector<CardFeatures> features;
    std::vector<bool> link;
    int escapedLinks = 0, escapedViruses = 0;  // every escape in the games, by identity
};

// Adds the samples of one game: the views of both sides after every `stride`-th ply (with
// `cardsOf` set, only of the cards of the side whose Side1/Side2 tag equals it).
void addSamples(const Record& game, int stride, BeliefDataset& data,
                const std::string& cardsOf = "");

// The logistic model of P(link | features); `l2` penalizes every weight but the bias.
EvidenceModel fitEvidenceModel(const BeliefDataset& data, double l2);

// Accuracy of a belief against the truth: the opponent's unidentified cards on the board, from
// both sides' views, after exactly `ply` plies of each game that lasted that long. With `cardsOf`
// set, only the cards of the side whose Side1/Side2 tag equals it (seen by its opponent).
struct BeliefScore {
    int cards = 0;
    double logLoss = 0.0;  // mean -ln P(true identity)
    double brier = 0.0;    // mean (P(virus) - [virus])^2
};
BeliefScore scoreBelief(const std::vector<Record>& games, int ply, Evidence evidence,
                        const EvidenceModel* model = nullptr, const std::string& cardsOf = "");

// The model as the C++ initializer of belief_weights.inc, with a comment naming its origin.
std::string formatEvidenceModel(const EvidenceModel& m, const std::string& origin);
// Reads what formatEvidenceModel wrote.
Result<EvidenceModel> parseEvidenceModel(const std::string& text);

}  // namespace rainet::ai

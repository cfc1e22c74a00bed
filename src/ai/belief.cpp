#include "ai/belief.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "ai/eval.h"
#include "ai/logistic.h"

namespace rainet::ai {

namespace {
constexpr double kMaxLogRatio = 2.5;
// Hand-set evidence weights of the heuristic model (log likelihood ratio link:virus).
constexpr double kEscapedLr = 2.0;     // an unidentified card that entered the server
constexpr double kOnExitLr = 1.0;      // standing on our exit, ready to escape
constexpr double kProgressStep = 0.2;  // each step towards our exits (away: the opposite)
constexpr double kNearExitLr = 0.4;    // a step that ends next to our exits
constexpr double kAttack = -0.2;       // capturing: viruses are the safer attackers
constexpr double kFlee = 0.35;         // stepping away from a threat
constexpr double kApproach = -0.15;    // stepping next to our cards (offering itself)
constexpr double kBoost = 0.4;         // receiving LINE BOOST
constexpr double kPriorVote = 0.5;     // weight of the calibration prior (see heuristicEvidence)

// The learned model's log ratios are clamped wider: it is fitted, not guessed.
constexpr double kMaxLearnedLogRatio = 4.0;
// The in-game refit of the learned model: a feature's usual range in a game, and the prior
// deviation of its weight in units of log-odds over that range.
constexpr CardFeatures kFeatureRange = {1, 20, 8, 3, 3, 4, 4, 2, 1, 10, 1, 6};
constexpr double kRefitSd = 1.0;

double heuristicMoveEvidence(const CardFeatures& f) {
    return kProgressStep * f[kProgress] + kNearExitLr * f[kNearExit] + kAttack * f[kCaptures] +
           kFlee * f[kFlees] + kApproach * f[kApproaches] + kBoost * f[kBoosts];
}

double dot(const CardFeatures& w, const CardFeatures& f) {
    double x = 0.0;
    for (int j = 0; j < kFeatureCount; ++j) x += w[j] * f[j];
    return x;
}

const EvidenceModel kLearned = {
#include "ai/belief_weights.inc"
};
}  // namespace

const EvidenceModel& learnedModel() {
    return kLearned;
}

Belief::Belief(const InfoSet& knowledge, Evidence evidence, const EvidenceModel* model,
               double purposeful)
    : knowledge_(&knowledge) {
    if (evidence == Evidence::Learned)
        for (Side s : {Side::One, Side::Two})
            if (knowledge.view().viewer() != viewerOf(s)) purposeful_[index(s)] = purposeful;
    for (Side s : {Side::One, Side::Two}) {
        const HiddenCards& h = knowledge.hidden(s);
        logRatio_[index(s)].assign(h.squares.size(), 0.0);
        if (evidence != Evidence::None && !h.squares.empty()) {
            const Behaviour b = behaviourOf(knowledge, s);
            if (evidence == Evidence::Heuristic)
                heuristicEvidence(s, b);
            else
                learnedEvidence(s, b, model ? *model : kLearned);
        }
        auto& w = weights_[index(s)];
        w.clear();
        // The game goes on, so no assignment may give `s` four links or four viruses in its
        // stack through its unidentified escaped cards (InfoSet does not use that fact).
        unsigned escaped = 0;
        for (std::size_t k = 0; k < h.squares.size(); ++k)
            if (h.squares[k] == HiddenCards::kEscaped) escaped |= 1u << k;
        const Stack& stack = knowledge.view().stack(s);
        double total = 0.0;
        for (std::uint8_t m : h.assignments) {
            const int links = std::popcount(m & escaped);
            const int viruses = std::popcount(escaped) - links;
            if (stack.links() + links >= 4 || stack.viruses() + viruses >= 4) {
                w.push_back(0.0);
                continue;
            }
            double lr = 0.0;
            for (std::size_t k = 0; k < h.squares.size(); ++k)
                if ((m >> k) & 1) lr += logRatio_[index(s)][k];
            w.push_back(std::exp(lr));
            total += w.back();
        }
        if (total == 0.0) {  // only finished worlds (the game should be over): keep them all
            for (double& x : w) x = 1.0;
            total = static_cast<double>(w.size());
        }
        auto& c = cumulative_[index(s)];
        c.clear();
        double acc = 0.0;
        for (double& x : w) {
            x /= total;
            acc += x;
            c.push_back(acc);
        }
    }
}

void Belief::heuristicEvidence(Side side, const Behaviour& b) {
    // Calibration: how well did the evidence predict the cards that were identified? Each known
    // card votes with the weight |evidence| for "right" (sign matches its identity) or "wrong";
    // with a prior of 3 right : 1 wrong (in units of kPriorVote), the evidence is scaled by
    // 2 P(right) - 1 (1 for a perfectly readable opponent, 0 for one whose behaviour says
    // nothing, such as a random player).
    double right = 3 * kPriorVote, total = 4 * kPriorVote;
    for (std::size_t i = 0; i < b.known.size(); ++i) {
        const double e = heuristicMoveEvidence(b.known[i]);
        total += std::abs(e);
        if ((e > 0) == b.knownLink[i]) right += std::abs(e);
    }
    const double r = std::max(0.0, 2 * right / total - 1);
    reliability_[index(side)] = r;
    std::vector<double>& lr = logRatio_[index(side)];
    for (std::size_t i = 0; i < b.hidden.size(); ++i) {
        double e = heuristicMoveEvidence(b.hidden[i]);
        e += b.escaped[i] ? kEscapedLr : kOnExitLr * b.hidden[i][kOnExit];
        lr[i] = std::clamp(e * r, -kMaxLogRatio, kMaxLogRatio);
    }
}

void Belief::learnedEvidence(Side side, const Behaviour& b, const EvidenceModel& model) {
    // The model is refitted on the cards identified so far: MAP logistic weights under a normal
    // prior centred on the offline model, one deviation per feature worth about one unit of
    // log-odds over the feature's usual range. Against a player like those of the training games
    // the weights barely move; against one who plays differently (bait: viruses that advance like
    // links) the features its reveals contradict lose or change their sign.
    CardFeatures w = model.weights;
    if (!b.known.empty()) {
        CardFeatures precision;
        for (int j = 0; j < kFeatureCount; ++j)
            precision[j] = kFeatureRange[j] * kFeatureRange[j] / (kRefitSd * kRefitSd);
        w = fitLogistic(b.known, b.knownLink, model.weights, precision, 8);
    }
    adapted_[index(side)] = w;
    reliability_[index(side)] = static_cast<double>(b.known.size());
    // The evidence is worth what the opponent's play is purposeful: tempered towards the prior
    // (a log ratio of 0) for one that plays like a random player.
    const double p = purposeful_[index(side)];
    std::vector<double>& lr = logRatio_[index(side)];
    for (std::size_t i = 0; i < b.hidden.size(); ++i) {
        const double e = b.escaped[i] ? model.escaped : dot(w, b.hidden[i]);
        lr[i] = std::clamp(p * e, -kMaxLearnedLogRatio, kMaxLearnedLogRatio);
    }
}

double Belief::virusProbability(Square sq) const {
    const View& view = knowledge_->view();
    for (Side s : {Side::One, Side::Two}) {
        if (!(view.cards(s) & bit(sq))) continue;
        const HiddenCards& h = knowledge_->hidden(s);
        const auto it = std::find(h.squares.begin(), h.squares.end(), sq);
        if (it == h.squares.end()) return (view.knownLinks(s) & bit(sq)) ? 0.0 : 1.0;
        const auto i = static_cast<int>(it - h.squares.begin());
        double link = 0.0;
        for (std::size_t j = 0; j < h.assignments.size(); ++j)
            if ((h.assignments[j] >> i) & 1) link += weights_[index(s)][j];
        return std::clamp(1.0 - link, 0.0, 1.0);
    }
    return 0.0;
}

std::vector<std::pair<Square, double>> Belief::virusProbabilities(Side side) const {
    std::vector<std::pair<Square, double>> out;
    for (int sq : knowledge_->hidden(side).squares)
        if (sq >= 0) out.emplace_back(sq, virusProbability(sq));
    std::sort(out.begin(), out.end());
    return out;
}

Position Belief::sample(Rng& rng) const {
    std::size_t pick[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
        const auto& c = cumulative_[s];
        if (c.size() <= 1) continue;
        const double u = rng.uniform();
        pick[s] = static_cast<std::size_t>(std::upper_bound(c.begin(), c.end(), u) - c.begin());
        if (pick[s] >= c.size()) pick[s] = c.size() - 1;
    }
    return knowledge_->world(pick[0], pick[1]);
}

}  // namespace rainet::ai

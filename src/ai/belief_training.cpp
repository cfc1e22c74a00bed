#include "ai/belief_training.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ai/logistic.h"
#include "ai/weights_text.h"

namespace rainet::ai {

namespace {
// Replays `game` with both sides' InfoSets, calling f(position, knowledge[2]) after each ply
// (ply >= 1) until the game ends or f returns false.
template <class F>
void replayWithKnowledge(const Record& game, F&& f) {
    auto start = game.initialPosition();
    if (!start.ok()) return;
    Position pos = *start;
    InfoSet k[2] = {InfoSet(View::of(pos, Viewer::Side1)), InfoSet(View::of(pos, Viewer::Side2))};
    for (Action a : game.actions) {
        if (pos.isOver() || !pos.isLegal(a)) return;
        for (Side s : {Side::One, Side::Two})
            if (k[index(s)].observe(observe(pos, a, viewerOf(s)))) return;
        pos.doAction(a);
        if (!f(pos, k)) return;
    }
}

// Whose cards count: both sides, or the one whose Side1/Side2 tag is `cardsOf`.
std::pair<bool, bool> sidesOf(const Record& game, const std::string& cardsOf) {
    return {cardsOf.empty() || game.tag("Side1") == cardsOf,
            cardsOf.empty() || game.tag("Side2") == cardsOf};
}
}  // namespace

void addSamples(const Record& game, int stride, BeliefDataset& data, const std::string& cardsOf) {
    // Plain variables, not a structured binding: the lambda below captures them (clang 14, which
    // builds the fuzz targets, cannot capture bindings).
    const auto sides = sidesOf(game, cardsOf);
    const bool one = sides.first, two = sides.second;
    if (!one && !two) return;
    // Escapes, by identity (Enter is played from the square the card stands on).
    if (auto start = game.initialPosition(); start.ok()) {
        Position pos = *start;
        for (Action a : game.actions) {
            if (pos.isOver() || !pos.isLegal(a)) break;
            if (a.type() == ActionType::Enter)
                ++(pos.isLinkAt(a.from()) ? data.escapedLinks : data.escapedViruses);
            pos.doAction(a);
        }
    }
    replayWithKnowledge(game, [&](const Position& pos, const InfoSet* k) {
        if (pos.ply() % stride != 0 || pos.isOver()) return true;
        for (Side viewer : {Side::One, Side::Two}) {
            const Side them = opponent(viewer);
            if (!(them == Side::One ? one : two)) continue;
            const InfoSet& knowledge = k[index(viewer)];
            const Behaviour b = behaviourOf(knowledge, them);
            const HiddenCards& h = knowledge.hidden(them);
            for (std::size_t i = 0; i < h.squares.size(); ++i) {
                if (h.squares[i] < 0) continue;
                data.features.push_back(b.hidden[i]);
                data.link.push_back(pos.isLinkAt(h.squares[i]));
            }
        }
        return true;
    });
}

EvidenceModel fitEvidenceModel(const BeliefDataset& data, double l2) {
    // Features are scaled to unit spread for the fit (so that one L2 weight suits them all); the
    // weights are scaled back at the end.
    CardFeatures scale;
    scale.fill(1.0);
    for (int j = 1; j < kFeatureCount; ++j) {
        double m = 0.0;
        for (const auto& f : data.features) m = std::max(m, std::abs(f[j]));
        if (m > 0) scale[j] = 1.0 / m;
    }
    std::vector<CardFeatures> x = data.features;
    for (auto& f : x)
        for (int j = 0; j < kFeatureCount; ++j) f[j] *= scale[j];
    CardFeatures precision;
    precision.fill(l2);
    precision[kBias] = 0.0;
    const CardFeatures w = fitLogistic(x, data.link, CardFeatures{}, precision);
    EvidenceModel m;
    for (int j = 0; j < kFeatureCount; ++j) m.weights[j] = w[j] * scale[j];
    // Escapes: their log-odds of being a link, with one pseudo-escape of each kind.
    m.escaped = std::log((data.escapedLinks + 1.0) / (data.escapedViruses + 1.0));
    return m;
}

BeliefScore scoreBelief(const std::vector<Record>& games, int ply, Evidence evidence,
                        const EvidenceModel* model, const std::string& cardsOf) {
    BeliefScore score;
    for (const Record& game : games) {
        // Plain variables, not a structured binding: the lambda below captures them (clang 14,
        // which
        // builds the fuzz targets, cannot capture bindings).
        const auto sides = sidesOf(game, cardsOf);
        const bool one = sides.first, two = sides.second;
        if (!one && !two) continue;
        replayWithKnowledge(game, [&](const Position& pos, const InfoSet* k) {
            if (pos.ply() < ply) return true;
            if (pos.isOver()) return false;
            for (Side viewer : {Side::One, Side::Two}) {
                const Side them = opponent(viewer);
                if (!(them == Side::One ? one : two)) continue;
                const Belief belief(k[index(viewer)], evidence, model);
                for (const auto& [sq, pVirus] : belief.virusProbabilities(them)) {
                    const bool virus = !pos.isLinkAt(sq);
                    const double pTrue = std::clamp(virus ? pVirus : 1 - pVirus, 1e-6, 1.0);
                    score.logLoss -= std::log(pTrue);
                    score.brier += (pVirus - (virus ? 1.0 : 0.0)) * (pVirus - (virus ? 1.0 : 0.0));
                    ++score.cards;
                }
            }
            return false;
        });
    }
    if (score.cards) {
        score.logLoss /= score.cards;
        score.brier /= score.cards;
    }
    return score;
}

std::string formatEvidenceModel(const EvidenceModel& m, const std::string& origin) {
    std::vector<std::string> names;
    for (int j = 0; j < kFeatureCount; ++j) names.emplace_back(featureName(j));
    char escaped[32];
    std::snprintf(escaped, sizeof escaped, ", %.6f\n", m.escaped);
    return formatWeights("The learned belief model (belief.h)", origin, names, 4,
                         std::vector<double>(m.weights.begin(), m.weights.end())) +
           escaped;
}

Result<EvidenceModel> parseEvidenceModel(const std::string& text) {
    // The weights, then the escape log-odds.
    auto read = readWeightNumbers(text);
    if (!read.ok()) return read.error();
    const std::vector<double>& numbers = *read;
    if (numbers.size() != kFeatureCount + 1)
        return Error{"expected " + std::to_string(kFeatureCount + 1) + " numbers, found " +
                     std::to_string(numbers.size())};
    EvidenceModel m;
    for (int j = 0; j < kFeatureCount; ++j) m.weights[j] = numbers[j];
    m.escaped = numbers[kFeatureCount];
    return m;
}

}  // namespace rainet::ai

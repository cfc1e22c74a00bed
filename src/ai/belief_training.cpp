#include "ai/belief_training.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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
}  // namespace

void addSamples(const Record& game, int stride, BeliefDataset& data) {
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
    constexpr int n = kFeatureCount;
    // Features are scaled to unit spread for the solver; the weights are scaled back at the end.
    CardFeatures scale;
    scale.fill(1.0);
    for (int j = 1; j < n; ++j) {
        double m = 0.0;
        for (const auto& f : data.features) m = std::max(m, std::abs(f[j]));
        if (m > 0) scale[j] = 1.0 / m;
    }
    CardFeatures w{};
    for (int iteration = 0; iteration < 30; ++iteration) {
        double g[n] = {}, hmat[n][n] = {};
        for (std::size_t s = 0; s < data.features.size(); ++s) {
            CardFeatures x;
            for (int j = 0; j < n; ++j) x[j] = data.features[s][j] * scale[j];
            double z = 0.0;
            for (int j = 0; j < n; ++j) z += w[j] * x[j];
            const double p = 1.0 / (1.0 + std::exp(-z));
            const double r = (data.link[s] ? 1.0 : 0.0) - p;
            for (int j = 0; j < n; ++j) {
                g[j] += r * x[j];
                for (int l = 0; l < n; ++l) hmat[j][l] += p * (1 - p) * x[j] * x[l];
            }
        }
        for (int j = 1; j < n; ++j) {
            g[j] -= l2 * w[j];
            hmat[j][j] += l2;
        }
        hmat[0][0] += 1e-9;
        // Solve hmat * step = g (Gaussian elimination with partial pivoting).
        double step[n];
        for (int c = 0; c < n; ++c) {
            int pivot = c;
            for (int r = c + 1; r < n; ++r)
                if (std::abs(hmat[r][c]) > std::abs(hmat[pivot][c])) pivot = r;
            std::swap(hmat[c], hmat[pivot]);
            std::swap(g[c], g[pivot]);
            if (std::abs(hmat[c][c]) < 1e-12) hmat[c][c] = 1e-12;
            for (int r = c + 1; r < n; ++r) {
                const double factor = hmat[r][c] / hmat[c][c];
                for (int l = c; l < n; ++l) hmat[r][l] -= factor * hmat[c][l];
                g[r] -= factor * g[c];
            }
        }
        double change = 0.0;
        for (int c = n - 1; c >= 0; --c) {
            double v = g[c];
            for (int l = c + 1; l < n; ++l) v -= hmat[c][l] * step[l];
            step[c] = v / hmat[c][c];
            change = std::max(change, std::abs(step[c]));
        }
        for (int j = 0; j < n; ++j) w[j] += step[j];
        if (change < 1e-9) break;
    }
    EvidenceModel m;
    for (int j = 0; j < n; ++j) m.weights[j] = w[j] * scale[j];
    // Escapes: their log-odds of being a link, with one pseudo-escape of each kind.
    m.escaped = std::log((data.escapedLinks + 1.0) / (data.escapedViruses + 1.0));
    return m;
}

BeliefScore scoreBelief(const std::vector<Record>& games, int ply, Evidence evidence,
                        const EvidenceModel* model, const std::string& cardsOf) {
    BeliefScore score;
    for (const Record& game : games) {
        const bool one = cardsOf.empty() || game.tag("Side1") == cardsOf;
        const bool two = cardsOf.empty() || game.tag("Side2") == cardsOf;
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
    std::string out = "// The learned belief model (belief.h), written by:\n//   " + origin +
                      "\n// Weights by feature (behaviour.h):";
    for (int j = 0; j < kFeatureCount; ++j) {
        out += j % 4 == 0 ? "\n//  " : "";
        out += std::string(" ") + featureName(j);
    }
    out += "\n{{";
    char buf[64];
    for (int j = 0; j < kFeatureCount; ++j) {
        std::snprintf(buf, sizeof buf, "%s%.6f", j ? ", " : "", m.weights[j]);
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "}}, %.6f\n", m.escaped);
    out += buf;
    return out;
}

}  // namespace rainet::ai

#include "ai/belief.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "ai/eval.h"

namespace rainet::ai {

namespace {
constexpr double kMaxLogRatio = 2.5;
// Evidence weights (log likelihood ratio link:virus per observed behaviour).
constexpr double kEscaped = 2.0;       // an unidentified card that entered the server
constexpr double kOnExit = 1.0;        // standing on our exit, ready to escape
constexpr double kProgressStep = 0.2;  // each step towards our exits (away: the opposite)
constexpr double kNearExit = 0.4;      // a step that ends next to our exits
constexpr double kAttack = -0.2;       // capturing: viruses are the safer attackers
constexpr double kFlee = 0.35;         // stepping away from a threat
constexpr double kApproach = -0.15;    // stepping next to our cards (offering itself)
constexpr double kBoost = 0.4;         // receiving LINE BOOST
constexpr double kPriorVote = 0.5;     // weight of the calibration prior (see gatherEvidence)
}  // namespace

Belief::Belief(const InfoSet& knowledge, bool useEvidence) : knowledge_(&knowledge) {
    for (Side s : {Side::One, Side::Two}) {
        const HiddenCards& h = knowledge.hidden(s);
        logRatio_[index(s)].assign(h.squares.size(), 0.0);
        if (useEvidence && !h.squares.empty()) gatherEvidence(s);
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

void Belief::gatherEvidence(Side side) {
    const InfoSet& k = *knowledge_;
    const View& view = k.view();
    const HiddenCards& h = k.hidden(side);
    const int n = static_cast<int>(h.squares.size());
    std::vector<double>& lr = logRatio_[index(side)];
    const Bitboard targetExits = exitsOf(opponent(side));  // where `side`'s cards escape

    // Walk the history backwards, following each physical card of `side` as a weight vector over
    // "tokens": the current hidden cards (0..7) and cards whose identity became known (8..15).
    // NF mixes two vectors: either card may now carry either identity. The evidence gathered on
    // known cards calibrates the model (below).
    constexpr int kTokens = 16, kFirstKnown = 8;
    using Weights = std::array<double, kTokens>;
    std::array<Weights, 64> w{};
    double e[kTokens] = {};
    bool knownLink[kTokens] = {};
    int known = kFirstKnown;
    auto addKnown = [&](Square sq, bool link) {
        if (known >= kTokens) return;
        w[sq] = {};
        w[sq][known] = 1.0;
        knownLink[known++] = link;
    };
    int escapedCount = 0;
    for (int i = 0; i < n; ++i) {
        if (h.squares[i] >= 0) {
            w[h.squares[i]][i] = 1.0;
            if (targetExits & bit(h.squares[i])) e[i] += kOnExit;
        } else {
            ++escapedCount;
            e[i] += kEscaped;
        }
    }
    for (Bitboard b = view.cards(side) & ~view.unknown(side); b;) {
        const Square sq = popLsb(b);
        addKnown(sq, view.knownLinks(side) & bit(sq));
    }
    Bitboard cards[2] = {view.cards(Side::One), view.cards(Side::Two)};
    const auto& history = k.history();
    Side mover = view.toMove();
    for (auto it = history.rbegin(); it != history.rend(); ++it) {
        mover = opponent(mover);
        const Observation& o = *it;
        const Action a = o.action;
        const int m = index(mover);
        // Undo the occupancy change, so `cards` is the board before this action.
        if (a.type() == ActionType::Move) {
            cards[m] = (cards[m] & ~bit(a.to())) | bit(a.from());
            if (o.revealedLink) cards[1 - m] |= bit(a.to());
        } else if (a.type() == ActionType::Enter) {
            cards[m] |= bit(a.from());
        }
        if (mover != side) {
            // A card of `side` captured here reappears, identified.
            if (a.type() == ActionType::Move && o.revealedLink) addKnown(a.to(), *o.revealedLink);
            continue;
        }
        const Bitboard threats = neighbours(cards[1 - m]);
        switch (a.type()) {
            case ActionType::Move: {
                const Weights v = w[a.to()];
                w[a.to()] = {};
                w[a.from()] = v;
                double x = 0.0;
                const int d0 = exitDistance(a.from(), targetExits),
                          d1 = exitDistance(a.to(), targetExits);
                x += kProgressStep * (d0 - d1);
                if (d1 <= 1 && d1 < d0) x += kNearExit;
                if (o.revealedLink) {
                    x += kAttack;
                } else {
                    const bool threatenedBefore = threats & bit(a.from());
                    const bool threatenedAfter = threats & bit(a.to());
                    if (threatenedBefore && !threatenedAfter) x += kFlee;
                    if (!threatenedBefore && threatenedAfter) x += kApproach;
                }
                for (int i = 0; i < kTokens; ++i) e[i] += x * v[i];
                break;
            }
            case ActionType::Enter: {
                Weights v{};
                for (int i = 0; i < n; ++i)
                    if (h.squares[i] < 0) v[i] = 1.0 / escapedCount;
                w[a.from()] = v;
                break;
            }
            case ActionType::BoostAttach:
                for (int i = 0; i < kTokens; ++i) e[i] += kBoost * w[a.from()][i];
                break;
            case ActionType::NotFound: {
                Weights& x = w[a.from()];
                Weights& y = w[a.to()];
                for (int i = 0; i < kTokens; ++i) x[i] = y[i] = 0.5 * (x[i] + y[i]);
                break;
            }
            default:
                break;
        }
    }
    // Calibration: how well did the evidence predict the cards that were identified? Each known
    // card votes with the weight |evidence| for "right" (sign matches its identity) or "wrong";
    // with a prior of 3 right : 1 wrong (in units of kPriorVote), the evidence is scaled by
    // 2 P(right) - 1 (1 for a perfectly readable opponent, 0 for one whose behaviour says
    // nothing, such as a random player).
    double right = 3 * kPriorVote, total = 4 * kPriorVote;
    for (int i = kFirstKnown; i < known; ++i) {
        total += std::abs(e[i]);
        if ((e[i] > 0) == knownLink[i]) right += std::abs(e[i]);
    }
    reliability_[index(side)] = std::max(0.0, 2 * right / total - 1);
    for (int i = 0; i < n; ++i)
        lr[i] = std::clamp(e[i] * reliability_[index(side)], -kMaxLogRatio, kMaxLogRatio);
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

#include "ai/behaviour.h"

#include "ai/eval.h"

namespace rainet::ai {

const char* featureName(int f) {
    static const char* const kNames[kFeatureCount] = {
        "bias",       "moves",  "progress", "near-exit",     "captures",   "flees",
        "approaches", "boosts", "on-exit",  "exit-distance", "threatened", "advance"};
    return f >= 0 && f < kFeatureCount ? kNames[f] : "?";
}

void setStateFeatures(CardFeatures& f, Side side, Square sq, Bitboard theirCards) {
    const Bitboard targetExits = exitsOf(opponent(side));
    const int d = exitDistance(sq, targetExits);
    f[kOnExit] = d == 0 ? 1.0 : 0.0;
    f[kExitDistance] = d;
    f[kThreatened] = (neighbours(theirCards) & bit(sq)) ? 1.0 : 0.0;
    f[kAdvance] = side == Side::One ? rankOf(sq) : 7 - rankOf(sq);
}

CardFeatures moveFeatures(Side mover, Action a, Bitboard theirCards, bool capture) {
    const Bitboard targetExits = exitsOf(opponent(mover));
    const Bitboard threats = neighbours(theirCards);
    CardFeatures x{};
    x[kMoves] = 1.0;
    const int d0 = exitDistance(a.from(), targetExits), d1 = exitDistance(a.to(), targetExits);
    x[kProgress] = d0 - d1;
    if (d1 <= 1 && d1 < d0) x[kNearExit] = 1.0;
    if (capture) {
        x[kCaptures] = 1.0;
    } else {
        const bool threatenedBefore = threats & bit(a.from());
        const bool threatenedAfter = threats & bit(a.to());
        if (threatenedBefore && !threatenedAfter) x[kFlees] = 1.0;
        if (!threatenedBefore && threatenedAfter) x[kApproaches] = 1.0;
    }
    return x;
}

double logOddsChange(const Position& p, Action a, const CardFeatures& w) {
    const Side us = p.toMove();
    if (a.type() == ActionType::BoostAttach) return w[kBoosts];
    if (a.type() != ActionType::Move) return 0.0;
    const Bitboard theirs = p.cards(opponent(us));
    const bool capture = theirs & bit(a.to());
    CardFeatures delta = moveFeatures(us, a, theirs, capture);
    CardFeatures before{}, after{};
    setStateFeatures(before, us, a.from(), theirs);
    setStateFeatures(after, us, a.to(), theirs & ~bit(a.to()));
    double z = 0.0;
    for (int j = 0; j < kFeatureCount; ++j) z += w[j] * (delta[j] + after[j] - before[j]);
    return z;
}

Behaviour behaviourOf(const InfoSet& k, Side side) {
    const View& view = k.view();
    const HiddenCards& h = k.hidden(side);
    const int n = static_cast<int>(h.squares.size());
    const int s = index(side);

    // Each square holds a weight vector over "tokens": the hidden cards (0..7), then the
    // identified ones (8..15).
    constexpr int kTokens = 16, kFirstKnown = 8;
    using Weights = std::array<double, kTokens>;
    std::array<Weights, 64> w{};
    std::array<CardFeatures, kTokens> f{};
    bool knownLink[kTokens] = {};
    int known = kFirstKnown;
    Bitboard cards[2] = {view.cards(Side::One), view.cards(Side::Two)};
    auto addKnown = [&](Square sq, bool link) {
        if (known >= kTokens) return;
        w[sq] = {};
        w[sq][known] = 1.0;
        setStateFeatures(f[known], side, sq, cards[1 - s]);
        knownLink[known++] = link;
    };
    int escapedCount = 0;
    for (int i = 0; i < n; ++i) {
        if (h.squares[i] >= 0) {
            w[h.squares[i]][i] = 1.0;
            setStateFeatures(f[i], side, h.squares[i], cards[1 - s]);
        } else {
            ++escapedCount;
        }
    }
    for (Bitboard b = view.cards(side) & ~view.unknown(side); b;) {
        const Square sq = popLsb(b);
        addKnown(sq, view.knownLinks(side) & bit(sq));
    }
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
        switch (a.type()) {
            case ActionType::Move: {
                const Weights v = w[a.to()];
                w[a.to()] = {};
                w[a.from()] = v;
                const CardFeatures x =
                    moveFeatures(side, a, cards[1 - m], o.revealedLink.has_value());
                for (int t = 0; t < kTokens; ++t)
                    if (v[t] != 0.0)
                        for (int j = kMoves; j <= kApproaches; ++j) f[t][j] += x[j] * v[t];
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
                for (int t = 0; t < kTokens; ++t) f[t][kBoosts] += w[a.from()][t];
                break;
            case ActionType::NotFound: {
                Weights& x = w[a.from()];
                Weights& y = w[a.to()];
                for (int t = 0; t < kTokens; ++t) x[t] = y[t] = 0.5 * (x[t] + y[t]);
                break;
            }
            default:
                break;
        }
    }
    Behaviour out;
    for (int i = 0; i < n; ++i) {
        f[i][kBias] = 1.0;
        out.hidden.push_back(f[i]);
        out.escaped.push_back(h.squares[i] < 0);
    }
    for (int t = kFirstKnown; t < known; ++t) {
        f[t][kBias] = 1.0;
        out.known.push_back(f[t]);
        out.knownLink.push_back(knownLink[t]);
    }
    return out;
}

}  // namespace rainet::ai

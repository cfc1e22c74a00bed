#include "ai/eval.h"

#include <cmath>
#include <cstdlib>

namespace rainet::ai {

namespace {

// Value of holding n links in one's stack (4 decides the game).
constexpr double kLinkValue[4] = {0.0, 1.0, 2.2, 3.8};
// Viruses in one's stack cost less: they only matter as the danger of a fourth.
constexpr double kVirusValue[4] = {0.0, 0.3, 0.7, 1.4};
// Value of an own link on the board by its distance to the opponent's nearer exit.
constexpr double kProgress[16] = {0.9,  0.5,  0.33, 0.22, 0.14, 0.09, 0.06, 0.04,
                                  0.03, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02};

double stackScore(const Stack& s) {
    if (s.links() >= 4) return kWinScore;
    if (s.viruses() >= 4) return -kWinScore;
    return kLinkValue[s.links()] - kVirusValue[s.viruses()];
}

double sideScore(const Position& p, Side us) {
    const Side them = opponent(us);
    double score = stackScore(p.stack(us));
    const Bitboard theirExits = exitsOf(them);
    const Bitboard threatened = neighbours(p.cards(them));
    for (Bitboard b = p.links(us) & p.cards(us); b;) {
        const Square s = popLsb(b);
        score += kProgress[exitDistance(s, theirExits)];
        if (threatened & bit(s)) score -= 0.3;
        if (p.boost() & bit(s)) score += 0.08;
    }
    // Own viruses next to opponent cards are bait the opponent may take.
    score += 0.08 * popcount(p.viruses(us) & threatened);
    return score;
}

}  // namespace

int exitDistance(Square s, Bitboard exits) {
    int best = 99;
    for (Bitboard b = exits; b;) {
        const Square e = popLsb(b);
        const int d = std::abs(fileOf(s) - fileOf(e)) + std::abs(rankOf(s) - rankOf(e));
        if (d < best) best = d;
    }
    return best;
}

double evaluate(const Position& p, Side us) {
    switch (p.outcome()) {
        case Outcome::Side1Wins:
            return us == Side::One ? kWinScore : -kWinScore;
        case Outcome::Side2Wins:
            return us == Side::Two ? kWinScore : -kWinScore;
        case Outcome::Draw:
            return 0.0;
        case Outcome::Ongoing:
            break;
    }
    const double mine = sideScore(p, us), theirs = sideScore(p, opponent(us));
    if (mine >= kWinScore) return kWinScore;
    if (mine <= -kWinScore) return -kWinScore;
    if (theirs >= kWinScore) return -kWinScore;
    if (theirs <= -kWinScore) return kWinScore;
    return mine - theirs;
}

double evaluateReward(const Position& p, Side us, double squash) {
    const double e = evaluate(p, us);
    if (e >= kWinScore) return 1.0;
    if (e <= -kWinScore) return 0.0;
    return 1.0 / (1.0 + std::exp(-squash * e));
}

double actionPrior(const Position& p, Action a) {
    const Side us = p.toMove(), them = opponent(us);
    const Bitboard theirExits = exitsOf(them);
    const Square from = a.from();
    const bool ownLink = p.links(us) & bit(from);
    switch (a.type()) {
        case ActionType::Enter:
            return ownLink ? 100.0 : -10.0;
        case ActionType::Move: {
            const Square to = a.to();
            double score = 0.0;
            if (p.cards(them) & bit(to)) {
                if (p.faceUp() & bit(to)) {
                    score += p.isLinkAt(to) ? 8.0 : -6.0;
                } else {
                    // An unknown card: worth taking when it threatens to escape.
                    score += 1.0 + (exitDistance(to, exitsOf(us)) <= 1 ? 3.0 : 0.0);
                }
            }
            const bool threatenedAfter = neighbours(p.cards(them) & ~bit(to)) & bit(to);
            if (ownLink) {
                score += 1.5 * (exitDistance(from, theirExits) - exitDistance(to, theirExits));
                if (theirExits & bit(to)) score += 4.0;
                if (threatenedAfter) score -= 2.0;
            } else {
                // A virus heads for the opponent's cards (to be taken or to block).
                if (threatenedAfter) score += 0.5;
            }
            return score;
        }
        case ActionType::Check: {
            // Unmask cards that threaten to escape.
            return exitDistance(from, exitsOf(us)) <= 2 ? 2.0 : -2.0;
        }
        case ActionType::BoostAttach:
            return ownLink ? 0.5 : -3.0;
        default:
            return -3.0;
    }
}

}  // namespace rainet::ai

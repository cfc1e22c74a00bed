#include "ai/bait_bot.h"

#include "ai/eval.h"
#include "ai/style.h"

namespace rainet::ai {

namespace {
// Distance from `s` to the nearest square of `targets` (99 when there is none).
int distanceTo(Square s, Bitboard targets) {
    return targets ? exitDistance(s, targets) : 99;
}
}  // namespace

double baitScore(const Position& p, Action a) {
    const Side us = p.toMove(), them = opponent(us);
    const Bitboard theirCards = p.cards(them), theirExits = exitsOf(them);
    const Square from = a.from();
    const bool ownLink = p.links(us) & bit(from);
    switch (a.type()) {
        case ActionType::Enter:
            return ownLink ? 1000.0 : -1000.0;
        case ActionType::Move: {
            const Square to = a.to();
            const bool capture = theirCards & bit(to);
            const bool threatenedAfter = neighbours(theirCards & ~bit(to)) & bit(to);
            if (capture && (p.faceUp() & bit(to))) return p.isLinkAt(to) ? 50.0 : -50.0;
            if (ownLink) {
                // Links stay home; they run only when the exit is close and the way unguarded,
                // take a card that is about to escape, and step out of a threat.
                const int d0 = exitDistance(from, theirExits), d1 = exitDistance(to, theirExits);
                if (capture) return exitDistance(to, exitsOf(us)) <= 1 ? 6.0 : -4.0;
                if (threatenedAfter) return -8.0;
                const bool threatenedBefore = neighbours(theirCards) & bit(from);
                if (threatenedBefore) return 3.0;
                if (d1 < d0 && d1 <= 2) return 5.0 + (2 - d1);
                return -3.0;
            }
            // Viruses close in on the opponent's cards and stand next to them; they take a card
            // only when it is about to escape.
            if (capture) return exitDistance(to, exitsOf(us)) <= 2 ? 6.0 : 0.5;
            const int c0 = distanceTo(from, theirCards), c1 = distanceTo(to, theirCards);
            return 1.0 + (c0 - c1) + (threatenedAfter ? 1.5 : 0.0);
        }
        default:
            return -5.0;  // terminal cards would only distract from the bait
    }
}

Action BaitBot::chooseAction(const InfoSet& knowledge, const Budget&, Rng& rng) {
    // Any consistent world will do: the score reads only our own identities and public ones.
    const Position world = knowledge.world(0, 0);
    return noisyBest(knowledge.view().legalActions(), rng,
                     [&](Action a) { return baitScore(world, a); });
}

}  // namespace rainet::ai

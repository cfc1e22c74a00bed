#include "ai/style.h"

#include <algorithm>
#include <cstdlib>

#include "ai/eval.h"

namespace rainet::ai {

namespace {

int distance(Square a, Square b) {
    return std::abs(fileOf(a) - fileOf(b)) + std::abs(rankOf(a) - rankOf(b));
}

// The square of `cards` nearest to `targets` (-1 when there is none).
int nearestTo(Bitboard cards, Bitboard targets) {
    int best = -1, bestDistance = 99;
    for (Bitboard b = cards; b;) {
        const Square s = popLsb(b);
        if (const int d = exitDistance(s, targets); d < bestDistance) best = s, bestDistance = d;
    }
    return best;
}

bool clearOf(Bitboard theirs, Bitboard theirExits, Square s) {
    if (neighbours(theirs) & bit(s)) return false;
    const Square exit = static_cast<Square>(nearestTo(theirExits, bit(s)));
    return !(theirs & (bit(exit) | neighbours(bit(exit))));
}

bool ownsCard(ActionType t) {
    return t == ActionType::Move || t == ActionType::Enter || t == ActionType::BoostAttach ||
           t == ActionType::BoostDetach || t == ActionType::NotFound;
}

}  // namespace

bool clearWay(const Position& p, Side us, Square s) {
    return clearOf(p.cards(opponent(us)), exitsOf(opponent(us)), s);
}

ActionFacts factsOf(const Position& p, Action a) {
    const Side us = p.toMove(), them = opponent(us);
    const Bitboard theirs = p.cards(them), theirExits = exitsOf(them);
    ActionFacts f;
    f.action = a;
    f.type = a.type();
    const Square from = a.from();
    if (ownsCard(f.type) && (p.cards(us) & bit(from))) {
        f.link = p.links(us) & bit(from);
        f.virus = !f.link;
    }
    Square to = from;
    Bitboard rest = theirs;
    if (f.type == ActionType::Move) {
        to = a.to();
        f.capture = theirs & bit(to);
        rest &= ~bit(to);
    }
    if (f.type == ActionType::Move || f.type == ActionType::Check) {
        const Square target = f.type == ActionType::Move ? to : from;
        if (p.faceUp() & bit(target)) f.known = p.isLinkAt(target) ? 1 : -1;
    }
    f.exitBefore = exitDistance(from, theirExits);
    f.exitAfter = exitDistance(to, theirExits);
    f.contactBefore = theirs ? exitDistance(from, theirs) : 99;
    f.contactAfter = rest ? exitDistance(to, rest) : 99;
    f.rankAfter = us == Side::One ? rankOf(to) : 7 - rankOf(to);
    f.threatenedBefore = neighbours(theirs) & bit(from);
    f.threatenedAfter = neighbours(rest) & bit(to);
    f.clearAfter = clearOf(rest, theirExits, to);
    return f;
}

GameFacts gameFactsOf(const Position& p) {
    GameFacts g;
    g.us = p.toMove();
    const Stack &ours = p.stack(g.us), &theirs = p.stack(opponent(g.us));
    g.virusesTaken = ours.capturedViruses;
    g.linksTaken = ours.capturedLinks;
    g.virusesLost = theirs.capturedViruses;
    g.linksLost = theirs.capturedLinks;
    g.ply = p.ply();
    g.noProgress = p.noProgress();
    const int attacker = nearestTo(p.cards(opponent(g.us)), exitsOf(g.us));
    if (attacker >= 0) g.danger = exitDistance(static_cast<Square>(attacker), exitsOf(g.us));
    return g;
}

double escapeScore(const ActionFacts& f) {
    if (f.type != ActionType::Enter) return 0;
    return f.link ? 1000 : -1000;
}

double captureScore(const ActionFacts& f, const GameFacts& g, double unknown, bool guard) {
    if (!f.capture) return 0;
    if (f.known > 0) return 60;
    if (f.known < 0) return g.virusesTaken >= 3 ? -1000 : -30;
    return guard && g.virusesTaken >= 3 ? -50 : unknown;
}

double runScore(const ActionFacts& f) {
    if (f.type != ActionType::Move) return 0;
    double s = 2.0 * (f.exitBefore - f.exitAfter);
    if (f.threatenedBefore && !f.threatenedAfter) s += 2;
    if (f.threatenedAfter) s -= 3;
    if (f.exitAfter == 0) s += 2;
    return s;
}

double stayScore(const ActionFacts& f) {
    if (f.type != ActionType::Move) return 0;
    double s = -1.0 - (f.exitBefore - f.exitAfter);
    if (f.threatenedBefore && !f.threatenedAfter) s += 4;
    if (f.threatenedAfter) s -= 3;
    return s;
}

double offerScore(const ActionFacts& f) {
    if (f.type != ActionType::Move || f.capture) return 0;
    return 1.0 + (f.contactBefore - f.contactAfter) + (f.threatenedAfter ? 1.5 : 0);
}

double shieldScore(const ActionFacts& f) {
    if (f.type != ActionType::Move) return 0;
    double s = f.rankAfter <= 2 ? 0.5 : -2.0;
    if (f.threatenedBefore && !f.threatenedAfter) s += 3;
    if (f.threatenedAfter) s -= 4;
    return s;
}

double balancedScore(const ActionFacts& f) {
    if (f.link) return f.clearAfter ? runScore(f) : 0.5 * runScore(f);
    return 0.5 * offerScore(f);
}

namespace {

// Weight 0: the card is not in this style's play at all.
constexpr double kUnused = -5;

double boostScore(const ActionFacts& f, const CardUse& use) {
    if (use.boost == 0) return kUnused;
    if (f.type == ActionType::BoostDetach) return -2;
    if (f.virus != use.boostViruses) return -3;
    // On the card nearest the exits; a link only once its way is clear, unless eager.
    const double ready = use.boostViruses || f.clearAfter || use.boost > 1 ? 3 : 0.5;
    return use.boost * ready + 0.3 * (8 - f.exitBefore) - 2;
}

// FW next to our exits, the nearer the attacker the better; when eager, anywhere within two steps
// of them (the squares next to them hold our cards at the start).
double firewallScore(const Position& p, const ActionFacts& f, const GameFacts& g,
                     double eagerness) {
    if (eagerness == 0) return kUnused;
    if (f.type == ActionType::FirewallRemove) return -3 * eagerness;
    const Bitboard ourExits = exitsOf(g.us);
    if (exitDistance(f.action.from(), ourExits) > (eagerness > 2 ? 2 : 1)) return -2;
    const int attacker = nearestTo(p.cards(opponent(g.us)), ourExits);
    const int near = attacker < 0 ? 9 : distance(f.action.from(), static_cast<Square>(attacker));
    return eagerness - 1 + (g.danger <= 4 ? 5 - g.danger : 0) - 0.3 * near;
}

// VC on the opponent card nearest our exits, or on one next to our cards.
double checkScore(const Position& p, const ActionFacts& f, const GameFacts& g, double eagerness) {
    if (eagerness == 0) return kUnused;
    const Square target = f.action.from();
    const int d = exitDistance(target, exitsOf(g.us));
    const bool contact = neighbours(p.cards(g.us)) & bit(target);
    return eagerness - 1.5 + (d <= 3 ? 4 - d : 0) + (contact ? 1 : 0);
}

// NF hides again a link VC revealed, or swaps a threatened link with a safe virus.
double notFoundScore(const Position& p, const ActionFacts& f, double eagerness) {
    if (eagerness == 0) return kUnused;
    const Square x = f.action.from(), y = f.action.to();
    const bool xLink = p.isLinkAt(x);
    if (xLink == p.isLinkAt(y)) return -3;
    const Square link = xLink ? x : y, virus = xLink ? y : x;
    const Bitboard threat = neighbours(p.cards(opponent(p.toMove())));
    double s = eagerness - 3;
    if (p.faceUp() & bit(link)) s += 6;
    if ((threat & bit(link)) && !(threat & bit(virus)) && f.action.swap()) s += 4;
    return s;
}

}  // namespace

double cardsScore(const Position& p, const ActionFacts& f, const GameFacts& g, const CardUse& use) {
    switch (f.type) {
        case ActionType::BoostAttach:
        case ActionType::BoostDetach:
            return boostScore(f, use);
        case ActionType::FirewallPlace:
        case ActionType::FirewallRemove:
            return firewallScore(p, f, g, use.firewall);
        case ActionType::Check:
            return checkScore(p, f, g, use.check);
        case ActionType::NotFound:
            return notFoundScore(p, f, use.notFound);
        default:
            return 0;
    }
}

Action StyleBot::chooseAction(const InfoSet& knowledge, const Budget&, Rng& rng) {
    // Any consistent world will do: the styles read only our own identities and public ones.
    const Position world = knowledge.world(0, 0);
    const GameFacts game = gameFactsOf(world);
    return noisyBest(knowledge.view().legalActions(), rng,
                     [&](Action a) { return score_(world, factsOf(world, a), game); });
}

}  // namespace rainet::ai

#include "core/position.h"

#include <cassert>

#include "core/zobrist.h"

namespace rainet {

using zobrist::kKeys;

const char* resultString(Outcome o) {
    switch (o) {
        case Outcome::Side1Wins:
            return "1-0";
        case Outcome::Side2Wins:
            return "0-1";
        case Outcome::Draw:
            return "1/2-1/2";
        case Outcome::Ongoing:
            break;
    }
    return "*";
}

Position Position::start(Rules rules) {
    return *fromSetups(0b01000111, 0b01000111, rules);
}

Result<Position> Position::fromSetups(std::uint8_t links1, std::uint8_t links2, Rules rules) {
    if (std::popcount(links1) != 4 || std::popcount(links2) != 4)
        return Error{"setup: an arrangement needs exactly 4 links"};
    Position p;
    p.rules_ = rules;
    for (int i = 0; i < 8; ++i) {
        for (Side s : {Side::One, Side::Two}) {
            Square sq = setupSquare(s, i);
            p.st_.cards[index(s)] |= bit(sq);
            if (((s == Side::One ? links1 : links2) >> i) & 1) p.st_.links[index(s)] |= bit(sq);
        }
    }
    p.st_.hash = p.computeHash();
    return p;
}

std::uint64_t Position::computeHash() const {
    std::uint64_t h = 0;
    for (int s = 0; s < 2; ++s) {
        for (Bitboard b = st_.cards[s]; b;) {
            Square sq = popLsb(b);
            h ^= kKeys.card[s][(st_.links[s] >> sq) & 1][sq];
        }
        for (Bitboard b = st_.firewall[s]; b;) h ^= kKeys.firewall[s][popLsb(b)];
        const Stack& k = st_.stacks[s];
        h ^= kKeys.stack[s][0][k.capturedLinks] ^ kKeys.stack[s][1][k.capturedViruses] ^
             kKeys.stack[s][2][k.escapedLinks] ^ kKeys.stack[s][3][k.escapedViruses];
    }
    for (Bitboard b = st_.faceUp; b;) h ^= kKeys.faceUp[popLsb(b)];
    for (Bitboard b = st_.boost; b;) h ^= kKeys.boost[popLsb(b)];
    h ^= kKeys.unused[st_.unused & 15];
    if (st_.toMove == Side::Two) h ^= kKeys.sideTwoToMove;
    return h;
}

// ---- generation -------------------------------------------------------------------------------

Bitboard Position::moveTargets(Square from, Side us) const {
    const int u = index(us), t = 1 - u;
    const Bitboard ownExitBan = rules_.ownExitEntry ? 0 : exitsOf(us);
    const Bitboard forbidden = st_.cards[u] | st_.firewall[t] | ownExitBan;
    const Bitboard b = bit(from);
    Bitboard targets = neighbours(b) & ~forbidden;
    if (st_.boost & b) {
        // The first square of a two-square move: empty, no firewall at all, not an exit the
        // mover must stop on (or may not enter).
        const Bitboard oppExitStop = rules_.boostedExitToServer ? 0 : exitsOf(opponent(us));
        Bitboard firsts = neighbours(b) & ~allCards() & ~(st_.firewall[0] | st_.firewall[1]) &
                          ~ownExitBan & ~oppExitStop;
        targets |= neighbours(firsts) & ~b & ~forbidden;
    }
    return targets;
}

Bitboard Position::enterSources(Side us) const {
    const Bitboard own = st_.cards[index(us)];
    const Bitboard oppExits = exitsOf(opponent(us));
    Bitboard sources = own & oppExits;
    if (rules_.boostedExitToServer) sources |= own & st_.boost & neighbours(oppExits & ~allCards());
    return sources;
}

namespace {
// Squares where side `us` may place its firewall.
Bitboard firewallTargets(const PositionState& st, Side us, const Rules& rules) {
    const int u = index(us);
    Bitboard banned = st.firewall[0] | st.firewall[1] | kAllExits | st.cards[1 - u];
    if (!rules.firewallUnderOwnCard) banned |= st.cards[u];
    return ~banned;
}
}  // namespace

void Position::legalActions(ActionList& out) const {
    out.clear();
    if (!isOver()) generate(out);
}

void Position::generate(ActionList& out) const {
    out.clear();
    const Side us = st_.toMove;
    const int u = index(us);
    const Bitboard own = st_.cards[u];
    for (Bitboard b = own; b;) {
        Square from = popLsb(b);
        for (Bitboard t = moveTargets(from, us); t;) out.push(Action::move(from, popLsb(t)));
    }
    for (Bitboard b = enterSources(us); b;) out.push(Action::enter(popLsb(b)));
    if (Bitboard carrier = own & st_.boost) {
        out.push(Action::boostDetach(lsb(carrier)));
    } else {
        for (Bitboard b = own; b;) out.push(Action::boostAttach(popLsb(b)));
    }
    if (st_.firewall[u]) {
        out.push(Action::firewallRemove(lsb(st_.firewall[u])));
    } else {
        for (Bitboard b = firewallTargets(st_, us, rules_); b;)
            out.push(Action::firewallPlace(popLsb(b)));
    }
    if (st_.unused & checkBit(us)) {
        for (Bitboard b = st_.cards[1 - u] & ~st_.faceUp; b;) out.push(Action::check(popLsb(b)));
    }
    if (st_.unused & notFoundBit(us)) {
        for (Bitboard a = own; a;) {
            Square x = popLsb(a);
            for (Bitboard b = a; b;) {
                Square y = popLsb(b);
                out.push(Action::notFound(x, y, false));
                out.push(Action::notFound(x, y, true));
            }
        }
    }
}

int Position::countLegalActions() const {
    if (isOver()) return 0;
    const Side us = st_.toMove;
    const int u = index(us);
    const Bitboard own = st_.cards[u];
    const int n = popcount(own);
    int count = popcount(enterSources(us));
    for (Bitboard b = own; b;) count += popcount(moveTargets(popLsb(b), us));
    count += (own & st_.boost) ? 1 : n;
    count += st_.firewall[u] ? 1 : popcount(firewallTargets(st_, us, rules_));
    if (st_.unused & checkBit(us)) count += popcount(st_.cards[1 - u] & ~st_.faceUp);
    if (st_.unused & notFoundBit(us)) count += n * (n - 1);
    return count;
}

namespace {
// The square of the n-th set bit of b (n < popcount(b)).
Square nthSquare(Bitboard b, int n) {
    for (; n > 0; --n) b &= b - 1;
    return lsb(b);
}
}  // namespace

Action Position::legalActionAt(int i) const {
    const Side us = st_.toMove;
    const int u = index(us);
    const Bitboard own = st_.cards[u];
    for (Bitboard b = own; b;) {
        const Square from = popLsb(b);
        const Bitboard t = moveTargets(from, us);
        const int n = popcount(t);
        if (i < n) return Action::move(from, nthSquare(t, i));
        i -= n;
    }
    const Bitboard enter = enterSources(us);
    if (i < popcount(enter)) return Action::enter(nthSquare(enter, i));
    i -= popcount(enter);
    if (Bitboard carrier = own & st_.boost) {
        if (i == 0) return Action::boostDetach(lsb(carrier));
        i -= 1;
    } else {
        if (i < popcount(own)) return Action::boostAttach(nthSquare(own, i));
        i -= popcount(own);
    }
    if (st_.firewall[u]) {
        if (i == 0) return Action::firewallRemove(lsb(st_.firewall[u]));
        i -= 1;
    } else {
        const Bitboard t = firewallTargets(st_, us, rules_);
        if (i < popcount(t)) return Action::firewallPlace(nthSquare(t, i));
        i -= popcount(t);
    }
    if (st_.unused & checkBit(us)) {
        const Bitboard t = st_.cards[1 - u] & ~st_.faceUp;
        if (i < popcount(t)) return Action::check(nthSquare(t, i));
        i -= popcount(t);
    }
    // NF pairs in generation order: for x ascending, y > x ascending, keep then swap.
    const bool swap = i & 1;
    int pair = i >> 1;
    for (Bitboard a = own; a;) {
        const Square x = popLsb(a);
        const int n = popcount(a);
        if (pair < n) return Action::notFound(x, nthSquare(a, pair), swap);
        pair -= n;
    }
    return Action{};
}

bool Position::isLegal(Action a) const {
    return !isOver() && isLegalIgnoringEnd(a);
}

bool Position::isLegalIgnoringEnd(Action a) const {
    if (a.isNone()) return false;
    const Side us = st_.toMove;
    const int u = index(us);
    const Bitboard own = st_.cards[u];
    const Bitboard from = bit(a.from());
    switch (a.type()) {
        case ActionType::Move:
            return (own & from) && (moveTargets(a.from(), us) & bit(a.to()));
        case ActionType::Enter:
            return a.to() == 0 && !a.swap() && (enterSources(us) & from);
        case ActionType::BoostAttach:
            return a.to() == 0 && !a.swap() && (own & from) && !(own & st_.boost);
        case ActionType::BoostDetach:
            return a.to() == 0 && !a.swap() && (own & st_.boost & from);
        case ActionType::FirewallPlace:
            return a.to() == 0 && !a.swap() && !st_.firewall[u] &&
                   (firewallTargets(st_, us, rules_) & from);
        case ActionType::FirewallRemove:
            return a.to() == 0 && !a.swap() && (st_.firewall[u] & from);
        case ActionType::Check:
            return a.to() == 0 && !a.swap() && (st_.unused & checkBit(us)) &&
                   (st_.cards[1 - u] & ~st_.faceUp & from);
        case ActionType::NotFound:
            return (st_.unused & notFoundBit(us)) && a.from() < a.to() && (own & from) &&
                   (own & bit(a.to()));
    }
    return false;
}

// ---- do ---------------------------------------------------------------------------------------

void Position::doAction(Action a) {
    assert(isLegal(a));
    PositionState& s = st_;
    const Side us = s.toMove;
    const int u = index(us), t = 1 - u;
    const Square from = a.from();
    const Bitboard fb = bit(from);
    bool progress = false;
    auto removeCard = [&](int side, Square sq) {
        const Bitboard b = bit(sq);
        const bool link = s.links[side] & b;
        s.hash ^= kKeys.card[side][link][sq];
        if (s.faceUp & b) s.hash ^= kKeys.faceUp[sq];
        if (s.boost & b) s.hash ^= kKeys.boost[sq];  // LB goes back to its owner's hand
        s.cards[side] &= ~b;
        s.links[side] &= ~b;
        s.faceUp &= ~b;
        s.boost &= ~b;
        return link;
    };
    auto bumpStack = [&](int side, int field) {
        std::uint8_t* f[4] = {&s.stacks[side].capturedLinks, &s.stacks[side].capturedViruses,
                              &s.stacks[side].escapedLinks, &s.stacks[side].escapedViruses};
        s.hash ^= kKeys.stack[side][field][*f[field]] ^ kKeys.stack[side][field][*f[field] + 1];
        ++*f[field];
    };
    switch (a.type()) {
        case ActionType::Move: {
            const Square to = a.to();
            const Bitboard tb = bit(to);
            if (s.cards[t] & tb) {
                const bool link = removeCard(t, to);
                bumpStack(u, link ? 0 : 1);
                progress = true;
            }
            const bool link = s.links[u] & fb;
            const bool up = s.faceUp & fb, boosted = s.boost & fb;
            removeCard(u, from);
            s.cards[u] |= tb;
            s.hash ^= kKeys.card[u][link][to];
            if (link) s.links[u] |= tb;
            if (up) s.faceUp |= tb, s.hash ^= kKeys.faceUp[to];
            if (boosted) s.boost |= tb, s.hash ^= kKeys.boost[to];
            break;
        }
        case ActionType::Enter: {
            const bool link = removeCard(u, from);
            bumpStack(u, link ? 2 : 3);
            progress = true;
            break;
        }
        case ActionType::BoostAttach:
        case ActionType::BoostDetach:
            s.boost ^= fb;
            s.hash ^= kKeys.boost[from];
            break;
        case ActionType::FirewallPlace:
        case ActionType::FirewallRemove:
            s.firewall[u] ^= fb;
            s.hash ^= kKeys.firewall[u][from];
            break;
        case ActionType::Check:
            s.faceUp |= fb;
            s.hash ^= kKeys.faceUp[from] ^ kKeys.unused[s.unused & 15];
            s.unused = static_cast<std::uint8_t>(s.unused & ~checkBit(us));
            s.hash ^= kKeys.unused[s.unused & 15];
            break;
        case ActionType::NotFound: {
            const Square to = a.to();
            const Bitboard tb = bit(to);
            const bool la = s.links[u] & fb, lb = s.links[u] & tb;
            if (a.swap() && la != lb) {
                s.links[u] ^= fb | tb;
                s.hash ^= kKeys.card[u][la][from] ^ kKeys.card[u][lb][from] ^
                          kKeys.card[u][lb][to] ^ kKeys.card[u][la][to];
            }
            for (Bitboard b = s.faceUp & (fb | tb); b;) s.hash ^= kKeys.faceUp[popLsb(b)];
            s.faceUp &= ~(fb | tb);
            s.hash ^= kKeys.unused[s.unused & 15];
            s.unused = static_cast<std::uint8_t>(s.unused & ~notFoundBit(us));
            s.hash ^= kKeys.unused[s.unused & 15];
            break;
        }
    }
    s.noProgress = progress ? 0 : s.noProgress + 1;
    ++s.ply;
    s.toMove = opponent(us);
    s.hash ^= kKeys.sideTwoToMove;
}

// ---- outcome ----------------------------------------------------------------------------------

EndReason Position::endReason() const {
    for (const Stack& k : st_.stacks) {
        if (k.links() >= 4) return EndReason::FourLinks;
        if (k.viruses() >= 4) return EndReason::FourViruses;
    }
    if (rules_.noProgressLimit > 0 && st_.noProgress >= rules_.noProgressLimit)
        return EndReason::NoProgress;
    return EndReason::None;
}

Outcome Position::outcome() const {
    for (int s = 0; s < 2; ++s) {
        const Stack& k = st_.stacks[s];
        if (k.links() >= 4) return s == 0 ? Outcome::Side1Wins : Outcome::Side2Wins;
        if (k.viruses() >= 4) return s == 0 ? Outcome::Side2Wins : Outcome::Side1Wins;
    }
    if (rules_.noProgressLimit > 0 && st_.noProgress >= rules_.noProgressLimit)
        return Outcome::Draw;
    return Outcome::Ongoing;
}

}  // namespace rainet

#include "core/view.h"

namespace rainet {

const char* viewerName(Viewer v) {
    switch (v) {
        case Viewer::Side1:
            return "1";
        case Viewer::Side2:
            return "2";
        case Viewer::Spectator:
            break;
    }
    return "spectator";
}

std::optional<Viewer> parseViewer(std::string_view t) {
    if (t == "1") return Viewer::Side1;
    if (t == "2") return Viewer::Side2;
    if (t == "spectator") return Viewer::Spectator;
    return std::nullopt;
}

Observation observe(const Position& before, Action a, Viewer v) {
    Observation o;
    o.action = a;
    const Side mover = before.toMove();
    if (a.type() == ActionType::NotFound) {
        o.swapKnown = seesIdentitiesOf(v, mover);
        if (!o.swapKnown) o.action = Action::notFound(a.from(), a.to(), false);
    }
    if (a.type() == ActionType::Move && before.occupied(a.to()))
        o.revealedLink = before.isLinkAt(a.to());
    if (a.type() == ActionType::Check) o.revealedLink = before.isLinkAt(a.from());
    return o;
}

std::string toString(const Observation& o, const Position& before) {
    std::string s = toString(o.action, o.swapKnown ? Notation::Full : Notation::Public);
    if (o.revealedLink) {
        const Square sq = o.action.type() == ActionType::Check ? o.action.from() : o.action.to();
        const bool one = before.ownerAt(sq) == Side::One;
        s += *o.revealedLink ? (one ? " {L}" : " {l}") : (one ? " {V}" : " {v}");
    }
    return s;
}

View View::of(const Position& p, Viewer v) {
    View view;
    view.viewer_ = v;
    view.f_.st = p.state();
    view.f_.st.hash = 0;
    for (Side s : {Side::One, Side::Two}) {
        if (seesIdentitiesOf(v, s)) continue;
        const int i = index(s);
        const Bitboard hidden = view.f_.st.cards[i] & ~view.f_.st.faceUp;
        view.f_.unknown[i] = hidden;
        view.f_.st.links[i] &= ~hidden;
        Stack& k = view.f_.st.stacks[i];
        view.f_.unknownEscapes[i] = k.escapedLinks + k.escapedViruses;
        k.escapedLinks = k.escapedViruses = 0;
    }
    view.board_.rules_ = p.rules();
    view.syncBoard();
    return view;
}

Result<View> View::parse(std::string_view text, Viewer v, Rules rules) {
    auto fields = detail::parsePositionFields(text, true);
    if (!fields) return fields.error();
    const detail::PositionFields& f = *fields;
    for (Side s : {Side::One, Side::Two}) {
        const int i = index(s);
        const std::string who = "side " + std::to_string(i + 1);
        if (seesIdentitiesOf(v, s)) {
            if (f.unknown[i] || f.unknownEscapes[i])
                return Error{"view: the viewer's own cards cannot be unidentified"};
        } else {
            if ((f.st.cards[i] & ~f.st.faceUp) != f.unknown[i])
                return Error{"view: a face-down card of " + who + " is identified, but viewer " +
                             viewerName(v) + " cannot see it"};
            if (f.st.stacks[i].escapedLinks || f.st.stacks[i].escapedViruses)
                return Error{"view: an escaped card of " + who + " is identified, but viewer " +
                             viewerName(v) + " cannot see it"};
        }
        const Stack& own = f.st.stacks[i];
        const Stack& opp = f.st.stacks[1 - i];
        const int cards = popcount(f.st.cards[i]) + own.escapedLinks + own.escapedViruses +
                          f.unknownEscapes[i] + opp.capturedLinks + opp.capturedViruses;
        const int links = popcount(f.st.links[i]) + own.escapedLinks + opp.capturedLinks;
        const int viruses = popcount(f.st.cards[i] & ~f.st.links[i] & ~f.unknown[i]) +
                            own.escapedViruses + opp.capturedViruses;
        if (cards != 8)
            return Error{"view: " + who + " has " + std::to_string(cards) + " cards, expected 8"};
        if (links > 4 || viruses > 4)
            return Error{"view: " + who + " has more than 4 identified cards of a kind"};
    }
    // The remaining checks are those of a full position with the unknown cards filled in some way;
    // filling is not needed for them, so check the shape with a scratch position.
    View view;
    view.viewer_ = v;
    view.f_ = f;
    view.board_.rules_ = rules;
    view.syncBoard();
    const PositionState& s = f.st;
    for (int i = 0; i < 2; ++i) {
        if (popcount(s.boost & s.cards[i]) > 1)
            return Error{"board: a side has more than one LB carrier"};
        if (popcount(s.firewall[i]) > 1) return Error{"board: a side has more than one firewall"};
        if (s.firewall[i] & kAllExits) return Error{"board: a firewall stands on an exit"};
        if (s.cards[i] & s.firewall[1 - i])
            return Error{"board: a card stands on the opponent's firewall"};
        if (!rules.ownExitEntry && (s.cards[i] & exitsOf(static_cast<Side>(i))))
            return Error{"board: a card stands on its own exit"};
    }
    if ((s.ply % 2 == 0) != (s.toMove == Side::One))
        return Error{"side to move: does not match the ply's parity"};
    if (s.noProgress > s.ply) return Error{"no-progress counter: larger than the ply number"};
    return view;
}

void View::syncBoard() {
    board_.st_ = f_.st;
    board_.st_.hash = 0;
}

ActionList View::legalActions() const {
    ActionList l;
    board_.generate(l);
    return l;
}

std::optional<Error> View::apply(const Observation& o) {
    const Action a = o.action;
    if (!board_.isLegalIgnoringEnd(a))
        return Error{"view: " + rainet::toString(a) + " is not legal here"};
    PositionState& s = f_.st;
    const Side us = s.toMove;
    const int u = index(us), t = 1 - u;
    const Bitboard fb = bit(a.from());
    const bool capture = a.type() == ActionType::Move && (s.cards[t] & bit(a.to()));
    if ((capture || a.type() == ActionType::Check) && !o.revealedLink)
        return Error{"view: the observation of " + rainet::toString(a) +
                     " lacks the revealed identity"};
    bool progress = false;
    auto take = [&](int side, Bitboard b) {
        s.cards[side] &= ~b;
        s.links[side] &= ~b;
        s.faceUp &= ~b;
        s.boost &= ~b;
        f_.unknown[side] &= ~b;
    };
    switch (a.type()) {
        case ActionType::Move: {
            const Bitboard tb = bit(a.to());
            if (capture) {
                take(t, tb);
                ++(*o.revealedLink ? s.stacks[u].capturedLinks : s.stacks[u].capturedViruses);
                progress = true;
            }
            const bool link = s.links[u] & fb, up = s.faceUp & fb, boosted = s.boost & fb,
                       unk = f_.unknown[u] & fb;
            take(u, fb);
            s.cards[u] |= tb;
            if (link) s.links[u] |= tb;
            if (up) s.faceUp |= tb;
            if (boosted) s.boost |= tb;
            if (unk) f_.unknown[u] |= tb;
            break;
        }
        case ActionType::Enter: {
            // A view string cannot tell a face-up escape from a face-down one, so every escape
            // of a card the viewer cannot see is written unidentified (the InfoSet remembers it).
            const bool unk = !seesIdentitiesOf(viewer_, us), link = s.links[u] & fb;
            take(u, fb);
            if (unk)
                ++f_.unknownEscapes[u];
            else
                ++(link ? s.stacks[u].escapedLinks : s.stacks[u].escapedViruses);
            progress = true;
            break;
        }
        case ActionType::BoostAttach:
        case ActionType::BoostDetach:
            s.boost ^= fb;
            break;
        case ActionType::FirewallPlace:
        case ActionType::FirewallRemove:
            s.firewall[u] ^= fb;
            break;
        case ActionType::Check:
            s.faceUp |= fb;
            f_.unknown[t] &= ~fb;
            if (*o.revealedLink) s.links[t] |= fb;
            s.unused = static_cast<std::uint8_t>(s.unused & ~checkBit(us));
            break;
        case ActionType::NotFound: {
            const Bitboard pair = fb | bit(a.to());
            if (seesIdentitiesOf(viewer_, us)) {
                const bool la = s.links[u] & fb, lb = s.links[u] & bit(a.to());
                if (o.swapKnown && o.action.swap() && la != lb) s.links[u] ^= pair;
            } else {
                s.links[u] &= ~pair;
                f_.unknown[u] |= pair;
            }
            s.faceUp &= ~pair;
            s.unused = static_cast<std::uint8_t>(s.unused & ~notFoundBit(us));
            break;
        }
    }
    s.noProgress = progress ? 0 : s.noProgress + 1;
    ++s.ply;
    s.toMove = opponent(us);
    syncBoard();
    return std::nullopt;
}

}  // namespace rainet

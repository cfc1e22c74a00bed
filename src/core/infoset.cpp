#include "core/infoset.h"

#include <algorithm>

namespace rainet {

InfoSet::InfoSet(const View& start) : view_(start) {
    for (Side s : {Side::One, Side::Two}) {
        HiddenCards& h = hidden_[index(s)];
        if (seesIdentitiesOf(start.viewer(), s)) {
            h.assignments = {0};
            continue;
        }
        for (Bitboard b = start.unknown(s); b;) h.squares.push_back(popLsb(b));
        h.squares.insert(h.squares.end(), start.unknownEscapes(s), HiddenCards::kEscaped);
        const int knownLinks = popcount(start.knownLinks(s)) + start.stack(s).escapedLinks +
                               start.stack(opponent(s)).capturedLinks;
        const int n = static_cast<int>(h.squares.size());
        const int k = 4 - knownLinks;
        for (int m = 0; m < (1 << n); ++m)
            if (std::popcount(static_cast<unsigned>(m)) == k)
                h.assignments.push_back(static_cast<std::uint8_t>(m));
    }
}

int InfoSet::tokenAt(int side, int square) const {
    const auto& sq = hidden_[side].squares;
    auto it = std::find(sq.begin(), sq.end(), square);
    return it == sq.end() ? -1 : static_cast<int>(it - sq.begin());
}

void InfoSet::removeToken(int side, int i, bool link) {
    HiddenCards& h = hidden_[side];
    std::vector<std::uint8_t> kept;
    for (std::uint8_t m : h.assignments) {
        if (((m >> i) & 1) != link) continue;
        const unsigned low = m & ((1u << i) - 1), high = (m >> (i + 1)) << i;
        kept.push_back(static_cast<std::uint8_t>(low | high));
    }
    h.assignments = std::move(kept);
    h.squares.erase(h.squares.begin() + i);
}

void InfoSet::addKnown(int side, Square sq, bool link) {
    HiddenCards& h = hidden_[side];
    const int n = static_cast<int>(h.squares.size());
    h.squares.push_back(sq);
    for (std::uint8_t& m : h.assignments) m |= static_cast<std::uint8_t>(link << n);
}

std::optional<Error> InfoSet::observe(const Observation& o) {
    View next = view_;
    if (auto err = next.apply(o)) return err;
    const Action a = o.action;
    const int u = index(view_.toMove()), t = 1 - u;
    const bool hiddenU = !seesIdentitiesOf(view_.viewer(), view_.toMove());
    const bool hiddenT = !seesIdentitiesOf(view_.viewer(), opponent(view_.toMove()));
    switch (a.type()) {
        case ActionType::Move: {
            if (hiddenT) {
                if (int i = tokenAt(t, a.to()); i >= 0) removeToken(t, i, *o.revealedLink);
            }
            if (hiddenU) {
                if (int i = tokenAt(u, a.from()); i >= 0) hidden_[u].squares[i] = a.to();
            }
            break;
        }
        case ActionType::Enter:
            if (hiddenU) {
                // A face-up card that escapes joins the unidentified escapes with its known
                // identity.
                if (tokenAt(u, a.from()) < 0)
                    addKnown(u, a.from(), view_.knownLinks(view_.toMove()) & bit(a.from()));
                hidden_[u].squares[tokenAt(u, a.from())] = HiddenCards::kEscaped;
            }
            break;
        case ActionType::Check:
            if (hiddenT) {
                if (int i = tokenAt(t, a.from()); i >= 0) removeToken(t, i, *o.revealedLink);
            }
            break;
        case ActionType::NotFound: {
            if (!hiddenU) break;
            for (Square sq : {a.from(), a.to()})
                if (tokenAt(u, sq) < 0) addKnown(u, sq, view_.knownLinks(view_.toMove()) & bit(sq));
            const int i = tokenAt(u, a.from()), j = tokenAt(u, a.to());
            HiddenCards& h = hidden_[u];
            const std::size_t n = h.assignments.size();
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint8_t m = h.assignments[k];
                const int bi = (m >> i) & 1, bj = (m >> j) & 1;
                if (bi != bj)
                    h.assignments.push_back(static_cast<std::uint8_t>(m ^ (1u << i) ^ (1u << j)));
            }
            std::sort(h.assignments.begin(), h.assignments.end());
            h.assignments.erase(std::unique(h.assignments.begin(), h.assignments.end()),
                                h.assignments.end());
            break;
        }
        default:
            break;
    }
    view_ = std::move(next);
    history_.push_back(o);
    return std::nullopt;
}

Position InfoSet::world(std::size_t index1, std::size_t index2) const {
    Position p;
    p.rules_ = view_.rules();
    p.st_ = view_.fields().st;
    for (int s = 0; s < 2; ++s) {
        const HiddenCards& h = hidden_[s];
        if (h.squares.empty()) continue;
        const std::uint8_t m = h.assignments[s == 0 ? index1 : index2];
        for (std::size_t j = 0; j < h.squares.size(); ++j) {
            const bool link = (m >> j) & 1;
            if (h.squares[j] >= 0) {
                if (link) p.st_.links[s] |= bit(h.squares[j]);
            } else {
                ++(link ? p.st_.stacks[s].escapedLinks : p.st_.stacks[s].escapedViruses);
            }
        }
    }
    p.st_.hash = p.computeHash();
    return p;
}

Position InfoSet::sample(Rng& rng) const {
    const auto n1 = static_cast<std::uint32_t>(hidden_[0].assignments.size());
    const auto n2 = static_cast<std::uint32_t>(hidden_[1].assignments.size());
    return world(n1 > 1 ? rng.below(n1) : 0, n2 > 1 ? rng.below(n2) : 0);
}

std::vector<Position> InfoSet::worlds() const {
    std::vector<Position> out;
    for (std::size_t i = 0; i < hidden_[0].assignments.size(); ++i)
        for (std::size_t j = 0; j < hidden_[1].assignments.size(); ++j) out.push_back(world(i, j));
    return out;
}

}  // namespace rainet

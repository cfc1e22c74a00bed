#pragma once
// Exact facts of an InfoSet that only tests need (the AI samples worlds; it never counts them):
// computed from its public state, so the library does not carry them.
#include <algorithm>
#include <cstdint>

#include "core/infoset.h"

namespace rainet::test {

// Number of full positions consistent with what the viewer knows.
inline std::uint64_t worldCount(const InfoSet& info) {
    return static_cast<std::uint64_t>(info.hidden(Side::One).assignments.size()) *
           info.hidden(Side::Two).assignments.size();
}

// Probability that the card on `sq` is a link, uniform over the consistent worlds (0 or 1 when
// known; 0 on an empty square).
inline double linkProbability(const InfoSet& info, Square sq) {
    const Bitboard b = bit(sq);
    for (Side s : {Side::One, Side::Two}) {
        if (!(info.view().cards(s) & b)) continue;
        const HiddenCards& h = info.hidden(s);
        const auto it = std::find(h.squares.begin(), h.squares.end(), static_cast<int>(sq));
        if (it == h.squares.end()) return (info.view().knownLinks(s) & b) ? 1.0 : 0.0;
        const auto i = static_cast<int>(it - h.squares.begin());
        if (h.assignments.empty()) return 0.0;
        std::size_t links = 0;
        for (std::uint8_t m : h.assignments) links += (m >> i) & 1;
        return static_cast<double>(links) / static_cast<double>(h.assignments.size());
    }
    return 0.0;
}

}  // namespace rainet::test

#pragma once
// Random keys for the incremental hash of a position. The hash covers every fact of the state
// except the two counters (no-progress and ply), so that transpositions hash alike.
#include <array>
#include <cstdint>

namespace rainet::zobrist {

constexpr std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct Keys {
    std::uint64_t card[2][2][64];  // [side][link?][square]
    std::uint64_t faceUp[64];
    std::uint64_t boost[64];
    std::uint64_t firewall[2][64];
    std::uint64_t unused[16];
    std::uint64_t sideTwoToMove;
    std::uint64_t stack[2][4][9];  // [side][field][count]
};

constexpr Keys makeKeys() {
    Keys k{};
    std::uint64_t s = 0x5241494E4554ULL;  // "RAINET"
    for (auto& a : k.card)
        for (auto& b : a)
            for (auto& c : b) c = splitmix(s);
    for (auto& c : k.faceUp) c = splitmix(s);
    for (auto& c : k.boost) c = splitmix(s);
    for (auto& a : k.firewall)
        for (auto& c : a) c = splitmix(s);
    for (auto& c : k.unused) c = splitmix(s);
    k.sideTwoToMove = splitmix(s);
    for (auto& a : k.stack)
        for (auto& b : a)
            for (auto& c : b) c = splitmix(s);
    return k;
}

inline constexpr Keys kKeys = makeKeys();

}  // namespace rainet::zobrist

#pragma once
// Basic vocabulary of the rules engine: squares, sides, bitboards.
#include <bit>
#include <cstdint>

namespace rainet {

using Bitboard = std::uint64_t;
using Square = int;  // 0..63, a1 = 0, b1 = 1, ..., h8 = 63 (rank * 8 + file)

enum class Side : std::uint8_t { One = 0, Two = 1 };

constexpr int index(Side s) {
    return static_cast<int>(s);
}
constexpr Side opponent(Side s) {
    return s == Side::One ? Side::Two : Side::One;
}
constexpr int sideNumber(Side s) {
    return index(s) + 1;
}

constexpr int fileOf(Square s) {
    return s & 7;
}
constexpr int rankOf(Square s) {
    return s >> 3;
}
constexpr Square makeSquare(int file, int rank) {
    return rank * 8 + file;
}
constexpr Bitboard bit(Square s) {
    return Bitboard{1} << s;
}
constexpr int popcount(Bitboard b) {
    return std::popcount(b);
}
constexpr Square lsb(Bitboard b) {
    return std::countr_zero(b);
}
constexpr Square popLsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;

// Orthogonal neighbours of every square in a set.
constexpr Bitboard neighbours(Bitboard b) {
    return (b << 8) | (b >> 8) | ((b & ~kFileH) << 1) | ((b & ~kFileA) >> 1);
}

// Squares of the two exits (server ports) of a side, on its back rank.
constexpr Bitboard exitsOf(Side s) {
    return s == Side::One ? bit(makeSquare(3, 0)) | bit(makeSquare(4, 0))
                          : bit(makeSquare(3, 7)) | bit(makeSquare(4, 7));
}
constexpr Bitboard kAllExits = exitsOf(Side::One) | exitsOf(Side::Two);

// The eight setup squares of a side, in the order records list them: a b c f g h on the back rank,
// then d e on the second rank.
constexpr Square setupSquare(Side s, int i) {
    constexpr int files[8] = {0, 1, 2, 5, 6, 7, 3, 4};
    int rank = i < 6 ? 0 : 1;
    return makeSquare(files[i], s == Side::One ? rank : 7 - rank);
}

}  // namespace rainet

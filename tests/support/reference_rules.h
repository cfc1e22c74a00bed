// An independent, deliberately simple implementation of the rules of Rai-Net Access Battlers
// (../shared/RULES.md and docs/rules.md), used only by tests to cross-check the engine in src/core
// through perft counts, legal-action lists and position strings.
//
// It shares no code with the engine and uses no bitboards: the board is an 8x8 array of squares,
// each holding at most one card and at most one firewall. Every function works on strings in the
// notation of RULES.md section 7, so a test can compare the two implementations text to text.
// Speed is not a goal; clarity is.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rainet::reference {

// The rules options of RULES.md section 9: `official` selects the 5pb. rulebook preset instead of
// `standard`; noProgressLimit is the no-progress draw limit in plies (0 = no limit).
struct Options {
    bool official = false;
    int noProgressLimit = 100;
};

// One online card on the board. owner == 0 means "no card here"; the other fields are then false.
struct Card {
    int owner = 0;         // 0 (no card), 1 or 2
    bool virus = false;    // false: a link
    bool faceUp = false;   // revealed by the opponent's VIRUS CHECKER
    bool boosted = false;  // carries its owner's LINE BOOST

    bool operator==(const Card&) const = default;
};

// One square of the board: a card (or none) and a firewall (or none).
struct Square {
    Card card;
    int firewall = 0;  // 0 (none), or the side (1 or 2) whose FIRE WALL lies here

    bool operator==(const Square&) const = default;
};

// A side's stack, by origin: cards it captured from the opponent and its own cards that escaped.
struct Stack {
    int capturedLinks = 0;
    int capturedViruses = 0;
    int escapedLinks = 0;
    int escapedViruses = 0;

    int links() const { return capturedLinks + escapedLinks; }
    int viruses() const { return capturedViruses + escapedViruses; }
    bool operator==(const Stack&) const = default;
};

// A full-information position. Arrays indexed by side use index side - 1.
// board[rank][file]: rank 0 is rank "1" (side 1's back rank), file 0 is file "a".
// A LINE BOOST or FIRE WALL not on the board is in its owner's hand.
struct State {
    std::array<std::array<Square, 8>, 8> board{};
    int sideToMove = 1;
    std::array<bool, 2> virusCheckerUnused{true, true};
    std::array<bool, 2> notFoundUnused{true, true};
    std::array<Stack, 2> stacks{};
    int noProgress = 0;  // plies since the last capture or escape
    int ply = 0;         // plies since the start

    bool operator==(const State&) const = default;
};

// Reads a full position string (RULES.md section 7). Returns nullopt when it is malformed or breaks
// the validity rules of docs/rules.md that do not depend on the preset.
std::optional<State> parse(std::string_view positionString);

// Writes the canonical position string; stacks list captures before escapes and, within each,
// links before viruses.
std::string format(const State& state);

// Every legal action in canonical notation (NF in full form, both :swap and :keep), sorted, without
// duplicates. Empty when the game is over.
std::vector<std::string> legalActions(const State& state, const Options& options);

// The position after `action`, or nullopt if `action` is not one of legalActions(state, options).
std::optional<State> apply(const State& state, std::string_view action, const Options& options);

// The number of leaves of the full action tree of the given depth (depth 0 counts 1).
uint64_t perft(const State& state, int depth, const Options& options);

enum class Outcome { Ongoing, Side1Wins, Side2Wins, Draw };

// The result of the position: stacks first (4 links wins, 4 viruses loses, for the stack's owner),
// then the no-progress limit.
Outcome outcome(const State& state, const Options& options);

}  // namespace rainet::reference

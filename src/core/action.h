#pragma once
// An action is one turn (RULES.md §4), packed in 16 bits: type, two squares and NF's swap bit.
// Canonical notation (RULES.md §7) is produced and read by toString / parseAction.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/types.h"

namespace rainet {

enum class ActionType : std::uint8_t {
    Move = 0,            // FROM-TO, one or two squares, captures included
    Enter = 1,           // FROM-srv
    BoostAttach = 2,     // LB+SQ
    BoostDetach = 3,     // LB-SQ
    FirewallPlace = 4,   // FW+SQ
    FirewallRemove = 5,  // FW-SQ
    Check = 6,           // VC+SQ
    NotFound = 7,        // NF+SQSQ:swap / :keep (squares ascending)
};

class Action {
  public:
    constexpr Action() = default;
    static constexpr Action move(Square from, Square to) {
        return Action(ActionType::Move, from, to, false);
    }
    static constexpr Action enter(Square from) { return Action(ActionType::Enter, from, 0, false); }
    static constexpr Action boostAttach(Square s) {
        return Action(ActionType::BoostAttach, s, 0, false);
    }
    static constexpr Action boostDetach(Square s) {
        return Action(ActionType::BoostDetach, s, 0, false);
    }
    static constexpr Action firewallPlace(Square s) {
        return Action(ActionType::FirewallPlace, s, 0, false);
    }
    static constexpr Action firewallRemove(Square s) {
        return Action(ActionType::FirewallRemove, s, 0, false);
    }
    static constexpr Action check(Square s) { return Action(ActionType::Check, s, 0, false); }
    // The squares are stored in ascending order whatever order they are given in.
    static constexpr Action notFound(Square a, Square b, bool swap) {
        return a < b ? Action(ActionType::NotFound, a, b, swap)
                     : Action(ActionType::NotFound, b, a, swap);
    }

    constexpr ActionType type() const { return static_cast<ActionType>((bits_ >> 12) & 7); }
    constexpr Square from() const { return bits_ & 63; }
    constexpr Square to() const { return (bits_ >> 6) & 63; }
    constexpr bool swap() const { return bits_ >> 15; }
    constexpr std::uint16_t raw() const { return bits_; }
    static constexpr Action fromRaw(std::uint16_t r) {
        Action a;
        a.bits_ = r;
        return a;
    }
    constexpr bool isNone() const { return bits_ == 0; }  // Move a1-a1 is never legal
    constexpr bool operator==(const Action&) const = default;
    constexpr bool operator<(const Action& o) const { return bits_ < o.bits_; }

  private:
    constexpr Action(ActionType t, Square a, Square b, bool swap)
        : bits_(static_cast<std::uint16_t>(a | (b << 6) | (static_cast<int>(t) << 12) |
                                           (swap << 15))) {}
    std::uint16_t bits_ = 0;
};

// How an action is written: in full, or as the opponent and spectators see it (NF without the bit).
enum class Notation { Full, Public };

std::string squareName(Square s);
Result<Square> parseSquare(std::string_view text);
std::string toString(Action a, Notation n = Notation::Full);
// The same appended to `out` (renderers writing many actions into one message).
void appendTo(std::string& out, Action a, Notation n = Notation::Full);
// Reads the full form; with allowPublicNotFound, also `NF+SQSQ` (returned with swap = false).
Result<Action> parseAction(std::string_view text, bool allowPublicNotFound = false);

// A fixed-capacity list of actions: generation never allocates. The bound is far above the
// largest count reachable (8 cards x 12 targets + 64 FW + 8 VC + 56 NF + LB).
class ActionList {
  public:
    static constexpr int kCapacity = 256;
    void push(Action a) { items_[size_++] = a; }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Action operator[](int i) const { return items_[i]; }
    const Action* begin() const { return items_.data(); }
    const Action* end() const { return items_.data() + size_; }
    Action* begin() { return items_.data(); }
    Action* end() { return items_.data() + size_; }
    bool contains(Action a) const;
    void clear() { size_ = 0; }

  private:
    std::array<Action, kCapacity> items_;
    int size_ = 0;
};

}  // namespace rainet

#pragma once
// The full-information state of a game (RULES.md §§1-5) on bitboards, with legal-action
// generation, do/undo and an incremental hash. Only the server and the referee hold a Position;
// players get a View (view.h).
#include <cstdint>
#include <string>
#include <string_view>

#include "core/action.h"
#include "core/error.h"
#include "core/rules.h"
#include "core/types.h"

namespace rainet {

// A side's stack: captured opponent cards and own escaped cards.
struct Stack {
    std::uint8_t capturedLinks = 0, capturedViruses = 0;
    std::uint8_t escapedLinks = 0, escapedViruses = 0;
    int links() const { return capturedLinks + escapedLinks; }
    int viruses() const { return capturedViruses + escapedViruses; }
    int size() const { return links() + viruses(); }
    bool operator==(const Stack&) const = default;
};

enum class Outcome : std::uint8_t { Ongoing, Side1Wins, Side2Wins, Draw };
// How a game ended under the rules (every ending, the players' and the clock's too: game_facts.h).
enum class EndReason : std::uint8_t { None, FourLinks, FourViruses, NoProgress };

const char* resultString(Outcome o);  // "1-0", "0-1", "1/2-1/2", "*"

// Once-per-game cards still in hand (field 3 of the position string).
enum OnceCard : std::uint8_t { kCheck1 = 1, kNotFound1 = 2, kCheck2 = 4, kNotFound2 = 8 };
constexpr std::uint8_t checkBit(Side s) {
    return s == Side::One ? kCheck1 : kCheck2;
}
constexpr std::uint8_t notFoundBit(Side s) {
    return s == Side::One ? kNotFound1 : kNotFound2;
}

// Everything that changes when an action is done; undo restores it whole.
struct PositionState {
    Bitboard cards[2] = {0, 0};     // occupancy by owner
    Bitboard links[2] = {0, 0};     // the cards of each side that are links
    Bitboard faceUp = 0;            // cards revealed by VC
    Bitboard boost = 0;             // LB carriers (at most one per side)
    Bitboard firewall[2] = {0, 0};  // at most one square per side
    Stack stacks[2];
    std::uint8_t unused = kCheck1 | kNotFound1 | kCheck2 | kNotFound2;
    Side toMove = Side::One;
    std::uint16_t noProgress = 0;
    std::uint32_t ply = 0;
    std::uint64_t hash = 0;
    bool operator==(const PositionState&) const = default;
};

class Position {
  public:
    // The example start of RULES.md §7: links on files a-d, viruses on e-h.
    static constexpr std::string_view kStartString =
        "lll2vvv/3lv3/8/8/8/8/3LV3/LLL2VVV 1 CNcn -/- 0 0";
    static Position start(Rules rules = Rules::standard());
    // A new game from two arrangements: bit i set = setup square i (types.h setupSquare) holds a
    // link.
    static Result<Position> fromSetups(std::uint8_t links1, std::uint8_t links2,
                                       Rules rules = Rules::standard());
    // Reads a full position string; every error names the field and the offending character.
    static Result<Position> parse(std::string_view text, Rules rules = Rules::standard());
    std::string toString() const;

    // Legal actions of the side to move; none when the game is over.
    void legalActions(ActionList& out) const;
    ActionList legalActions() const {
        ActionList l;
        legalActions(l);
        return l;
    }
    // Number of legal actions without listing them (bulk-counting perft).
    int countLegalActions() const;
    // The i-th legal action in legalActions() order, 0 <= i < countLegalActions(), without
    // listing them: uniformly random playouts pick with one count and one lookup.
    Action legalActionAt(int i) const;
    bool isLegal(Action a) const;

    // Plays a legal action (unchecked; debug builds assert). undo(a, saved) restores exactly.
    void doAction(Action a);
    void undoAction(const PositionState& saved) { st_ = saved; }
    const PositionState& state() const { return st_; }

    Outcome outcome() const;
    EndReason endReason() const;
    bool isOver() const { return outcome() != Outcome::Ongoing; }

    // Accessors.
    const Rules& rules() const { return rules_; }
    Side toMove() const { return st_.toMove; }
    Bitboard cards(Side s) const { return st_.cards[index(s)]; }
    Bitboard allCards() const { return st_.cards[0] | st_.cards[1]; }
    Bitboard links(Side s) const { return st_.links[index(s)]; }
    Bitboard viruses(Side s) const { return st_.cards[index(s)] & ~st_.links[index(s)]; }
    Bitboard faceUp() const { return st_.faceUp; }
    Bitboard boost() const { return st_.boost; }
    Bitboard firewall(Side s) const { return st_.firewall[index(s)]; }
    const Stack& stack(Side s) const { return st_.stacks[index(s)]; }
    bool hasUnused(std::uint8_t onceCard) const { return st_.unused & onceCard; }
    std::uint8_t unused() const { return st_.unused; }
    int noProgress() const { return st_.noProgress; }
    int ply() const { return st_.ply; }
    std::uint64_t hash() const { return st_.hash; }
    // Owner of the card on s, if any.
    bool occupied(Square s) const { return allCards() & bit(s); }
    Side ownerAt(Square s) const { return (st_.cards[0] & bit(s)) ? Side::One : Side::Two; }
    bool isLinkAt(Square s) const { return (st_.links[0] | st_.links[1]) & bit(s); }

    // Semantic check of a state (used after parsing and in debug builds); nullopt when valid.
    [[nodiscard]] std::optional<Error> validate() const;
    // Recomputes the hash from scratch (the incremental one must always equal it).
    std::uint64_t computeHash() const;

    bool operator==(const Position& o) const { return st_ == o.st_ && rules_ == o.rules_; }

  private:
    friend class View;
    friend class InfoSet;
    // Generation and legality ignoring whether the game is over: legality never depends on
    // hidden identities, so a View asks these of its identity-erased board.
    void generate(ActionList& out) const;
    // validate() without the hash check: what parse checks before computeHash may run.
    [[nodiscard]] std::optional<Error> validateFacts() const;
    bool isLegalIgnoringEnd(Action a) const;
    Bitboard moveTargets(Square from, Side us) const;
    Bitboard enterSources(Side us) const;

    PositionState st_;
    Rules rules_;
};

}  // namespace rainet

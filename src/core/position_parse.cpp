// Position <-> position string, and the semantic checks of docs/rules.md ("what is valid").
#include "core/position.h"
#include "core/position_string.h"

namespace rainet {

Result<Position> Position::parse(std::string_view text, Rules rules) {
    auto fields = detail::parsePositionFields(text, false);
    if (!fields) return fields.error();
    Position p;
    p.st_ = fields->st;
    p.rules_ = rules;
    // Facts first: the parser bounds a stack only loosely (16 cards), and computeHash indexes its
    // key tables by stack counts, which are only safe once validateFacts has capped them at 4.
    if (auto err = p.validateFacts()) return *err;
    p.st_.hash = p.computeHash();
    return p;
}

std::string Position::toString() const {
    detail::PositionFields f;
    f.st = st_;
    return detail::formatPositionFields(f);
}

std::optional<Error> Position::validate() const {
    if (auto err = validateFacts()) return err;
    if (st_.hash != computeHash()) return Error{"position: hash out of date"};
    return std::nullopt;
}

std::optional<Error> Position::validateFacts() const {
    const PositionState& s = st_;
    auto fail = [](std::string m) { return std::optional<Error>(Error{std::move(m)}); };
    if (s.cards[0] & s.cards[1]) return fail("board: two cards on one square");
    for (int i = 0; i < 2; ++i) {
        const Side side = static_cast<Side>(i);
        const std::string who = "side " + std::to_string(i + 1);
        const Stack& own = s.stacks[i];
        const Stack& opp = s.stacks[1 - i];
        if (s.links[i] & ~s.cards[i]) return fail("board: link bit without a card");
        const int links = popcount(s.links[i]) + own.escapedLinks + opp.capturedLinks;
        const int viruses =
            popcount(s.cards[i] & ~s.links[i]) + own.escapedViruses + opp.capturedViruses;
        if (links != 4)
            return fail("position: " + who + " owns " + std::to_string(links) +
                        " links (board, escapes and captures by the opponent), expected 4");
        if (viruses != 4)
            return fail("position: " + who + " owns " + std::to_string(viruses) +
                        " viruses (board, escapes and captures by the opponent), expected 4");
        if (own.links() > 4 || own.viruses() > 4)
            return fail("stacks: " + who + "'s stack holds more than 4 of a kind");
        if (popcount(s.boost & s.cards[i]) > 1)
            return fail("board: " + who + " has more than one LB carrier");
        if (popcount(s.firewall[i]) > 1)
            return fail("board: " + who + " has more than one firewall");
        if (s.firewall[i] & kAllExits) return fail("board: a firewall stands on an exit");
        if (s.cards[i] & s.firewall[1 - i])
            return fail("board: a card of " + who + " stands on the opponent's firewall");
        if (!rules_.ownExitEntry && (s.cards[i] & exitsOf(side)))
            return fail("board: a card of " + who + " stands on its own exit (not allowed in " +
                        rules_.name() + ")");
        const Bitboard up = s.faceUp & s.cards[i];
        if (popcount(up) > 1) return fail("board: " + who + " has more than one face-up card");
        if (up && (s.unused & checkBit(opponent(side))))
            return fail("board: " + who +
                        " has a face-up card but the opponent's VIRUS CHECKER is unused");
    }
    if (s.firewall[0] & s.firewall[1]) return fail("board: two firewalls on one square");
    if (s.boost & ~(s.cards[0] | s.cards[1])) return fail("board: LB on an empty square");
    if (s.faceUp & ~(s.cards[0] | s.cards[1]))
        return fail("board: face-up mark on an empty square");
    int decided = 0;
    for (const Stack& k : s.stacks) decided += (k.links() == 4) + (k.viruses() == 4);
    if (decided > 1) return fail("stacks: more than one winning or losing stack");
    if ((s.ply % 2 == 0) != (s.toMove == Side::One))
        return fail("side to move: side " + std::to_string(sideNumber(s.toMove)) +
                    " cannot move at ply " + std::to_string(s.ply) +
                    " (side 1 moves at even plies)");
    if (s.noProgress > s.ply) return fail("no-progress counter: larger than the ply number");
    if (rules_.noProgressLimit > 0 && s.noProgress > rules_.noProgressLimit)
        return fail("no-progress counter: beyond the limit of " +
                    std::to_string(rules_.noProgressLimit));
    return std::nullopt;
}

}  // namespace rainet

#pragma once
// What one viewer may see of a game (RULES.md §6): a side's view knows its own identities, a
// spectator's knows only public ones. A View is built by projecting a Position (the server) or
// by following Observations (a player); it never holds an identity hidden from its viewer.
#include <optional>
#include <string>
#include <string_view>

#include "core/action.h"
#include "core/position.h"
#include "core/position_string.h"

namespace rainet {

enum class Viewer : std::uint8_t { Side1, Side2, Spectator };
constexpr Viewer viewerOf(Side s) {
    return s == Side::One ? Viewer::Side1 : Viewer::Side2;
}
// Whether the viewer may know the identities of `owner`'s face-down cards.
constexpr bool seesIdentitiesOf(Viewer v, Side owner) {
    return v == viewerOf(owner);
}
const char* viewerName(Viewer v);  // "1", "2", "spectator"
std::optional<Viewer> parseViewer(std::string_view text);

// What a viewer learns from one action (the referee makes it with observe()).
struct Observation {
    Action action;           // NF's swap bit is false unless the viewer owns the NF
    bool swapKnown = false;  // true for the NF's owner (and for full records)
    // The identity revealed by this action to everyone: the captured card, or the VC target.
    std::optional<bool> revealedLink;
    bool operator==(const Observation&) const = default;
};
// The observation of `a` (legal in `before`) for viewer v.
Observation observe(const Position& before, Action a, Viewer v);
// "d2-d3", "NF+d2e2" / "NF+d2e2:swap", with a revealed identity appended as " {l}" (owner's case).
std::string toString(const Observation& o, const Position& before);

class View {
  public:
    static View of(const Position& p, Viewer v);
    // Reads a view string; it must be consistent with what `v` may see.
    static Result<View> parse(std::string_view text, Viewer v, Rules rules = Rules::standard());
    std::string toString() const { return detail::formatPositionFields(f_); }

    // Follows one observed action; an action illegal here, or an observation missing the
    // identity a capture or VC reveals, is an error and changes nothing.
    [[nodiscard]] std::optional<Error> apply(const Observation& o);

    // Legal actions of the side to move (they never depend on hidden identities). The game's end
    // is not decided here: it may hinge on hidden identities, so the referee announces it.
    ActionList legalActions() const;
    bool isLegal(Action a) const { return board_.isLegalIgnoringEnd(a); }

    Viewer viewer() const { return viewer_; }
    const Rules& rules() const { return board_.rules(); }
    Side toMove() const { return f_.st.toMove; }
    int ply() const { return static_cast<int>(f_.st.ply); }
    int noProgress() const { return f_.st.noProgress; }
    std::uint8_t unused() const { return f_.st.unused; }
    Bitboard cards(Side s) const { return f_.st.cards[index(s)]; }
    Bitboard allCards() const { return f_.st.cards[0] | f_.st.cards[1]; }
    Bitboard unknown(Side s) const { return f_.unknown[index(s)]; }
    Bitboard knownLinks(Side s) const { return f_.st.links[index(s)]; }
    Bitboard knownViruses(Side s) const {
        return f_.st.cards[index(s)] & ~f_.st.links[index(s)] & ~f_.unknown[index(s)];
    }
    Bitboard faceUp() const { return f_.st.faceUp; }
    Bitboard boost() const { return f_.st.boost; }
    Bitboard firewall(Side s) const { return f_.st.firewall[index(s)]; }
    const Stack& stack(Side s) const { return f_.st.stacks[index(s)]; }  // identified cards only
    int unknownEscapes(Side s) const { return f_.unknownEscapes[index(s)]; }
    const detail::PositionFields& fields() const { return f_; }

    bool operator==(const View& o) const {
        return viewer_ == o.viewer_ && toString() == o.toString();
    }

  private:
    void syncBoard();
    Viewer viewer_ = Viewer::Spectator;
    detail::PositionFields f_;
    Position board_;  // f_ with unidentified cards as viruses: for legality only
};

}  // namespace rainet

#pragma once
// What one viewer knows of a game: its View, the observations that led there, and for each side
// whose identities it cannot see, every assignment of identities to that side's unidentified
// cards that is consistent with everything observed. Counts are not enough: after a VC showed a
// virus and its owner then played NF on it and another card, one of those two is still a virus.
// Each side has at most 8 unidentified cards, so the consistent assignments (at most 70) are kept
// exactly, and sampling is exact and uniform over the consistent full positions.
#include <cstdint>
#include <vector>

#include "core/position.h"
#include "core/random.h"
#include "core/view.h"

namespace rainet {

// The unidentified cards of one side: where each is (a square, or kEscaped), and the consistent
// assignments as bit masks (bit i set = card i is a link).
struct HiddenCards {
    static constexpr int kEscaped = -1;
    std::vector<int> squares;
    std::vector<std::uint8_t> assignments;
};

class InfoSet {
  public:
    // Starts from any view; its unidentified cards are constrained only by the counts.
    explicit InfoSet(const View& start);

    // Follows one observed action (see View::apply); an error changes nothing.
    [[nodiscard]] std::optional<Error> observe(const Observation& o);

    const View& view() const { return view_; }
    const std::vector<Observation>& history() const { return history_; }
    const HiddenCards& hidden(Side s) const { return hidden_[index(s)]; }

    // A consistent full position, uniformly at random.
    Position sample(Rng& rng) const;
    // The full position for one choice of assignment index per side (ignored for visible sides).
    Position world(std::size_t index1, std::size_t index2) const;
    // Every consistent full position (for tests and small exact searches).
    std::vector<Position> worlds() const;

  private:
    void addKnown(int side, Square sq, bool link);
    void removeToken(int side, int token, bool link);
    int tokenAt(int side, int square) const;

    View view_;
    std::vector<Observation> history_;
    HiddenCards hidden_[2];
};

}  // namespace rainet

#pragma once
// Perft: the number of leaves of the full-information action tree (RULES.md §7), the standard
// check of an action generator. The last level is bulk-counted without listing actions.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace rainet {

std::uint64_t perft(Position& p, int depth);
// Leaves below each root action, in generation order.
std::vector<std::pair<Action, std::uint64_t>> perftDivide(Position& p, int depth);

}  // namespace rainet

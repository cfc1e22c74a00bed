#pragma once
// Reading and writing the six fields of a position string (RULES.md §7), shared by Position
// (full information) and View (unidentified cards written X / x).
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/position.h"

namespace rainet::detail {

struct PositionFields {
    PositionState st;                // links of unknown cards are left clear
    Bitboard unknown[2] = {0, 0};    // board cards whose identity is not given
    int unknownEscapes[2] = {0, 0};  // escaped cards of each side whose identity is not given
};

Result<PositionFields> parsePositionFields(std::string_view text, bool allowUnknown);
std::string formatPositionFields(const PositionFields& f);

}  // namespace rainet::detail

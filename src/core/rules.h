#pragma once
// Rules options: the presets of RULES.md §9 as a small value carried by every position.
#include <optional>
#include <string>
#include <string_view>

namespace rainet {

struct Rules {
    bool ownExitEntry = false;          // a card may enter its own exit
    bool boostedExitToServer = false;   // a boosted card may go exit -> server in one action
    bool firewallUnderOwnCard = false;  // FW may be placed under an own card
    int noProgressLimit = 100;          // plies without capture or escape that draw; 0 = none

    static Rules standard() { return Rules{}; }
    static Rules official() { return Rules{true, true, true, 100}; }
    static std::optional<Rules> byName(std::string_view name);
    // "standard", "official", or "custom" when the options match neither preset.
    std::string name() const;
    bool operator==(const Rules&) const = default;
};

}  // namespace rainet

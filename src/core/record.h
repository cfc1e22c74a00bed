#pragma once
// Game records (docs/record-format.md): tags, both setups, one action per ply. The full record
// shows everything; the public record is what a spectator may see (no setups, NF in public form).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/action.h"
#include "core/error.h"
#include "core/position.h"

namespace rainet {

struct Record {
    // Tags in the order they are written; Preset, Result, Termination, Setup1/2 and Position are
    // managed through the fields below and never stored here.
    std::vector<std::pair<std::string, std::string>> tags;
    Rules rules = Rules::standard();
    std::uint8_t setup1 = 0, setup2 = 0;       // links masks (bit i = setup square i); full records
    std::optional<std::string> startPosition;  // a full position string, instead of setups
    std::vector<Action> actions;  // full form; in a public record NF swap bits are unknown (false)
    Outcome result = Outcome::Ongoing;
    std::string termination;  // "four-links", "four-viruses", "no-progress", "resignation", ...
    bool isPublic = false;

    std::string tag(std::string_view name) const;  // "" when absent
    void setTag(std::string name, std::string value);

    // The position before any action (from the setups or the start position).
    Result<Position> initialPosition() const;
};

// Plays a full record through the engine: the final position, or an error naming the ply.
Result<Position> replay(const Record& r);

std::string writeFullRecord(const Record& r);
// The spectator's rendering; refuses to reveal nothing: it needs a full record to compute reveals.
std::string writePublicRecord(const Record& r);
Result<Record> parseRecord(std::string_view text);

std::string setupString(std::uint8_t links);  // "LLLVVVLV" in setup-square order
Result<std::uint8_t> parseSetupString(std::string_view s);
const char* endReasonName(EndReason r);  // "four-links", "four-viruses", "no-progress", ""

}  // namespace rainet

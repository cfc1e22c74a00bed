#include "tournament/settings.h"

#include "tournament/round_robin.h"

namespace rainet::tournament {
namespace {

// A name is printable UTF-8 text: no control bytes (it is shown in lists and page titles).
bool printable(std::string_view name) {
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) return false;
    }
    return true;
}

}  // namespace

std::optional<std::string_view> settingsRefusal(const Settings& s, std::int64_t nowMs) {
    if (s.name.empty() || s.name.size() > kMaxNameBytes || !printable(s.name)) return "bad_name";
    if (s.initialMs < kMinInitialMs || s.initialMs > kMaxInitialMs) return "bad_clock";
    if (s.incrementMs < 0 || s.incrementMs > kMaxIncrementMs) return "bad_clock";
    if (s.startsMs < nowMs || s.startsMs > nowMs + kMaxStartDelayMs) return "bad_start";
    if (s.format == Format::Arena) {
        if (s.durationMs < kMinArenaMs || s.durationMs > kMaxArenaMs) return "bad_duration";
        return std::nullopt;
    }
    if (auto why = roundRobinRefusal(s.maxPlayers, s.legs)) return why;
    return std::nullopt;
}

}  // namespace rainet::tournament

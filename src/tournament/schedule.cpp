#include "tournament/schedule.h"

#include <charconv>

#include "tournament/settings.h"

namespace rainet::tournament {
namespace {

// A whole number at the start of `s`, consumed; nothing if there is none (or it overflows).
std::optional<std::int64_t> number(std::string_view& s) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end == s.data()) return std::nullopt;
    s.remove_prefix(static_cast<std::size_t>(end - s.data()));
    return v;
}

bool take(std::string_view& s, char c) {
    if (s.empty() || s.front() != c) return false;
    s.remove_prefix(1);
    return true;
}

std::string periodName(std::int64_t everyMs) {
    if (everyMs == 60 * 60'000) return "Hourly";
    if (everyMs == 24 * 60 * 60'000) return "Daily";
    return "Every " + std::to_string(everyMs / 60'000) + " min";
}

}  // namespace

std::optional<RecurringArena> parseRecurringArena(std::string_view spec) {
    std::string_view s = spec;
    const auto initial = number(s);
    if (!initial || !take(s, '+')) return std::nullopt;
    const auto increment = number(s);
    if (!increment || !take(s, '@')) return std::nullopt;
    const auto every = number(s);
    if (!every || !take(s, '/')) return std::nullopt;
    const auto length = number(s);
    if (!length || !s.empty()) return std::nullopt;
    // Bounded before multiplying, so that no product overflows.
    if (*initial < 0 || *initial > 60 || *increment < 0 || *increment > 60 || *every < 10 ||
        *every > 7 * 24 * 60 || *length < 0 || *length > *every)
        return std::nullopt;
    RecurringArena r;
    r.spec = std::string(spec);
    r.initialMs = *initial * 60'000;
    r.incrementMs = *increment * 1000;
    r.everyMs = *every * 60'000;
    r.lengthMs = *length * 60'000;
    if (r.initialMs < kMinInitialMs || r.initialMs > kMaxInitialMs) return std::nullopt;
    if (r.incrementMs > kMaxIncrementMs) return std::nullopt;
    if (r.lengthMs < kMinArenaMs || r.lengthMs > kMaxArenaMs) return std::nullopt;
    r.name = periodName(r.everyMs) + " " + std::to_string(*initial) + "+" +
             std::to_string(*increment) + " arena";
    return r;
}

std::int64_t nextSlot(const RecurringArena& r, std::int64_t nowMs) {
    const std::int64_t q = nowMs / r.everyMs;
    const std::int64_t at = q * r.everyMs;
    return at >= nowMs ? at : at + r.everyMs;
}

std::string slotKey(const RecurringArena& r, std::int64_t slotMs) {
    std::string k = r.spec;
    k += '#';
    k += std::to_string(slotMs);
    return k;
}

}  // namespace rainet::tournament

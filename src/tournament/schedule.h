#pragma once
// The operator's recurring arenas (`rainet serve --arena-schedule SPEC`, repeatable). A SPEC is
// "<initial minutes>+<increment seconds>@<every minutes>/<length minutes>", e.g. "3+2@60/30":
// a 3+2 arena every hour on the hour, each lasting 30 minutes. Slots are aligned to multiples of
// the period since the Unix epoch, so every node of a cluster computes the same slots, and each
// slot has one key (the store keeps one tournament per key).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rainet::tournament {

struct RecurringArena {
    std::string spec;  // as given, normalised: the key's prefix
    std::int64_t initialMs = 0;
    std::int64_t incrementMs = 0;
    std::int64_t everyMs = 0;
    std::int64_t lengthMs = 0;
    std::string name;  // e.g. "Hourly 3+2 arena"
};

// The schedule of `spec`, or nothing when it is malformed or out of the bounds of settings.h
// (the clock, the length) or its length exceeds its period (arenas of one schedule never
// overlap), or the period is under 10 minutes or over a week.
std::optional<RecurringArena> parseRecurringArena(std::string_view spec);

// The start of the first slot at or after `nowMs`.
std::int64_t nextSlot(const RecurringArena& r, std::int64_t nowMs);

// The key of the slot starting at `slotMs` (tournaments.schedule).
std::string slotKey(const RecurringArena& r, std::int64_t slotMs);

}  // namespace rainet::tournament

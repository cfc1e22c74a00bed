#pragma once
// A tournament's settings and their bounds: what any account may create. Every bound is one
// named number (docs/protocol.md lists them); `settingsRefusal` gives the protocol's error code.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rainet::tournament {

enum class Format : std::uint8_t { Arena, RoundRobin };

inline constexpr std::size_t kMaxNameBytes = 60;
inline constexpr std::int64_t kMinInitialMs = 30'000;                     // 30 s
inline constexpr std::int64_t kMaxInitialMs = 60 * 60'000;                // 60 min
inline constexpr std::int64_t kMaxIncrementMs = 60'000;                   // 60 s
inline constexpr std::int64_t kMinArenaMs = 5 * 60'000;                   // 5 min
inline constexpr std::int64_t kMaxArenaMs = 6 * 60 * 60'000;              // 6 h
inline constexpr std::int64_t kMaxStartDelayMs = 7LL * 24 * 60 * 60'000;  // a week ahead
inline constexpr int kMaxArenaPlayers = 2000;
// Tournaments one account may have not yet finished (created, running).
inline constexpr int kMaxOpenPerAccount = 3;

struct Settings {
    Format format = Format::Arena;
    std::string name;
    std::int64_t initialMs = 0;
    std::int64_t incrementMs = 0;
    std::int64_t startsMs = 0;    // when the arena opens / the round robin may start
    std::int64_t durationMs = 0;  // arenas only
    int legs = 1;                 // round robins only: 1 or 2
    int maxPlayers = 0;           // round robins: 3..12; arenas: kMaxArenaPlayers
};

// The first broken rule of `s` for a tournament created at `nowMs`, as an error code, or nothing.
std::optional<std::string_view> settingsRefusal(const Settings& s, std::int64_t nowMs);

}  // namespace rainet::tournament

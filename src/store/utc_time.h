#pragma once
// A stored time (unix ms) as people read it in answers and in `rainet admin`'s output:
// "2026-12-07 11:30 UTC".
#include <cstdint>
#include <ctime>
#include <string>

namespace rainet::store {

inline std::string utcTime(std::int64_t unixMs) {
    const std::time_t t = static_cast<std::time_t>(unixMs / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char out[32];
    std::strftime(out, sizeof out, "%Y-%m-%d %H:%M UTC", &tm);
    return out;
}

}  // namespace rainet::store

#include "server/throttle.h"

#include <algorithm>
#include <cmath>

namespace rainet::server {

std::int64_t Throttle::refillOf(const Bucket& b) const {
    if (!backoff_ || b.emptied <= 1) return refillCs_;
    return refillCs_ << std::min(b.emptied - 1, 6);
}

double Throttle::level(const Bucket& b, std::int64_t nowCs) const {
    return std::min(
        burst_, b.tokens + static_cast<double>(nowCs - b.at) / static_cast<double>(refillOf(b)));
}

std::int64_t Throttle::waitLocked(const std::vector<std::string>& keys, std::int64_t nowCs) const {
    std::int64_t longest = 0;
    for (const auto& k : keys) {
        auto it = buckets_.find(k);
        if (it == buckets_.end()) continue;
        const double l = level(it->second, nowCs);
        if (l < 1)
            longest = std::max(longest, static_cast<std::int64_t>(std::ceil(
                                            (1 - l) * static_cast<double>(refillOf(it->second)))));
    }
    return longest;
}

void Throttle::takeLocked(const std::vector<std::string>& keys, std::int64_t nowCs) {
    if (buckets_.size() > kSweepAt)  // forget the keys that have refilled
        std::erase_if(buckets_, [&](const auto& e) { return level(e.second, nowCs) >= burst_; });
    for (const auto& k : keys) {
        auto [it, fresh] = buckets_.try_emplace(k, Bucket{burst_, nowCs, 0});
        Bucket& b = it->second;
        const double l = level(b, nowCs);
        if (l >= burst_) b.emptied = 0;
        b.tokens = std::max(0.0, l - 1);
        b.at = nowCs;
        if (b.tokens < 1) ++b.emptied;
    }
}

std::int64_t Throttle::wait(const std::vector<std::string>& keys, std::int64_t nowCs) {
    std::lock_guard lock(mu_);
    return waitLocked(keys, nowCs);
}

void Throttle::take(const std::vector<std::string>& keys, std::int64_t nowCs) {
    std::lock_guard lock(mu_);
    takeLocked(keys, nowCs);
}

std::int64_t Throttle::tryTake(const std::vector<std::string>& keys, std::int64_t nowCs) {
    std::lock_guard lock(mu_);
    if (const std::int64_t w = waitLocked(keys, nowCs)) return w;
    takeLocked(keys, nowCs);
    return 0;
}

}  // namespace rainet::server

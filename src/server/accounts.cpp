#include "server/accounts.h"

#include <sodium.h>

#include <algorithm>
#include <cmath>

namespace rainet::server {

std::optional<std::string> hashPassword(std::string_view password, bool cheap) {
    if (sodium_init() < 0) return std::nullopt;
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(
            out, password.data(), password.size(),
            cheap ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE,
            cheap ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
        return std::nullopt;
    return std::string(out);
}

bool verifyPassword(const std::string& hash, std::string_view password) {
    if (sodium_init() < 0 || hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
    return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

double LoginThrottle::level(const Bucket& b, std::int64_t nowCs) const {
    return std::min(kBurst, b.tokens + static_cast<double>(nowCs - b.at) / kRefillCs);
}

std::int64_t LoginThrottle::wait(const std::vector<std::string>& keys, std::int64_t nowCs) {
    std::lock_guard lock(mu_);
    std::int64_t longest = 0;
    for (const auto& k : keys) {
        auto it = buckets_.find(k);
        if (it == buckets_.end()) continue;
        const double l = level(it->second, nowCs);
        if (l < 1)
            longest = std::max(longest, static_cast<std::int64_t>(std::ceil((1 - l) * kRefillCs)));
    }
    return longest;
}

void LoginThrottle::fail(const std::vector<std::string>& keys, std::int64_t nowCs) {
    std::lock_guard lock(mu_);
    if (buckets_.size() > 100000)  // forget the keys that have refilled
        std::erase_if(buckets_, [&](const auto& e) { return level(e.second, nowCs) >= kBurst; });
    for (const auto& k : keys) {
        Bucket& b = buckets_.try_emplace(k, Bucket{kBurst, nowCs}).first->second;
        b.tokens = std::max(0.0, level(b, nowCs) - 1);
        b.at = nowCs;
    }
}

}  // namespace rainet::server

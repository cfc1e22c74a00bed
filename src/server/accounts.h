#pragma once
// Accounts: password hashing (Argon2id through libsodium's crypto_pwhash_str, whose string holds
// the salt and the cost) and the throttle on failed logins. The hub uses both; nothing here knows
// about sockets or the store.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rainet::server {

// A new hash of `password`, or nullopt when libsodium could not allocate. `cheap` uses the minimum
// cost (test mode only: tests register many accounts); the interactive cost otherwise (about
// 0.1 s and 64 MiB per hash).
std::optional<std::string> hashPassword(std::string_view password, bool cheap);
bool verifyPassword(const std::string& hash, std::string_view password);

// Failed logins per key (an IP address, a username): each key has a bucket of kBurst attempts that
// refills by one every kRefillCs; a login whose keys include an empty bucket is refused before the
// password is checked. Only failures take from the buckets. Thread-safe.
class LoginThrottle {
  public:
    static constexpr double kBurst = 5;
    static constexpr std::int64_t kRefillCs = 2000;  // 20 s per failure forgiven

    // Centiseconds until every key allows an attempt (0: now).
    std::int64_t wait(const std::vector<std::string>& keys, std::int64_t nowCs);
    void fail(const std::vector<std::string>& keys, std::int64_t nowCs);

  private:
    struct Bucket {
        double tokens = kBurst;
        std::int64_t at = 0;
    };
    double level(const Bucket& b, std::int64_t nowCs) const;
    std::mutex mu_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace rainet::server

#pragma once
// Token buckets keyed by strings (a client address, an address and a username), for the limits
// on failed logins, new guests and registrations. Each key has a bucket of `burst` tokens that
// refills by one every `refillCs`; with `backoff`, every time a bucket is emptied again before it
// refilled completely its refill takes twice as long (up to 64 times), and a full bucket forgets
// that. A key absent from the map has a full bucket, so the map only holds keys recently used; it
// is swept of full buckets when it grows past kSweepAt. Thread-safe.
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rainet::server {

class Throttle {
  public:
    static constexpr std::size_t kSweepAt = 100000;

    Throttle(double burst, std::int64_t refillCs, bool backoff = false)
        : burst_(burst), refillCs_(refillCs), backoff_(backoff) {}

    // Centiseconds until every key has a token (0: now). Takes nothing.
    std::int64_t wait(const std::vector<std::string>& keys, std::int64_t nowCs);
    // Takes a token from every key (a failed login: only failures count).
    void take(const std::vector<std::string>& keys, std::int64_t nowCs);
    // Takes a token from every key if each has one and returns 0; otherwise takes nothing and
    // returns the wait.
    std::int64_t tryTake(const std::vector<std::string>& keys, std::int64_t nowCs);

  private:
    struct Bucket {
        double tokens = 0;
        std::int64_t at = 0;
        int emptied = 0;  // times emptied since it was last full (the backoff's exponent)
    };
    std::int64_t refillOf(const Bucket& b) const;
    double level(const Bucket& b, std::int64_t nowCs) const;
    std::int64_t waitLocked(const std::vector<std::string>& keys, std::int64_t nowCs) const;
    void takeLocked(const std::vector<std::string>& keys, std::int64_t nowCs);

    double burst_;
    std::int64_t refillCs_;
    bool backoff_;
    std::mutex mu_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace rainet::server

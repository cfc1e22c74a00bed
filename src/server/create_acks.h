#pragma once
// The acks of recent `create` requests, by player and request id, so that a repeated create (a
// client that retried after a lost ack) is answered again instead of making a second game. Bounded:
// the last kPerPlayer of each player, each for kKeptCs. Thread-safe.
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace rainet::server {

class CreateAcks {
  public:
    static constexpr std::size_t kPerPlayer = 16;
    static constexpr std::int64_t kKeptCs = 360000;  // 1 h
    static constexpr std::int64_t kSweepEveryCs =
        6000;  // everyone's old acks go at most this often

    // `held` counts the acks remembered (a metric).
    explicit CreateAcks(std::atomic<std::int64_t>& held) : held_(held) {}
    // The ack of `player`'s create with request id `key`, if remembered.
    [[nodiscard]] std::optional<std::string> find(std::int64_t player, const std::string& key);
    // Remembers the ack of a create at time `now` (cs); the player's oldest goes beyond
    // kPerPlayer, and now and then everyone's older than kKeptCs.
    void remember(std::int64_t player, const std::string& key, const std::string& ack,
                  std::int64_t now);

  private:
    struct Ack {
        std::string key, ack;
        std::int64_t at;  // cs
    };
    std::atomic<std::int64_t>& held_;
    std::mutex mu_;
    std::unordered_map<std::int64_t, std::deque<Ack>> acks_;
    std::int64_t sweptAt_ = 0;  // cs
};

}  // namespace rainet::server

#pragma once
// PUBLISH off the caller's thread: callers (network threads, game rooms' strands) hand a message
// over and never wait for Redis. One thread with its own RedisLink publishes in FIFO order, what
// queued meanwhile pipelined in one round trip (up to kMaxPipeline), so
// that what one publisher sends on a channel arrives in the order it was handed over (one Redis
// connection feeds each subscriber connection in order). The queue is bounded in bytes: over the
// bound a message is refused (the caller decides what that costs: a forwarding node closes the
// connection concerned, whose client resumes by version). A message that fails to publish
// (Redis away) is dropped and counted: pub/sub keeps nothing for an absent subscriber anyway.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "bus/redis_link.h"

namespace rainet::bus {

class Publisher {
  public:
    // At most this many messages go in one round trip (a pipeline).
    static constexpr std::size_t kMaxPipeline = 256;

    // Told, on the publishing thread, how long each message published waited: from publish() to
    // Redis's answer (the queue's wait plus the round trip). Must not block.
    using Observer = std::function<void(std::chrono::microseconds)>;

    Publisher(RedisAddress address, std::size_t maxBytes, Observer observe = {});
    ~Publisher();  // publishes nothing more; what is queued is dropped
    Publisher(const Publisher&) = delete;
    Publisher& operator=(const Publisher&) = delete;

    // Queues `payload` for `channel`; false (nothing queued) when the queued bytes would pass
    // the bound, unless `always` (small control messages that must not be lost to a full queue).
    bool publish(std::string channel, std::string payload, bool always = false);

    std::uint64_t published() const;
    std::uint64_t failed() const;  // PUBLISH answered an error (Redis away): dropped
    std::size_t queuedBytes() const;

  private:
    void run();

    struct Queued {
        std::string channel, payload;
        std::chrono::steady_clock::time_point since;
    };

    RedisLink link_;
    const std::size_t maxBytes_;
    const Observer observe_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::deque<Queued> queue_;
    std::size_t bytes_ = 0;
    bool stop_ = false;
    std::uint64_t published_ = 0, failed_ = 0;
    std::thread thread_;
};

}  // namespace rainet::bus

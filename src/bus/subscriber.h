#pragma once
// A Redis subscription kept alive on its own thread: channels can be added and dropped at any
// time, and when the connection is lost (Redis restarted, network cut, no answer to a ping) it
// connects again with backoff and subscribes to every channel again. Messages published while
// it was away are lost (Redis pub/sub keeps nothing), so users treat a reconnection as "resync
// from the database". The handler runs on the subscriber's thread and must not block.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "bus/redis_address.h"

struct redisContext;  // hiredis's, kept out of this header

namespace rainet::bus {

class Subscriber {
  public:
    using Handler = std::function<void(const std::string& channel, const std::string& payload)>;
    // Called on the subscriber's thread each time the link comes up (after every channel asked
    // for is confirmed) or goes down.
    using StateHandler = std::function<void(bool up)>;
    struct Options {
        std::chrono::milliseconds timeout{500};    // connecting
        std::chrono::milliseconds retryMin{50};    // first wait after a failure, doubling...
        std::chrono::milliseconds retryMax{2000};  // ...up to this
        std::chrono::milliseconds ping{5000};      // a ping unanswered this long: lost
        StateHandler onState;
    };

    Subscriber(RedisAddress address, Handler handler, Options options);
    Subscriber(RedisAddress address, Handler handler)
        : Subscriber(std::move(address), std::move(handler), Options{}) {}
    ~Subscriber();
    Subscriber(const Subscriber&) = delete;
    Subscriber& operator=(const Subscriber&) = delete;

    void subscribe(const std::string& channel);
    void unsubscribe(const std::string& channel);
    // Whether, within `timeout`, the link is up and Redis has confirmed every channel asked for:
    // from then on what is published to them reaches the handler.
    [[nodiscard]] bool waitSubscribed(std::chrono::milliseconds timeout);

    std::uint64_t connects() const;
    std::uint64_t messages() const;

  private:
    void run();
    void wake();
    // One connection's life: returns when it is lost or the subscriber stops.
    void serve(redisContext* c);
    // Up (once per connection) when Redis has confirmed every channel wanted.
    void markUpIfComplete();

    RedisAddress address_;
    Handler handler_;
    Options options_;
    int wakeRead_ = -1, wakeWrite_ = -1;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::set<std::string> wanted_, confirmed_;
    bool up_ = false, stop_ = false;
    std::uint64_t connects_ = 0, messages_ = 0;
    std::thread thread_;
};

}  // namespace rainet::bus

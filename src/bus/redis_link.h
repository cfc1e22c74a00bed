#pragma once
// One Redis connection for commands (PUBLISH, INCR, EXPIRE...), shared by threads one command at
// a time. Every command has a timeout, and a failed connection is opened again by the next
// command: while Redis is down each command is an error value, never a hang, and the link comes
// back by itself when Redis does.
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bus/redis_connection.h"

namespace rainet::bus {

class RedisLink {
  public:
    explicit RedisLink(RedisAddress address,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(500));

    [[nodiscard]] Result<Reply> command(std::initializer_list<std::string_view> argv);
    // The same with arguments counted at run time (EVAL with any number of keys).
    [[nodiscard]] Result<Reply> command(const std::vector<std::string>& argv);
    // PUBLISH of every (channel, payload) in one round trip (a pipeline: written together, then
    // the replies read in order). Each message's outcome; an I/O error or timeout fails the ones
    // whose replies had not come (the connection is spent: the next command opens another). A
    // reused connection that fails before any reply (Redis restarted since it was opened) is
    // replaced and the batch sent once more.
    [[nodiscard]] std::vector<bool> publishAll(
        const std::vector<std::pair<std::string_view, std::string_view>>& messages);

    const RedisAddress& address() const { return address_; }
    std::uint64_t connects() const;  // connections opened so far (reconnections show here)

  private:
    // With mu_ held: opens a connection if there is none (none yet, or the last one failed);
    // the error if Redis cannot be reached.
    [[nodiscard]] std::optional<Error> connected();
    Result<Reply> run(const std::vector<const char*>& args, const std::vector<size_t>& lens);

    RedisAddress address_;
    std::chrono::milliseconds timeout_;
    mutable std::mutex mu_;
    Context ctx_;
    std::uint64_t connects_ = 0;
};

}  // namespace rainet::bus

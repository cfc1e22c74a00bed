#pragma once
// What the command link and the subscriber share: opening a hiredis connection with timeouts
// (and selecting the database), and turning a hiredis reply into a value.
#include <hiredis/hiredis.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bus/redis_address.h"
#include "core/error.h"

namespace rainet::bus {

struct Reply {
    enum class Kind { Nil, Integer, String, Status, Array };
    Kind kind = Kind::Nil;
    long long integer = 0;
    std::string str;  // String and Status
    std::vector<Reply> elements;
};

struct ContextDeleter {
    void operator()(redisContext* c) const { redisFree(c); }
};
using Context = std::unique_ptr<redisContext, ContextDeleter>;

// A connected context whose reads and writes time out after `timeout`, on database `a.db`.
[[nodiscard]] Result<Context> connectRedis(const RedisAddress& a,
                                           std::chrono::milliseconds timeout);

// The reply as a value; a Redis error reply is an Error.
[[nodiscard]] Result<Reply> toReply(const redisReply* r);

}  // namespace rainet::bus

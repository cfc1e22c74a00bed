#include "bus/redis_connection.h"

#include <csignal>
#include <mutex>

namespace rainet::bus {
namespace {

timeval toTimeval(std::chrono::milliseconds t) {
    return timeval{static_cast<time_t>(t.count() / 1000),
                   static_cast<suseconds_t>(t.count() % 1000 * 1000)};
}

struct ReplyDeleter {
    void operator()(redisReply* r) const { freeReplyObject(r); }
};

}  // namespace

Result<Context> connectRedis(const RedisAddress& a, std::chrono::milliseconds timeout) {
    // hiredis writes with write(), not send(MSG_NOSIGNAL): a Redis that went away must make the
    // write fail, not kill the process with SIGPIPE.
    static std::once_flag ignorePipe;
    std::call_once(ignorePipe, [] { std::signal(SIGPIPE, SIG_IGN); });
    const timeval tv = toTimeval(timeout);
    Context c(a.isUnix() ? redisConnectUnixWithTimeout(a.socketPath.c_str(), tv)
                         : redisConnectWithTimeout(a.host.c_str(), a.port, tv));
    if (!c) return Error{"redis " + a.toString() + ": out of memory"};
    if (c->err) return Error{"redis " + a.toString() + ": " + c->errstr};
    if (redisSetTimeout(c.get(), tv) != REDIS_OK)
        return Error{"redis " + a.toString() + ": cannot set the timeout"};
    if (a.db != 0) {
        const std::string db = std::to_string(a.db);
        std::unique_ptr<redisReply, ReplyDeleter> r(
            static_cast<redisReply*>(redisCommand(c.get(), "SELECT %s", db.c_str())));
        if (!r) return Error{"redis " + a.toString() + ": " + c->errstr};
        if (auto v = toReply(r.get()); !v)
            return Error{"redis " + a.toString() + ": " + v.error().message};
    }
    return c;
}

Result<Reply> toReply(const redisReply* r) {
    Reply out;
    switch (r->type) {
        case REDIS_REPLY_ERROR:
            return Error{std::string(r->str, r->len)};
        case REDIS_REPLY_NIL:
            return out;
        case REDIS_REPLY_INTEGER:
            out.kind = Reply::Kind::Integer;
            out.integer = r->integer;
            return out;
        case REDIS_REPLY_STRING:
        case REDIS_REPLY_STATUS:
            out.kind = r->type == REDIS_REPLY_STRING ? Reply::Kind::String : Reply::Kind::Status;
            out.str.assign(r->str, r->len);
            return out;
        case REDIS_REPLY_ARRAY:
            out.kind = Reply::Kind::Array;
            for (size_t i = 0; i < r->elements; ++i) {
                auto e = toReply(r->element[i]);
                if (!e) return e.error();
                out.elements.push_back(std::move(*e));
            }
            return out;
        default:
            return Error{"an unknown reply type " + std::to_string(r->type)};
    }
}

}  // namespace rainet::bus

#include "bus/redis_link.h"

#include <vector>

namespace rainet::bus {

RedisLink::RedisLink(RedisAddress address, std::chrono::milliseconds timeout)
    : address_(std::move(address)), timeout_(timeout) {}

Result<Reply> RedisLink::command(std::initializer_list<std::string_view> argv) {
    std::vector<const char*> args;
    std::vector<size_t> lens;
    for (std::string_view a : argv) {
        args.push_back(a.data());
        lens.push_back(a.size());
    }
    return run(args, lens);
}

Result<Reply> RedisLink::command(const std::vector<std::string>& argv) {
    std::vector<const char*> args;
    std::vector<size_t> lens;
    for (const std::string& a : argv) {
        args.push_back(a.data());
        lens.push_back(a.size());
    }
    return run(args, lens);
}

Result<Reply> RedisLink::run(const std::vector<const char*>& args,
                             const std::vector<size_t>& lens) {
    std::lock_guard lock(mu_);
    if (auto e = connected()) return *e;
    auto* r = static_cast<redisReply*>(redisCommandArgv(ctx_.get(), static_cast<int>(args.size()),
                                                        const_cast<const char**>(args.data()),
                                                        lens.data()));
    if (!r) {  // I/O error or timeout: this connection is spent; the next command opens another
        Error e{"redis " + address_.toString() + ": " + ctx_->errstr};
        ctx_.reset();
        return e;
    }
    auto out = toReply(r);
    freeReplyObject(r);
    return out;
}

std::optional<Error> RedisLink::connected() {
    if (ctx_) return std::nullopt;
    auto c = connectRedis(address_, timeout_);
    if (!c) return c.error();
    ctx_ = std::move(*c);
    ++connects_;
    return std::nullopt;
}

std::vector<bool> RedisLink::publishAll(
    const std::vector<std::pair<std::string_view, std::string_view>>& messages) {
    std::vector<bool> out(messages.size(), false);
    std::lock_guard lock(mu_);
    // A connection that idled across a Redis restart fails at its first use, before any reply:
    // then the batch goes once more on a new connection (the Redis that had the old one is gone,
    // so it has published nothing of it), instead of losing a whole pipeline of messages.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const bool reused = static_cast<bool>(ctx_);
        if (connected()) return out;
        bool appended = true;
        for (const auto& [channel, payload] : messages) {
            const char* args[] = {"PUBLISH", channel.data(), payload.data()};
            const size_t lens[] = {7, channel.size(), payload.size()};
            if (redisAppendCommandArgv(ctx_.get(), 3, args, lens) != REDIS_OK) {
                appended = false;
                break;
            }
        }
        std::size_t answered = 0;
        for (; appended && answered < messages.size(); ++answered) {
            void* raw = nullptr;
            if (redisGetReply(ctx_.get(), &raw) != REDIS_OK || !raw) break;
            auto* r = static_cast<redisReply*>(raw);
            out[answered] = r->type == REDIS_REPLY_INTEGER;
            freeReplyObject(r);
        }
        if (appended && answered == messages.size()) return out;
        ctx_.reset();  // spent: the rest of this batch unanswered
        if (!reused || answered > 0) return out;
    }
    return out;
}

std::uint64_t RedisLink::connects() const {
    std::lock_guard lock(mu_);
    return connects_;
}

}  // namespace rainet::bus

#include "bus/subscriber.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "bus/redis_connection.h"

namespace rainet::bus {

Subscriber::Subscriber(RedisAddress address, Handler handler, Options options)
    : address_(std::move(address)), handler_(std::move(handler)), options_(std::move(options)) {
    int fds[2];
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
        throw std::runtime_error("subscriber: pipe2 failed");
    wakeRead_ = fds[0];
    wakeWrite_ = fds[1];
    thread_ = std::thread([this] { run(); });
}

Subscriber::~Subscriber() {
    {
        std::lock_guard lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    wake();
    thread_.join();
    close(wakeRead_);
    close(wakeWrite_);
}

void Subscriber::wake() {
    const char b = 1;
    [[maybe_unused]] auto n = write(wakeWrite_, &b, 1);  // a full pipe is already a wake-up
}

void Subscriber::subscribe(const std::string& channel) {
    {
        std::lock_guard lock(mu_);
        wanted_.insert(channel);
    }
    wake();
}

void Subscriber::unsubscribe(const std::string& channel) {
    {
        std::lock_guard lock(mu_);
        wanted_.erase(channel);
    }
    wake();
}

bool Subscriber::waitSubscribed(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] {
        return up_ &&
               std::includes(confirmed_.begin(), confirmed_.end(), wanted_.begin(), wanted_.end());
    });
}

std::uint64_t Subscriber::connects() const {
    std::lock_guard lock(mu_);
    return connects_;
}

std::uint64_t Subscriber::messages() const {
    std::lock_guard lock(mu_);
    return messages_;
}

void Subscriber::run() {
    auto retry = options_.retryMin;
    for (;;) {
        {
            std::lock_guard lock(mu_);
            if (stop_) return;
        }
        auto c = connectRedis(address_, options_.timeout);
        if (c) {
            {
                std::lock_guard lock(mu_);
                ++connects_;
            }
            retry = options_.retryMin;
            serve(c->get());
            bool wasUp;
            {
                std::lock_guard lock(mu_);
                wasUp = up_;
                up_ = false;
                confirmed_.clear();
            }
            if (wasUp && options_.onState) options_.onState(false);
        }
        std::unique_lock lock(mu_);
        if (cv_.wait_for(lock, retry, [&] { return stop_; })) return;
        retry = std::min(retry * 2, options_.retryMax);
    }
}

void Subscriber::markUpIfComplete() {
    {
        std::lock_guard lock(mu_);
        if (up_ ||
            !std::includes(confirmed_.begin(), confirmed_.end(), wanted_.begin(), wanted_.end()))
            return;
        up_ = true;
    }
    cv_.notify_all();
    if (options_.onState) options_.onState(true);
}

void Subscriber::serve(redisContext* c) {
    std::set<std::string> sent;  // channels asked for on this connection (confirmed or not)
    bool pingPending = false;
    for (;;) {
        // Bring the subscriptions in line with what is wanted now.
        std::set<std::string> wanted;
        {
            std::lock_guard lock(mu_);
            if (stop_) return;
            wanted = wanted_;
        }
        for (const auto& ch : wanted)
            if (sent.insert(ch).second) redisAppendCommand(c, "SUBSCRIBE %b", ch.data(), ch.size());
        for (auto it = sent.begin(); it != sent.end();)
            if (!wanted.count(*it)) {
                redisAppendCommand(c, "UNSUBSCRIBE %b", it->data(), it->size());
                it = sent.erase(it);
            } else {
                ++it;
            }
        for (int done = 0; !done;)
            if (redisBufferWrite(c, &done) != REDIS_OK) return;
        markUpIfComplete();

        pollfd fds[2] = {{c->fd, POLLIN, 0}, {wakeRead_, POLLIN, 0}};
        const int n = poll(fds, 2, static_cast<int>(options_.ping.count()));
        if (n < 0) continue;  // EINTR
        if (n == 0) {         // quiet: is Redis still there?
            if (pingPending) return;
            redisAppendCommand(c, "PING");
            pingPending = true;
            continue;
        }
        if (fds[1].revents) {
            char buf[64];
            while (read(wakeRead_, buf, sizeof buf) > 0) {
            }
        }
        if (!fds[0].revents) continue;
        if (redisBufferRead(c) != REDIS_OK) return;  // closed or failed: connect again
        void* raw = nullptr;
        while (redisGetReplyFromReader(c, &raw) == REDIS_OK && raw) {
            auto r = toReply(static_cast<redisReply*>(raw));
            freeReplyObject(raw);
            raw = nullptr;
            if (r && r->kind == Reply::Kind::Status && r->str == "PONG") pingPending = false;
            if (!r || r->kind != Reply::Kind::Array || r->elements.empty()) continue;
            const std::string& kind = r->elements[0].str;
            if (kind == "message" && r->elements.size() == 3) {
                {
                    std::lock_guard lock(mu_);
                    ++messages_;
                }
                handler_(r->elements[1].str, r->elements[2].str);
            } else if (kind == "pong") {
                pingPending = false;
            } else if ((kind == "subscribe" || kind == "unsubscribe") && r->elements.size() == 3) {
                {
                    std::lock_guard lock(mu_);
                    if (kind == "subscribe")
                        confirmed_.insert(r->elements[1].str);
                    else
                        confirmed_.erase(r->elements[1].str);
                }
                cv_.notify_all();  // waitSubscribed waits on the set even while up
                markUpIfComplete();
            }
        }
    }
}

}  // namespace rainet::bus

#include "bus/publisher.h"

namespace rainet::bus {

Publisher::Publisher(RedisAddress address, std::size_t maxBytes, Observer observe)
    : link_(std::move(address)),
      maxBytes_(maxBytes),
      observe_(std::move(observe)),
      thread_([this] { run(); }) {}

Publisher::~Publisher() {
    {
        std::lock_guard lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

bool Publisher::publish(std::string channel, std::string payload, bool always) {
    {
        std::lock_guard lock(mu_);
        if (stop_) return false;
        const std::size_t size = channel.size() + payload.size();
        if (!always && bytes_ + size > maxBytes_) return false;
        bytes_ += size;
        queue_.push_back(
            {std::move(channel), std::move(payload), std::chrono::steady_clock::now()});
    }
    cv_.notify_one();
    return true;
}

void Publisher::run() {
    std::unique_lock lock(mu_);
    std::vector<Queued> batch;
    std::vector<std::pair<std::string_view, std::string_view>> messages;
    while (true) {
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        // What queued up during the last round trip goes in the next one, in order: under load
        // one round trip carries many messages instead of each waiting for the one before.
        batch.clear();
        while (!queue_.empty() && batch.size() < kMaxPipeline) {
            batch.push_back(std::move(queue_.front()));
            queue_.pop_front();
        }
        lock.unlock();
        messages.clear();
        for (const auto& q : batch) messages.emplace_back(q.channel, q.payload);
        const std::vector<bool> ok = link_.publishAll(messages);
        const auto now = std::chrono::steady_clock::now();
        if (observe_)
            for (std::size_t i = 0; i < batch.size(); ++i)
                if (ok[i])
                    observe_(std::chrono::duration_cast<std::chrono::microseconds>(now -
                                                                                   batch[i].since));
        lock.lock();
        for (std::size_t i = 0; i < batch.size(); ++i) {
            // Counted out of the bound only once sent: a Redis that stalls fills the queue.
            bytes_ -= batch[i].channel.size() + batch[i].payload.size();
            ++(ok[i] ? published_ : failed_);
        }
    }
}

std::uint64_t Publisher::published() const {
    std::lock_guard lock(mu_);
    return published_;
}

std::uint64_t Publisher::failed() const {
    std::lock_guard lock(mu_);
    return failed_;
}

std::size_t Publisher::queuedBytes() const {
    std::lock_guard lock(mu_);
    return bytes_;
}

}  // namespace rainet::bus

#include "server/bot_workers.h"

#include <map>

namespace rainet::server {

namespace {

// A thread's bots; they leave the count when the thread ends.
struct ThreadBots {
    Metrics* metrics = nullptr;
    std::map<int, std::unique_ptr<ai::Bot>> byLevel;
    ~ThreadBots() {
        if (metrics) metrics->botsHeld -= static_cast<std::int64_t>(byLevel.size());
    }
};

}  // namespace

std::unique_ptr<ai::Bot> setupBot(int level) {
    auto bot = ai::makeBot("level" + std::to_string(level));
    return bot ? std::move(bot) : ai::makeBot("random");
}

ai::Bot& workerBot(int level, Metrics& metrics) {
    thread_local ThreadBots bots;
    bots.metrics = &metrics;  // one Metrics per process (see serve())
    auto& bot = bots.byLevel[level];
    if (!bot) {
        bot = setupBot(level);
        ++metrics.botsHeld;
    }
    return *bot;
}

std::string botLabel(int level) {
    return "computer (level " + std::to_string(level) + ")";
}

}  // namespace rainet::server

#include "server/cluster_notices.h"

#include <charconv>

#include "store/log.h"

namespace rainet::server {

ClusterNotices::ClusterNotices(bus::RedisAddress redis, std::string node, Deliver deliver)
    : node_(std::move(node)), deliver_(std::move(deliver)), publisher_(redis, kMaxQueuedBytes) {
    sub_ = std::make_unique<bus::Subscriber>(
        std::move(redis),
        [this](const std::string&, const std::string& payload) { onMessage(payload); });
}

ClusterNotices::~ClusterNotices() {
    stop();
}

void ClusterNotices::start() {
    sub_->subscribe(kChannel);
    if (!sub_->waitSubscribed(std::chrono::seconds(1)))
        logEvent("warning", {{"message", "the notification channel is not subscribed yet"}});
}

void ClusterNotices::stop() {
    sub_.reset();  // no handler runs past here
}

void ClusterNotices::publish(std::int64_t player, const std::string& text) {
    publisher_.publish(kChannel, node_ + " " + std::to_string(player) + "\n" + text);
}

void ClusterNotices::onMessage(const std::string& payload) {
    const auto space = payload.find(' ');
    const auto nl = payload.find('\n');
    if (space == std::string::npos || nl == std::string::npos || nl < space) return;
    if (std::string_view(payload).substr(0, space) == node_) return;  // sent here already
    std::int64_t player = 0;
    const char* first = payload.data() + space + 1;
    const char* last = payload.data() + nl;
    if (std::from_chars(first, last, player).ptr != last || player <= 0) return;
    deliver_(player, payload.substr(nl + 1));
}

}  // namespace rainet::server

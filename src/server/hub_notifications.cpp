// Notifications: stored per player, pushed live to the player's connections on every node
// (hub.h; docs/protocol.md, "Notifications").
#include "protocol/server_messages.h"
#include "server/cluster_notices.h"
#include "server/hub.h"
#include "store/log.h"

namespace rainet::server {

namespace {

protocol::Notification notificationOf(const store::NotificationRow& r) {
    protocol::Notification n;
    n.id = r.id;
    n.kind = protocol::enumFromName<protocol::NotificationKind>(r.kind).value_or(
        protocol::NotificationKind::Followed);
    n.at = r.createdMs;
    n.read = r.read;
    n.data.text = r.data;
    return n;
}

}  // namespace

void Hub::notify(std::int64_t recipient, std::string_view kind, protocol::Json data) {
    if (!recipient) return;
    if (!protocol::enumFromName<protocol::NotificationKind>(kind) || !data.is_object()) {
        logEvent("notification_refused", {{"kind", std::string(kind)}});
        return;
    }
    store_.write(
        [this, recipient, k = std::string(kind), text = data.dump(), now = time_.unixMs()] {
            auto id = store_.addNotification(recipient, k, text, now);
            if (!id) {
                logEvent("store_error", {{"message", id.error().message}, {"kind", k}});
                return;
            }
            auto unread = store_.unreadNotifications(recipient);
            if (!unread) {
                logEvent("store_error", {{"message", unread.error().message}});
                return;
            }
            ++metrics_.notifications;
            protocol::NotificationMessage m;
            m.n = notificationOf({*id, k, text, now, false});
            m.unread = *unread;
            sendToPlayer(recipient, protocol::render(m));
        });
}

void Hub::sendToPlayer(std::int64_t player, const std::string& text) {
    links_.send(player, std::make_shared<const std::string>(text));
    if (clusterNotices_) clusterNotices_->publish(player, text);
}

Result<std::string> Hub::notificationPage(std::int64_t player, std::int64_t before, int limit,
                                          const protocol::Json& id) {
    protocol::NotificationsMessage m;
    m.id = id.is_null() ? std::nullopt : std::optional<protocol::Json>(id);
    if (player) {  // a guest not stored yet has none
        auto page = store_.notifications(player, before, limit);
        if (!page) return page.error();
        for (const auto& r : page->items) m.items.push_back(notificationOf(r));
        m.unread = page->unread;
    }
    return protocol::render(m);
}

Result<std::int64_t> Hub::markNotificationsRead(std::int64_t player, std::int64_t upTo) {
    if (!player) return std::int64_t{0};
    auto changed = store_.markNotificationsRead(player, upTo);
    if (!changed) return changed.error();
    auto unread = store_.unreadNotifications(player);
    if (!unread) return unread.error();
    if (*changed) sendToPlayer(player, protocol::render(protocol::UnreadMessage{*unread}));
    return *unread;
}

void Hub::pruneNotifications() {
    const std::int64_t now = time_.unixMs();
    std::int64_t last = lastPruneMs_.load();
    if (last && now - last < kPruneEvery) return;
    if (!lastPruneMs_.compare_exchange_strong(last, now)) return;  // another sweep took it
    const std::int64_t before = now - std::int64_t{config_.notificationDays} * 24 * 3600 * 1000;
    store_.write([this, before] {
        auto n = store_.pruneNotifications(before);
        if (!n)
            logEvent("store_error", {{"message", n.error().message}});
        else if (*n)
            logEvent("notifications_pruned", {{"count", *n}});
    });
}

}  // namespace rainet::server

// Each player's inbox of notifications (store.h; docs/protocol.md, "Notifications"): one table,
// read by the index (player_id, id), newest first.
#include <algorithm>
#include <limits>

#include "store/pool_lease.h"

namespace rainet::store {

namespace {

// The rows of a statement that returns one row per change (a RETURNING clause), counted.
Result<int> countRows(Statement& st) {
    int n = 0;
    Step step;
    while ((step = st.step()) == Step::Row) ++n;
    if (step == Step::Failed) return Error{st.error()};
    return n;
}

Result<std::int64_t> unreadOf(Database& db, std::int64_t player) {
    auto st =
        db.prepare("SELECT COUNT(*) FROM notifications WHERE player_id = ? AND read = 0", true);
    st->bind(1, player);
    if (st->step() != Step::Row) return Error{st->error()};
    return st->integer(0);
}

}  // namespace

Result<std::int64_t> Store::addNotification(std::int64_t player, const std::string& kind,
                                            const std::string& data, std::int64_t nowMs) {
    if (data.size() > kMaxNotificationData)
        return Error{"store: notification data of " + std::to_string(data.size()) +
                     " bytes, over the limit of " + std::to_string(kMaxNotificationData)};
    auto db = lease();
    if (auto e = db->begin()) return *e;
    auto fail = [&](std::optional<Error> e) -> Result<std::int64_t> {
        db->rollback();
        return *e;
    };
    auto ins = db->prepare(
        "INSERT INTO notifications (player_id, kind, data, created_ms, read) VALUES (?, ?, ?, ?, "
        "0) RETURNING id",
        true);
    ins->bind(1, player);
    ins->bind(2, kind);
    ins->bind(3, data);
    ins->bind(4, nowMs);
    if (ins->step() != Step::Row) return fail(Error{ins->error()});
    const std::int64_t id = ins->integer(0);
    if (auto e = done(*ins)) return fail(e);
    // The oldest beyond the cap: every id at or below the (cap+1)-th newest.
    auto trim = db->prepare(
        "DELETE FROM notifications WHERE player_id = ?1 AND id <= (SELECT id FROM notifications "
        "WHERE player_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
        true);
    trim->bind(1, player);
    trim->bind(2, kMaxNotificationsPerPlayer);
    if (auto e = done(*trim)) return fail(e);
    if (auto c = db->commit()) return *c;
    return id;
}

Result<NotificationPage> Store::notifications(std::int64_t player, std::int64_t beforeId,
                                              int limit) {
    limit = std::clamp(limit, 1, kMaxNotificationPage);
    auto db = readLease();
    NotificationPage page;
    auto st = db->prepare(
        "SELECT id, kind, data, created_ms, read FROM notifications WHERE player_id = ? AND id < "
        "? ORDER BY id DESC LIMIT ?",
        true);
    st->bind(1, player);
    st->bind(2, beforeId > 0 ? beforeId : std::numeric_limits<std::int64_t>::max());
    st->bind(3, limit);
    Step step;
    while ((step = st->step()) == Step::Row)
        page.items.push_back(
            {st->integer(0), st->text(1), st->text(2), st->integer(3), st->integer(4) != 0});
    if (step == Step::Failed) return Error{st->error()};
    auto unread = unreadOf(*db, player);
    if (!unread) return unread.error();
    page.unread = *unread;
    return page;
}

Result<std::int64_t> Store::unreadNotifications(std::int64_t player) {
    auto db = readLease();
    return unreadOf(*db, player);
}

Result<int> Store::markNotificationsRead(std::int64_t player, std::int64_t upToId) {
    auto db = lease();
    auto st = db->prepare(
        "UPDATE notifications SET read = 1 WHERE player_id = ? AND id <= ? AND read = 0 "
        "RETURNING id",
        true);
    st->bind(1, player);
    st->bind(2, upToId);
    return countRows(*st);
}

Result<int> Store::pruneNotifications(std::int64_t olderThanMs) {
    auto db = lease();
    auto st = db->prepare("DELETE FROM notifications WHERE created_ms < ? RETURNING id", true);
    st->bind(1, olderThanMs);
    return countRows(*st);
}

}  // namespace rainet::store

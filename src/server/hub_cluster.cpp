// The hub's hooks for a cluster node (server/cluster_node.h): leases taken before a game is
// served, released when it ends, and rooms evicted when their lease is lost.
#include "server/cluster_lobby.h"
#include "server/cluster_node.h"
#include "server/game_room.h"
#include "server/hub.h"
#include "store/log.h"

namespace rainet::server {

bool Hub::leaseLive(const std::string& id) const {
    return !cluster_ || cluster_->leases().live(id);
}

std::optional<store::GameLease> Hub::fence(const std::string& id) const {
    if (!cluster_) return std::nullopt;
    return cluster_->leases().fence(id);
}

std::optional<store::GameLease> Hub::writeFence(const std::string& id, bool over) const {
    if (!cluster_) return std::nullopt;
    if (auto f = cluster_->leases().fence(id)) return f;
    // A game over is not guarded once its lease is released (rematch offers after the end).
    if (over && !cluster_->leases().holds(id)) return std::nullopt;
    // Epoch 0 is nobody's lease: the store refuses a write fenced by it.
    return store::GameLease{id, cluster_->id(), 0, 0};
}

std::optional<Error> Hub::acquireLease(const std::string& id) {
    if (!cluster_) return std::nullopt;
    const auto got = cluster_->leases().acquire(id);
    switch (got.outcome) {
        case LeaseKeeper::Outcome::Held:
            if (got.takeover) {
                ++metrics_.leaseTakeovers;
                logEvent("lease_takeover", {{"game", id}, {"node", cluster_->id()}});
            }
            return std::nullopt;
        case LeaseKeeper::Outcome::HeldElsewhere:
            return Error{std::string(kHeldElsewhere)};
        case LeaseKeeper::Outcome::Failed:
            break;
    }
    logEvent("store_error", {{"game", id}, {"message", got.error}});
    return Error{got.error};
}

void Hub::releaseLease(const std::string& id) {
    if (!cluster_ || !cluster_->leases().holds(id)) return;
    store_.write([c = cluster_, id] { c->leases().release(id); });
}

void Hub::shareLimits(const std::shared_ptr<SharedCounters>& counters) {
    loginsByAddress_.share(counters, "login_address");
    loginsByUser_.share(counters, "login_user");
    identities_.share(counters, "identities");
    challengesByAddress_.share(counters, "challenges");
}

void Hub::setLobbyEntry(const std::string& id, std::optional<protocol::LobbyEntry> entry,
                        std::int64_t created) {
    if (clusterLobby_) clusterLobby_->set(id, entry, created);  // queued: never blocks
    lobby_.set(id, std::move(entry));
}

void Hub::evict(const std::string& id) {
    if (auto room = loaded(id)) room->run([](GameRoom& r) { r.evict(); });
}

}  // namespace rainet::server

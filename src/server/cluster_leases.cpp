#include "server/cluster_leases.h"

#include "store/log.h"

namespace rainet::server {

LeaseKeeper::LeaseKeeper(store::Store& store, std::string node, std::int64_t ttlMs, Clock clock)
    : store_(store), node_(std::move(node)), ttl_(ttlMs), clock_(std::move(clock)) {}

LeaseKeeper::Acquired LeaseKeeper::acquire(const std::string& game) {
    std::int64_t before = 0;
    {
        std::lock_guard lock(mu_);
        if (auto it = held_.find(game); it != held_.end()) before = it->second.epoch;
    }
    auto got = store_.acquireLease(game, node_, clock_(), ttl_);
    if (!got) return {Outcome::Failed, false, got.error().message};
    if (!*got) {
        std::lock_guard lock(mu_);
        held_.erase(game);
        return {Outcome::HeldElsewhere, false, {}};
    }
    const store::GameLease& l = **got;
    // A new lease starts at epoch 1; a higher epoch than this node held means another holder
    // (or a release) came between: a takeover.
    const bool takeover = l.epoch > 1 && l.epoch != before;
    std::lock_guard lock(mu_);
    held_[game] = l;
    return {Outcome::Held, takeover, {}};
}

bool LeaseKeeper::liveLocked(const store::GameLease& l) const {
    return clock_() + ttl_ / 10 < l.expires;
}

std::optional<store::GameLease> LeaseKeeper::fence(const std::string& game) const {
    std::lock_guard lock(mu_);
    auto it = held_.find(game);
    if (it == held_.end() || !liveLocked(it->second)) return std::nullopt;
    return it->second;
}

bool LeaseKeeper::holds(const std::string& game) const {
    std::lock_guard lock(mu_);
    return held_.count(game) > 0;
}

bool LeaseKeeper::live(const std::string& game) const {
    return fence(game).has_value();
}

LeaseKeeper::Renewed LeaseKeeper::renewAll() {
    std::vector<store::GameLease> leases;
    {
        std::lock_guard lock(mu_);
        leases.reserve(held_.size());
        for (const auto& [game, l] : held_) leases.push_back(l);
    }
    Renewed out;
    const std::int64_t now = clock_();
    // Expired locally (paused, or the store was away): another node may own it already, so it
    // is lost without asking. The rest are renewed in one statement.
    std::vector<store::GameLease> ask, lost;
    for (auto& l : leases) (now >= l.expires ? lost : ask).push_back(std::move(l));
    std::unordered_map<std::string, store::GameLease> renewed;
    if (auto r = store_.renewLeases(ask, now, ttl_); !r) {
        // The store is away (or failing). A lease that will be dead locally before the next
        // round (ttl/3 from now) could renew it is lost now: its room is evicted and its clients
        // told to reconnect before any other node may take the game over (at expiry), so they
        // find the new owner at once. The others are kept; the next round retries them.
        out.storeOk = false;
        logEvent("lease_renew_error", {{"leases", ask.size()}, {"message", r.error().message}});
        // From the failure, not the round's start: the statement may have waited for a stalled
        // server up to the store's bound (store/postgres_database.h).
        const std::int64_t nextRound = clock_() + ttl_ / 3;
        for (auto& l : ask)
            if (nextRound + ttl_ / 10 >= l.expires) lost.push_back(std::move(l));
        ask.clear();
    } else {
        for (auto& l : *r) renewed.emplace(l.game, std::move(l));
    }
    for (auto& l : ask)
        if (!renewed.count(l.game)) lost.push_back(std::move(l));  // taken over
    std::lock_guard lock(mu_);
    for (auto& [game, l] : renewed) {
        auto it = held_.find(game);
        if (it != held_.end() && it->second.epoch == l.epoch) it->second = l;
    }
    for (const auto& l : lost) {
        auto it = held_.find(l.game);
        if (it == held_.end() || it->second.epoch != l.epoch) continue;  // released meanwhile
        held_.erase(it);
        out.lost.push_back(l.game);
    }
    return out;
}

void LeaseKeeper::release(const std::string& game) {
    std::optional<store::GameLease> l;
    {
        std::lock_guard lock(mu_);
        auto it = held_.find(game);
        if (it == held_.end()) return;
        l = it->second;
        held_.erase(it);
    }
    if (auto e = store_.releaseLease(*l))
        logEvent("lease_release_error", {{"game", game}, {"message", e->message}});
}

void LeaseKeeper::releaseAll() {
    std::vector<std::string> games;
    {
        std::lock_guard lock(mu_);
        for (const auto& [game, l] : held_) games.push_back(game);
    }
    for (const auto& g : games) release(g);
}

std::size_t LeaseKeeper::held() const {
    std::lock_guard lock(mu_);
    return held_.size();
}

}  // namespace rainet::server

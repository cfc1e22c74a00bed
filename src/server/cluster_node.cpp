#include "server/cluster_node.h"

#include <chrono>

#include "server/hub.h"
#include "server/ids.h"
#include "server/time_source.h"
#include "store/log.h"

namespace rainet::server {

ClusterNode::ClusterNode(Hub& hub, bus::RedisAddress redis, std::string node, std::int64_t leaseMs)
    : hub_(hub),
      // Leases run on the wall clock in every mode: they are shared between processes, and a
      // test-mode server's manual time is its own.
      leases_(hub.store(), std::move(node), leaseMs, [] { return SteadyTime().unixMs(); }),
      redis_(redis),
      counters_(std::make_shared<SharedCounters>(std::move(redis), leases_.node(), leaseMs)) {}

ClusterNode::~ClusterNode() {
    stop();
}

std::string ClusterNode::randomId() {
    // From the ids' CSPRNG, never the sequential test source: nodes started together in test
    // mode must still get different ids.
    return IdSource::random()->token().substr(0, 12);
}

void ClusterNode::start() {
    worker_.start([this] { run(); });
}

void ClusterNode::stop() {
    worker_.stop();
    leases_.releaseAll();
}

void ClusterNode::run() {
    worker_.loop(
        std::chrono::milliseconds(std::max<std::int64_t>(leases_.ttl() / 3, 10)),
        [this] { round(); }, nullptr, [](const std::exception&) {});
}

void ClusterNode::round() {
    // Renewals first: one statement for all held leases (docs/scaling.md).
    auto renewed = leases_.renewAll();
    for (const auto& game : renewed.lost) {
        ++hub_.metrics().leasesLost;
        logEvent("lease_lost", {{"game", game}, {"node", id()}});
        hub_.evict(game);
    }
    bool dbOk = renewed.storeOk;
    // Then the orphans: games whose lease expired (their node died, stalled or let them go).
    auto orphans = hub_.store().orphanedGames(SteadyTime().unixMs(), kTakeoverBatch);
    if (!orphans) {
        dbOk = false;
        logEvent("store_error", {{"message", orphans.error().message}});
    } else {
        for (const auto& game : *orphans) {
            auto room = hub_.open(game);  // acquires the lease (or finds it taken meanwhile)
            if (!room && room.error().message != Hub::kHeldElsewhere)
                logEvent("takeover_error", {{"game", game}, {"message", room.error().message}});
        }
    }
    dbUp_ = dbOk;
    redisUp_ = redis_.command({"PING"}).ok();
    counters_->heartbeat();
}

protocol::ClusterHealth ClusterNode::health() const {
    auto state = [](bool up) {
        return up ? protocol::ServiceState::Up : protocol::ServiceState::Down;
    };
    return {id(), state(redisUp_), state(dbUp_), leases_.held()};
}

}  // namespace rainet::server

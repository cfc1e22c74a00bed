// `rainet serve`: opens the store, builds the hub, listens, runs the network threads, and shuts
// down in order on SIGINT or SIGTERM.
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include "bus/redis_address.h"
#include "server/cluster_lobby.h"
#include "server/cluster_node.h"
#include "server/cluster_notices.h"
#include "server/cluster_seeks.h"
#include "server/forwarding.h"
#include "server/game_room.h"
#include "server/listener.h"
#include "server/sessions.h"
#include "server/static_files.h"
#include "store/log.h"
#include "tournament/schedule.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;
using protocol::MsgType;

namespace {

// HOST:PORT as an endpoint, or nothing (the message said).
std::optional<tcp::endpoint> endpointOf(const std::string& text, const char* option) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) {
        std::cerr << "rainet serve: " << option << " must be HOST:PORT\n";
        return std::nullopt;
    }
    beast::error_code ec;
    std::string host = text.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    const auto address = asio::ip::make_address(host, ec);
    const int port = std::atoi(text.c_str() + colon + 1);
    if (ec || port < 0 || port > 65535) {
        std::cerr << "rainet serve: bad address " << text << "\n";
        return std::nullopt;
    }
    return tcp::endpoint(address, static_cast<unsigned short>(port));
}

// Opens, binds and listens; the error otherwise.
beast::error_code listenOn(tcp::acceptor& acceptor, const tcp::endpoint& endpoint) {
    beast::error_code ec;
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    return ec;
}

}  // namespace

int serve(const Config& config) {
    const auto endpoint = endpointOf(config.listen, "--listen");
    if (!endpoint) return 2;
    std::optional<tcp::endpoint> metricsEndpoint;
    if (!config.metricsListen.empty()) {
        metricsEndpoint = endpointOf(config.metricsListen, "--metrics-listen");
        if (!metricsEndpoint) return 2;
    }
    if (auto exposed = databaseExposure(config.db, config.web)) {
        std::cerr << "rainet serve: " << *exposed << "\n";
        return 2;
    }
    for (const auto& t : config.trustProxy)
        if (!Cidr::parse(t)) {
            std::cerr << "rainet serve: --trust-proxy: not an address range: " << t << "\n";
            return 2;
        }
    for (const auto& spec : config.arenaSchedule)
        if (!tournament::parseRecurringArena(spec)) {
            std::cerr << "rainet serve: --arena-schedule: not a schedule (INITIAL_MIN+INCREMENT_S"
                         "@EVERY_MIN/LENGTH_MIN, e.g. 3+2@60/30, within the bounds of "
                         "docs/protocol.md): "
                      << spec << "\n";
            return 2;
        }
    std::optional<bus::RedisAddress> redis;
    if (!config.redis.empty()) {
        if (!store::isPostgresTarget(config.db)) {
            std::cerr << "rainet serve: --redis needs a postgresql:// --db (the nodes of a "
                         "cluster share one database)\n";
            return 2;
        }
        auto parsed = bus::parseRedisAddress(config.redis);
        if (!parsed) {
            std::cerr << "rainet serve: --redis: " << parsed.error().message << "\n";
            return 2;
        }
        redis = *parsed;
    }
    auto opened = store::Store::open(config.db, config.sync, config.testMode);
    if (!opened) {
        std::cerr << "rainet serve: " << opened.error().message << "\n";
        return 1;
    }
    std::unique_ptr<store::Store> store = std::move(*opened);
    std::unique_ptr<TimeSource> time;
    if (config.testMode)
        time = std::make_unique<ManualTime>();
    else
        time = std::make_unique<SteadyTime>();
    std::unique_ptr<IdSource> ids = config.testMode ? IdSource::sequential() : IdSource::random();

    Metrics metrics;  // outlives the io_context: rooms held by pending handlers count themselves
    Registry registry(config);  // outlives the io_context: sessions in its handlers hold tickets
    asio::io_context io(config.threads);
    int status = 0;
    {
        Hub hub(io, *store, *time, *ids, metrics, config);
        // A cluster's node: destroyed after the store's threads stopped (their last jobs may
        // release leases) and before the hub.
        std::unique_ptr<ClusterNode> cluster;
        if (redis) {
            cluster = std::make_unique<ClusterNode>(
                hub, *redis, config.nodeId.empty() ? ClusterNode::randomId() : config.nodeId,
                config.leaseMs);
            hub.setCluster(cluster.get());
            // Per-address caps and throttles count across the nodes (docs/scaling.md).
            registry.admission.share(cluster->counters());
            hub.shareLimits(cluster->counters());
        }
        // Its forwarding: stopped once the network threads are done, before the hub goes.
        std::unique_ptr<Forwarder> forwarder;
        if (cluster) {
            forwarder = std::make_unique<Forwarder>(hub, *redis, cluster->id(), config.leaseMs);
            registry.forwarder = forwarder.get();
        }
        // Its quick pairing, in Redis: outlives the store's threads (their last jobs withdraw
        // seeks), stopped with the forwarder.
        std::unique_ptr<ClusterSeeks> seeks;
        if (cluster) {
            seeks = std::make_unique<ClusterSeeks>(
                *redis, cluster->id(), config.leaseMs,
                [&hub](std::vector<protocol::SeekEntry> s) { hub.setSeekSummary(std::move(s)); },
                [&store = *store](std::function<void()> job) { store.write(std::move(job)); });
            hub.setClusterSeeks(seeks.get());
        }
        // Its lobby's open games, mirrored from Redis: stopped with the forwarder.
        std::unique_ptr<ClusterLobby> lobby;
        if (cluster) {
            lobby = std::make_unique<ClusterLobby>(*redis, config.leaseMs, hub.lobby());
            hub.setClusterLobby(lobby.get());
        }
        // What concerns a player reaches its connections on every node: stopped with the
        // forwarder.
        std::unique_ptr<ClusterNotices> notices;
        if (cluster) {
            notices = std::make_unique<ClusterNotices>(
                *redis, cluster->id(), [&hub](std::int64_t player, std::string text) {
                    hub.links().send(player, std::make_shared<const std::string>(std::move(text)));
                });
            hub.setClusterNotices(notices.get());
        }
        // Destroyed before the hub, while the io_context exists (its answers post to sessions).
        Analyses analyses(config.analysisNodes);
        registry.analyses = &analyses;
        tcp::acceptor acceptor(io);
        if (const auto ec = listenOn(acceptor, *endpoint)) {
            std::cerr << "rainet serve: cannot listen on " << config.listen << ": " << ec.message()
                      << "\n";
            return 1;
        }
        tcp::acceptor metricsAcceptor(io);
        if (metricsEndpoint)
            if (const auto ec = listenOn(metricsAcceptor, *metricsEndpoint)) {
                std::cerr << "rainet serve: cannot listen on " << config.metricsListen << ": "
                          << ec.message() << "\n";
                return 1;
            }
        if (cluster) {
            // No game is loaded wholesale: each is served under its lease; the first round
            // takes over those nobody owns (all of them when the cluster starts).
            cluster->round();
            cluster->start();
            forwarder->start();
            seeks->start();
            lobby->start();
            notices->start();
        } else if (auto e = hub.loadUnfinished()) {
            std::cerr << "rainet serve: the games could not be loaded: " << e->message << "\n";
            return 1;
        }
        if (!resolveStaticFile(config.web, "/"))
            logEvent("warning", {{"message", "the web client is not built: no index.html in --web"},
                                 {"web", config.web}});
        auto listener = std::make_shared<Listener>(io, acceptor, hub, registry);
        listener->run();
        std::shared_ptr<Listener> metricsListener;
        if (metricsEndpoint) {
            metricsListener =
                std::make_shared<Listener>(io, metricsAcceptor, hub, registry, HttpRole::Metrics);
            metricsListener->run();
            logEvent("metrics_listening", {{"address", config.metricsListen},
                                           {"port", metricsAcceptor.local_endpoint().port()}});
        }
        logEvent("listening", {{"address", config.listen},
                               {"port", acceptor.local_endpoint().port()},
                               {"db", store::redactTarget(config.db)},
                               {"sync", config.sync},
                               {"web", config.web},
                               {"test_mode", config.testMode},
                               {"node", cluster ? cluster->id() : ""},
                               {"lease_ms", cluster ? config.leaseMs : 0}});

        asio::signal_set signals(io, SIGINT, SIGTERM);
        asio::steady_timer deadline(io);
        std::function<void()> poll;
        signals.async_wait([&](const beast::error_code& e, int sig) {
            if (e) return;
            logEvent("shutdown", {{"signal", sig}});
            beast::error_code ignored;
            acceptor.close(ignored);
            listener->stop();
            if (metricsListener) {
                metricsAcceptor.close(ignored);
                metricsListener->stop();
            }
            hub.stop();  // drops queued password work
            for (auto& r : hub.rooms()) r->run([](GameRoom& room) { room.stop(); });
            closeWsSessions(registry);
            // Stop once every socket is closed (close handshakes done), or after 2 s.
            const std::int64_t giveUp = TimeSource::realMs() + 2000;
            poll = [&, giveUp] {
                bool empty;
                {
                    std::lock_guard lock(registry.mu);
                    empty = registry.sessions.empty();
                }
                if (empty || TimeSource::realMs() > giveUp) return io.stop();
                deadline.expires_after(std::chrono::milliseconds(20));
                deadline.async_wait([&](const beast::error_code&) { poll(); });
            };
            poll();
        });

        // Each network thread's top: what no session or room caught is logged and the thread
        // goes on serving (the handler that threw is lost; its connection times out).
        auto runIo = [&io] {
            while (true) {
                try {
                    io.run();
                    return;
                } catch (const std::exception& e) {
                    logEvent("uncaught_exception", {{"message", e.what()}});
                }
            }
        };
        std::vector<std::thread> threads;
        for (int i = 1; i < config.threads; ++i) threads.emplace_back(runIo);
        runIo();
        for (auto& t : threads) t.join();
        if (forwarder) forwarder->stop();
        if (seeks) seeks->stop();
        if (lobby) lobby->stop();
        if (notices) notices->stop();
        registry.forwarder = nullptr;
        // Commits still queued are made (and their callbacks posted) while the executors exist.
        store->stopThreads();
        if (cluster) cluster->stop();  // the leases released: other nodes take over at once
        logEvent("stopped");
    }
    return status;
}

}  // namespace rainet::server

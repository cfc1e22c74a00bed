// The lobby's open games across the nodes (server/cluster_lobby.h).
#include "server/cluster_lobby.h"

#include <algorithm>

#include "protocol/schema.h"
#include "store/log.h"

namespace rainet::server {

using protocol::Json;

ClusterLobby::ClusterLobby(bus::RedisAddress redis, std::int64_t ttlMs, Lobby& lobby)
    : ttl_(ttlMs), lobby_(lobby), link_(redis) {
    sub_ = std::make_unique<bus::Subscriber>(
        std::move(redis), [this](const std::string&, const std::string& p) { onMessage(p); });
}

ClusterLobby::~ClusterLobby() {
    stop();
}

std::string ClusterLobby::encode(const protocol::LobbyEntry& e, std::int64_t created) {
    std::string entry;
    protocol::writeValue(entry, e);
    return Json{{"entry", Json::parse(entry)}, {"created", created}}.dump();
}

std::optional<std::pair<protocol::LobbyEntry, std::int64_t>> ClusterLobby::decode(
    const std::string& text) {
    const Json j = Json::parse(text, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    try {
        const Json& e = j.at("entry");
        protocol::LobbyEntry out;
        out.game = e.at("game").get<std::string>();
        out.preset = protocol::enumFromName<protocol::Preset>(e.at("preset").get<std::string>())
                         .value_or(protocol::Preset{});
        if (const Json& c = e.at("clock"); c.is_object())
            out.clock =
                protocol::clockSetting(c.at("initial").get<int>(), c.at("increment").get<int>());
        const Json& p = e.at("creator");
        out.creator.id = p.at("id").get<std::string>();
        out.creator.name = p.at("name").get<std::string>();
        if (p.contains("kind"))
            out.creator.kind =
                protocol::enumFromName<protocol::PlayerKind>(p["kind"].get<std::string>());
        if (p.contains("rating"))
            out.creator.rating = p["rating"].is_null()
                                     ? std::optional<std::int64_t>()
                                     : std::optional<std::int64_t>(p["rating"].get<std::int64_t>());
        if (p.contains("bot")) out.creator.bot = p["bot"].get<bool>();
        out.side = protocol::enumFromName<protocol::SideWish>(e.at("side").get<std::string>())
                       .value_or(protocol::SideWish::Random);
        out.rated = e.at("rated").get<bool>();
        return std::pair{std::move(out), j.at("created").get<std::int64_t>()};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void ClusterLobby::start() {
    sub_->subscribe(kChannel);
    if (!sub_->waitSubscribed(std::chrono::seconds(1)))
        logEvent("warning", {{"message", "the lobby's channel is not subscribed yet (Redis)"}});
    worker_.start([this] { run(); });
}

void ClusterLobby::stop() {
    worker_.stop();
    sub_.reset();
}

void ClusterLobby::set(const std::string& id, const std::optional<protocol::LobbyEntry>& entry,
                       std::int64_t created) {
    // The change and its version in one script: no round sees one without the other.
    static constexpr const char* kSet =
        "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return redis.call('INCR', KEYS[2])";
    static constexpr const char* kDel =
        "redis.call('HDEL', KEYS[1], ARGV[1]) return redis.call('INCR', KEYS[2])";
    std::function<void()> job;
    if (entry)
        job = [this, id, text = encode(*entry, created)] {
            if (link_.command({"EVAL", kSet, "2", kGames, kVersion, id, text}).ok())
                (void)link_.publishAll({{kChannel, "set " + id + "\n" + text}});
        };
    else
        job = [this, id] {
            if (link_.command({"EVAL", kDel, "2", kGames, kVersion, id}).ok())
                (void)link_.publishAll({{kChannel, "del " + id}});
        };
    {
        std::lock_guard lock(worker_.mutex());
        if (worker_.stopping() || jobs_.size() >= kMaxQueued) return;  // the resync heals
        jobs_.push_back(std::move(job));
    }
    worker_.wake().notify_one();
}

void ClusterLobby::onMessage(const std::string& payload) {
    if (payload.rfind("del ", 0) == 0) return lobby_.set(payload.substr(4), std::nullopt);
    const auto nl = payload.find('\n');
    if (payload.rfind("set ", 0) != 0 || nl == std::string::npos) return;
    if (auto d = decode(payload.substr(nl + 1))) lobby_.set(payload.substr(4, nl - 4), d->first);
}

void ClusterLobby::round() {
    // The version first: a change made between it and the hash's read is read twice, never
    // missed. Nil (no change yet, or a Redis restarted empty) reads as "".
    auto v = link_.command({"GET", kVersion});
    if (!v) return;  // Redis away: the copy stays
    const std::string version = v->kind == bus::Reply::Kind::String ? v->str : "";
    if (seen_ && version == *seen_ && !schedule_.due()) return;
    auto r = link_.command({"HGETALL", kGames});
    if (!r || r->kind != bus::Reply::Kind::Array) return;
    seen_ = version;
    schedule_.done();
    ++fullReads_;
    std::vector<std::pair<std::int64_t, protocol::LobbyEntry>> games;
    for (std::size_t i = 0; i + 1 < r->elements.size(); i += 2)
        if (auto d = decode(r->elements[i + 1].str)) games.emplace_back(d->second, d->first);
    std::stable_sort(games.begin(), games.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first < y.first : x.second.game < y.second.game;
    });
    std::vector<protocol::LobbyEntry> entries;
    for (auto& [created, e] : games) entries.push_back(std::move(e));
    lobby_.setGames(std::move(entries));
}

void ClusterLobby::run() {
    worker_.loop(
        std::chrono::milliseconds(std::max<std::int64_t>(ttl_ / 3, 10)), [this] { round(); },
        &jobs_,
        [](const std::exception& e) {
            logEvent("lobby_exception", {{"message", e.what()}});
        });
}

}  // namespace rainet::server

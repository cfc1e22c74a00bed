#include "server/forwarding.h"

#include <charconv>
#include <chrono>
#include <random>
#include <set>
#include <string_view>
#include <vector>

#include "protocol/messages.h"
#include "server/game_room.h"
#include "server/hub.h"
#include "server/time_source.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;

class RemoteClient;

// The connections of another node, as one group (server/client.h): what a room broadcasts to
// several of them is one Redis message, `deliver <serial>,<serial>,...\n<text>`, which that node
// hands to each of the sessions listed, in the list's order. One publisher feeds the node's inbox,
// so each connection's messages keep the order in which the rooms sent them. Thread-safe.
class RemoteNode : public ClientGroup {
  public:
    RemoteNode(bus::Publisher& through, Metrics& counted, std::string id)
        : publisher(through),
          metrics(counted),
          node(std::move(id)),
          channel(Forwarder::inbox(node)) {}

    void send(const std::vector<Client*>& members,
              const std::shared_ptr<const std::string>& text) override;
    // `text` to those of `to` still open, in one message.
    void deliver(const std::vector<RemoteClient*>& to, const std::string& text);

    bus::Publisher& publisher;
    Metrics& metrics;
    const std::string node, channel;
};

// One connection of another node, as the owner's rooms see it: what they send it is published
// to that node's inbox (alone, or with others of its node: RemoteNode). Thread-safe: rooms call
// it on their strands.
class RemoteClient : public Client {
  public:
    RemoteClient(std::shared_ptr<RemoteNode> node, std::uint64_t serial)
        : node_(std::move(node)), serial_(serial) {}

    using Client::send;
    void send(std::shared_ptr<const std::string> message) override {
        node_->deliver({this}, *message);
    }
    void closeToReconnect() override {
        if (closed_.exchange(true)) return;
        node_->publisher.publish(node_->channel, "close " + std::to_string(serial_), true);
    }
    ClientGroup* group() override { return node_.get(); }
    // Dropped (gone, or its node died): sends nothing more.
    void forget() { closed_.store(true, std::memory_order_release); }
    bool closed() const { return closed_.load(std::memory_order_acquire); }
    const std::string& node() const { return node_->node; }
    std::uint64_t serial() const { return serial_; }

    // The rooms it follows (the worker's only): unsubscribed when it is dropped.
    std::unordered_map<std::string, std::shared_ptr<GameRoom>> rooms;

  private:
    const std::shared_ptr<RemoteNode> node_;
    const std::uint64_t serial_;
    std::atomic<bool> closed_{false};
};

void RemoteNode::send(const std::vector<Client*>& members,
                      const std::shared_ptr<const std::string>& text) {
    std::vector<RemoteClient*> to;
    to.reserve(members.size());
    // Only RemoteClients name this group (RemoteClient::group).
    for (Client* m : members) to.push_back(static_cast<RemoteClient*>(m));
    deliver(to, *text);
}

void RemoteNode::deliver(const std::vector<RemoteClient*>& to, const std::string& text) {
    std::string envelope = "deliver ";
    std::size_t n = 0;
    for (RemoteClient* rc : to) {
        if (rc->closed()) continue;
        if (n++ > 0) envelope += ',';
        envelope += std::to_string(rc->serial());
    }
    if (n == 0) return;
    envelope += '\n';
    envelope += text;
    // Counted before the hand-over: the publisher's thread may send it, and the other node
    // deliver it, before this thread runs on (a reader of /metrics must never see a message
    // arrive that was not counted as sent).
    ++metrics.deliveryPublishes;
    metrics.deliveredOut += static_cast<std::int64_t>(n);
    if (publisher.publish(channel, std::move(envelope))) return;
    --metrics.deliveryPublishes;
    metrics.deliveredOut -= static_cast<std::int64_t>(n);
    // Over the publisher's bound: these connections would miss a message, so they are closed
    // instead; their clients reconnect and resume by version.
    metrics.forwardDropped += static_cast<std::int64_t>(n);
    logEvent("forward_overflow", {{"node", node}, {"connections", n}});
    for (RemoteClient* rc : to) rc->closeToReconnect();
}

namespace {

constexpr std::size_t kMaxGamesPerRemote = 100;  // as for a local connection (ws_routes.cpp)

std::string remoteKey(const std::string& node, std::uint64_t serial) {
    return node + " " + std::to_string(serial);
}

bool parseSerial(std::string_view s, std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

// "<serial>,<serial>,...": all of them, or false.
bool parseSerials(std::string_view s, std::vector<std::uint64_t>& out) {
    while (true) {
        const auto comma = s.find(',');
        if (!parseSerial(s.substr(0, comma), out.emplace_back())) return false;
        if (comma == std::string_view::npos) return true;
        s.remove_prefix(comma + 1);
    }
}

// "<word> <word> ..." split on single spaces.
std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    while (!s.empty()) {
        const auto sp = s.find(' ');
        out.push_back(s.substr(0, sp));
        if (sp == std::string_view::npos) break;
        s.remove_prefix(sp + 1);
    }
    return out;
}

Json playerJson(const store::PlayerRow& p) {
    return Json{{"id", p.id},     {"publicId", p.publicId}, {"name", p.name},
                {"kind", p.kind}, {"rating", p.rating},     {"bot", p.bot}};
}

std::uint64_t randomSerialBase() {
    std::random_device rd;
    const std::uint64_t r = (std::uint64_t{rd()} << 32) ^ rd();
    return r >> 2;  // room to count up without wrapping
}

std::optional<store::PlayerRow> playerFrom(const Json& j) {
    if (!j.is_object()) return std::nullopt;
    try {
        store::PlayerRow p;
        p.id = j.at("id").get<std::int64_t>();
        p.publicId = j.at("publicId").get<std::string>();
        p.name = j.at("name").get<std::string>();
        p.kind = j.at("kind").get<std::string>();
        p.rating = j.at("rating").get<double>();
        p.bot = j.at("bot").get<bool>();
        return p;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

Forwarder::Forwarder(Hub& hub, bus::RedisAddress redis, std::string node, std::int64_t ttlMs)
    : hub_(hub),
      node_(std::move(node)),
      ttl_(ttlMs),
      publisher_(redis, kMaxQueuedBytes,
                 [&metrics = hub.metrics()](auto d) { metrics.publishLatency.record(d); }),
      link_(redis),
      serials_(randomSerialBase()) {
    bus::Subscriber::Options options;
    options.onState = [this](bool up) { onLink(up); };
    inbox_ = std::make_unique<bus::Subscriber>(
        std::move(redis),
        [this](const std::string&, const std::string& payload) { onMessage(payload); }, options);
}

Forwarder::~Forwarder() {
    stop();
}

void Forwarder::start() {
    inbox_->subscribe(inbox(node_));
    if (!inbox_->waitSubscribed(std::chrono::seconds(1)))
        logEvent("warning", {{"message", "the node's inbox is not subscribed yet (Redis)"}});
    worker_.start([this] { work(); });
}

void Forwarder::stop() {
    worker_.stop();
    inbox_.reset();  // no handler runs past here
}

void Forwarder::post(std::function<void()> job) {
    {
        std::lock_guard lock(worker_.mutex());
        if (worker_.stopping()) return;
        jobs_.push_back(std::move(job));
    }
    worker_.wake().notify_one();
}

void Forwarder::work() {
    worker_.loop(
        std::chrono::milliseconds(std::max<std::int64_t>(ttl_ / 3, 10)), [this] { round(); },
        &jobs_, [](const std::exception& e) {  // one forward failed; the others go on
            logEvent("forward_exception", {{"message", e.what()}});
        });
}

// --- the inbox ---

void Forwarder::onMessage(const std::string& payload) {
    const auto nl = payload.find('\n');
    const std::string_view head =
        std::string_view(payload).substr(0, nl == std::string::npos ? payload.size() : nl);
    const auto w = words(head);
    std::uint64_t serial = 0;
    if (w.size() == 2 && w[0] == "close" && parseSerial(w[1], serial)) {
        if (auto session = sessionOf(serial)) session->closeToReconnect();
        return;
    }
    if (w.size() == 2 && w[0] == "deliver" && nl != std::string::npos) {
        // For sessions of this node, in the list's order: handed over at once (sending never
        // blocks), one text shared by all.
        std::vector<std::uint64_t> serials;
        if (parseSerials(w[1], serials)) {
            const auto text = std::make_shared<const std::string>(payload.substr(nl + 1));
            for (const std::uint64_t s : serials)
                if (auto session = sessionOf(s)) {  // else closed meanwhile
                    ++hub_.metrics().deliveredIn;
                    session->send(text);
                }
            return;
        }
    }
    if (w.size() == 3 && (w[0] == "forward" || w[0] == "gone") && parseSerial(w[2], serial)) {
        std::string node(w[1]);
        if (w[0] == "gone") return post([this, node, serial] { onGone(node, serial); });
        if (nl == std::string::npos) return;
        return post(
            [this, node, serial, body = payload.substr(nl + 1)] { onForward(node, serial, body); });
    }
    logEvent("forward_garbled", {{"head", std::string(head.substr(0, 64))}});
}

std::shared_ptr<Client> Forwarder::sessionOf(std::uint64_t serial) {
    std::lock_guard lock(sessionsMu_);
    auto it = sessions_.find(serial);
    return it == sessions_.end() ? nullptr : it->second.session.lock();
}

void Forwarder::onLink(bool up) {
    linkUp_.store(up, std::memory_order_release);
    if (up) return logEvent("forward_link_up", {{"node", node_}});
    // Pub/sub kept nothing while the link was down, on either side: every forwarding session
    // is closed (its client resumes by version) and every remote connection dropped (its node
    // closed it for the same reason; its `gone` may have been lost).
    logEvent("forward_link_down", {{"node", node_}});
    closeSessions([](const std::string&, const std::string&) { return true; });
    post([this] { dropRemotes([](const RemoteClient&) { return true; }); });
}

// --- N ---

bool Forwarder::forward(std::uint64_t serial, const std::weak_ptr<Client>& session,
                        const std::string& game, const std::string& owner,
                        const store::PlayerRow& player, const std::string& text, bool leaving) {
    {
        std::lock_guard lock(sessionsMu_);
        Forwarding& f = sessions_[serial];
        f.session = session;
        if (leaving)
            f.games.erase(game);
        else
            f.games[game] = owner;
    }
    // The inbox is not subscribed (Redis away, or not yet back): the owner's answer could not
    // arrive and the forward itself would most likely be lost, leaving the client waiting for
    // an ack. Refused instead: the session closes and its client resumes by version later.
    if (!linkUp_.load(std::memory_order_acquire)) return false;
    std::string envelope = "forward " + node_ + " " + std::to_string(serial) + "\n" +
                           playerJson(player).dump() + "\n" + text;
    if (!publisher_.publish(inbox(owner), std::move(envelope))) {
        ++hub_.metrics().forwardDropped;
        return false;
    }
    ++hub_.metrics().forwardedOut;
    return true;
}

void Forwarder::gone(std::uint64_t serial) {
    std::set<std::string> owners;
    {
        std::lock_guard lock(sessionsMu_);
        auto it = sessions_.find(serial);
        if (it == sessions_.end()) return;
        for (const auto& [game, owner] : it->second.games) owners.insert(owner);
        sessions_.erase(it);
    }
    // Every owner it ever forwarded to that it still followed; also sent when the queue is full
    // (small, and presence depends on it).
    for (const auto& owner : owners)
        publisher_.publish(inbox(owner), "gone " + node_ + " " + std::to_string(serial), true);
}

void Forwarder::closeSessions(
    const std::function<bool(const std::string&, const std::string&)>& which) {
    std::vector<std::shared_ptr<Client>> closing;
    {
        std::lock_guard lock(sessionsMu_);
        for (auto& [serial, f] : sessions_) {
            bool hit = false;
            for (const auto& [game, owner] : f.games) hit = hit || which(game, owner);
            if (!hit) continue;
            if (auto s = f.session.lock()) closing.push_back(std::move(s));
        }
    }
    // Posts to each session's strand: never waits for one.
    for (auto& s : closing) s->closeToReconnect();
}

// --- O ---

void Forwarder::onForward(const std::string& node, std::uint64_t serial, const std::string& body) {
    ++hub_.metrics().forwardedIn;
    const auto nl = body.find('\n');
    if (nl == std::string::npos) return;
    const auto player = playerFrom(Json::parse(body.substr(0, nl), nullptr, false));
    if (!player) return logEvent("forward_garbled", {{"node", node}});
    const std::string key = remoteKey(node, serial);
    auto& rc = remotes_[key];
    if (!rc) rc = std::make_shared<RemoteClient>(remoteNode(node), serial);
    if (rc->closed()) return;  // closed to reconnect: its node closes the session
    // The node that forwarded validated the text with the same parser; parsed again here,
    // because only the text crosses.
    auto parsed = protocol::parseClientMessage(std::string_view(body).substr(nl + 1));
    if (auto* f = std::get_if<protocol::Failure>(&parsed))
        return rc->send(protocol::renderError(f->code, f->message, f->id, f->game));
    const auto& m = std::get<protocol::ClientMessage>(parsed);
    std::shared_ptr<GameRoom> room;
    if (auto it = rc->rooms.find(m.game); it != rc->rooms.end() && !it->second->broken())
        room = it->second;
    else if (rc->rooms.size() >= kMaxGamesPerRemote)
        return rc->send(protocol::renderError(
            ErrorCode::BadMessage, "too many games on one connection; leave some", m.id, m.game));
    else if (!(room = hub_.loaded(m.game))) {
        auto opened = hub_.open(m.game);  // on this worker: never on a network thread
        if (!opened && opened.error().message == Hub::kHeldElsewhere)
            // The game moved on: the forwarding node's round sees it and closes the session.
            return rc->send(protocol::renderError(
                ErrorCode::Busy, "the game is served by another node; try again in a moment", m.id,
                m.game));
        if (!opened)
            return rc->send(protocol::renderError(
                ErrorCode::Internal, "the game could not be read; try again", m.id, m.game));
        room = *opened;
    }
    if (!room)
        return rc->send(
            protocol::renderError(ErrorCode::UnknownGame, "no game has this id", m.id, m.game));
    if (m.type == protocol::MsgType::Leave)
        rc->rooms.erase(m.game);
    else
        rc->rooms[m.game] = room;
    room->run(
        [rc = std::shared_ptr<Client>(rc), p = *player, m](GameRoom& r) { r.handle(rc, p, m); });
}

std::shared_ptr<RemoteNode> Forwarder::remoteNode(const std::string& node) {
    auto& weak = remoteNodes_[node];
    auto group = weak.lock();
    if (group) return group;
    // A node's group lives as long as one of its connections: those of nodes gone are forgotten.
    std::erase_if(remoteNodes_, [](const auto& kv) { return kv.second.expired(); });
    group = std::make_shared<RemoteNode>(publisher_, hub_.metrics(), node);
    remoteNodes_[node] = group;
    return group;
}

void Forwarder::onGone(const std::string& node, std::uint64_t serial) {
    auto it = remotes_.find(remoteKey(node, serial));
    if (it == remotes_.end()) return;
    auto rc = std::move(it->second);
    remotes_.erase(it);
    rc->forget();
    for (auto& [game, room] : rc->rooms)
        room->run([key = rc.get()](GameRoom& r) { r.unsubscribe(key); });
}

void Forwarder::dropRemotes(const std::function<bool(const RemoteClient&)>& which, bool notify) {
    for (auto it = remotes_.begin(); it != remotes_.end();) {
        if (!which(*it->second)) {
            ++it;
            continue;
        }
        auto rc = std::move(it->second);
        it = remotes_.erase(it);
        // Told, a session still alive reconnects instead of waiting for replies that the owner
        // would now drop (the answer to a message in flight, say).
        if (notify)
            rc->closeToReconnect();
        else
            rc->forget();
        for (auto& [game, room] : rc->rooms)
            room->run([key = rc.get()](GameRoom& r) { r.unsubscribe(key); });
    }
}

// --- liveness ---

void Forwarder::round() {
    const std::string ttl = std::to_string(ttl_);
    if (!link_.command({"SET", aliveKey(node_), "1", "PX", ttl}).ok()) return;  // Redis away
    const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
    std::unordered_map<std::string, bool> alive;  // node -> judged alive this round
    auto isAlive = [&](const std::string& n) {
        auto [it, fresh] = alive.try_emplace(n, true);
        if (fresh) {
            auto r = link_.command({"EXISTS", aliveKey(n)});
            // Unknown (Redis error): alive; the next round asks again.
            if (!r.ok() || r->integer != 0) {
                missingSince_.erase(n);
            } else {
                const auto since = missingSince_.try_emplace(n, now).first->second;
                it->second = now - since < ttl_ / 2;
            }
        }
        return it->second;
    };
    // O: the remote connections of nodes that died (their key expired).
    std::set<std::string> remoteNodes;
    for (const auto& [key, rc] : remotes_) remoteNodes.insert(rc->node());
    for (const auto& n : remoteNodes)
        if (!isAlive(n)) {
            logEvent("node_gone", {{"node", n}, {"by", node_}});
            dropRemotes([&](const RemoteClient& rc) { return rc.node() == n; }, true);
        }
    // N: sessions forwarding to an owner that died or no longer holds the game's lease.
    std::unordered_map<std::string, std::string> forwarded;  // game -> owner
    {
        std::lock_guard lock(sessionsMu_);
        for (const auto& [serial, f] : sessions_)
            for (const auto& [game, owner] : f.games) forwarded.emplace(game, owner);
    }
    std::set<std::pair<std::string, std::string>> moved;  // (game, owner) no longer right
    for (const auto& [game, owner] : forwarded) {
        bool wrong = !isAlive(owner);
        if (!wrong) {
            auto lease = hub_.store().leaseOf(game);  // this worker: never a network thread
            wrong = lease && *lease && (*lease)->owner != owner;
        }
        if (wrong) moved.emplace(game, owner);
    }
    if (!moved.empty())
        closeSessions([&](const std::string& game, const std::string& owner) {
            return moved.count({game, owner}) > 0;
        });
    // Forget the misses of nodes nobody asked about this round (no remote connection, no
    // forwarded game): a later miss starts afresh.
    std::erase_if(missingSince_, [&](const auto& kv) { return !alive.count(kv.first); });
}

}  // namespace rainet::server

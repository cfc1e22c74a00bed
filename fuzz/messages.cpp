// libFuzzer target: client JSON messages through the server's handlers, without sockets. The
// input is a session of two clients, one message per line (a line starting with '2' goes to
// the second client, without that byte). Each line is parsed by protocol::parseClientMessage and
// routed as WsSession::handle (src/server/server.cpp) routes it: hello to Hub::hello, create,
// seek and the lobby to the Hub, game messages to the room's GameRoom::handle on its strand.
// Not covered here: the per-connection checks of WsSession (frame size, rate limit, the cap on
// followed games) and register/login (Argon2id, slow by design). Computer opponents play at
// level 1 so that a run stays fast. Every message the server sends must be one JSON object.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "server/game_room.h"
#include "server/hub.h"
#include "server/ids.h"
#include "support/sqlite_test_db.h"

using namespace rainet;
using namespace rainet::server;
using protocol::MsgType;

namespace {

class FuzzClient : public Client {
  public:
    using Client::send;
    // Validated without building a tree (parsing every lobby list into one took a fifth of a run):
    // valid JSON that starts with '{' is one object.
    void send(std::shared_ptr<const std::string> message) override {
        if (message->empty() || message->front() != '{' || !protocol::Json::accept(*message))
            __builtin_trap();
    }
    // Only a cluster node's rooms move away (server --redis); this server is one node.
    void closeToReconnect() override { __builtin_trap(); }
};

// A database file in the temporary directory, removed with its WAL when the server is made anew.
// Not ":memory:": every SQLite connection to that is a database of its own, so the store's read
// connections would see empty databases and every read would fail.
struct ScratchDatabase {
    std::string path = test::freshDbPath("fuzz_messages");
    ~ScratchDatabase() { test::removeDb(path); }
};

// A whole server (store in a scratch file, manual time, sequential ids), made anew every 500
// inputs so that what the sessions create does not pile up (every lobby message lists it all).
struct Server {
    ScratchDatabase file;
    std::unique_ptr<store::Store> store = store::Store::open(file.path, "off").value();
    ManualTime time;
    std::unique_ptr<IdSource> ids = IdSource::sequential();
    Metrics metrics;
    boost::asio::io_context io;
    Config config = [this] {
        Config c;
        c.db = file.path;
        c.testMode = true;
        c.identitiesPerMinute = 0;  // one address makes every guest here: no per-address limit
        return c;
    }();
    Hub hub{io, *store, time, *ids, metrics, config};

    // As `rainet serve` stops: the commits still queued are made and their callbacks run while
    // the rooms' io_context exists. (Without this, a room kept by a pending commit callback was
    // destroyed with the store, after the io_context, its timers calling a destroyed service:
    // UBSan's invalid vptr in asio's io_object_impl, found by a long fuzzing run.)
    ~Server() {
        store->stopThreads();
        drain();
    }

    void drain() {
        io.restart();
        io.run();
    }
};

struct Session {
    std::shared_ptr<FuzzClient> client = std::make_shared<FuzzClient>();
    std::optional<store::PlayerRow> player;
    std::string tokenHash;
};

void dispatch(Server& s, Session& who, std::string_view text) {
    auto parsed = protocol::parseClientMessage(text);
    auto* m = std::get_if<protocol::ClientMessage>(&parsed);
    if (!m) return;
    if (!who.player && m->type != MsgType::Hello) return;
    // As WsSession does: a new guest is stored before its first message that needs a row.
    if (who.player && !who.player->id && Hub::needsStoredPlayer(m->type) &&
        (s.hub.admitGuest("fuzz") || s.hub.storeGuest(*who.player, who.tokenHash)))
        return;
    switch (m->type) {
        case MsgType::Hello: {
            if (who.player) return;
            if (auto id = s.hub.hello(m->token, m->name)) {
                auto welcome = s.hub.welcome(*id);
                if (!welcome) return;
                who.player = id->player;
                who.tokenHash = hashToken(id->token);
                who.client->send(std::move(*welcome));
            }
            return;
        }
        case MsgType::Register:
        case MsgType::Login:
            return;
        case MsgType::Logout:
            who.player.reset();
            return;
        case MsgType::Create:
            m->level = 1;
            // The hub holds the new room (its registry); the fuzzed client needs no handle.
            (void)s.hub.create(who.client, *who.player, *m);
            return;
        case MsgType::Rename:
            if (!s.store->renamePlayer(who.player->id, m->name)) who.player->name = m->name;
            return;
        case MsgType::Seek:
            return s.hub.seek(who.client, *who.player, *m);
        case MsgType::Unseek:
            return s.hub.unseek(who.client.get(), who.player->id);
        case MsgType::LobbySubscribe:
            return s.hub.subscribeLobby(who.client);
        case MsgType::LobbyUnsubscribe:
            return s.hub.unsubscribeLobby(who.client.get());
        case MsgType::Ping:
            return;
        default:
            break;
    }
    auto room = s.hub.open(m->game);
    if (!room || !*room) return;
    (*room)->run([c = who.client, p = *who.player, msg = *m](GameRoom& r) { r.handle(c, p, msg); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 8192) return 0;
    static std::unique_ptr<Server> server;
    static int uses = 0;
    if (!server || ++uses % 500 == 0) {
        server.reset();
        server = std::make_unique<Server>();
    }
    Session sessions[2];
    std::string_view text(reinterpret_cast<const char*>(data), size);
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        Session& who = !line.empty() && line[0] == '2' ? sessions[1] : sessions[0];
        if (&who == &sessions[1]) line.remove_prefix(1);
        dispatch(*server, who, line);
        server->drain();
    }
    // The connections close: as WsSession::finish, every room and the lobby forget them.
    for (Session& s : sessions) {
        for (auto& room : server->hub.rooms())
            room->run([key = s.client.get()](GameRoom& r) { r.unsubscribe(key); });
        server->hub.unsubscribeLobby(s.client.get());
        server->hub.unseek(s.client.get(), 0);
    }
    server->drain();
    return 0;
}

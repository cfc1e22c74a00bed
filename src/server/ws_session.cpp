// A WebSocket session: one client's connection speaking docs/protocol.md, with its bounded write
// queue, its rate limit and its identity; game messages go to the rooms it follows.
#include "server/sessions.h"

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <utility>

#include "server/game_room.h"
#include "server/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;
using protocol::MsgType;

namespace {

// Bytes of messages queued for one connection (the one being written included) before it is
// closed as too slow (close code 1013): a client that stops reading cannot make the server hold
// more. Messages shared by many connections (events, presence) count in full for each.
constexpr std::size_t kMaxQueueBytes = 1 << 20;
constexpr int kRefusedBeforeClose = 100;
// After the server starts a close, the peer has this long to take what was queued and answer.
constexpr auto kCloseGrace = std::chrono::seconds(10);
constexpr std::size_t kMaxGamesPerConnection = 100;  // games one connection may follow

}  // namespace

class WsSession : public Client, public std::enable_shared_from_this<WsSession> {
  public:
    using Client::send;
    WsSession(tcp::socket&& socket, Hub& hub, Registry& registry, std::string address,
              std::unique_ptr<Admission::Ticket> ticket)
        : ws_(std::move(socket)),
          hub_(hub),
          registry_(registry),
          ip_(std::move(address)),
          ticket_(std::move(ticket)),
          timer_(ws_.get_executor()) {}

    void run(http::request<http::string_body> req) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.set_option(websocket::stream_base::decorator(
            [](websocket::response_type& res) { res.set(http::field::server, "rainet"); }));
        ws_.read_message_max(protocol::kMaxFrameHard);
        ws_.async_accept(req, beast::bind_front_handler(&WsSession::onAccept, shared_from_this()));
    }

    void send(std::shared_ptr<const std::string> message) override {
        asio::post(ws_.get_executor(),
                   [self = shared_from_this(), m = std::move(message)]() mutable {
                       self->enqueue(std::move(m));
                   });
    }

    // Shutdown: what is queued is dropped, the close frame goes out next.
    void close(websocket::close_code code, const char* reason) {
        asio::post(ws_.get_executor(), [self = shared_from_this(), code, reason] {
            self->closeNow(code, reason, false);
        });
    }

  private:
    void onAccept(beast::error_code ec) {
        if (ec) return;
        ++hub_.metrics().connections;
        ++hub_.metrics().connectionsTotal;
        counted_ = true;
        {
            std::lock_guard lock(registry_.mu);
            registry_.sessions[this] = weak_from_this();
        }
        last_ = std::chrono::steady_clock::now();
        awaitHello();
        doRead();
    }

    // A connection must identify itself (hello or login) within the hello timeout.
    void awaitHello() {
        timer_.expires_after(std::chrono::seconds(hub_.config().helloTimeoutS));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->player_ || self->authBusy_) return;
            logEvent("hello_timeout", {{"address", self->ip_}});
            self->closeNow(websocket::close_code::policy_error, "no hello", true);
        });
    }

    void doRead() {
        ws_.async_read(buf_, beast::bind_front_handler(&WsSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec) return finish();
        ++hub_.metrics().messagesIn;
        if (!ws_.got_text()) {
            buf_.consume(buf_.size());
            reply(protocol::renderError(ErrorCode::BadJson, "frames must be text"),
                  ErrorCode::BadJson);
            return doRead();
        }
        std::string text = beast::buffers_to_string(buf_.data());
        buf_.consume(buf_.size());
        guarded([&] {
            if (hub_.takeTestThrow(Hub::TestThrow::Connection))
                throw std::runtime_error("test: thrown on demand in a connection");
            handle(text);
        });
        if (!closing_ && !waiting_) doRead();
    }

    // The connection's top: an exception fails this connection only (closed 1011), logged
    // once; the server and everyone else go on.
    template <class F>
    void guarded(F f) {
        try {
            f();
        } catch (const std::exception& e) {
            ++hub_.metrics().connectionsFailed;
            logEvent("connection_exception",
                     {{"player", player_ ? player_->publicId : ""}, {"message", e.what()}});
            closeNow(websocket::close_code::internal_error, "server error", false);
        }
    }

    // Runs `job` on the store's reader threads (`write`: on its writer thread, in order with
    // every other write), then `then(result)` on this session's strand. The session reads no
    // further message meanwhile: its messages keep their order, no network thread waits for the
    // database, and a connection has at most one store job queued.
    template <class Job, class Then>
    void viaStore(bool write, Job job, Then then) {
        waiting_ = true;
        auto run = [self = shared_from_this(), job = std::move(job),
                    then = std::move(then)]() mutable {
            auto result = std::make_shared<decltype(job())>(job());
            asio::post(self->ws_.get_executor(), [self, then = std::move(then), result]() mutable {
                self->waiting_ = false;
                if (self->closing_ || self->finished_) return;
                self->guarded([&] { then(*result); });
                if (!self->closing_ && !self->waiting_) self->doRead();
            });
        };
        if (write)
            hub_.store().write(std::move(run));
        else
            hub_.store().read(std::move(run));
    }

    void reply(std::string text, std::optional<ErrorCode> code = std::nullopt) {
        if (code) hub_.metrics().error(*code);
        enqueue(std::make_shared<const std::string>(std::move(text)));
    }
    void fail(ErrorCode code, const std::string& message, const Json& id = nullptr,
              const std::string& game = {}) {
        reply(protocol::renderError(code, message, id, game), code);
    }

    bool allow(const Json& id) {
        const auto now = std::chrono::steady_clock::now();
        const double rate = hub_.config().ratePerSecond;
        tokens_ =
            std::min(2 * rate, tokens_ + rate * std::chrono::duration<double>(now - last_).count());
        last_ = now;
        if (tokens_ >= 1) {
            tokens_ -= 1;
            return true;
        }
        if (++refused_ > kRefusedBeforeClose) {
            logEvent("connection_flood", {{"player", player_ ? player_->publicId : ""}});
            // After the rate_limited errors already queued: a client learns why.
            closeNow(websocket::close_code::policy_error, "flood", true);
        } else {
            fail(ErrorCode::RateLimited, "too many messages; this one was ignored", id);
        }
        return false;
    }

    void handle(const std::string& text) {
        if (text.size() > protocol::kMaxFrame) {
            if (allow(nullptr)) fail(ErrorCode::TooLarge, "frames are limited to 4096 bytes");
            return;
        }
        auto parsed = protocol::parseClientMessage(text);
        if (!allow(std::holds_alternative<protocol::ClientMessage>(parsed)
                       ? std::get<protocol::ClientMessage>(parsed).id
                       : std::get<protocol::Failure>(parsed).id))
            return;
        if (auto* f = std::get_if<protocol::Failure>(&parsed))
            return fail(f->code, f->message, f->id, f->game);
        const auto& m = std::get<protocol::ClientMessage>(parsed);
        if (!player_ && m.type != MsgType::Hello && m.type != MsgType::Login)
            return fail(ErrorCode::NotAuthenticated, "say hello first", m.id, m.game);
        // A new guest is stored only once it does something that needs a row (Hub::hello), on
        // the writer thread.
        if (player_ && !player_->id && Hub::needsStoredPlayer(m.type)) {
            using Stored = std::pair<std::optional<Hub::Refusal>, store::PlayerRow>;
            return viaStore(
                true,
                [&hub = hub_, p = *player_, hash = tokenHash_, ip = ip_]() mutable {
                    auto no = hub.storeGuest(p, hash, ip);
                    return Stored{std::move(no), std::move(p)};
                },
                [this, m](const Stored& r) {
                    if (r.first) return fail(r.first->code, r.first->message, m.id, m.game);
                    if (!player_) return;
                    player_ = r.second;
                    route(m);
                });
        }
        route(m);
    }

    // A message from an identified sender (a hello or login aside), stored if it needs to be.
    void route(const protocol::ClientMessage& m) {
        auto self = shared_from_this();
        switch (m.type) {
            case MsgType::Hello: {
                if (player_) return fail(ErrorCode::BadMessage, "hello was already said", m.id);
                // Read off the network threads; on the writer thread when it may rename the
                // player (a token and a name).
                const bool renames = !m.token.empty() && !m.name.empty();
                using Welcome = std::pair<Hub::Identity, std::string>;
                return viaStore(
                    renames,
                    [&hub = hub_, token = m.token, name = m.name]() -> Result<Welcome> {
                        auto who = hub.hello(token, name);
                        if (!who) return who.error();
                        auto text = hub.welcome(*who);
                        if (!text) return text.error();
                        return Welcome{std::move(*who), std::move(*text)};
                    },
                    [this, id = m.id](Result<Welcome>& r) {
                        // A store failure answers `internal` and changes nothing: the client
                        // keeps its token and says hello again (never a new guest in place of
                        // the player).
                        if (!r) {
                            logEvent("store_error", {{"message", r.error().message}});
                            return fail(
                                ErrorCode::Internal,
                                "the server could not read or store your identity; say hello again",
                                id);
                        }
                        if (player_)
                            return fail(ErrorCode::BadMessage, "hello was already said", id);
                        player_ = r->first.player;
                        token_ = r->first.token;
                        tokenHash_ = hashToken(token_);
                        timer_.cancel();
                        reply(std::move(r->second));
                    });
            }
            case MsgType::Register:
            case MsgType::Login: {
                if (authBusy_)
                    return fail(ErrorCode::RateLimited, "a login or registration is under way",
                                m.id);
                if (m.type == MsgType::Register && player_->kind == "account")
                    return fail(ErrorCode::AlreadyRegistered,
                                "you already have an account; log out to register another", m.id);
                authBusy_ = true;
                // Called on the hub's password thread: back to this session's strand.
                auto done = [self, id = m.id, type = m.type](Hub::AuthReply r) {
                    asio::post(self->ws_.get_executor(),
                               [self, id, type, r = std::move(r)] { self->authDone(type, id, r); });
                };
                if (m.type == MsgType::Register)
                    hub_.registerAccount(*player_, tokenHash_, ip_, m.username, m.password, m.bot,
                                         std::move(done));
                else
                    hub_.login(ip_, m.username, m.password, std::move(done));
                return;
            }
            case MsgType::Logout:
                return viaStore(
                    true, [&hub = hub_, token = token_] { return hub.logout(token); },
                    [this, id = m.id](const std::optional<Error>& e) {
                        if (e) {
                            logEvent("store_error", {{"message", e->message}});
                            return fail(ErrorCode::Internal, "the logout could not be stored", id);
                        }
                        if (!player_) return reply(protocol::renderAck(id));
                        logEvent("logout", {{"player", player_->publicId}});
                        dropIdentity();
                        awaitHello();
                        reply(protocol::renderAck(id));
                    });
            case MsgType::Create: {
                if (rooms_.size() >= kMaxGamesPerConnection)
                    return fail(ErrorCode::BadMessage,
                                "too many games on one connection; leave some", m.id);
                // The creator follows the game: tracked so that closing unsubscribes it. Stored
                // on the writer thread.
                return viaStore(
                    true, [&hub = hub_, self, p = *player_, m] { return hub.create(self, p, m); },
                    [this](const std::shared_ptr<GameRoom>& room) {
                        if (room) rooms_[room->id()] = room;
                    });
            }
            case MsgType::Rename: {
                // Seats already taken keep the name they were taken with; new games use this one.
                if (player_->kind == "account")
                    return fail(ErrorCode::BadMessage, "an account is named after its username",
                                m.id);
                return viaStore(
                    true,
                    [&hub = hub_, player = player_->id, name = m.name] {
                        return hub.store().renamePlayer(player, name);
                    },
                    [this, id = m.id, name = m.name](const std::optional<Error>& e) {
                        if (e) {
                            logEvent("store_error", {{"message", e->message}});
                            return fail(ErrorCode::Internal, "the name could not be stored", id);
                        }
                        if (!player_) return;
                        player_->name = name;
                        reply(
                            Json{{"type", "ack"}, {"id", id}, {"player", Hub::playerJson(*player_)}}
                                .dump());
                    });
            }
            case MsgType::Seek:  // may store a new game: on the writer thread
                return viaStore(
                    true,
                    [&hub = hub_, self, p = *player_, m] {
                        hub.seek(self, p, m);
                        return true;
                    },
                    [](bool) {});
            case MsgType::Unseek:
                hub_.unseek(this, player_->id);
                return reply(protocol::renderAck(m.id));
            case MsgType::LobbySubscribe:
                return hub_.subscribeLobby(self);
            case MsgType::LobbyUnsubscribe:
                return hub_.unsubscribeLobby(this);
            case MsgType::Ping:
                return reply(Json{{"type", "pong"}, {"id", m.id}}.dump());
            default:
                break;
        }
        std::shared_ptr<GameRoom> room;
        if (auto it = rooms_.find(m.game); it != rooms_.end() && !it->second->broken())
            room = it->second;
        else if (rooms_.size() >= kMaxGamesPerConnection)
            return fail(ErrorCode::BadMessage, "too many games on one connection; leave some", m.id,
                        m.game);
        else if (!(room = hub_.loaded(m.game)))
            // Read and replayed on a reader thread (Hub::open takes no lock meanwhile).
            return viaStore(
                false, [&hub = hub_, id = m.game] { return hub.open(id); },
                [this, m](const Result<std::shared_ptr<GameRoom>>& opened) {
                    if (!opened)
                        return fail(ErrorCode::Internal, "the game could not be read; try again",
                                    m.id, m.game);
                    toRoom(*opened, m);
                });
        toRoom(room, m);
    }

    // A game message, for `room` (null: no game has its id).
    void toRoom(const std::shared_ptr<GameRoom>& room, const protocol::ClientMessage& m) {
        if (!room) return fail(ErrorCode::UnknownGame, "no game has this id", m.id, m.game);
        if (!player_) return fail(ErrorCode::NotAuthenticated, "say hello first", m.id, m.game);
        if (m.type == MsgType::Leave)
            rooms_.erase(m.game);
        else
            rooms_[m.game] = room;
        room->run(
            [self = shared_from_this(), p = *player_, m](GameRoom& r) { r.handle(self, p, m); });
    }

    void authDone(MsgType type, const Json& id, const Hub::AuthReply& r) {
        authBusy_ = false;
        if (closing_ || finished_) return;
        if (!r.identity) {
            if (r.guest && player_ && !player_->id) player_ = *r.guest;  // stored meanwhile
            if (!player_) awaitHello();  // a failed login: the hello timeout starts again
            return fail(r.code, r.message, id);
        }
        if (type == MsgType::Register) {
            player_ = r.identity->player;
            Json j{{"type", "ack"}, {"id", id}, {"player", Hub::playerJson(*player_)}};
            return reply(j.dump());
        }
        // A login replaces the connection's identity: what it followed as the old player is
        // dropped; the client follows its games again after the welcome.
        auto text = hub_.welcome(*r.identity, id);
        if (!text) {
            logEvent("store_error", {{"message", text.error().message}});
            return fail(ErrorCode::Internal, "the login could not be completed; try again", id);
        }
        dropIdentity();
        player_ = r.identity->player;
        token_ = r.identity->token;
        tokenHash_ = hashToken(token_);
        timer_.cancel();
        reply(std::move(*text));
    }

    // Unsubscribes from every game and the lobby, withdraws its seek and forgets the player.
    void dropIdentity() {
        for (auto& [gid, room] : rooms_)
            room->run([key = this](GameRoom& r) { r.unsubscribe(key); });
        rooms_.clear();
        hub_.unsubscribeLobby(this);
        hub_.unseek(this, 0);  // a seek must not pair the identity just left
        player_.reset();
        token_.clear();
        tokenHash_.clear();
    }

    void enqueue(std::shared_ptr<const std::string> m) {
        if (closing_ || finished_) return;
        if (queuedBytes_ + m->size() > kMaxQueueBytes) {
            ++hub_.metrics().slowConsumersClosed;
            logEvent("slow_consumer", {{"player", player_ ? player_->publicId : ""},
                                       {"queued_bytes", queuedBytes_}});
            return closeNow(websocket::close_code::try_again_later, "too slow", false);
        }
        ++hub_.metrics().messagesOut;
        queuedBytes_ += m->size();
        queue_.push_back(std::move(m));
        if (queue_.size() == 1) doWrite();
    }

    void doWrite() {
        ws_.text(true);
        ws_.async_write(asio::buffer(*queue_.front()),
                        beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
    }

    void onWrite(beast::error_code ec, std::size_t) {
        if (ec) {
            queue_.clear();
            queuedBytes_ = 0;
            return;
        }
        queuedBytes_ -= queue_.front()->size();
        queue_.pop_front();
        if (!queue_.empty()) return doWrite();
        if (closeAfterQueue_) sendClose();
    }

    // Stops reading and queueing, and closes with a close frame: after what is queued when
    // `drain` (a client learns why it is closed), else at once (what is not being written yet
    // is dropped). A peer that does not take the close within kCloseGrace loses the socket.
    void closeNow(websocket::close_code code, const char* reason, bool drain) {
        if (closing_ || finished_) return;
        closing_ = true;
        closeReason_ = websocket::close_reason(code, reason);
        if (!drain)
            while (queue_.size() > 1) {  // the front one is being written
                queuedBytes_ -= queue_.back()->size();
                queue_.pop_back();
            }
        timer_.expires_after(kCloseGrace);
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->finished_) return;
            beast::error_code ignored;
            beast::get_lowest_layer(self->ws_).socket().close(ignored);
        });
        if (drain && !queue_.empty())
            closeAfterQueue_ = true;
        else
            sendClose();
    }

    void sendClose() {
        closeAfterQueue_ = false;
        ws_.async_close(closeReason_,
                        [self = shared_from_this()](beast::error_code) { self->finish(); });
    }

    // The connection is gone: unsubscribe everywhere, once.
    void finish() {
        if (finished_) return;
        finished_ = true;
        timer_.cancel();
        queue_.clear();
        queuedBytes_ = 0;
        for (auto& [id, room] : rooms_)
            room->run([key = this](GameRoom& r) { r.unsubscribe(key); });
        rooms_.clear();
        hub_.unsubscribeLobby(this);
        hub_.unseek(this, 0);
        if (counted_) --hub_.metrics().connections;
        std::lock_guard lock(registry_.mu);
        registry_.sessions.erase(this);
    }

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buf_;
    Hub& hub_;
    Registry& registry_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    std::size_t queuedBytes_ = 0;  // of the messages in queue_
    bool closeAfterQueue_ = false;
    websocket::close_reason closeReason_;
    std::optional<store::PlayerRow> player_;  // id 0: a guest not stored yet
    std::string token_;                       // the token player_ was identified by (for logout)
    std::string tokenHash_;                   // its hash, with which a new guest is stored
    std::string ip_;  // the client's address (admission.h), a key of the throttles
    std::unique_ptr<Admission::Ticket> ticket_;  // its place under the connection caps
    asio::steady_timer timer_;                   // the hello timeout, then the close grace
    bool authBusy_ = false;
    bool waiting_ = false;  // for a store job (viaStore): the next message is read after it
    std::unordered_map<std::string, std::shared_ptr<GameRoom>> rooms_;
    double tokens_ = 2.0 * hub_.config().ratePerSecond;
    std::chrono::steady_clock::time_point last_;
    int refused_ = 0;
    bool closing_ = false, finished_ = false, counted_ = false;
};

void startWsSession(tcp::socket&& socket, Hub& hub, Registry& registry, std::string address,
                    std::unique_ptr<Admission::Ticket> ticket,
                    http::request<http::string_body> req) {
    std::make_shared<WsSession>(std::move(socket), hub, registry, std::move(address),
                                std::move(ticket))
        ->run(std::move(req));
}

void closeWsSessions(Registry& registry) {
    std::lock_guard lock(registry.mu);
    for (auto& [key, weak] : registry.sessions)
        if (auto s = weak.lock())
            s->close(websocket::close_code::going_away, "server shutting down");
}

}  // namespace rainet::server

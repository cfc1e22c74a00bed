// The network side of `rainet serve`: a listener, HTTP sessions (static files, archive API,
// health, metrics) and WebSocket sessions (the protocol of docs/protocol.md). Modelled on Beast's
// advanced server example: every session lives on its own strand and keeps itself alive with
// shared_from_this(); each WebSocket session has one bounded write queue.
#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <iostream>
#include <thread>

#include "server/admission.h"
#include "server/analysis.h"
#include "server/archive.h"
#include "server/config.h"
#include "server/game_room.h"
#include "server/hex_digit.h"
#include "server/hub.h"
#include "server/log.h"
#include "server/static_files.h"

namespace rainet::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
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
constexpr std::size_t kMaxTargetBytes = 4096;        // an HTTP request target (else 414)
constexpr std::size_t kMaxHeaderBytes = 16384;       // an HTTP header block (else 431)

class WsSession;

// What the network side shares: the sessions alive (for shutdown), the connection caps and the
// trusted proxies.
struct Registry {
    explicit Registry(const Config& c) : admission(c.maxConnections, c.maxPerAddress) {
        for (const auto& t : c.trustProxy) trusted.push_back(*Cidr::parse(t));  // checked by serve
    }
    std::mutex mu;
    std::unordered_map<WsSession*, std::weak_ptr<WsSession>> sessions;
    Admission admission;
    std::vector<Cidr> trusted;
    Analyses* analyses = nullptr;  // set by serve() for the life of the io_context's handlers
};

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
        // The connection's top: an exception fails this connection only (closed 1011), logged
        // once; the server and everyone else go on.
        try {
            if (hub_.takeTestThrow(Hub::TestThrow::Connection))
                throw std::runtime_error("test: thrown on demand in a connection");
            handle(text);
        } catch (const std::exception& e) {
            ++hub_.metrics().connectionsFailed;
            logEvent("connection_exception",
                     {{"player", player_ ? player_->publicId : ""}, {"message", e.what()}});
            closeNow(websocket::close_code::internal_error, "server error", false);
            return;
        }
        if (!closing_) doRead();
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
        // A new guest is stored only once it does something that needs a row (Hub::hello).
        if (player_ && !player_->id && Hub::needsStoredPlayer(m.type)) {
            if (auto no = hub_.storeGuest(*player_, tokenHash_, ip_))
                return fail(no->code, no->message, m.id, m.game);
        }
        auto self = shared_from_this();
        switch (m.type) {
            case MsgType::Hello: {
                if (player_) return fail(ErrorCode::BadMessage, "hello was already said", m.id);
                // A store failure answers `internal` and changes nothing: the client keeps its
                // token and says hello again (never a new guest in place of the player).
                auto who = hub_.hello(m.token, m.name);
                auto text = who ? hub_.welcome(*who) : Result<std::string>(who.error());
                if (!text) {
                    logEvent("store_error", {{"message", text.error().message}});
                    return fail(ErrorCode::Internal,
                                "the server could not read or store your identity; say hello again",
                                m.id);
                }
                player_ = who->player;
                token_ = who->token;
                tokenHash_ = hashToken(token_);
                timer_.cancel();
                return reply(std::move(*text));
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
            case MsgType::Logout: {
                if (auto e = hub_.logout(token_)) {
                    logEvent("store_error", {{"message", e->message}});
                    return fail(ErrorCode::Internal, "the logout could not be stored", m.id);
                }
                logEvent("logout", {{"player", player_->publicId}});
                dropIdentity();
                awaitHello();
                return reply(protocol::renderAck(m.id));
            }
            case MsgType::Create: {
                if (rooms_.size() >= kMaxGamesPerConnection)
                    return fail(ErrorCode::BadMessage,
                                "too many games on one connection; leave some", m.id);
                // The creator follows the game: tracked so that closing unsubscribes it.
                if (auto room = hub_.create(self, *player_, m)) rooms_[room->id()] = room;
                return;
            }
            case MsgType::Rename: {
                // Seats already taken keep the name they were taken with; new games use this one.
                if (player_->kind == "account")
                    return fail(ErrorCode::BadMessage, "an account is named after its username",
                                m.id);
                if (auto e = hub_.store().renamePlayer(player_->id, m.name)) {
                    logEvent("store_error", {{"message", e->message}});
                    return fail(ErrorCode::Internal, "the name could not be stored", m.id);
                }
                player_->name = m.name;
                return reply(
                    Json{{"type", "ack"}, {"id", m.id}, {"player", Hub::playerJson(*player_)}}
                        .dump());
            }
            case MsgType::Seek:
                return hub_.seek(self, *player_, m);
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
        else if (auto opened = hub_.open(m.game))
            room = *opened;
        else
            return fail(ErrorCode::Internal, "the game could not be read; try again", m.id, m.game);
        if (!room) return fail(ErrorCode::UnknownGame, "no game has this id", m.id, m.game);
        if (m.type == MsgType::Leave)
            rooms_.erase(m.game);
        else
            rooms_[m.game] = room;
        room->run([self, p = *player_, m](GameRoom& r) { r.handle(self, p, m); });
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
    std::unordered_map<std::string, std::shared_ptr<GameRoom>> rooms_;
    double tokens_ = 2.0 * hub_.config().ratePerSecond;
    std::chrono::steady_clock::time_point last_;
    int refused_ = 0;
    bool closing_ = false, finished_ = false, counted_ = false;
};

std::string percentDecode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hexDigit(s[i + 1]) >= 0 && hexDigit(s[i + 2]) >= 0) {
            out += static_cast<char>(hexDigit(s[i + 1]) * 16 + hexDigit(s[i + 2]));
            i += 2;
        } else {
            out += s[i] == '+' ? ' ' : s[i];
        }
    }
    return out;
}

std::string queryParam(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        std::string_view kv = query.substr(0, amp);
        const auto eq = kv.find('=');
        if (kv.substr(0, eq) == key) return eq == kv.npos ? "" : percentDecode(kv.substr(eq + 1));
        if (amp == query.npos) break;
        query.remove_prefix(amp + 1);
    }
    return {};
}

int intParam(std::string_view query, std::string_view key, int fallback, int lo, int hi) {
    const std::string v = queryParam(query, key);
    if (v.empty() || v.size() > 9) return fallback;
    for (char c : v)
        if (!std::isdigit(static_cast<unsigned char>(c))) return fallback;
    return std::clamp(std::stoi(v), lo, hi);
}

const char* mimeType(const std::string& path) {
    const auto dot = path.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : path.substr(dot);
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".json" || ext == ".map") return "application/json";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".woff2") return "font/woff2";
    if (ext == ".wasm") return "application/wasm";
    return "application/octet-stream";
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(tcp::socket&& socket, Hub& hub, Registry& registry)
        : stream_(std::move(socket)), hub_(hub), registry_(registry) {}
    void run() {
        asio::dispatch(stream_.get_executor(),
                       beast::bind_front_handler(&HttpSession::doRead, shared_from_this()));
    }

  private:
    void doRead() {
        parser_.emplace();
        parser_->body_limit(8192);
        parser_->header_limit(kMaxHeaderBytes);
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buf_, *parser_,
                         beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec == http::error::end_of_stream) {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        if (ec == http::error::header_limit) return refuseOversized();
        if (ec) return;
        auto req = parser_->release();
        const std::string target(req.target());
        if (target.size() > kMaxTargetBytes) {
            req.keep_alive(false);
            return respond(req, http::status::uri_too_long, "text/plain", "target too long\n");
        }
        const std::string path = target.substr(0, target.find('?'));
        if (websocket::is_upgrade(req)) {
            if (path != "/ws")
                return respond(req, http::status::not_found, "text/plain", "not found\n");
            return upgrade(std::move(req));
        }
        ++hub_.metrics().httpRequests;
        // The request's top: an exception answers this request 500, logged once.
        try {
            handle(
                req, path,
                target.find('?') == std::string::npos ? "" : target.substr(target.find('?') + 1));
        } catch (const std::exception& e) {
            ++hub_.metrics().requestsFailed;
            logEvent("http_exception", {{"path", path}, {"message", e.what()}});
            respond(req, http::status::internal_server_error, "application/json",
                    R"({"error":"internal"})");
        }
    }

    // Under the connection caps, or 503 with Retry-After (docs/protocol.md section 1).
    void upgrade(http::request<http::string_body> req) {
        beast::error_code e;
        const auto peer = stream_.socket().remote_endpoint(e);
        if (e) return;
        std::string forwarded;  // every X-Forwarded-For header, in order, as one list
        for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it)
            forwarded += (forwarded.empty() ? "" : ",") + std::string(it->value());
        const std::string address = clientAddress(peer.address(), forwarded, registry_.trusted);
        auto ticket = registry_.admission.admit(address);
        if (!ticket) {
            ++hub_.metrics().connectionsRefused;
            logEvent("connection_refused", {{"address", address}});
            auto res = std::make_shared<http::response<http::string_body>>(
                http::status::service_unavailable, req.version());
            res->set(http::field::server, "rainet");
            res->set(http::field::content_type, "text/plain");
            res->set(http::field::retry_after, "10");
            res->keep_alive(false);
            res->body() = "too many connections; try again later\n";
            res->prepare_payload();
            return write(res);
        }
        stream_.expires_never();
        std::make_shared<WsSession>(stream_.release_socket(), hub_, registry_, address,
                                    std::move(ticket))
            ->run(std::move(req));
    }

    // The request line or the header block is over its limit: 414 or 431, then close. The
    // parser has stored the target once it has read the request line.
    void refuseOversized() {
        const auto seen = parser_->get().target();
        const bool target = seen.empty() || seen.size() > kMaxTargetBytes;
        auto res = std::make_shared<http::response<http::string_body>>(
            target ? http::status::uri_too_long : http::status::request_header_fields_too_large,
            11);
        res->set(http::field::server, "rainet");
        res->set(http::field::content_type, "text/plain");
        res->keep_alive(false);
        res->body() = target ? "target too long\n" : "header block too large\n";
        res->prepare_payload();
        write(res);
    }

    template <class Body>
    void write(std::shared_ptr<http::response<Body>> res) {
        http::async_write(stream_, *res,
                          [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
                              if (ec) return;
                              if (res->need_eof()) return self->lingeringClose();
                              self->doRead();
                          });
    }

    // After the last response: end our side, then read and discard what the client still sends
    // (a request refused before it was read whole) until it closes, for at most 2 s. Closing at
    // once with unread data would reset the connection, and the client could lose the response.
    void lingeringClose() {
        beast::error_code e;
        stream_.socket().shutdown(tcp::socket::shutdown_send, e);
        if (e) return;
        stream_.expires_after(std::chrono::seconds(2));
        discard();
    }
    void discard() {
        buf_.consume(buf_.size());
        stream_.async_read_some(buf_.prepare(4096),
                                [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                    if (!ec) self->discard();
                                });
    }

    void respond(const http::request<http::string_body>& req, http::status status, const char* type,
                 std::string body, const std::string& disposition = {}) {
        auto res = std::make_shared<http::response<http::string_body>>(status, req.version());
        res->set(http::field::server, "rainet");
        res->set(http::field::content_type, type);
        if (!disposition.empty()) res->set(http::field::content_disposition, disposition);
        res->set(http::field::cache_control, "no-store");
        res->keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res->body() = std::move(body);
        res->prepare_payload();
        write(res);
    }

    void handle(const http::request<http::string_body>& req, const std::string& path,
                const std::string& query) {
        const auto json = "application/json";
        if (req.method() == http::verb::post && path == "/api/test/advance" &&
            hub_.config().testMode) {
            hub_.advanceTime(intParam(query, "cs", 0, 0, 100000000));
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        // Test mode: the store fails on demand (?fail=1) or works again (?fail=0).
        if (req.method() == http::verb::post && path == "/api/test/store" &&
            hub_.config().testMode) {
            hub_.store().injectFaults(queryParam(query, "fail") == "1");
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        // Test mode: the next message handled in=connection|game|bot|http throws.
        if (req.method() == http::verb::post && path == "/api/test/throw" &&
            hub_.config().testMode) {
            const std::string in = queryParam(query, "in");
            const Hub::TestThrow where = in == "connection" ? Hub::TestThrow::Connection
                                         : in == "game"     ? Hub::TestThrow::Game
                                         : in == "bot"      ? Hub::TestThrow::Bot
                                         : in == "http"     ? Hub::TestThrow::Http
                                                            : Hub::TestThrow::None;
            hub_.armTestThrow(where);
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        // Test mode: no analysis starts while held (?hold=1) until released (?hold=0).
        if (req.method() == http::verb::post && path == "/api/test/analysis" &&
            hub_.config().testMode) {
            registry_.analyses->hold(queryParam(query, "hold") == "1");
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        if (hub_.takeTestThrow(Hub::TestThrow::Http))
            throw std::runtime_error("test: thrown on demand in an HTTP request");
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return respond(req, http::status::method_not_allowed, "text/plain",
                           "method not allowed\n");
        if (path == "/healthz") return respond(req, http::status::ok, "text/plain", "ok\n");
        if (path == "/metrics")
            return respond(req, http::status::ok, "text/plain; version=0.0.4",
                           hub_.metrics().render());
        if (path == "/api/games" || path == "/api/games/") {
            const std::string status = queryParam(query, "status");
            static const char* kStatuses[] = {"",         "open",    "setup", "playing",
                                              "finished", "aborted", "active"};
            bool ok = false;
            for (const char* s : kStatuses) ok |= status == s;
            if (!ok)
                return respond(req, http::status::bad_request, json, R"({"error":"bad_status"})");
            if (!firstPage(query)) return badPage(req);
            const std::string after = queryParam(query, "after");
            auto key = parseGameCursor(after);
            if (!after.empty() && !key) return badCursor(req);
            return answer(req, gameListJson(hub_.store(), queryParam(query, "player"), status, key,
                                            intParam(query, "per_page", 20, 1, 100)));
        }
        if (path.rfind("/api/games/", 0) == 0 && path.ends_with("/analysis"))
            return analysis(req, path.substr(11, path.size() - 11 - 9), query);
        if (path.rfind("/api/games/", 0) == 0 && path.ends_with("/record")) {
            const std::string id = path.substr(11, path.size() - 11 - 7);
            auto r = gameRecordText(hub_.store(), id);
            if (!r) return internal(req, r.error());
            if (!*r) return respond(req, http::status::not_found, json, R"({"error":"no_record"})");
            return respond(req, http::status::ok, "text/plain; charset=utf-8", std::move(**r),
                           "attachment; filename=\"rainet-" + id + ".txt\"");
        }
        if (path.rfind("/api/games/", 0) == 0) {
            auto r = gameRecordJson(hub_.store(), path.substr(11));
            if (!r) return internal(req, r.error());
            if (*r) return respond(req, http::status::ok, json, std::move(**r));
            return respond(req, http::status::not_found, json, R"({"error":"unknown_game"})");
        }
        if (path == "/api/leaderboard") {
            if (!firstPage(query)) return badPage(req);
            const std::string after = queryParam(query, "after");
            auto key = parseRankCursor(after);
            if (!after.empty() && !key) return badCursor(req);
            return answer(
                req, leaderboardJson(hub_.store(), key, intParam(query, "per_page", 20, 1, 100)));
        }
        if (path.rfind("/api/players/", 0) == 0) {
            auto r = playerProfileJson(hub_.store(), path.substr(13));
            if (!r) return internal(req, r.error());
            if (*r) return respond(req, http::status::ok, json, std::move(**r));
            return respond(req, http::status::not_found, json, R"({"error":"unknown_player"})");
        }
        if (path.rfind("/api/", 0) == 0)
            return respond(req, http::status::not_found, json, R"({"error":"not_found"})");
        serveStatic(req, path);
    }

    // GET /api/games/{id}/analysis?side=1|2 (server/analysis.h). Anything but a finished game
    // answers exactly as an unknown game: a game in play is never analysed, and the answer does
    // not tell which games exist unfinished. The network thread only reads the record; the
    // analysis runs on the analysis thread and its answer is posted back to this session.
    void analysis(const http::request<http::string_body>& req, const std::string& id,
                  const std::string& query) {
        const auto json = "application/json";
        const std::string sideText = queryParam(query, "side");
        if (sideText != "1" && sideText != "2")
            return respond(req, http::status::bad_request, json,
                           R"({"error":"bad_side","message":"side=1 or side=2"})");
        const Side side = sideText == "1" ? Side::One : Side::Two;
        Analyses& analyses = *registry_.analyses;
        if (auto hit = analyses.cached(id, side)) return respond(req, http::status::ok, json, *hit);
        auto found = hub_.store().loadGame(id);
        if (!found) return internal(req, found.error());
        const auto unknown = [&] {
            respond(req, http::status::not_found, json, R"({"error":"unknown_game"})");
        };
        if (!*found) return unknown();
        const store::GameData& d = **found;
        if (d.game.status != "finished" || d.setup[0] < 0 || d.setup[1] < 0) return unknown();
        auto start = Position::fromSetups(static_cast<std::uint8_t>(d.setup[0]),
                                          static_cast<std::uint8_t>(d.setup[1]),
                                          Rules::byName(d.game.preset).value_or(Rules::standard()));
        if (!start) return unknown();
        Analyses::Job job{id, side, *start, {}};
        for (const auto& row : d.actions) {
            auto a = parseAction(row.action);
            if (!a) break;
            job.actions.push_back(*a);
        }
        auto r = std::make_shared<http::request<http::string_body>>(req);
        stream_.expires_never();  // no read is pending while the analysis runs
        const bool queued =
            analyses.request(std::move(job), [self = shared_from_this(), r](auto body) {
                asio::post(self->stream_.get_executor(), [self, r, body] {
                    self->stream_.expires_after(std::chrono::seconds(30));
                    if (!body) return self->busy(*r);  // dropped: the server is stopping
                    self->respond(*r, http::status::ok, "application/json", *body);
                });
            });
        if (!queued) busy(req);
    }
    // Too many analyses waiting: 503, try again later.
    void busy(const http::request<http::string_body>& req) {
        auto res = std::make_shared<http::response<http::string_body>>(
            http::status::service_unavailable, req.version());
        res->set(http::field::server, "rainet");
        res->set(http::field::content_type, "application/json");
        res->set(http::field::cache_control, "no-store");
        res->set(http::field::retry_after, "5");
        res->keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res->body() = R"({"error":"busy"})";
        res->prepare_payload();
        write(res);
    }

    // The store failed: 500, logged, nothing said about what is stored.
    void internal(const http::request<http::string_body>& req, const Error& e) {
        logEvent("store_error", {{"message", e.message}});
        respond(req, http::status::internal_server_error, "application/json",
                R"({"error":"internal"})");
    }
    void answer(const http::request<http::string_body>& req, Result<std::string> r) {
        if (!r) return internal(req, r.error());
        respond(req, http::status::ok, "application/json", std::move(*r));
    }
    // Listings are paged by cursor (`after`); `page` is accepted as 1 only (the first page), so
    // that links made before cursors keep working and no page is read by skipping rows.
    static bool firstPage(const std::string& query) {
        const std::string page = queryParam(query, "page");
        return page.empty() || page == "1";
    }
    void badPage(const http::request<http::string_body>& req) {
        respond(
            req, http::status::bad_request, "application/json",
            R"({"error":"use_after","message":"pages after the first are asked for with after=<next>"})");
    }
    void badCursor(const http::request<http::string_body>& req) {
        respond(req, http::status::bad_request, "application/json", R"({"error":"bad_cursor"})");
    }

    void serveStatic(const http::request<http::string_body>& req, const std::string& path) {
        // One answer for every refusal and every missing file: a 404 tells nothing about what
        // exists outside the root (static_files.h).
        const auto file = resolveStaticFile(hub_.config().web, path);
        if (!file) return respond(req, http::status::not_found, "text/plain", "not found\n");
        http::file_body::value_type body;
        beast::error_code bec;
        body.open(file->c_str(), beast::file_mode::scan, bec);
        if (bec) return respond(req, http::status::not_found, "text/plain", "not found\n");
        const auto size = body.size();
        auto res = std::make_shared<http::response<http::file_body>>(
            std::piecewise_construct, std::make_tuple(std::move(body)),
            std::make_tuple(http::status::ok, req.version()));
        res->set(http::field::server, "rainet");
        res->set(http::field::content_type, mimeType(file->string()));
        res->content_length(size);
        res->keep_alive(req.keep_alive());
        if (req.method() == http::verb::head) {
            auto head =
                std::make_shared<http::response<http::empty_body>>(http::status::ok, req.version());
            head->set(http::field::content_type, mimeType(file->string()));
            head->content_length(size);
            head->keep_alive(req.keep_alive());
            return write(head);
        }
        write(res);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buf_;
    std::optional<http::request_parser<http::string_body>> parser_;
    Hub& hub_;
    Registry& registry_;
};

// Accepts connections. When accepting fails (out of descriptors: EMFILE, ENFILE; or anything
// else) it waits before trying again, doubling the wait from 50 ms up to 1 s, instead of
// spinning on an error that a retry at once would only repeat; pending connections wait in the
// kernel's backlog meanwhile.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(asio::io_context& io, tcp::acceptor& acceptor, Hub& hub, Registry& registry)
        : io_(io), acceptor_(acceptor), hub_(hub), registry_(registry), backoff_(io) {}
    void run() { doAccept(); }
    void stop() { backoff_.cancel(); }

  private:
    static constexpr auto kFirstBackoff = std::chrono::milliseconds(50);
    static constexpr auto kMaxBackoff = std::chrono::milliseconds(1000);

    void doAccept() {
        acceptor_.async_accept(asio::make_strand(io_),
                               beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
    }
    void onAccept(beast::error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
        if (ec) {
            wait_ = wait_.count() ? std::min(2 * wait_, kMaxBackoff) : kFirstBackoff;
            ++hub_.metrics().acceptBackoffs;
            logEvent("accept_backoff", {{"error", ec.message()}, {"wait_ms", wait_.count()}});
            backoff_.expires_after(wait_);
            backoff_.async_wait([self = shared_from_this()](beast::error_code e) {
                if (!e && self->acceptor_.is_open()) self->doAccept();
            });
            return;
        }
        wait_ = {};
        socket.set_option(tcp::no_delay(true), ec);  // small frames: no Nagle delay
        std::make_shared<HttpSession>(std::move(socket), hub_, registry_)->run();
        doAccept();
    }
    std::chrono::milliseconds wait_{0};
    asio::io_context& io_;
    tcp::acceptor& acceptor_;
    Hub& hub_;
    Registry& registry_;
    asio::steady_timer backoff_;
};

}  // namespace

int serve(const Config& config) {
    const auto colon = config.listen.rfind(':');
    if (colon == std::string::npos) {
        std::cerr << "rainet serve: --listen must be HOST:PORT\n";
        return 2;
    }
    beast::error_code ec;
    const auto address = asio::ip::make_address(config.listen.substr(0, colon), ec);
    if (ec) {
        std::cerr << "rainet serve: bad address " << config.listen << "\n";
        return 2;
    }
    const int port = std::atoi(config.listen.c_str() + colon + 1);
    if (auto exposed = databaseExposure(config.db, config.web)) {
        std::cerr << "rainet serve: " << *exposed << "\n";
        return 2;
    }
    for (const auto& t : config.trustProxy)
        if (!Cidr::parse(t)) {
            std::cerr << "rainet serve: --trust-proxy: not an address range: " << t << "\n";
            return 2;
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
        // Destroyed before the hub, while the io_context exists (its answers post to sessions).
        Analyses analyses(config.analysisNodes);
        registry.analyses = &analyses;
        tcp::acceptor acceptor(io);
        const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
        acceptor.open(endpoint.protocol(), ec);
        if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec) acceptor.bind(endpoint, ec);
        if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) {
            std::cerr << "rainet serve: cannot listen on " << config.listen << ": " << ec.message()
                      << "\n";
            return 1;
        }
        if (auto e = hub.loadUnfinished()) {
            std::cerr << "rainet serve: the games could not be loaded: " << e->message << "\n";
            return 1;
        }
        if (!resolveStaticFile(config.web, "/"))
            logEvent("warning", {{"message", "the web client is not built: no index.html in --web"},
                                 {"web", config.web}});
        auto listener = std::make_shared<Listener>(io, acceptor, hub, registry);
        listener->run();
        logEvent("listening", {{"address", config.listen},
                               {"port", acceptor.local_endpoint().port()},
                               {"db", store::redactTarget(config.db)},
                               {"sync", config.sync},
                               {"web", config.web},
                               {"test_mode", config.testMode}});

        asio::signal_set signals(io, SIGINT, SIGTERM);
        asio::steady_timer deadline(io);
        std::function<void()> poll;
        signals.async_wait([&](const beast::error_code& e, int sig) {
            if (e) return;
            logEvent("shutdown", {{"signal", sig}});
            beast::error_code ignored;
            acceptor.close(ignored);
            listener->stop();
            hub.stop();  // drops queued password work
            for (auto& r : hub.rooms()) r->run([](GameRoom& room) { room.stop(); });
            {
                std::lock_guard lock(registry.mu);
                for (auto& [key, weak] : registry.sessions)
                    if (auto s = weak.lock())
                        s->close(websocket::close_code::going_away, "server shutting down");
            }
            // Stop once every socket is closed (close handshakes done), or after 2 s.
            const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(2);
            poll = [&, giveUp] {
                bool empty;
                {
                    std::lock_guard lock(registry.mu);
                    empty = registry.sessions.empty();
                }
                if (empty || std::chrono::steady_clock::now() > giveUp) return io.stop();
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
        // Commits still queued are made (and their callbacks posted) while the executors exist.
        store->stopWriter();
        logEvent("stopped");
    }
    return status;
}

}  // namespace rainet::server

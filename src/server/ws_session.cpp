// A WebSocket session's transport: accept, read, the bounded write queue, the rate limit, close.
#include "server/ws_session.h"

#include <utility>

#include "server/game_room.h"
#include "server/tournaments.h"
#include "store/log.h"

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

}  // namespace

WsSession::Socket WsSession::onStrand(tcp::socket&& socket) {
    const auto* strand = socket.get_executor().target<Strand>();
    if (!strand) throw std::logic_error("a WebSocket session's socket must be on a strand");
    const auto protocol = socket.local_endpoint().protocol();
    return Socket(*strand, protocol, socket.release());
}

void WsSession::send(std::shared_ptr<const std::string> message) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), m = std::move(message)]() mutable {
        self->enqueue(std::move(m));
    });
}

void WsSession::send(std::shared_ptr<const std::string> first,
                     std::shared_ptr<const std::string> second) {
    asio::post(ws_.get_executor(),
               [self = shared_from_this(), a = std::move(first), b = std::move(second)]() mutable {
                   // Both queued before writing: they leave together (doWrite corks the first).
                   const bool idle = self->queue_.empty();
                   if (self->push(std::move(a)) && self->push(std::move(b)) && idle)
                       self->doWrite();
               });
}

void WsSession::close(websocket::close_code code, const char* reason) {
    asio::post(ws_.get_executor(),
               [self = shared_from_this(), code, reason] { self->closeNow(code, reason, false); });
}

void WsSession::onAccept(beast::error_code ec) {
    if (ec) return;
    ++hub_.metrics().connections;
    ++hub_.metrics().connectionsTotal;
    counted_ = true;
    {
        std::lock_guard lock(registry_.mu);
        registry_.sessions[this] = weak_from_this();
    }
    last_ = TimeSource::realMs();
    awaitHello();
    doRead();
}

void WsSession::awaitHello() {
    timer_.expires_after(std::chrono::seconds(hub_.config().helloTimeoutS));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (ec || self->player_ || self->authBusy_) return;
        logEvent("hello_timeout", {{"address", self->ip_}});
        self->closeNow(websocket::close_code::policy_error, "no hello", true);
    });
}

void WsSession::doRead() {
    ws_.async_read(buf_, beast::bind_front_handler(&WsSession::onRead, shared_from_this()));
}

void WsSession::onRead(beast::error_code ec, std::size_t) {
    if (ec) return finish();
    ++hub_.metrics().messagesIn;
    if (!ws_.got_text()) {
        buf_.consume(buf_.size());
        reply(protocol::renderError(ErrorCode::BadJson, "frames must be text"), ErrorCode::BadJson);
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

void WsSession::reply(std::string text, std::optional<ErrorCode> code) {
    if (code) hub_.metrics().error(*code);
    enqueue(std::make_shared<const std::string>(std::move(text)));
}

void WsSession::fail(ErrorCode code, const std::string& message, const Json& id,
                     const std::string& game) {
    reply(protocol::renderError(code, message, id, game), code);
}

bool WsSession::allow(const Json& id) {
    const std::int64_t now = TimeSource::realMs();
    const double rate = hub_.config().ratePerSecond;
    tokens_ = std::min(2 * rate, tokens_ + rate * static_cast<double>(now - last_) / 1000);
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

bool WsSession::push(std::shared_ptr<const std::string> m) {
    if (closing_ || finished_) return false;
    if (queuedBytes_ + m->size() > kMaxQueueBytes) {
        ++hub_.metrics().slowConsumersClosed;
        logEvent("slow_consumer",
                 {{"player", player_ ? player_->publicId : ""}, {"queued_bytes", queuedBytes_}});
        closeNow(websocket::close_code::try_again_later, "too slow", false);
        return false;
    }
    ++hub_.metrics().messagesOut;
    queuedBytes_ += m->size();
    queue_.push_back(std::move(m));
    return true;
}

void WsSession::enqueue(std::shared_ptr<const std::string> m) {
    if (push(std::move(m)) && queue_.size() == 1) doWrite();
}

void WsSession::doWrite() {
    // The last message queued is written uncorked: it carries the burst out. Whatever is queued
    // after this one was queued will have its own write.
    writeCorked_ = queue_.size() > 1;
    ws_.next_layer().cork(writeCorked_);
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()),
                    beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
}

void WsSession::onWrite(beast::error_code ec, std::size_t) {
    if (ec) {  // the stream dropped what was pending
        queue_.clear();
        queuedBytes_ = corkedBytes_ = 0;
        return;
    }
    // A corked message's bytes stay counted until a write carries them out.
    if (writeCorked_) {
        corkedBytes_ += queue_.front()->size();
    } else {
        queuedBytes_ -= queue_.front()->size() + corkedBytes_;
        corkedBytes_ = 0;
    }
    queue_.pop_front();
    if (!queue_.empty()) return doWrite();
    if (closeAfterQueue_) sendClose();
}

void WsSession::closeNow(websocket::close_code code, const char* reason, bool drain) {
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

void WsSession::sendClose() {
    closeAfterQueue_ = false;
    // The close frame carries out what was written corked (a dropped queue's first message).
    ws_.next_layer().cork(false);
    ws_.async_close(closeReason_,
                    [self = shared_from_this()](beast::error_code) { self->finish(); });
}

void WsSession::finish() {
    if (finished_) return;
    finished_ = true;
    timer_.cancel();
    queue_.clear();
    queuedBytes_ = corkedBytes_ = 0;
    for (auto& [id, room] : rooms_) room->run([key = this](GameRoom& r) { r.unsubscribe(key); });
    rooms_.clear();
    stopForwarding();
    hub_.unsubscribeLobby(this);
    hub_.tournaments().unwatch(this, "");
    hub_.unseek(this, 0);
    hub_.links().remove(linked_, this);
    linked_ = 0;
    if (counted_) --hub_.metrics().connections;
    std::lock_guard lock(registry_.mu);
    registry_.sessions.erase(this);
}

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

#pragma once
// A WebSocket session: one client's connection speaking docs/protocol.md. Its transport (the
// bounded write queue, the rate limit, closing) is in ws_session.cpp; what it does with each
// message (identity, accounts, games, lobby, seeks) in ws_routes.cpp.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/client.h"
#include "server/corked_stream.h"
#include "server/sessions.h"
#include "server/time_source.h"
#include "store/log.h"

namespace rainet::server {

class GameRoom;

class WsSession : public Client, public std::enable_shared_from_this<WsSession> {
  public:
    using Json = protocol::Json;
    using ErrorCode = protocol::ErrorCode;
    using MsgType = protocol::MsgType;
    using Client::send;
    WsSession(tcp::socket&& socket, Hub& hub, Registry& registry, std::string address,
              std::unique_ptr<Admission::Ticket> ticket)
        : ws_(onStrand(std::move(socket))),
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

    void send(std::shared_ptr<const std::string> message) override;
    void send(std::shared_ptr<const std::string> first,
              std::shared_ptr<const std::string> second) override;
    void closeToReconnect() override {
        close(websocket::close_code::service_restart, "game moved; reconnect");
    }

    // Shutdown: what is queued is dropped, the close frame goes out next.
    void close(websocket::close_code code, const char* reason);

  private:
    // The session's strand as a concrete type, not behind any_io_executor: every post, read and
    // write of the session goes through it, and the type-erased executor's dispatch cost ~5% of
    // the server's CPU in the closed loop (docs/performance.md).
    using Strand = asio::strand<asio::io_context::executor_type>;
    using Socket = asio::basic_stream_socket<tcp, Strand>;
    // The accepted socket (on its strand, listener.h) moved to the concrete executor type.
    static Socket onStrand(tcp::socket&& socket);

    void onAccept(beast::error_code ec);

    // A connection must identify itself (hello or login) within the hello timeout.
    void awaitHello();

    void doRead();

    void onRead(beast::error_code ec, std::size_t);

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

    void reply(std::string text, std::optional<ErrorCode> code = std::nullopt);
    void fail(ErrorCode code, const std::string& message, const Json& id = nullptr,
              const std::string& game = {});

    [[nodiscard]] bool allow(const Json& id);

    void handle(const std::string& text);

    // A message from an identified sender (a hello or login aside), stored if it needs to be.
    void route(const protocol::ClientMessage& m);

    // A game message, for `room` (null: no game has its id).
    void toRoom(const std::shared_ptr<GameRoom>& room, const protocol::ClientMessage& m);

    // A cluster: a message for a game another node owns, forwarded there (server/forwarding.h)
    // as the client sent it (raw_); what the owner sends back arrives through send().
    void forwardTo(const std::string& owner, const protocol::ClientMessage& m);
    // The owners this session forwarded to are told that it no longer follows their games.
    void stopForwarding();

    void authDone(MsgType type, const Json& id, const Hub::AuthReply& r);

    // Unsubscribes from every game and the lobby, withdraws its seek and forgets the player.
    void dropIdentity();
    // The connection is listed under its player (Hub::links) once the player is stored, so that
    // what concerns the player reaches it; called wherever player_ changes.
    void relink();

    // Queues `m` (false: the connection is closing instead); enqueue() also starts writing.
    bool push(std::shared_ptr<const std::string> m);
    void enqueue(std::shared_ptr<const std::string> m);

    // Writes the front message; corked while more follow, so that a burst leaves in one write.
    void doWrite();

    void onWrite(beast::error_code ec, std::size_t);

    // Stops reading and queueing, and closes with a close frame: after what is queued when
    // `drain` (a client learns why it is closed), else at once (what is not being written yet
    // is dropped). A peer that does not take the close within kCloseGrace loses the socket.
    void closeNow(websocket::close_code code, const char* reason, bool drain);

    void sendClose();

    // The connection is gone: unsubscribe everywhere, once.
    void finish();

    websocket::stream<CorkedStream<beast::basic_stream<tcp, Strand>>> ws_;
    beast::flat_buffer buf_;
    Hub& hub_;
    Registry& registry_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    // Of the messages in queue_ and of those written corked (corkedBytes_): these wait in the
    // stream's buffer until the write that carries them completes.
    std::size_t queuedBytes_ = 0;
    std::size_t corkedBytes_ = 0;
    bool writeCorked_ = false;  // the write in progress was made corked
    bool closeAfterQueue_ = false;
    websocket::close_reason closeReason_;
    std::optional<store::PlayerRow> player_;  // id 0: a guest not stored yet
    std::int64_t linked_ = 0;                 // the player this connection is listed under
    std::string token_;                       // the token player_ was identified by (for logout)
    std::string tokenHash_;                   // its hash, with which a new guest is stored
    std::string ip_;  // the client's address (admission.h), a key of the throttles
    std::unique_ptr<Admission::Ticket> ticket_;  // its place under the connection caps
    asio::steady_timer timer_;                   // the hello timeout, then the close grace
    bool authBusy_ = false;
    bool waiting_ = false;  // for a store job (viaStore): the next message is read after it
    std::unordered_map<std::string, std::shared_ptr<GameRoom>> rooms_;
    // A cluster: the games followed through their owner node (game -> node), the serial that
    // node knows this session by (0: none yet), the text of the message being handled.
    std::unordered_map<std::string, std::string> forwarded_;
    std::uint64_t serial_ = 0;
    std::string raw_;
    double tokens_ = 2.0 * hub_.config().ratePerSecond;
    std::int64_t last_ = 0;  // ms (TimeSource::realMs) when tokens_ was last topped up
    int refused_ = 0;
    bool closing_ = false, finished_ = false, counted_ = false;
};

}  // namespace rainet::server

#include "wsclient/client.h"

#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>

namespace rainet::wsclient {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
// The socket on the io_context's own executor type, not Beast's tcp_stream over the type-erased
// any_io_executor: every operation of that copies and destroys the erased executor and arms the
// stream's timer (about 5 % of `rainet loadtest`'s CPU). The connect timeout is a timer of its own;
// the handshake and idle timeouts are the WebSocket stream's.
using Socket = asio::basic_stream_socket<tcp, asio::io_context::executor_type>;

struct Client::Impl : std::enable_shared_from_this<Impl> {
    Impl(asio::io_context& io, Target t, Handlers h)
        : resolver(io),
          ws(io.get_executor()),
          connectTimer(io.get_executor()),
          target(std::move(t)),
          handlers(std::move(h)) {}

    tcp::resolver resolver;
    websocket::stream<Socket> ws;
    asio::basic_waitable_timer<std::chrono::steady_clock,
                               asio::wait_traits<std::chrono::steady_clock>,
                               asio::io_context::executor_type>
        connectTimer;
    beast::flat_buffer buf;
    std::string text;  // the message read, its capacity kept from one to the next
    std::deque<std::string> queue;
    Target target;
    Handlers handlers;
    bool open = false;
    bool connecting = false;  // the TCP connect is in flight: all the connect timer may abort
    bool stopped = false;     // closed by the owner or failed: no more callbacks
    bool timedOut = false;    // the connect timer fired first

    void fail(std::string why, int code = 0) {
        if (stopped) return;
        stopped = true;
        const bool wasOpen = open;
        open = false;
        beast::error_code ec;
        ws.next_layer().close(ec);
        connectTimer.cancel();
        if (handlers.onClose) handlers.onClose(Closed{std::move(why), code, wasOpen});
    }

    void connect() {
        const auto port = static_cast<unsigned short>(target.port);
        beast::error_code notAnAddress;
        const auto address = asio::ip::make_address(target.host, notAnAddress);
        if (!notAnAddress) return connectTo(std::vector<tcp::endpoint>{{address, port}});
        resolver.async_resolve(
            target.host, std::to_string(target.port),
            [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
                if (self->stopped) return;
                if (ec)
                    return self->fail("cannot resolve " + self->target.host + ": " + ec.message());
                self->connectTo(r);
            });
    }

    template <class Endpoints>
    void connectTo(const Endpoints& endpoints) {
        connectTimer.expires_after(target.connectTimeout);
        connecting = true;
        // The timer's handler can be queued already when the connect completes: `connecting`, not
        // `open` (false until the handshake ends), tells it whether there is a connect to abort.
        connectTimer.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (!ec && self->connecting && !self->stopped) {
                self->timedOut = true;
                beast::error_code ignored;
                self->ws.next_layer().close(ignored);  // the connect completes, aborted
            }
        });
        asio::async_connect(
            ws.next_layer(), endpoints,
            [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
                self->connecting = false;
                self->connectTimer.cancel();
                if (self->timedOut) ec = beast::error::timeout;
                self->onConnect(ec);
            });
    }

    void onConnect(beast::error_code ec) {
        if (stopped) return;
        if (ec) return fail("cannot connect: " + ec.message());
        ws.next_layer().set_option(tcp::no_delay(true), ec);
        websocket::stream_base::timeout t{};
        t.handshake_timeout = target.connectTimeout;
        t.idle_timeout =
            target.keepAlive ? std::chrono::seconds(20) : websocket::stream_base::none();
        t.keep_alive_pings = target.keepAlive;
        ws.set_option(t);
        if (!target.headers.empty())
            ws.set_option(websocket::stream_base::decorator(
                [headers = target.headers](websocket::request_type& r) {
                    for (const auto& [name, value] : headers) r.set(name, value);
                }));
        ws.async_handshake(target.host + ":" + std::to_string(target.port), target.path,
                           [self = shared_from_this()](beast::error_code hec) {
                               if (self->stopped) return;
                               if (hec) return self->fail("handshake failed: " + hec.message());
                               self->ws.text(true);
                               self->open = true;
                               if (self->handlers.onOpen) self->handlers.onOpen();
                               if (!self->stopped) self->read();
                           });
    }

    void read() {
        ws.async_read(buf, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (self->stopped) return;
            if (ec) {
                // The close frame's code, also when the socket failed after it came (the server
                // closes at once, so a frame still being written can end the read with a reset).
                const auto& reason = self->ws.reason();
                if (ec != websocket::error::closed) return self->fail(ec.message(), reason.code);
                return self->fail(
                    "closed by the server (" + std::string(reason.reason.c_str()) + ")",
                    reason.code);
            }
            const auto data = self->buf.data();
            self->text.assign(static_cast<const char*>(data.data()), data.size());
            self->buf.consume(self->buf.size());
            if (self->handlers.onMessage) self->handlers.onMessage(self->text);
            if (!self->stopped) self->read();
        });
    }

    void write() {
        ws.async_write(asio::buffer(queue.front()),
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                           if (self->stopped) return;
                           // The read loop reports the end, with the server's close frame
                           // when one came (a write can fail first on a closing socket).
                           if (ec) return self->queue.clear();
                           self->queue.pop_front();
                           if (!self->queue.empty()) self->write();
                       });
    }
};

Client::Client(asio::io_context& io, Target target, Handlers handlers)
    : impl_(std::make_shared<Impl>(io, std::move(target), std::move(handlers))) {}

Client::~Client() {
    close();
}

void Client::connect() {
    impl_->connect();
}

bool Client::send(std::string text) {
    if (!impl_->open || impl_->stopped || impl_->queue.size() >= impl_->target.maxQueue)
        return false;
    impl_->queue.push_back(std::move(text));
    if (impl_->queue.size() == 1) impl_->write();
    return true;
}

void Client::close() {
    if (impl_->stopped) return;
    impl_->stopped = true;
    impl_->open = false;
    impl_->resolver.cancel();
    beast::error_code ec;
    impl_->ws.next_layer().close(ec);
    impl_->connectTimer.cancel();
}

}  // namespace rainet::wsclient

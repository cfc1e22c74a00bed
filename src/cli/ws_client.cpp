#include "cli/ws_client.h"

#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>

namespace rainet::cli {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

struct WsClient::Impl : std::enable_shared_from_this<Impl> {
    Impl(asio::io_context& io, std::string host, int port, std::string path, Handlers h)
        : resolver(io),
          ws(io),
          host(std::move(host)),
          port(port),
          path(std::move(path)),
          handlers(std::move(h)) {}

    tcp::resolver resolver;
    websocket::stream<beast::tcp_stream> ws;
    beast::flat_buffer buf;
    std::deque<std::string> queue;
    std::string host;
    int port;
    std::string path;
    Handlers handlers;
    bool open = false;
    bool stopped = false;  // closed by the owner or failed: no more callbacks

    void fail(const std::string& why) {
        if (stopped) return;
        stopped = true;
        open = false;
        beast::error_code ec;
        beast::get_lowest_layer(ws).socket().close(ec);
        if (handlers.onClose) handlers.onClose(why);
    }

    void connect() {
        resolver.async_resolve(
            host, std::to_string(port),
            [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
                if (self->stopped) return;
                if (ec) return self->fail("cannot resolve " + self->host + ": " + ec.message());
                beast::get_lowest_layer(self->ws).expires_after(std::chrono::seconds(5));
                beast::get_lowest_layer(self->ws).async_connect(
                    r, [self](beast::error_code ec, const tcp::endpoint&) { self->onConnect(ec); });
            });
    }

    void onConnect(beast::error_code ec) {
        if (stopped) return;
        if (ec) return fail("cannot connect: " + ec.message());
        beast::get_lowest_layer(ws).socket().set_option(tcp::no_delay(true), ec);
        beast::get_lowest_layer(ws).expires_never();
        // Pings while idle, so that a server gone without closing is noticed.
        websocket::stream_base::timeout t{};
        t.handshake_timeout = std::chrono::seconds(5);
        t.idle_timeout = std::chrono::seconds(20);
        t.keep_alive_pings = true;
        ws.set_option(t);
        ws.async_handshake(host + ":" + std::to_string(port), path,
                           [self = shared_from_this()](beast::error_code ec) {
                               if (self->stopped) return;
                               if (ec) return self->fail("handshake failed: " + ec.message());
                               self->ws.text(true);
                               self->open = true;
                               if (self->handlers.onOpen) self->handlers.onOpen();
                               self->read();
                           });
    }

    void read() {
        ws.async_read(buf, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (self->stopped) return;
            if (ec) {
                std::string why = ec == websocket::error::closed
                                      ? "closed by the server (" +
                                            std::string(self->ws.reason().reason.c_str()) + ")"
                                      : ec.message();
                return self->fail(why);
            }
            std::string text = beast::buffers_to_string(self->buf.data());
            self->buf.consume(self->buf.size());
            if (self->handlers.onMessage) self->handlers.onMessage(text);
            if (!self->stopped) self->read();
        });
    }

    void write() {
        ws.async_write(asio::buffer(queue.front()),
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                           if (self->stopped) return;
                           if (ec) return self->fail("write failed: " + ec.message());
                           self->queue.pop_front();
                           if (!self->queue.empty()) self->write();
                       });
    }
};

WsClient::WsClient(asio::io_context& io, std::string host, int port, std::string path,
                   Handlers handlers)
    : impl_(std::make_shared<Impl>(io, std::move(host), port, std::move(path),
                                   std::move(handlers))) {}

WsClient::~WsClient() {
    close();
}

void WsClient::connect() {
    impl_->connect();
}

bool WsClient::send(std::string text) {
    if (!impl_->open || impl_->stopped || impl_->queue.size() >= kMaxQueue) return false;
    impl_->queue.push_back(std::move(text));
    if (impl_->queue.size() == 1) impl_->write();
    return true;
}

void WsClient::close() {
    if (impl_->stopped) return;
    impl_->stopped = true;
    impl_->open = false;
    impl_->resolver.cancel();
    beast::error_code ec;
    beast::get_lowest_layer(impl_->ws).socket().close(ec);
}

bool WsClient::isOpen() const {
    return impl_->open && !impl_->stopped;
}

}  // namespace rainet::cli

// The ceiling of the I/O stack under `rainet serve`: a bare Boost.Beast WebSocket echo server
// and a closed-loop driver, with nothing else (no JSON, no game, no store). Measured next to
// `rainet loadtest` in the same run (docs/performance.md):
//   ./build/bench/echo_server serve PORT THREADS        (the server, like rainet serve's threads)
//   ./build/bench/echo_server drive PORT CONNECTIONS SECONDS
// The driver keeps one message in flight per connection (a 120-byte text frame, about an `act`)
// and prints the round trips per second over the last SECONDS, after a one-second warm-up.
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

class EchoSession : public std::enable_shared_from_this<EchoSession> {
  public:
    explicit EchoSession(tcp::socket s) : ws_(std::move(s)) {}
    void run() {
        ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->read();
        });
    }

  private:
    void read() {
        ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return;
            self->ws_.text(true);
            self->ws_.async_write(self->buf_.data(), [self](beast::error_code e, std::size_t) {
                if (e) return;
                self->buf_.consume(self->buf_.size());
                self->read();
            });
        });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buf_;
};

void accept(tcp::acceptor& a, asio::io_context& io) {
    a.async_accept(asio::make_strand(io), [&a, &io](beast::error_code ec, tcp::socket s) {
        if (!ec) {
            s.set_option(tcp::no_delay(true));
            std::make_shared<EchoSession>(std::move(s))->run();
        }
        accept(a, io);
    });
}

int serve(unsigned short port, int threads) {
    asio::io_context io(threads);
    tcp::acceptor a(io, {asio::ip::make_address("127.0.0.1"), port});
    accept(a, io);
    std::vector<std::thread> ts;
    for (int i = 1; i < threads; ++i) ts.emplace_back([&] { io.run(); });
    io.run();
    for (auto& t : ts) t.join();
    return 0;
}

std::atomic<long> roundTrips{0};

class Driver : public std::enable_shared_from_this<Driver> {
  public:
    explicit Driver(asio::io_context& io) : ws_(asio::make_strand(io)) {}
    void start(unsigned short port) {
        beast::get_lowest_layer(ws_).socket().connect({asio::ip::make_address("127.0.0.1"), port});
        beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
        ws_.handshake("127.0.0.1", "/");
        send();
    }

  private:
    void send() {
        ws_.async_write(
            asio::buffer(message_), [self = shared_from_this()](beast::error_code ec, std::size_t) {
                if (ec) return;
                self->ws_.async_read(self->buf_, [self](beast::error_code e, std::size_t) {
                    if (e) return;
                    self->buf_.consume(self->buf_.size());
                    ++roundTrips;
                    self->send();
                });
            });
    }
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buf_;
    std::string message_ =
        R"({"type":"act","id":12345,"game":"g123456","action":"NF+d2e2:swap","v":17,"pad":")" +
        std::string(40, 'x') + "\"}";
};

int drive(unsigned short port, int connections, int seconds) {
    asio::io_context io(1);
    std::vector<std::shared_ptr<Driver>> drivers;
    for (int i = 0; i < connections; ++i) {
        drivers.push_back(std::make_shared<Driver>(io));
        drivers.back()->start(port);
    }
    std::thread t([&] { io.run(); });
    std::this_thread::sleep_for(std::chrono::seconds(1));  // warm-up
    const long before = roundTrips.load();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    const long n = roundTrips.load() - before;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("echo: %d connections, %.0f round trips/s\n", connections,
                static_cast<double>(n) / s);
    std::fflush(stdout);
    std::_Exit(0);
    t.join();
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "serve" && argc == 4)
        return serve(static_cast<unsigned short>(std::atoi(argv[2])), std::atoi(argv[3]));
    if (mode == "drive" && argc == 5)
        return drive(static_cast<unsigned short>(std::atoi(argv[2])), std::atoi(argv[3]),
                     std::atoi(argv[4]));
    std::fprintf(stderr,
                 "usage: echo_server serve PORT THREADS | drive PORT CONNECTIONS SECONDS\n");
    return 2;
}

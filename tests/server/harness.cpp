#include "harness.h"

#include <utility>

#include <sys/wait.h>
#include <unistd.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/postgres_test_db.h"

namespace rainet::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {
std::string binaryDir() {
    const char* d = std::getenv("RAINET_BINARY_DIR");
    return d ? d : RAINET_BINARY_DIR_DEFAULT;
}
}  // namespace

Backend defaultBackend() {
    const char* b = std::getenv("RAINET_TEST_SERVER_BACKEND");
    return b && std::string(b) == "postgres" ? Backend::Postgres : Backend::Sqlite;
}

ServerProcess::ServerProcess(std::string db, std::vector<std::string> extra, Backend backend)
    : db_(std::move(db)), extra_(std::move(extra)) {
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((db_ + ext).c_str());
    log_ = db_ + ".log";
    target_ = db_;
    if (backend == Backend::Postgres) {
        const std::string file = db_.substr(db_.rfind('/') + 1);
        pg_ = std::make_unique<PostgresTestDb>(file.substr(0, file.rfind('.')));
        if (pg_->uri().empty()) {
            ADD_FAILURE() << "no PostgreSQL database for the server: " << pg_->error();
            return;
        }
        target_ = pg_->uri();
    }
    start();
}

ServerProcess::~ServerProcess() {
    if (pid_ > 0) kill(SIGKILL);
    pg_.reset();
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((db_ + ext).c_str());
    std::remove(log_.c_str());
}

void ServerProcess::start() {
    std::remove(log_.c_str());
    std::vector<std::string> args = {
        binaryDir() + "/rainet", "serve",     "--listen", "127.0.0.1:0", "--db",   target_,
        "--test-mode",           "--threads", "2",        "--rate",      "100000", "--web",
        binaryDir() + "/no-web"};
    for (auto& e : extra_) args.push_back(e);
    pid_ = fork();
    if (pid_ == 0) {
        FILE* f = std::fopen(log_.c_str(), "w");
        if (f) dup2(fileno(f), 2);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    // Wait for the "listening" line and read the port from it.
    for (int i = 0; i < 500 && !port_; ++i) {
        std::this_thread::sleep_for(10ms);
        std::ifstream in(log_);
        std::string line;
        while (std::getline(in, line)) {
            auto j = Json::parse(line, nullptr, false);
            if (!j.is_discarded() && j["event"] == "listening") port_ = j["port"].get<int>();
        }
    }
    if (!port_) ADD_FAILURE() << "the server did not start:\n" << logText();
}

void ServerProcess::kill(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    port_ = 0;
}

std::string ServerProcess::logText() const {
    std::ifstream in(log_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::pair<int, std::string> ServerProcess::http(const std::string& method,
                                                const std::string& target) {
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port_)));
    http::request<http::string_body> req(http::string_to_verb(method), target, 11);
    req.set(http::field::host, "127.0.0.1");
    req.prepare_payload();
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    return {static_cast<int>(res.result_int()), res.body()};
}

struct WsClient::Impl {
    asio::io_context io;
    websocket::stream<beast::tcp_stream> ws{io};
    beast::flat_buffer buf;
    std::thread thread;
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> received;
    std::deque<std::shared_ptr<std::string>> queue;
    bool closed = false;
    int closeCode = 0;

    void read() {
        ws.async_read(buf, [this](beast::error_code ec, std::size_t) {
            std::lock_guard lock(mu);
            if (ec) {
                closed = true;
                closeCode = ws.reason().code;
                cv.notify_all();
                return;
            }
            received.push_back(beast::buffers_to_string(buf.data()));
            buf.consume(buf.size());
            cv.notify_all();
            read();
        });
    }
    void write() {
        ws.async_write(asio::buffer(*queue.front()), [this](beast::error_code ec, std::size_t) {
            queue.pop_front();
            if (!ec && !queue.empty()) write();
        });
    }
};

WsClient::WsClient(int port, const std::string& forwardedFor) : impl_(std::make_unique<Impl>()) {
    auto& ws = impl_->ws;
    beast::get_lowest_layer(ws).connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
    beast::get_lowest_layer(ws).socket().set_option(tcp::no_delay(true));
    if (!forwardedFor.empty())
        ws.set_option(websocket::stream_base::decorator([forwardedFor](websocket::request_type& r) {
            r.set("X-Forwarded-For", forwardedFor);
        }));
    ws.handshake("127.0.0.1", "/ws");
    ws.text(true);
    impl_->read();
    impl_->thread = std::thread([this] { impl_->io.run(); });
}

WsClient::~WsClient() {
    close();
}

void WsClient::close() {
    if (!impl_->thread.joinable()) return;
    asio::post(impl_->io, [this] {
        beast::error_code ec;
        beast::get_lowest_layer(impl_->ws).socket().shutdown(tcp::socket::shutdown_both, ec);
        beast::get_lowest_layer(impl_->ws).socket().close(ec);
    });
    impl_->thread.join();
}

void WsClient::send(const std::string& text) {
    asio::post(impl_->io, [this, m = std::make_shared<std::string>(text)] {
        impl_->queue.push_back(m);
        if (impl_->queue.size() == 1) impl_->write();
    });
}

std::optional<std::string> WsClient::next(std::chrono::milliseconds timeout) {
    std::unique_lock lock(impl_->mu);
    if (!impl_->cv.wait_for(lock, timeout,
                            [&] { return taken_ < impl_->received.size() || impl_->closed; }))
        return std::nullopt;
    if (taken_ < impl_->received.size()) return impl_->received[taken_++];
    return std::nullopt;
}

std::vector<std::string> WsClient::log() {
    std::lock_guard lock(impl_->mu);
    return impl_->received;
}

bool WsClient::isClosed() {
    std::lock_guard lock(impl_->mu);
    return impl_->closed;
}

int WsClient::closeCode() {
    std::unique_lock lock(impl_->mu);
    impl_->cv.wait_for(lock, 5s, [&] { return impl_->closed; });
    return impl_->closeCode;
}

}  // namespace rainet::test

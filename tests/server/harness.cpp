#include "harness.h"

#include <utility>

#include <sys/wait.h>
#include <unistd.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/postgres_test_db.h"

namespace rainet::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
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

ServerProcess::ServerProcess(std::string db, SharedDb shared, std::vector<std::string> extra)
    : db_(std::move(db)), extra_(std::move(extra)) {
    log_ = db_ + ".log";
    target_ = std::move(shared.uri);
    start();
}

void ServerProcess::signal(int sig) {
    if (pid_ <= 0) return;
    ::kill(pid_, sig);
    // A stop takes effect when each thread next leaves the kernel: wait until the whole process
    // is stopped, so that what the test sends next cannot be handled before it (it was, once,
    // under load, and the stopped owner committed an action the test meant it to hold).
    if (sig == SIGSTOP) {
        int status = 0;
        while (::waitpid(pid_, &status, WUNTRACED) < 0 && errno == EINTR) {
        }
    }
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

int ServerProcess::logCount(const std::string& event) const {
    std::istringstream in(logText());
    std::string line;
    int n = 0;
    while (std::getline(in, line)) n += line.find("\"event\":\"" + event + "\"") != line.npos;
    return n;
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

namespace {
wsclient::Target local(int port, const std::string& forwardedFor) {
    wsclient::Target t;
    t.host = "127.0.0.1";
    t.port = port;
    t.keepAlive = false;
    if (!forwardedFor.empty()) t.headers.emplace_back("X-Forwarded-For", forwardedFor);
    return t;
}
}  // namespace

WsClient::WsClient(int port, const std::string& forwardedFor) : client_(local(port, forwardedFor)) {
    if (!client_.isOpen()) {
        auto c = client_.waitClosed(0ms);
        throw std::runtime_error("cannot open a WebSocket to port " + std::to_string(port) + ": " +
                                 (c ? c->why : "?"));
    }
}

}  // namespace rainet::test

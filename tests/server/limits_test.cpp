// Every resource a client can make the server hold is bounded. Connection caps
// (503 with Retry-After), the hello timeout, the accept loop's backoff when out of descriptors,
// the write queue's bound in bytes (close code 1013), flood control (every rate_limited delivered
// before the 1008 close), X-Forwarded-For from trusted proxies only, and HTTP 414 / 431.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "players.h"

namespace rainet::test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

tcp::endpoint local(int port) {
    return {asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)};
}

// Sends `raw` bytes as a request and reads the response: status and headers.
http::response<http::string_body> rawHttp(int port, const std::string& raw) {
    asio::io_context io;
    tcp::socket s(io);
    s.connect(local(port));
    asio::write(s, asio::buffer(raw));
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    beast::error_code ec;
    http::read(s, buf, res, ec);
    EXPECT_FALSE(ec) << "no HTTP response: " << ec.message();
    return res;
}

// A WebSocket upgrade request, with X-Forwarded-For when given: the response.
http::response<http::string_body> upgrade(int port, const std::string& forwardedFor = {}) {
    std::string raw =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    if (!forwardedFor.empty()) raw += "X-Forwarded-For: " + forwardedFor + "\r\n";
    return rawHttp(port, raw + "\r\n");
}

// Waits (up to 10 s) until `done` holds; false if it never did.
template <class F>
bool eventually(F done) {
    for (int i = 0; i < 1000; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return done();
}

TEST(Limits, ConnectionsPerAddressAreCappedWith503AndRetryAfter) {
    ServerProcess server(dbPath("peraddress"), {"--max-per-address", "2"});
    auto a = std::make_unique<WsClient>(server.port());
    WsClient b(server.port());
    auto refused = upgrade(server.port());
    EXPECT_EQ(refused.result_int(), 503);
    EXPECT_EQ(refused[http::field::retry_after], "10");
    EXPECT_EQ(metric(server, "rainet_connections_refused_total"), 1);
    // A closed connection frees its place.
    a.reset();
    EXPECT_TRUE(eventually([&] { return upgrade(server.port()).result_int() == 101; }));
}

TEST(Limits, ConnectionsInTotalAreCapped) {
    ServerProcess server(dbPath("total"),
                         {"--max-connections", "3", "--trust-proxy", "127.0.0.1/32"});
    WsClient a(server.port(), "10.0.0.1"), b(server.port(), "10.0.0.2"),
        c(server.port(), "10.0.0.3");
    EXPECT_EQ(upgrade(server.port(), "10.0.0.4").result_int(), 503);
    EXPECT_TRUE(eventually([&] { return metric(server, "rainet_connections") == 3; }));
}

TEST(Limits, ForwardedForCountsOnlyFromTrustedProxies) {
    {  // No trusted proxy: the header is the client's to write, so it is ignored.
        ServerProcess server(dbPath("xffignored"), {"--max-per-address", "1"});
        WsClient a(server.port(), "10.0.0.1");
        EXPECT_EQ(upgrade(server.port(), "10.0.0.2").result_int(), 503);
    }
    {  // Behind a trusted proxy each forwarded address has its own places.
        ServerProcess server(dbPath("xfftrusted"),
                             {"--max-per-address", "1", "--trust-proxy", "10.9.0.0/16",
                              "127.0.0.0/8", "--hello-timeout", "30"});
        WsClient a(server.port(), "10.0.0.1");
        EXPECT_EQ(upgrade(server.port(), "10.0.0.2").result_int(), 101);
        EXPECT_EQ(upgrade(server.port(), "10.0.0.1").result_int(), 503);
        // A client cannot hide behind an address it prepends: the proxy appended the real one.
        EXPECT_EQ(upgrade(server.port(), "10.0.0.7, 10.0.0.1").result_int(), 503);
        // A chain of trusted proxies is walked back to the client.
        EXPECT_EQ(upgrade(server.port(), "10.0.0.1, 10.9.3.4").result_int(), 503);
    }
}

TEST(Limits, ConnectionsThatNeverSayHelloAreClosed) {
    ServerProcess server(dbPath("hellotimeout"), {"--hello-timeout", "1"});
    Player talker(server.port());  // connected first, says hello at once
    WsClient silent(server.port());
    EXPECT_EQ(silent.closeCode(), 1008);
    EXPECT_EQ(server.logCount("hello_timeout"), 1);
    // The one that said hello was not closed (its timeout would have come first).
    talker.ws().send(Json{{"type", "ping"}, {"id", 1}});
    EXPECT_EQ(talker.take([](const Json& j) { return j["type"] == "pong"; })["id"], 1);
}

TEST(Limits, FloodGetsEveryRateLimitedErrorBeforeTheClose) {
    ServerProcess server(dbPath("floodall"), {"--rate", "5"});  // a burst of 10
    Player p(server.port());
    for (int i = 0; i < 200; ++i) p.ws().send(Json{{"type", "ping"}, {"id", i}});
    EXPECT_EQ(p.ws().closeCode(), 1008);
    int limited = 0;
    for (const auto& m : p.ws().log()) limited += Json::parse(m)["code"] == "rate_limited";
    EXPECT_EQ(limited, 100);  // 100 refused messages are answered; the 101st closes
}

TEST(Limits, OverLongTargetGets414AndOverLongHeadersGet431) {
    ServerProcess server(dbPath("httplimits"));
    EXPECT_EQ(
        rawHttp(server.port(), "GET /" + std::string(5000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n")
            .result_int(),
        414);
    EXPECT_EQ(
        rawHttp(server.port(), "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n")
            .result_int(),
        414);
    EXPECT_EQ(rawHttp(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " +
                                         std::string(20000, 'b') + "\r\n\r\n")
                  .result_int(),
              431);
    EXPECT_EQ(server.http("GET", "/healthz").first, 200);
}

TEST(Limits, AcceptBacksOffWhenOutOfDescriptors) {
    ServerProcess server(dbPath("emfile"));
    // A handful of descriptors above what the server holds now.
    int open = 0;
    for ([[maybe_unused]] const auto& e :
         std::filesystem::directory_iterator("/proc/" + std::to_string(server.pid()) + "/fd"))
        ++open;
    rlimit was{};
    ASSERT_EQ(prlimit(server.pid(), RLIMIT_NOFILE, nullptr, &was), 0);
    const rlimit lim{static_cast<rlim_t>(open + 4), was.rlim_max};
    ASSERT_EQ(prlimit(server.pid(), RLIMIT_NOFILE, &lim, nullptr), 0);
    asio::io_context io;
    std::vector<std::unique_ptr<tcp::socket>> held;
    for (int i = 0; i < 12; ++i) {
        held.push_back(std::make_unique<tcp::socket>(io));
        held.back()->connect(local(server.port()));
    }
    // Out of descriptors the server waits between attempts (50, 100, 200, 400 ms...), so that
    // four failures take at least 350 ms; a loop that spun would log thousands at once.
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(eventually([&] { return server.logCount("accept_backoff") >= 4; }));
    EXPECT_GE(std::chrono::steady_clock::now() - start, 300ms);
    EXPECT_LE(server.logCount("accept_backoff"), 10);
    // Descriptors back: it serves again.
    held.clear();
    ASSERT_EQ(prlimit(server.pid(), RLIMIT_NOFILE, &was, nullptr), 0);
    EXPECT_TRUE(eventually([&] {
        try {
            return server.http("GET", "/healthz").first == 200;
        } catch (const std::exception&) {
            return false;
        }
    })) << server.logText();
}

// A client that sends but never reads (a small receive buffer, so the server's queue fills).
class Deaf {
  public:
    explicit Deaf(int port) : ws_(io_) {
        auto& s = beast::get_lowest_layer(ws_);
        s.open(tcp::v4());
        s.set_option(asio::socket_base::receive_buffer_size(4096));
        s.connect(local(port));
        ws_.handshake("127.0.0.1", "/ws");
        ws_.text(true);
    }
    void send(const Json& j) { ws_.write(asio::buffer(j.dump())); }
    // Reads everything until the close; the close code (0 when the socket just ended).
    int readToClose() {
        beast::flat_buffer buf;
        beast::error_code ec;
        while (!ec) {
            ws_.read(buf, ec);
            buf.consume(buf.size());
        }
        return ec == websocket::error::closed ? ws_.reason().code : 0;
    }

  private:
    asio::io_context io_;
    websocket::stream<tcp::socket> ws_;
};

// Opens 100 games in the lobby, so that every lobby message is about 20 KB.
void fillLobby(Player& p) {
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(p.request({{"type", "create"}, {"opponent", "open"}})["type"], "ack");
}

TEST(Limits, AClientThatStopsReadingIsClosedWithACloseFrame) {
    ServerProcess server(dbPath("slowclose"));
    Player host(server.port());
    fillLobby(host);
    Deaf deaf(server.port());
    deaf.send(Json{{"type", "hello"}});
    for (int i = 0; i < 400; ++i) deaf.send(Json{{"type", "lobby_subscribe"}});  // ~8 MB asked
    ASSERT_TRUE(
        eventually([&] { return metric(server, "rainet_slow_consumers_closed_total") == 1; }));
    EXPECT_EQ(deaf.readToClose(), 1013);
    host.ws().send(Json{{"type", "ping"}, {"id", 1}});  // the others are served as before
    EXPECT_EQ(host.take([](const Json& j) { return j["type"] == "pong"; })["id"], 1);
}

long rssKiB(int pid, const char* field) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field)));
    return -1;
}

// docs/performance.md quotes the figures this prints.
TEST(Limits, ThreeHundredClientsThatNeverReadHoldBoundedMemory) {
    ServerProcess server(dbPath("deafrss"));
    Player host(server.port());
    fillLobby(host);
    const long before = rssKiB(server.pid(), "VmRSS:");
    std::vector<std::unique_ptr<Deaf>> deaf;
    for (int i = 0; i < 300; ++i) {
        deaf.push_back(std::make_unique<Deaf>(server.port()));
        deaf.back()->send(Json{{"type", "hello"}});
        for (int k = 0; k < 200; ++k) deaf.back()->send(Json{{"type", "lobby_subscribe"}});
    }
    EXPECT_TRUE(
        eventually([&] { return metric(server, "rainet_slow_consumers_closed_total") == 300; }));
    const long peak = rssKiB(server.pid(), "VmHWM:");
    std::cout << "300 clients that never read, ~4 MB asked each: server RSS " << before / 1024
              << " MiB before, peak " << peak / 1024 << " MiB\n";
    // Each holds at most 1 MiB queued (plus what the kernel buffers): far below the 1.2 GB asked.
    EXPECT_LT(peak - before, 300 * 1024 + 64 * 1024);
    host.ws().send(Json{{"type", "ping"}, {"id", 1}});
    EXPECT_EQ(host.take([](const Json& j) { return j["type"] == "pong"; })["id"], 1);
}

}  // namespace
}  // namespace rainet::test

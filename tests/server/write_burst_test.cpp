// A connection's queued messages leave in bursts (one write for all that is queued: the session
// corks its stream, server/corked_stream.h). A client that reads late still gets every message,
// in order, each its own text frame; Beast's own frames (a pong, the close frame) mixed in the
// burst arrive whole too.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "players.h"

namespace rainet::test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// A client that sends a burst of requests before it reads anything (a small receive buffer: the
// server's socket fills and its queue grows), then reads everything at once.
class LateReader {
  public:
    explicit LateReader(int port) : ws_(io_) {
        auto& s = beast::get_lowest_layer(ws_);
        s.open(tcp::v4());
        s.set_option(asio::socket_base::receive_buffer_size(4096));
        s.connect(
            tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
        ws_.handshake("127.0.0.1", "/ws");
        ws_.text(true);
        ws_.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
            if (kind == websocket::frame_type::pong) pongs_.emplace_back(payload);
        });
    }
    void send(const Json& j) { ws_.write(asio::buffer(j.dump())); }
    void ping(const std::string& payload) { ws_.ping(websocket::ping_data(payload.c_str())); }
    // The next message (it must be a text frame of JSON); null when the stream ended (`ec`) or
    // nothing came within 10 s (a failure: the socket is then closed).
    Json read(beast::error_code& ec) {
        beast::flat_buffer buf;
        bool done = false;
        ws_.async_read(buf, [&](beast::error_code e, std::size_t) {
            ec = e;
            done = true;
        });
        io_.restart();
        io_.run_for(10s);
        if (!done) {
            ADD_FAILURE() << "no message within 10 s";
            beast::get_lowest_layer(ws_).close();
            io_.restart();
            io_.run();
        }
        if (ec) return nullptr;
        EXPECT_TRUE(ws_.got_text());
        Json j = Json::parse(beast::buffers_to_string(buf.data()), nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << beast::buffers_to_string(buf.data()).substr(0, 200);
        return j;
    }
    Json read() {
        beast::error_code ec;
        Json j = read(ec);
        EXPECT_FALSE(ec) << ec.message();
        return j;
    }
    int closeCode() { return ws_.reason().code; }
    // The payloads of the pongs (control frames) received so far.
    const std::vector<std::string>& pongs() const { return pongs_; }

  private:
    asio::io_context io_;
    websocket::stream<tcp::socket> ws_;
    std::vector<std::string> pongs_;
};

// Opens `n` games in the lobby: each lobby message is then about 200 bytes a game.
void openLobbyGames(Player& p, int n) {
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(p.request({{"type", "create"}, {"opponent", "open"}})["type"], "ack");
}

TEST(WriteBurst, EveryMessageOfABurstArrivesWholeAndInOrderAndAPingIsAnswered) {
    ServerProcess server(dbPath("burst"));
    Player host(server.port());
    openLobbyGames(host, 100);
    LateReader r(server.port());
    r.send(Json{{"type", "hello"}});
    // ~20 KB a lobby message: ~800 KB queued in all, under the bound of 1 MiB.
    for (int i = 0; i < 40; ++i) {
        if (i == 30) r.ping("mid-burst");  // a control frame: its pong goes out in the burst
        r.send(Json{{"type", "lobby_subscribe"}});
        r.send(Json{{"type", "ping"}, {"id", i}});
    }
    std::this_thread::sleep_for(300ms);  // lets the queue grow (the test holds without it)
    ASSERT_EQ(r.read()["type"], "welcome");
    int lobbies = 0, next = 0;
    while (next < 40) {
        const Json j = r.read();
        if (j.is_null()) break;
        if (j["type"] == "lobby") {
            ++lobbies;
            EXPECT_EQ(j["games"].size(), 100u);
        } else {
            ASSERT_EQ(j["type"], "pong") << j.dump();
            EXPECT_EQ(j["id"], next);  // in order, none missing
            ++next;
        }
    }
    EXPECT_EQ(next, 40);
    EXPECT_EQ(lobbies, 40);
    EXPECT_EQ(r.pongs(), std::vector<std::string>{"mid-burst"});
    // The stream is still good: a request is answered.
    r.send(Json{{"type", "ping"}, {"id", "after"}});
    Json j = r.read();
    while (j["type"] == "lobby") j = r.read();
    EXPECT_EQ(j["type"], "pong");
    EXPECT_EQ(j["id"], "after");
}

TEST(WriteBurst, ADrainedCloseDeliversTheBurstThenTheCloseFrame) {
    // A burst of lobby messages (~45 KB, against the client's 4 KB receive buffer) and pongs,
    // then a flood: 100 rate_limited errors, then the close (1008). The rate is low (20 messages at
    // once, 10 a second after) and the flood far larger than it, so the close comes however slowly
    // the server runs (a sanitizer build processing the flood for seconds refills only a few tokens
    // meanwhile).
    ServerProcess server(dbPath("burstclose"), {"--rate", "10"});
    Player host(server.port());
    openLobbyGames(host, 15);  // the host's own messages are under the same rate
    LateReader r(server.port());
    r.send(Json{{"type", "hello"}});
    constexpr int kLobbies = 15;  // with the hello, within the first 20 tokens
    for (int i = 0; i < kLobbies; ++i) r.send(Json{{"type", "lobby_subscribe"}});
    for (int i = 0; i < 2500; ++i) r.send(Json{{"type", "ping"}, {"id", i}});
    std::this_thread::sleep_for(300ms);  // lets the queue grow (the test holds without it)
    int lobbies = 0, limited = 0, last = -1;
    beast::error_code ec;
    while (true) {
        const Json j = r.read(ec);
        if (ec || j.is_null()) break;
        if (j["type"] == "lobby") {
            ++lobbies;
        } else if (j["type"] == "pong" || j["type"] == "error") {
            limited += j.value("code", "") == "rate_limited";
            EXPECT_GT(j["id"].get<int>(), last);  // in order
            last = j["id"].get<int>();
        }
    }
    EXPECT_EQ(ec, websocket::error::closed) << ec.message();
    EXPECT_EQ(r.closeCode(), 1008);
    EXPECT_EQ(limited, 100);  // every refusal answered before the close frame
    EXPECT_EQ(lobbies, kLobbies);
}

}  // namespace
}  // namespace rainet::test

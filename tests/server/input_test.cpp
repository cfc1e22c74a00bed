// The input edges a black-box client found. Names and chat count code points and
// refuse control and bidi-override characters, a name of spaces is refused by hello as by rename,
// a repeated chat id is delivered once, a setup of the wrong size is bad_setup, an over-long token
// is an unknown one, binary frames get bad_json and invalid UTF-8 closes with 1007.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "players.h"

namespace rainet::test {
namespace {

const std::string kEmoji = "\xF0\x9F\x98\x80";  // U+1F600: 4 bytes, 1 character
const std::string kKanji = "\xE6\xBC\xA2";      // U+6F22: 3 bytes, 1 character

std::string times(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

Json helloReply(int port, const Json& hello) {
    WsClient ws(port);
    ws.send(hello);
    return ws.waitFor([](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; });
}

TEST(Input, NamesCountCodePointsAndRefuseControlsAndBidi) {
    ServerProcess server(dbPath("names"));
    Json w = helloReply(server.port(), {{"type", "hello"}, {"name", times(kEmoji, 24)}});
    EXPECT_EQ(w["player"]["name"], times(kEmoji, 24));
    EXPECT_EQ(helloReply(server.port(), {{"type", "hello"}, {"name", times(kKanji, 25)}})["code"],
              "bad_message");
    EXPECT_EQ(helloReply(server.port(), {{"type", "hello"}, {"name", "    "}})["code"],
              "bad_message");
    EXPECT_EQ(helloReply(server.port(), {{"type", "hello"}, {"name", "a\xC2\x85z"}})["code"],
              "bad_message");

    Player p(server.port());
    Json ack = p.request({{"type", "rename"}, {"name", times(kKanji, 9)}});
    EXPECT_EQ(ack["player"]["name"], times(kKanji, 9));
    for (const std::string bad :
         {"a\x7F", "a\xC2\x9B", "evil\xE2\x80\xAE", "x\xE2\x81\xA6y", "   "})
        EXPECT_EQ(p.request({{"type", "rename"}, {"name", bad}})["code"], "bad_message") << bad;
    // Nothing changed.
    EXPECT_EQ(p.request({{"type", "rename"}, {"name", "Okabe"}})["player"]["name"], "Okabe");
}

TEST(Input, ChatCountsCodePointsRefusesControlsAndDeliversARepeatedIdOnce) {
    ServerProcess server(dbPath("chatedges"));
    Player a(server.port()), b(server.port());
    const std::string g = startGame(a, b);
    auto chat = [&](const std::string& text, const Json& id) {
        return a.requestWithId({{"type", "chat"}, {"game", g}, {"text", text}, {"id", id}});
    };
    EXPECT_EQ(chat(times(kEmoji, 300), "c1")["type"], "ack");
    EXPECT_EQ(chat(times(kEmoji, 301), "c2")["code"], "bad_message");
    for (const std::string bad : {"a\xC2\x85"
                                  "b",
                                  "\xC2\x9B"
                                  "2J",
                                  "\xE2\x80\xAE"
                                  "gg",
                                  "a\x7F"})
        EXPECT_EQ(chat(bad, "c3")["code"], "bad_message") << bad;
    EXPECT_EQ(chat("hello", "c4")["type"], "ack");
    EXPECT_EQ(chat("hello", "c4")["type"], "ack");  // a retry: acknowledged again
    EXPECT_EQ(chat("last", "c5")["type"], "ack");
    // b sees each line once, in order.
    std::vector<std::string> seen;
    b.take([&](const Json& j) {
        if (j["type"] == "chat") seen.push_back(j["text"]);
        return j["type"] == "chat" && j["text"] == "last";
    });
    EXPECT_EQ(seen, (std::vector<std::string>{times(kEmoji, 300), "hello", "last"}));
}

TEST(Input, SetupWithTheWrongNumberOfCardsIsBadSetup) {
    ServerProcess server(dbPath("setupcount"));
    Player a(server.port()), b(server.port());
    const std::string g =
        a.request({{"type", "create"}, {"opponent", "invite"}, {"side", "1"}})["game"];
    ASSERT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    EXPECT_EQ(a.request({{"type", "setup"}, {"game", g}, {"links", {"a1", "b1", "c1"}}})["code"],
              "bad_setup");
    EXPECT_EQ(
        a.request(
            {{"type", "setup"}, {"game", g}, {"links", {"a1", "b1", "c1", "d2", "e2"}}})["code"],
        "bad_setup");
    EXPECT_EQ(
        a.request({{"type", "setup"}, {"game", g}, {"links", {"a1", "b1", "c1", "d2"}}})["type"],
        "ack");
}

TEST(Input, AnOverLongTokenIsAnUnknownToken) {
    ServerProcess server(dbPath("longtoken"));
    Json w = helloReply(server.port(), {{"type", "hello"}, {"token", std::string(1000, 'f')}});
    ASSERT_EQ(w["type"], "welcome");
    EXPECT_EQ(w["token"].get<std::string>().size(), 64u);
    EXPECT_EQ(w["player"]["kind"], "guest");
}

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

TEST(Input, BinaryFramesGetBadJsonAndInvalidUtf8Closes1007) {
    ServerProcess server(dbPath("frames"));
    asio::io_context io;
    websocket::stream<asio::ip::tcp::socket> ws(io);
    ws.next_layer().connect(
        {asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port())});
    ws.handshake("127.0.0.1", "/ws");
    ws.binary(true);
    ws.write(asio::buffer(std::string(R"({"type":"hello"})")));
    beast::flat_buffer buf;
    ws.read(buf);
    Json e = Json::parse(beast::buffers_to_string(buf.data()));
    EXPECT_EQ(e["code"], "bad_json");
    buf.consume(buf.size());
    ws.text(true);
    ws.write(asio::buffer(std::string("{\"type\":\"hello\",\"name\":\"\xC0\xAF\"}")));
    beast::error_code ec;
    while (!ec) ws.read(buf, ec);
    EXPECT_EQ(ec, websocket::error::closed);
    EXPECT_EQ(ws.reason().code, 1007);
}

// RFC 6455: a client's frames must be masked. One that is not breaks the protocol: close 1002.
TEST(Input, AnUnmaskedFrameCloses1002) {
    ServerProcess server(dbPath("unmasked"));
    asio::io_context io;
    asio::ip::tcp::socket s(io);
    s.connect({asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port())});
    asio::write(
        s,
        asio::buffer(std::string(
            "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")));
    asio::streambuf in;
    asio::read_until(s, in, "\r\n\r\n");
    in.consume(in.size());  // the 101 response (nothing follows it yet)
    const unsigned char frame[] = {0x81, 0x02, 'h', 'i'};  // FIN text "hi", no mask
    asio::write(s, asio::buffer(frame));
    unsigned char head[4] = {};
    asio::read(s, asio::buffer(head));
    EXPECT_EQ(head[0], 0x88);  // FIN close
    EXPECT_EQ((head[2] << 8) | head[3], 1002);
}

}  // namespace
}  // namespace rainet::test

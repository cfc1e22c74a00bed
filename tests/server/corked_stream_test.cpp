// Unit tests of the corked stream layer under the WebSocket sessions (server/corked_stream.h), over
// a connected pair of local sockets: what is written corked leaves with the first write made
// uncorked, in one piece, or with the teardown.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read.hpp>
#include <string>
#include <thread>
#include <vector>

#include "server/corked_stream.h"

namespace rainet::server {
namespace {

using LocalSocket = boost::asio::local::stream_protocol::socket;

struct CorkedPair {
    boost::asio::io_context io;
    CorkedStream<LocalSocket> out{io};
    LocalSocket peer{io};
    CorkedPair() { boost::asio::local::connect_pair(out.next_layer(), peer); }

    // Writes `text` through the layer and runs until its handler has run; what it reported.
    std::size_t write(const std::string& text) {
        std::size_t n = 0;
        bool done = false;
        out.async_write_some(boost::asio::buffer(text),
                             [&](boost::beast::error_code ec, std::size_t bytes) {
                                 EXPECT_FALSE(ec) << ec.message();
                                 n = bytes;
                                 done = true;
                             });
        EXPECT_FALSE(done) << "completed inline";
        io.restart();
        io.run();
        EXPECT_TRUE(done);
        return n;
    }
    // One read on the peer: what it gets.
    std::string readOnce() {
        std::vector<char> buf(1 << 16);
        const std::size_t n = peer.read_some(boost::asio::buffer(buf));
        return std::string(buf.data(), n);
    }
};

TEST(CorkedStream, CorkedWritesLeaveWithTheFirstUncorkedOneInOneRead) {
    CorkedPair p;
    p.out.cork(true);
    EXPECT_EQ(p.write("one,"), 4u);
    EXPECT_EQ(p.write("two,"), 4u);
    EXPECT_EQ(p.peer.available(), 0u);  // nothing sent yet
    EXPECT_EQ(p.out.pending(), 8u);
    p.out.cork(false);
    EXPECT_EQ(p.write("three"), 5u);  // the caller's bytes, not the buffer's
    EXPECT_EQ(p.out.pending(), 0u);
    EXPECT_EQ(p.readOnce(), "one,two,three");
}

TEST(CorkedStream, UncorkedWritesPassStraightThrough) {
    CorkedPair p;
    EXPECT_EQ(p.write("alone"), 5u);
    EXPECT_EQ(p.readOnce(), "alone");
    EXPECT_EQ(p.write("again"), 5u);
    EXPECT_EQ(p.readOnce(), "again");
}

TEST(CorkedStream, TeardownWritesWhatIsPendingFirst) {
    CorkedPair p;
    p.out.cork(true);
    p.write("close frame");
    bool done = false;
    async_teardown(boost::beast::role_type::server, p.out,
                   [&](boost::beast::error_code) { done = true; });
    // The server's teardown reads until the peer closes: the peer reads everything, then closes.
    std::string got(11, '\0');
    std::thread reader([&] {
        boost::asio::read(p.peer, boost::asio::buffer(got));
        p.peer.shutdown(LocalSocket::shutdown_send);
    });
    p.io.restart();
    p.io.run();
    reader.join();
    EXPECT_TRUE(done);
    EXPECT_EQ(got, "close frame");
    EXPECT_EQ(p.out.pending(), 0u);
}

TEST(CorkedStream, AFailedFlushDropsWhatWasPending) {
    CorkedPair p;
    p.out.cork(true);
    p.write("lost");
    p.peer.close();
    p.out.cork(false);
    boost::beast::error_code got;
    const std::string big(1 << 20, 'x');
    p.out.async_write_some(boost::asio::buffer(big),
                           [&](boost::beast::error_code ec, std::size_t) { got = ec; });
    p.io.restart();
    p.io.run();
    EXPECT_TRUE(got);
    EXPECT_EQ(p.out.pending(), 0u);
}

}  // namespace
}  // namespace rainet::server

#pragma once
// A stream layer under a WebSocket stream that can be corked, so that a burst of messages
// leaves in one write (one `sendmsg`) instead of one each: the kernel's loopback TCP was ~40% of
// the server's CPU, most of it per call (docs/performance.md). Beast writes one message per
// async_write and allows one outstanding write, and it writes its own control frames (pongs, the
// keep-alive pings, the close frame) through this layer too, so corking lives here and not in
// the session:
// - corked, a write appends its bytes to a pending buffer and completes at once (posted);
// - uncorked with bytes pending, a write appends its bytes and sends the whole buffer with one
//   net::async_write, completing when that is done (an error drops what was pending);
// - otherwise it passes straight to the next layer (no copy: the common single message).
// Beast serialises every write of a websocket::stream (its write lock; teardown holds it too),
// so at most one write is outstanding here. Teardown sends what is pending first: a close frame
// answered while corked (the peer closed) is not lost. Modelled on beast/core/flat_stream.hpp.
#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/async_base.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <string>
#include <type_traits>
#include <utility>

namespace rainet::server {

template <class NextLayer>
class CorkedStream {
  public:
    using next_layer_type = NextLayer;
    using executor_type = typename NextLayer::executor_type;

    template <class... Args>
    explicit CorkedStream(Args&&... args) : next_(std::forward<Args>(args)...) {}

    executor_type get_executor() noexcept { return next_.get_executor(); }
    NextLayer& next_layer() noexcept { return next_; }
    const NextLayer& next_layer() const noexcept { return next_; }

    // Corked: the following writes wait in the buffer for the first one made uncorked (or the
    // teardown). The owner must uncork before its last write, or what is pending stays here.
    void cork(bool on) noexcept { corked_ = on; }
    [[nodiscard]] std::size_t pending() const noexcept { return pending_.size(); }

    template <class MutableBuffers>
    std::size_t read_some(const MutableBuffers& buffers, boost::beast::error_code& ec) {
        return next_.read_some(buffers, ec);
    }
    template <class MutableBuffers>
    std::size_t read_some(const MutableBuffers& buffers) {
        return next_.read_some(buffers);
    }
    template <class MutableBuffers, class Handler>
    auto async_read_some(const MutableBuffers& buffers, Handler&& handler) {
        return next_.async_read_some(buffers, std::forward<Handler>(handler));
    }

    // Synchronous writes (Beast's blocking calls; the server makes none) ignore the cork.
    template <class ConstBuffers>
    std::size_t write_some(const ConstBuffers& buffers, boost::beast::error_code& ec) {
        if (!flushSync(ec)) return 0;
        return next_.write_some(buffers, ec);
    }
    template <class ConstBuffers>
    std::size_t write_some(const ConstBuffers& buffers) {
        boost::beast::error_code ec;
        const std::size_t n = write_some(buffers, ec);
        if (ec) throw boost::system::system_error(ec);
        return n;
    }

    template <class ConstBuffers, class Handler>
    auto async_write_some(const ConstBuffers& buffers, Handler&& handler) {
        return boost::asio::async_initiate<Handler, void(boost::beast::error_code, std::size_t)>(
            [this](auto&& h, const ConstBuffers& b) {
                if (!corked_ && pending_.empty()) {
                    next_.async_write_some(b, std::forward<decltype(h)>(h));
                    return;
                }
                WriteOp<std::decay_t<decltype(h)>>(std::forward<decltype(h)>(h), *this, b);
            },
            handler, buffers);
    }

    // What is pending, written synchronously; false (and `ec`) on failure.
    bool flushSync(boost::beast::error_code& ec) {
        if (pending_.empty()) return true;
        boost::asio::write(next_, boost::asio::buffer(pending_), ec);
        drop();
        return !ec;
    }

    // What is pending, written; then `handler(ec)`.
    template <class Handler>
    void asyncFlush(Handler&& handler) {
        if (pending_.empty()) {
            std::forward<Handler>(handler)(boost::beast::error_code{});
            return;
        }
        boost::asio::async_write(next_, boost::asio::buffer(pending_),
                                 [this, h = std::forward<Handler>(handler)](
                                     boost::beast::error_code ec, std::size_t) mutable {
                                     drop();
                                     std::move(h)(ec);
                                 });
    }

  private:
    // A write that is corked, or that carries what was pending.
    template <class Handler>
    class WriteOp : public boost::beast::async_base<Handler, executor_type> {
      public:
        template <class H, class ConstBuffers>
        WriteOp(H&& h, CorkedStream& s, const ConstBuffers& b)
            : boost::beast::async_base<Handler, executor_type>(std::forward<H>(h),
                                                               s.get_executor()),
              s_(s),
              size_(boost::asio::buffer_size(b)) {
            const std::size_t at = s.pending_.size();
            s.pending_.resize(at + size_);
            boost::asio::buffer_copy(boost::asio::buffer(s.pending_.data() + at, size_), b);
            if (s.corked_) {
                this->complete(false, boost::beast::error_code{}, size_);  // posted, not inline
                return;
            }
            boost::asio::async_write(s.next_, boost::asio::buffer(s.pending_), std::move(*this));
        }

        void operator()(boost::beast::error_code ec, std::size_t) {
            s_.drop();
            this->complete_now(ec, ec ? 0 : size_);
        }

      private:
        CorkedStream& s_;
        std::size_t size_;  // the caller's bytes (the rest of the buffer was pending before)
    };

    void drop() {
        // A large burst's buffer is given back: idle connections hold little.
        if (pending_.capacity() > kKeptCapacity)
            std::string().swap(pending_);
        else
            pending_.clear();
    }

    static constexpr std::size_t kKeptCapacity = 64 * 1024;

    NextLayer next_;
    std::string pending_;
    bool corked_ = false;
};

// Beast's close handshake tears the stream down through these (found by ADL, like flat_stream's):
// what is pending is written first.
template <class NextLayer>
void teardown(boost::beast::role_type role, CorkedStream<NextLayer>& s,
              boost::beast::error_code& ec) {
    using boost::beast::websocket::teardown;
    s.flushSync(ec);
    boost::beast::error_code ignored;
    teardown(role, s.next_layer(), ec ? ignored : ec);
}

template <class NextLayer, class TeardownHandler>
void async_teardown(boost::beast::role_type role, CorkedStream<NextLayer>& s,
                    TeardownHandler&& handler) {
    if (s.pending() == 0) {
        using boost::beast::websocket::async_teardown;
        async_teardown(role, s.next_layer(), std::forward<TeardownHandler>(handler));
        return;
    }
    s.asyncFlush(
        [role, &s, h = std::forward<TeardownHandler>(handler)](boost::beast::error_code) mutable {
            using boost::beast::websocket::async_teardown;
            async_teardown(role, s.next_layer(), std::move(h));
        });
}

}  // namespace rainet::server

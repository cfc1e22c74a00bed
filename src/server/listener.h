#pragma once
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <memory>

#include "server/sessions.h"
#include "store/log.h"

namespace rainet::server {

// Accepts connections. When accepting fails (out of descriptors: EMFILE, ENFILE; or anything
// else) it waits before trying again, doubling the wait from 50 ms up to 1 s, instead of
// spinning on an error that a retry at once would only repeat; pending connections wait in the
// kernel's backlog meanwhile.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(asio::io_context& io, tcp::acceptor& acceptor, Hub& hub, Registry& registry,
             HttpRole role = HttpRole::Public)
        : io_(io), acceptor_(acceptor), hub_(hub), registry_(registry), role_(role), backoff_(io) {}
    void run() { doAccept(); }
    void stop() { backoff_.cancel(); }

  private:
    static constexpr auto kFirstBackoff = std::chrono::milliseconds(50);
    static constexpr auto kMaxBackoff = std::chrono::milliseconds(1000);

    void doAccept() {
        acceptor_.async_accept(asio::make_strand(io_),
                               beast::bind_front_handler(&Listener::onAccept, shared_from_this()));
    }
    void onAccept(beast::error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
        if (ec) {
            wait_ = wait_.count() ? std::min(2 * wait_, kMaxBackoff) : kFirstBackoff;
            ++hub_.metrics().acceptBackoffs;
            logEvent("accept_backoff", {{"error", ec.message()}, {"wait_ms", wait_.count()}});
            backoff_.expires_after(wait_);
            backoff_.async_wait([self = shared_from_this()](beast::error_code e) {
                if (!e && self->acceptor_.is_open()) self->doAccept();
            });
            return;
        }
        wait_ = {};
        socket.set_option(tcp::no_delay(true), ec);  // small frames: no Nagle delay
        startHttpSession(std::move(socket), hub_, registry_, role_);
        doAccept();
    }
    std::chrono::milliseconds wait_{0};
    asio::io_context& io_;
    tcp::acceptor& acceptor_;
    Hub& hub_;
    Registry& registry_;
    HttpRole role_;
    asio::steady_timer backoff_;
};

}  // namespace rainet::server

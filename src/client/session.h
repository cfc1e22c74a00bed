#pragma once
// A client's session with the server, shared by `rainet play` and `rainet bot`: one WebSocket
// (wsclient/client.h) reconnected with backoff (250 ms, doubling up to 2 s) for as long as the
// owner wants it, and the requests that change state, kept with ids unique across restarts until
// they are answered so that they are sent again after a reconnection (docs/protocol.md §8: the
// server applies an id at most once). Single-threaded, like the client under it.
#include <utility>  // before Boost.Asio under C++20

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "client/play_input.h"
#include "wsclient/client.h"

namespace rainet::client {

using Json = nlohmann::json;

class Session {
  public:
    struct Handlers {
        std::function<void()> onOpen;                // say hello
        std::function<void(const Json&)> onMessage;  // each JSON object (anything else dropped)
        // The connection is gone (never opened, or lost); true: connect again after the backoff.
        std::function<bool(const std::string& why)> onLost;
    };
    // `idLetter` starts every request id, with a random part unique to this process.
    Session(boost::asio::io_context& io, const play::ServerUrl& url, char idLetter, Handlers h);

    void connect();
    void stop();  // no more reconnections; closes

    // Whether the server welcomed this connection: send() and request() go out only then.
    void setWelcomed(bool welcomed) { welcomed_ = welcomed; }
    bool isWelcomed() const { return welcomed_; }
    // Sends now, welcomed or not (hello, login).
    void sendNow(const Json& m);
    // Sends when welcomed; dropped otherwise (a request is kept: resendPending()).
    void send(const Json& m);

    // Sends `m` with a fresh id and keeps it until answered; returns the id.
    std::string request(Json m);
    // The request `id` was answered: forgotten and returned (null when it was not pending).
    Json answered(const std::string& id);
    // Forgets the pending requests `drop` selects.
    void forget(const std::function<bool(const Json&)>& drop);
    // Sends every pending request again, in order (after a welcome on a new connection).
    void resendPending();
    // Sends the pending request `id` again a moment later (refused for the rate: rate_limited).
    void resendLater(const std::string& id);

  private:
    void onClosed(const std::string& why);

    boost::asio::io_context& io_;
    wsclient::Target target_;
    Handlers handlers_;
    std::unique_ptr<wsclient::Client> ws_;
    boost::asio::steady_timer retry_;
    int retryMs_ = 250;
    bool welcomed_ = false, stopped_ = false;
    std::string idPrefix_;
    long nextId_ = 0;
    std::vector<std::pair<std::string, Json>> pending_;  // requests not yet answered, in order
};

// The `id` of a server message, or "" (an answer carries the request's).
std::string idOf(const Json& j);

// The `seek` request for `s` (docs/protocol.md §4, seek): `clock` null for an untimed game.
Json seekMessage(const play::SeekSpec& s);
// A clock as requests carry it: {"initial","increment"}, or {"days"} for days per move.
Json clockRequest(int initialCs, int incrementCs);

}  // namespace rainet::client

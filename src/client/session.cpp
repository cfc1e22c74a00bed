#include "client/session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

namespace rainet::client {

Session::Session(boost::asio::io_context& io, const play::ServerUrl& url, char idLetter, Handlers h)
    : io_(io), handlers_(std::move(h)), retry_(io) {
    target_.host = url.host;
    target_.port = url.port;
    target_.path = url.path;
    std::random_device rd;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%c%08x-", idLetter, rd());
    idPrefix_ = buf;  // unique across restarts: the server remembers ids
}

void Session::connect() {
    ws_ = std::make_unique<wsclient::Client>(
        io_, target_,
        wsclient::Client::Handlers{[this] {
                                       retryMs_ = 250;
                                       if (handlers_.onOpen) handlers_.onOpen();
                                   },
                                   [this](const std::string& m) {
                                       const Json j = Json::parse(m, nullptr, false);
                                       if (j.is_object() && handlers_.onMessage)
                                           handlers_.onMessage(j);
                                   },
                                   [this](const wsclient::Closed& c) { onClosed(c.why); }});
    ws_->connect();
}

void Session::onClosed(const std::string& why) {
    welcomed_ = false;
    if (stopped_ || !handlers_.onLost || !handlers_.onLost(why) || stopped_) return;
    retry_.expires_after(std::chrono::milliseconds(retryMs_));
    retryMs_ = std::min(retryMs_ * 2, 2000);
    retry_.async_wait([this](boost::system::error_code ec) {
        if (!ec && !stopped_) connect();
    });
}

void Session::stop() {
    stopped_ = true;
    retry_.cancel();
    if (ws_) ws_->close();
}

void Session::sendNow(const Json& m) {
    // Refused when not open or 256 frames wait unwritten: dropped, as session.h says. A request
    // stays pending and goes again after the next welcome (resendPending).
    if (ws_) static_cast<void>(ws_->send(m.dump()));
}

void Session::send(const Json& m) {
    if (welcomed_) sendNow(m);
}

std::string Session::request(Json m) {
    const std::string id = idPrefix_ + std::to_string(++nextId_);
    m["id"] = id;
    pending_.emplace_back(id, m);
    send(m);
    return id;
}

Json Session::answered(const std::string& id) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
        if (it->first != id) continue;
        Json m = std::move(it->second);
        pending_.erase(it);
        return m;
    }
    return nullptr;
}

void Session::forget(const std::function<bool(const Json&)>& drop) {
    std::erase_if(pending_, [&](const auto& p) { return drop(p.second); });
}

void Session::resendPending() {
    for (const auto& [id, m] : pending_) send(m);
}

void Session::resendLater(const std::string& id) {
    auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(500));
    timer->async_wait([this, timer, id](boost::system::error_code ec) {
        if (ec || stopped_) return;
        for (const auto& [pid, m] : pending_)
            if (pid == id) return send(m);
    });
}

std::string idOf(const Json& j) {
    return j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : std::string();
}

Json clockRequest(int initialCs, int incrementCs) {
    if (incrementCs == play::kDaysPerMove) return {{"days", initialCs / play::kDayCs}};
    return {{"initial", initialCs}, {"increment", incrementCs}};
}

Json seekMessage(const play::SeekSpec& s) {
    Json m{{"type", "seek"}, {"preset", s.preset}, {"clock", nullptr}};
    if (s.initialCs) m["clock"] = clockRequest(*s.initialCs, *s.incrementCs);
    if (s.rated) m["rated"] = *s.rated;
    return m;
}

}  // namespace rainet::client

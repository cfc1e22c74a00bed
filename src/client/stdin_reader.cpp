#include "client/stdin_reader.h"

#include <poll.h>
#include <unistd.h>
#include <cerrno>

#include <boost/asio/post.hpp>

namespace rainet::client::play {

namespace asio = boost::asio;

StdinReader::StdinReader(asio::io_context& io, std::function<void(std::string)> onLine,
                         std::function<void()> onEof)
    : thread_([this, &io, onLine = std::move(onLine), onEof = std::move(onEof)] {
          read(io, onLine, onEof);
      }) {}

StdinReader::~StdinReader() {
    stop_ = true;
    thread_.join();
}

void StdinReader::read(asio::io_context& io, const std::function<void(std::string)>& onLine,
                       const std::function<void()>& onEof) {
    std::string pending;
    char buf[4096];
    while (!stop_) {
        pollfd p{0, POLLIN, 0};
        const int r = ::poll(&p, 1, 100);  // wakes to see stop_
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r < 0) break;
            continue;
        }
        const ssize_t n = ::read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        pending.append(buf, static_cast<std::size_t>(n));
        for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
            std::string line = pending.substr(0, nl);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            pending.erase(0, nl + 1);
            asio::post(io, [onLine, line] { onLine(line); });
        }
    }
    if (!stop_) {
        if (!pending.empty()) asio::post(io, [onLine, pending] { onLine(pending); });
        asio::post(io, onEof);
    }
}

}  // namespace rainet::client::play

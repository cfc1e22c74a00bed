#include "wsclient/blocking_client.h"

#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>

namespace rainet::wsclient {

struct BlockingClient::Impl {
    boost::asio::io_context io;
    std::optional<Client> client;  // used on the io thread only, once started
    std::thread thread;
    mutable std::mutex mu;
    std::condition_variable cv;
    std::vector<std::string> received;
    std::size_t taken = 0;
    bool open = false;
    std::optional<Closed> closed;
};

BlockingClient::BlockingClient(Target target) : impl_(std::make_unique<Impl>()) {
    target.maxQueue = std::numeric_limits<std::size_t>::max();
    Impl& s = *impl_;
    s.client.emplace(s.io, std::move(target),
                     Client::Handlers{[&s] {
                                          std::lock_guard lock(s.mu);
                                          s.open = true;
                                          s.cv.notify_all();
                                      },
                                      [&s](const std::string& m) {
                                          std::lock_guard lock(s.mu);
                                          s.received.push_back(m);
                                          s.cv.notify_all();
                                      },
                                      [&s](const Closed& c) {
                                          std::lock_guard lock(s.mu);
                                          s.open = false;
                                          s.closed = c;
                                          s.cv.notify_all();
                                      }});
    s.client->connect();
    s.thread = std::thread([&s] { s.io.run(); });
    std::unique_lock lock(s.mu);
    s.cv.wait(lock, [&s] { return s.open || s.closed; });
}

BlockingClient::~BlockingClient() {
    close();
}

void BlockingClient::close() {
    if (!impl_->thread.joinable()) return;
    boost::asio::post(impl_->io, [this] { impl_->client->close(); });
    impl_->thread.join();  // run() returns once the closed socket's operations have ended
    std::lock_guard lock(impl_->mu);
    impl_->open = false;
    if (!impl_->closed) impl_->closed = Closed{"closed by the client", 0, true};
    impl_->cv.notify_all();
}

void BlockingClient::send(std::string text) {
    boost::asio::post(impl_->io, [this, text = std::move(text)]() mutable {
        // False only once closed (the queue has no bound here): dropped, as the header says.
        static_cast<void>(impl_->client->send(std::move(text)));
    });
}

std::optional<std::string> BlockingClient::next(std::chrono::milliseconds timeout) {
    std::unique_lock lock(impl_->mu);
    Impl& s = *impl_;
    if (!s.cv.wait_for(lock, timeout, [&s] { return s.taken < s.received.size() || s.closed; }))
        return std::nullopt;
    if (s.taken < s.received.size()) return s.received[s.taken++];
    return std::nullopt;
}

std::vector<std::string> BlockingClient::received() const {
    std::lock_guard lock(impl_->mu);
    return impl_->received;
}

bool BlockingClient::isOpen() const {
    std::lock_guard lock(impl_->mu);
    return impl_->open;
}

std::optional<Closed> BlockingClient::waitClosed(std::chrono::milliseconds timeout) {
    std::unique_lock lock(impl_->mu);
    impl_->cv.wait_for(lock, timeout, [this] { return impl_->closed.has_value(); });
    return impl_->closed;
}

}  // namespace rainet::wsclient

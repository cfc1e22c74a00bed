#pragma once
// Accounts: password hashing (Argon2id through libsodium's crypto_pwhash_str, whose string holds
// the salt and the cost). The hub uses it (and throttle.h); nothing here knows about sockets or
// the store.
#include <atomic>
#include <boost/asio/thread_pool.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace rainet::server {

// A new hash of `password`, or nullopt when libsodium could not allocate. `cheap` uses the minimum
// cost (test mode only: tests register many accounts); the interactive cost otherwise (about
// 0.1 s and 64 MiB per hash).
std::optional<std::string> hashPassword(std::string_view password, bool cheap);
bool verifyPassword(const std::string& hash, std::string_view password);

// The thread that hashes passwords (about 0.1 s of CPU and 64 MiB each), on a bounded queue: at
// most `capacity` jobs wait or run; post() refuses more (the client is told `busy`). stop()
// drops the jobs not started yet, so that shutdown waits for one hash at most.
class PasswordWorker {
  public:
    explicit PasswordWorker(int capacity) : capacity_(capacity) {}
    ~PasswordWorker();
    bool post(std::function<void()> job);
    void stop();
    void join() { pool_.join(); }
    int dropped() const { return dropped_; }

  private:
    const int capacity_;
    boost::asio::thread_pool pool_{1};
    std::atomic<int> jobs_{0};
    std::atomic<int> dropped_{0};
    std::atomic<bool> stopping_{false};
};

}  // namespace rainet::server

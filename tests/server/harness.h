#pragma once
// Test harness for the server: a `rainet serve --test-mode` child process on loopback (manual
// time, sequential ids), a WebSocket client that records every message it receives (the project's
// client, wsclient/blocking_client.h, with gtest's reporting), and an HTTP helper.
#include <unistd.h>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wsclient/blocking_client.h"

namespace rainet::test {

class PostgresTestDb;  // support/postgres_test_db.h
using Json = nlohmann::ordered_json;
using namespace std::chrono_literals;

// A database path of this test process (removed by ServerProcess).
inline std::string dbPath(const std::string& name) {
    return "/tmp/rainet_" + name + "_" + std::to_string(::getpid()) + ".db";
}

// The checkout the tests were built from (scripts/, docs/); RAINET_SOURCE_DIR overrides it.
inline std::string sourceDir() {
    const char* s = std::getenv("RAINET_SOURCE_DIR");
    return s && *s ? s : RAINET_SOURCE_DIR_DEFAULT;
}

// Where a server keeps its data: the SQLite file named by its db path, or a PostgreSQL database
// of its own (made from RAINET_TEST_PG, named after the path, dropped with the ServerProcess).
enum class Backend { Sqlite, Postgres };
// Postgres when RAINET_TEST_SERVER_BACKEND is "postgres": the whole suite then runs on it.
Backend defaultBackend();

class ServerProcess {
  public:
    // Starts the server on a fresh port; `db` persists across restarts of the same object.
    explicit ServerProcess(std::string db, std::vector<std::string> extra = {},
                           Backend backend = defaultBackend());
    // A server on a database given by URI, which several servers may share (the nodes of a
    // cluster); `db` names its log only.
    struct SharedDb {
        std::string uri;
    };
    ServerProcess(std::string db, SharedDb shared, std::vector<std::string> extra);
    ~ServerProcess();
    void start();
    void kill(int signal);  // and wait for the process
    void signal(int sig);   // SIGSTOP: returns once the process is stopped; others at once
    int port() const { return port_; }
    int pid() const { return pid_; }
    // What its --db is (a SQLite path or a postgresql:// URI), for `rainet admin`.
    const std::string& dbTarget() const { return target_; }
    std::string logText() const;
    // The number of its log lines of `event` so far.
    int logCount(const std::string& event) const;
    // Blocking HTTP request; returns status and body.
    std::pair<int, std::string> http(const std::string& method, const std::string& target);
    void advance(int cs) { http("POST", "/api/test/advance?cs=" + std::to_string(cs)); }

  private:
    std::string db_, log_, target_;  // target_: what --db gets
    std::vector<std::string> extra_;
    std::unique_ptr<PostgresTestDb> pg_;
    int pid_ = -1;
    int port_ = 0;
};

class WsClient {
  public:
    // `forwardedFor`: an X-Forwarded-For header for the upgrade (a client behind a proxy).
    // Throws when the connection or the handshake fails.
    explicit WsClient(int port, const std::string& forwardedFor = {});
    void send(const std::string& text) { client_.send(text); }
    void send(const Json& j) { send(j.dump()); }
    // The next message not yet taken, or nullopt after the timeout.
    std::optional<std::string> next(std::chrono::milliseconds timeout = 5s) {
        return client_.next(timeout);
    }
    // Takes messages until one matches; fails the test (and returns null) on timeout.
    template <class Pred>
    Json waitFor(Pred pred, std::chrono::milliseconds timeout = 10s);
    Json waitType(const std::string& type) {
        return waitFor([&](const Json& j) { return j["type"] == type; });
    }
    Json waitEvent(const std::string& game, long v) {
        return waitFor([&](const Json& j) {
            return j["type"] == "event" && j["game"] == game && j["v"] == v;
        });
    }
    // Every message received so far, in order.
    std::vector<std::string> log() { return client_.received(); }
    bool isClosed() { return !client_.isOpen(); }
    // After the server closed the connection (waits up to 5 s for it); 0 without a close frame.
    int closeCode() {
        auto c = client_.waitClosed(5s);
        return c ? c->code : 0;
    }
    void close() { client_.close(); }

  private:
    wsclient::BlockingClient client_;
};

template <class Pred>
Json WsClient::waitFor(Pred pred, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        auto m = next(left);
        if (!m) break;
        Json j = Json::parse(*m, nullptr, false);
        if (!j.is_discarded() && pred(j)) return j;
    }
    auto all = log();
    std::string tail;
    for (std::size_t i = all.size() > 3 ? all.size() - 3 : 0; i < all.size(); ++i)
        tail += all[i].substr(0, 400) + "\n";
    ADD_FAILURE() << "timed out waiting for a message; the last received:\n" << tail;
    return nullptr;
}

}  // namespace rainet::test

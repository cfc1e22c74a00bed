#pragma once
// A throwaway redis-server (Debian's /usr/bin/redis-server, installed by scripts/setup.sh) for
// one test, on a unix socket in a temporary folder of its own; killed and removed with the
// object. The bus tests and the cluster's server tests use it.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bus/redis_link.h"

extern char** environ;

namespace rainet::test {

// Whether redis-server is installed (tests needing it are skipped without, like PostgreSQL's).
inline bool haveRedisServer() {
    return ::access("/usr/bin/redis-server", X_OK) == 0;
}

class RedisServer {
  public:
    RedisServer() {
        char tmpl[] = "/tmp/rainet-redis-XXXXXX";
        dir_ = mkdtemp(tmpl);
        start();
    }
    ~RedisServer() {
        stop();
        std::filesystem::remove_all(dir_);
    }
    void start() {
        const std::string sock = socket(), log = dir_ + "/redis.log";
        std::vector<std::string> args{"/usr/bin/redis-server",
                                      "--port",
                                      "0",
                                      "--unixsocket",
                                      sock,
                                      "--unixsocketperm",
                                      "700",
                                      "--save",
                                      "",
                                      "--appendonly",
                                      "no",
                                      "--logfile",
                                      log,
                                      "--daemonize",
                                      "no"};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ASSERT_EQ(posix_spawn(&pid_, argv[0], nullptr, nullptr, argv.data(), environ), 0)
            << "cannot start /usr/bin/redis-server (scripts/setup.sh installs redis-server)";
        // Ready when it answers a PING on the socket.
        for (int i = 0; i < 500; ++i) {
            bus::RedisLink probe(*bus::parseRedisAddress(address()),
                                 std::chrono::milliseconds(100));
            if (probe.command({"PING"})) return;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        FAIL() << "redis-server did not come up; its log: " << log;
    }
    void stop() {
        if (pid_ <= 0) return;
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
        std::filesystem::remove(socket());
    }
    // Stalled (SIGSTOP) and woken (SIGCONT): connections open, nothing answered meanwhile.
    void pause() { kill(pid_, SIGSTOP); }
    void resume() { kill(pid_, SIGCONT); }
    std::string socket() const { return dir_ + "/redis.sock"; }
    std::string address() const { return "unix:" + socket(); }
    bus::RedisAddress parsed() const { return *bus::parseRedisAddress(address()); }

  private:
    std::string dir_;
    pid_t pid_ = -1;
};

}  // namespace rainet::test

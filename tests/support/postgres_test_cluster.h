#pragma once
// A private PostgreSQL cluster for one test that stops and starts its server mid-test (an outage,
// a restart): the shared cluster of RAINET_TEST_PG cannot be stopped under the other tests. Made
// by scripts/postgres.sh (initdb, then the server as the `postgres` user on a unix socket in a
// temporary folder); `down()` stops the server keeping its data (sessions terminated, as a
// restart does), `up()` starts it again on the same socket; `stall()` / `resume()` stop and wake
// its processes (SIGSTOP / SIGCONT); removed with the object. Needs what
// RAINET_TEST_PG needs (the PostgreSQL server package, root or sudo to `postgres`); the tests
// using it run when RAINET_TEST_PG is set, as the other PostgreSQL tests.
#include <libpq-fe.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/postgres_test_db.h"

namespace rainet::test {

class PostgresTestCluster {
  public:
    // `sourceDir`: the checkout holding scripts/postgres.sh.
    explicit PostgresTestCluster(const std::string& sourceDir)
        : script_(sourceDir + "/scripts/postgres.sh") {
        char tmpl[] = "/tmp/rainet-pgcluster-XXXXXX";
        if (!mkdtemp(tmpl)) {
            error_ = "mkdtemp failed";
            return;
        }
        dir_ = tmpl;
        std::string out;
        if (run("start", out) != 0) {
            error_ = "postgres.sh start failed: " + out;
            return;
        }
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        uri_ = out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
    }
    ~PostgresTestCluster() {
        std::string out;
        if (stalled_) run("resume", out);
        if (!dir_.empty()) run("stop", out);
    }
    PostgresTestCluster(const PostgresTestCluster&) = delete;
    PostgresTestCluster& operator=(const PostgresTestCluster&) = delete;

    // The maintenance URI (postgresql:///postgres?host=...), empty if it could not be made.
    const std::string& uri() const { return uri_; }
    const std::string& error() const { return error_; }
    // Stops the server (fast: open sessions terminated) keeping the data; "" or the failure.
    std::string down() { return step("down"); }
    // Starts it again on the same socket; returns once it accepts connections.
    std::string up() { return step("up"); }
    // Stops (SIGSTOP) the server and its backends, their connections left open: a server that
    // stalls. resume() wakes them (SIGCONT); the destructor does too, so that a test failing
    // while the server is stalled still removes it.
    std::string stall() {
        stalled_ = true;
        return step("stall");
    }
    std::string resume() {
        stalled_ = false;
        return step("resume");
    }

    // The first value of the first row of a query ("" if none, or if the server is down).
    std::string query(const std::string& sql) const { return firstValue(uri_, sql); }

  private:
    std::string step(const char* what) {
        std::string out;
        return run(what, out) == 0 ? "" : std::string("postgres.sh ") + what + ": " + out;
    }
    int run(const char* what, std::string& out) {
        const std::string cmd = "bash '" + script_ + "' " + what + " '" + dir_ + "' 2>&1";
        FILE* f = popen(cmd.c_str(), "r");
        if (!f) return -1;
        std::array<char, 4096> buf;
        std::size_t n;
        while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) out.append(buf.data(), n);
        return pclose(f);
    }

    std::string script_, dir_, uri_, error_;
    bool stalled_ = false;
};

}  // namespace rainet::test

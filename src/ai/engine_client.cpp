#include "ai/engine_client.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "ai/engine_protocol.h"

namespace rainet::ai {

namespace {
constexpr int kHandshakeMs = 10000;
}

Result<std::unique_ptr<EngineClient>> EngineClient::start(const std::string& command,
                                                          std::uint64_t seed) {
    int in[2], out[2];
    if (pipe(in) != 0) return Error{"engine: pipe failed"};
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return Error{"engine: pipe failed"};
    }
    const pid_t pid = fork();
    if (pid < 0) return Error{"engine: fork failed"};
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    std::unique_ptr<EngineClient> c(new EngineClient());
    c->pid_ = pid;
    c->toEngine_ = in[1];
    c->fromEngine_ = out[0];
    signal(SIGPIPE, SIG_IGN);
    if (!c->send("rainet")) return Error{"engine '" + command + "': cannot write"};
    for (;;) {
        auto line = c->readLine(kHandshakeMs);
        if (!line.ok()) return Error{"engine '" + command + "': " + line.error().message};
        if (line->rfind("id name ", 0) == 0) c->name_ = line->substr(8);
        if (*line == "rainetok") break;
    }
    c->send("setoption name Seed value " + std::to_string(seed));
    return c;
}

EngineClient::~EngineClient() {
    if (pid_ > 0) {
        send("quit");
        close(toEngine_);
        // Give it a moment to exit on its own, then make sure.
        for (int i = 0; i < 50; ++i) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                break;
            }
            usleep(10000);
        }
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(fromEngine_);
    }
}

bool EngineClient::send(const std::string& line) {
    const std::string data = line + "\n";
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = write(toEngine_, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

Result<std::string> EngineClient::readLine(int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return Error{"no answer in time"};
        pollfd p{fromEngine_, POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        char chunk[4096];
        const ssize_t n = read(fromEngine_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Error{"the engine exited"};
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

Result<std::string> EngineClient::expect(const std::string& prefix, int timeoutMs) {
    for (;;) {
        auto line = readLine(timeoutMs);
        if (!line.ok()) return line;
        if (line->rfind(prefix, 0) == 0) return line;
        if (line->rfind("error", 0) == 0) return Error{"engine said: " + *line};
    }
}

Result<std::uint8_t> EngineClient::newGame(Side side, const Rules& rules) {
    side_ = side;
    send("newgame side " + std::to_string(sideNumber(side)) + " rules " + rules.name());
    send("setup");
    auto line = expect("setup ", kHandshakeMs);
    if (!line.ok()) return line.error();
    const auto links = parseSetup(line->substr(6));
    if (!links) return Error{"bad arrangement '" + *line + "'"};
    return *links;
}

Result<Action> EngineClient::act(const InfoSet& knowledge, const Budget& budget) {
    if (!start_) return Error{"engine: act before the game started"};
    const std::string pos = formatPositionCommand(*start_, knowledge.history());
    send(pos);
    std::string go = "go";
    if (budget.nodes) go += " nodes " + std::to_string(budget.nodes);
    if (budget.movetime.count()) go += " movetime " + std::to_string(budget.movetime.count());
    send(go);
    const int timeout =
        budget.movetime.count() ? static_cast<int>(budget.movetime.count()) + 5000 : 600000;
    auto line = expect("bestaction ", timeout);
    if (!line.ok()) return line.error();
    auto a = parseAction(line->substr(11));
    if (!a.ok()) return Error{"bad action in '" + *line + "'"};
    return *a;
}

}  // namespace rainet::ai

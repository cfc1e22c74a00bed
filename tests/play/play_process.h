#pragma once
// Test support for `rainet play`: a real `rainet serve --test-mode` on a loopback port that it
// keeps across restarts (so it can be stopped, killed and restarted on the same address), and
// `rainet play` as a child process driven through its stdin and read from its stdout like a person
// at a terminal would.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace rainet::test {

using namespace std::chrono_literals;

inline std::string tempPath(const std::string& name) {
    return "/tmp/rainet_play_" + name + "_" + std::to_string(::getpid());
}

inline pid_t spawn(const std::vector<std::string>& args, int in, int out) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (in >= 0) ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(out, 2);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

class Server {
  public:
    Server(const std::string& name)
        : db_(tempPath(name) + ".db"), log_(tempPath(name) + ".log"), port_(0) {
        for (const char* ext : {"", "-wal", "-shm"}) std::remove((db_ + ext).c_str());
        start();
    }
    ~Server() {
        if (pid_ > 0) kill(SIGKILL);
        for (const char* ext : {"", "-wal", "-shm"}) std::remove((db_ + ext).c_str());
        std::remove(log_.c_str());
    }
    void start() {
        const int out = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        pid_ = spawn({RAINET_BIN, "serve", "--listen", "127.0.0.1:" + std::to_string(port_), "--db",
                      db_, "--test-mode", "--threads", "2", "--rate", "100000", "--web",
                      std::string(RAINET_BINARY_DIR) + "/no-web"},
                     -1, out);
        ::close(out);
        for (int i = 0; i < 500; ++i) {
            std::this_thread::sleep_for(10ms);
            // The first start listens on port 0 (no race for a free port) and reads back the
            // port the kernel chose; a restart binds that same port again.
            const std::string log = logText();
            const auto at = log.find("\"listening\"");
            if (at == std::string::npos) continue;
            const auto port = log.find("\"port\":", at);
            if (port != std::string::npos) port_ = std::atoi(log.c_str() + port + 7);
            return;
        }
        ADD_FAILURE() << "the server did not start:\n" << logText();
    }
    void kill(int sig) {
        ::kill(pid_, sig);
        int st = 0;
        ::waitpid(pid_, &st, 0);
        pid_ = -1;
    }
    // Stops the process (SIGSTOP) and waits until it has stopped: it reads nothing more.
    void pause() {
        ::kill(pid_, SIGSTOP);
        for (int i = 0; i < 500; ++i) {
            std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
            std::string s((std::istreambuf_iterator<char>(stat)), {});
            const auto p = s.rfind(')');
            if (p != std::string::npos && p + 2 < s.size() && s[p + 2] == 'T') return;
            std::this_thread::sleep_for(1ms);
        }
        ADD_FAILURE() << "the server did not stop";
    }
    int port() const { return port_; }
    std::string url() const { return "ws://127.0.0.1:" + std::to_string(port_) + "/ws"; }
    std::string logText() const {
        std::ifstream in(log_);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    // The body of GET `target` (HTTP/1.1, Connection: close).
    std::string get(const std::string& target) const { return http("GET", target); }
    // Moves the test clock (--test-mode) on by `cs`.
    void advance(int cs) const { http("POST", "/api/test/advance?cs=" + std::to_string(cs)); }
    std::string http(const std::string& method, const std::string& target) const {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<uint16_t>(port_));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            ::close(fd);
            return "";
        }
        const std::string req =
            method + " " + target +
            " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        ::send(fd, req.data(), req.size(), 0);
        std::string res;
        char buf[4096];
        for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) res.append(buf, n);
        ::close(fd);
        const auto body = res.find("\r\n\r\n");
        return body == std::string::npos ? "" : res.substr(body + 4);
    }

  private:
    std::string db_, log_;
    int port_;
    pid_t pid_ = -1;
};

// `rainet play ARGS` (or another subcommand: `rainet bot`) with stdin and stdout (stderr merged)
// on pipes.
class Play {
  public:
    explicit Play(std::vector<std::string> args, const char* command = "play") {
        int in[2], out[2];
        // Close-on-exec: no other child may hold this one's stdin open (it would never see EOF).
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) ADD_FAILURE() << "pipe";
        args.insert(args.begin(), {RAINET_BIN, command});
        pid_ = spawn(args, in[0], out[1]);
        ::close(in[0]);
        ::close(out[1]);
        in_ = in[1];
        out_ = out[0];
        ::fcntl(out_, F_SETFL, O_NONBLOCK);
    }
    ~Play() {
        closeInput();
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_);
    }
    void type(const std::string& line) {
        const std::string l = line + "\n";
        if (::write(in_, l.data(), l.size()) != static_cast<ssize_t>(l.size()))
            ADD_FAILURE() << "cannot type " << line;
    }
    void closeInput() {
        if (in_ >= 0) ::close(in_);
        in_ = -1;
    }
    // Waits until `text` appears after the read mark; moves the mark past it and returns the
    // output between the old mark and the end of `text`. Fails the test on timeout.
    std::string expect(const std::string& text, std::chrono::milliseconds timeout = 10s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            if (auto p = out_text_.find(text, mark_); p != std::string::npos) {
                std::string between = out_text_.substr(mark_, p + text.size() - mark_);
                mark_ = p + text.size();
                return between;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 || !readSome(left)) break;
        }
        ADD_FAILURE() << "rainet play did not print '" << text << "'; its output after the mark:\n"
                      << out_text_.substr(mark_ > 2000 ? mark_ - 2000 : 0);
        return "";
    }
    // The first of `texts` to appear after the mark (its index), or -1 on timeout.
    int expectOneOf(const std::vector<std::string>& texts,
                    std::chrono::milliseconds timeout = 10s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            std::size_t best = std::string::npos;
            int which = -1;
            for (std::size_t i = 0; i < texts.size(); ++i) {
                auto p = out_text_.find(texts[i], mark_);
                if (p < best) best = p, which = static_cast<int>(i);
            }
            if (which >= 0) {
                mark_ = best + texts[which].size();
                return which;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0 || !readSome(left)) break;
        }
        ADD_FAILURE() << "rainet play printed none of the expected lines; after the mark:\n"
                      << out_text_.substr(mark_ > 2000 ? mark_ - 2000 : 0);
        return -1;
    }
    // The rest of the current line after the mark.
    std::string restOfLine() {
        while (out_text_.find('\n', mark_) == std::string::npos && readSome(5s)) {
        }
        const auto nl = out_text_.find('\n', mark_);
        std::string line = out_text_.substr(mark_, nl - mark_);
        mark_ = nl == std::string::npos ? out_text_.size() : nl + 1;
        return line;
    }
    // Exit status after stdin is closed (or `quit`), or -1 when it does not exit in time.
    int wait(std::chrono::milliseconds timeout = 10s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            readSome(10ms);
            int st = 0;
            if (::waitpid(pid_, &st, WNOHANG) == pid_) {
                pid_ = -1;
                while (readSome(10ms)) {
                }
                return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            }
        }
        return -1;
    }
    const std::string& output() const { return out_text_; }
    std::size_t mark() const { return mark_; }

  private:
    bool readSome(std::chrono::milliseconds timeout) {
        pollfd p{out_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
        char buf[8192];
        const ssize_t n = ::read(out_, buf, sizeof buf);
        if (n <= 0) return false;
        out_text_.append(buf, static_cast<std::size_t>(n));
        return true;
    }
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string out_text_;
    std::size_t mark_ = 0;
};

// The legal actions printed by `legal` once it is this player's turn (after `wait`); empty when
// the wait ended otherwise (the game is over).
inline std::vector<std::string> legalAfterWait(Play& p) {
    p.type("wait");
    p.type("legal");
    if (p.expectOneOf({"legal (", "no legal actions"}, 20s) != 0) return {};
    const std::string line = p.restOfLine();  // "N): a b c"
    std::istringstream in(line.substr(line.find("): ") + 3));
    std::vector<std::string> actions;
    for (std::string a; in >> a;) actions.push_back(a);
    return actions;
}

// Waits for this player's turn and plays a random legal action; false when the game ended.
inline bool playTurn(Play& p, std::mt19937& rng, std::string* played = nullptr) {
    auto legal = legalAfterWait(p);
    if (legal.empty()) return false;
    const std::string a = legal[rng() % legal.size()];
    p.type(a);
    if (played) *played = a;
    return true;
}

}  // namespace rainet::test

#pragma once
// A throwaway nginx (Debian's /usr/sbin/nginx) in front of some rainet nodes on loopback, for one
// test: the repository's own proxy snippet (deploy/nginx/rainet-proxy.conf) and WebSocket map
// (deploy/nginx/rainet.conf), so the test proves the shipped configuration. The upstream is
// plain round-robin with one worker: successive connections reach the nodes in turn, which lets a
// test put its clients on chosen, distinct nodes through the balancer. Killed with the object.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace rainet::test {

inline bool haveNginx() {
    return ::access("/usr/sbin/nginx", X_OK) == 0;
}

class NginxServer {
  public:
    // `source`: the repository's root; `upstreams`: the nodes' loopback ports.
    NginxServer(const std::string& source, const std::vector<int>& upstreams) {
        start(source, upstreams);
    }
    ~NginxServer() {
        if (pid_ > 0) {
            kill(pid_, SIGQUIT);
            waitpid(pid_, nullptr, 0);
        }
        std::filesystem::remove_all(dir_);
    }
    NginxServer(const NginxServer&) = delete;
    NginxServer& operator=(const NginxServer&) = delete;

    int port() const { return port_; }
    std::string log() const {
        std::ifstream f(dir_ + "/error.log");
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }

  private:
    // gtest's ASSERT_* return: not in a constructor.
    void start(const std::string& source, const std::vector<int>& upstreams) {
        char tmpl[] = "/tmp/rainet-nginx-XXXXXX";
        dir_ = mkdtemp(tmpl);
        // Workers run as nobody when the tests run as root: they may need the temp folders.
        std::filesystem::permissions(
            dir_, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                      std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                      std::filesystem::perms::others_exec);
        port_ = freePort();
        std::ifstream site(source + "/deploy/nginx/rainet.conf");
        std::stringstream text;
        text << site.rdbuf();
        const std::string conf = text.str();
        const auto mapAt = conf.find("map $http_upgrade");
        const auto mapEnd = conf.find("\n}", mapAt);
        ASSERT_NE(mapAt, std::string::npos) << "no WebSocket map in deploy/nginx/rainet.conf";
        std::ofstream out(dir_ + "/nginx.conf");
        out << "daemon off;\nworker_processes 1;\npid " << dir_ << "/nginx.pid;\n"
            << "error_log " << dir_ << "/error.log;\n"
            << "events { worker_connections 256; }\nhttp {\n    access_log off;\n";
        for (const char* t : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
            out << "    " << t << "_temp_path " << dir_ << "/" << t << ";\n";
        out << conf.substr(mapAt, mapEnd + 2 - mapAt) << "\n    upstream rainet {\n";
        for (int p : upstreams) out << "        server 127.0.0.1:" << p << ";\n";
        out << "    }\n    server {\n        listen 127.0.0.1:" << port_ << ";\n"
            << "        include " << source << "/deploy/nginx/rainet-proxy.conf;\n    }\n}\n";
        out.close();
        std::vector<std::string> args{
            "/usr/sbin/nginx", "-e", dir_ + "/error.log", "-p", dir_, "-c", dir_ + "/nginx.conf"};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ASSERT_EQ(posix_spawn(&pid_, argv[0], nullptr, nullptr, argv.data(), environ), 0)
            << "cannot start /usr/sbin/nginx (scripts/setup.sh installs nginx)";
        // Ready when its port accepts (a bare connect reaches no node: no round-robin turn).
        for (int i = 0; i < 500; ++i) {
            if (accepts()) return;
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                FAIL() << "nginx exited; its log: " << log();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        FAIL() << "nginx did not come up; its log: " << log();
    }
    // A port the kernel had free a moment ago (nginx binds it next).
    static int freePort() {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        socklen_t n = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
        ::close(fd);
        return ntohs(a.sin_port);
    }
    bool accepts() const {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port_));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }

    std::string dir_;
    int port_ = 0;
    pid_t pid_ = -1;
};

}  // namespace rainet::test

// The static file server never serves a file outside the web root: the resolver alone, then the
// real server over a raw socket (so that every byte of a hostile target reaches it unaltered).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "players.h"
#include "server/static_files.h"

namespace rainet::test {
namespace {
namespace fs = std::filesystem;

// A web root with files, a hidden file, a fifo and symlinks in and out of it; removed at the end.
struct WebRoot {
    fs::path dir = fs::temp_directory_path() / ("rainet_webroot_" + std::to_string(::getpid()));
    fs::path outside = fs::temp_directory_path() / ("rainet_outside_" + std::to_string(::getpid()));
    WebRoot() {
        fs::remove_all(dir);
        fs::remove_all(outside);
        fs::create_directories(dir / "assets");
        fs::create_directories(outside);
        std::ofstream(dir / "index.html") << "INDEX";
        std::ofstream(dir / "app.js") << "APP";
        std::ofstream(dir / "assets" / "page.css") << "CSS";
        std::ofstream(dir / ".secret") << "SECRET";
        std::ofstream(outside / "secret.txt") << "SECRET";
        ::mkfifo((dir / "pipe.js").c_str(), 0600);
        fs::create_symlink("app.js", dir / "alias.js");                  // stays inside
        fs::create_symlink(outside / "secret.txt", dir / "escape.txt");  // leaves the root
        fs::create_symlink(outside, dir / "out");                        // a folder outside
        fs::create_symlink("/etc/passwd", dir / "passwd");
    }
    ~WebRoot() {
        fs::remove_all(dir);
        fs::remove_all(outside);
    }
    std::string resolved(std::string_view path) const {
        auto f = server::resolveStaticFile(dir, path);
        return f ? f->lexically_relative(fs::canonical(dir)).string() : "";
    }
};

TEST(StaticFiles, ServesFilesAndClientRoutesInsideTheRoot) {
    WebRoot web;
    EXPECT_EQ(web.resolved("/app.js"), "app.js");
    EXPECT_EQ(web.resolved("/assets/page.css"), "assets/page.css");
    EXPECT_EQ(web.resolved("/assets/p%61ge.css"), "assets/page.css");  // decoded once
    EXPECT_EQ(web.resolved("/alias.js"), "app.js");
    EXPECT_EQ(web.resolved("/"), "index.html");
    EXPECT_EQ(web.resolved("/game/gABC"), "index.html");
    EXPECT_EQ(web.resolved("/rules/"), "index.html");
    EXPECT_EQ(web.resolved("/assets"), "index.html");  // a folder is no file
}

TEST(StaticFiles, RefusesEveryWayOut) {
    WebRoot web;
    for (const char* path : {"",
                             "app.js",
                             "//etc/passwd",
                             "//proc/self/cwd/rainet.db",
                             "/../app.js",
                             "/assets/../app.js",
                             "/./app.js",
                             "/assets/./page.css",
                             "/%2e%2e/etc/passwd",
                             "/%2E%2e/%2e%2E/etc/passwd",
                             "/.%2e/etc/passwd",
                             "/..%2fetc%2fpasswd",
                             "/assets%2fpage.css",
                             "/assets%2Fpage.css",
                             "/..%5c..%5cetc%5cpasswd",
                             "/assets%5cpage.css",
                             "/..\\..\\etc\\passwd",
                             "/%c0%ae%c0%ae/etc/passwd",
                             "/%c0%af..%c0%afetc/passwd",
                             "/%e0%80%ae%e0%80%ae/etc/passwd",
                             "/app.js%00.html",
                             "/app.js%00",
                             "/app%0a.js",
                             "/app%7f.js",
                             "/caf\xc3\xa9.js",
                             "/%",
                             "/%2",
                             "/%zz",
                             "/.secret",
                             "/%2esecret",
                             "/pipe.js",
                             "/escape.txt",
                             "/out/secret.txt",
                             "/out",
                             "/passwd",
                             "/missing.js",
                             "/assets//page.css",
                             "/assets/page.css/.."}) {
        EXPECT_EQ(web.resolved(path), "") << path;
    }
    const std::string nul("/app.js\0.html", 13);
    EXPECT_EQ(web.resolved(nul), "");
}

TEST(StaticFiles, DatabaseInsideTheWebRootIsRefused) {
    WebRoot web;
    EXPECT_TRUE(server::databaseExposure((web.dir / "rainet.db").string(), web.dir.string()));
    EXPECT_TRUE(server::databaseExposure((web.dir / "assets/x.db").string(), web.dir.string()));
    EXPECT_TRUE(server::databaseExposure((web.dir / "assets/../x.db").string(), web.dir.string()));
    // Through a symlink into the root, and the root itself given through a symlink.
    fs::create_symlink(web.dir, web.outside / "webdir");
    EXPECT_TRUE(server::databaseExposure((web.outside / "webdir/x.db").string(), web.dir.string()));
    EXPECT_TRUE(
        server::databaseExposure((web.dir / "x.db").string(), (web.outside / "webdir").string()));
    EXPECT_FALSE(server::databaseExposure((web.outside / "x.db").string(), web.dir.string()));
    EXPECT_FALSE(server::databaseExposure("rainet.db", "web/dist"));  // the defaults
    EXPECT_FALSE(server::databaseExposure("postgresql://u@h/db", web.dir.string()));
}

// One raw HTTP/1.1 request; returns the status (0 when the server closed without answering) and
// the body.
std::pair<int, std::string> rawGet(int port, const std::string& target) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return {-1, ""};
    }
    const std::string req =
        "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    (void)!::write(fd, req.data(), req.size());
    std::string res;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) res.append(buf, static_cast<size_t>(n));
    ::close(fd);
    if (res.rfind("HTTP/1.1 ", 0) != 0) return {0, res};
    const auto end = res.find("\r\n\r\n");
    return {std::stoi(res.substr(9, 3)), end == res.npos ? "" : res.substr(end + 4)};
}

TEST(StaticFiles, TheServerAnswersEveryWayOutWithTheSame404) {
    WebRoot web;
    const std::string db = dbPath("static_leak");
    fs::create_symlink(db, web.dir / "db.txt");
    fs::create_symlink(fs::path(db).parent_path(), web.dir / "dbdir");
    ServerProcess server(db, {"--web", web.dir.string()});
    ASSERT_NE(server.port(), 0);
    const auto [okStatus, okBody] = rawGet(server.port(), "/app.js");
    EXPECT_EQ(okStatus, 200);
    EXPECT_EQ(okBody, "APP");
    const auto missing = rawGet(server.port(), "/missing.js");
    EXPECT_EQ(missing.first, 404);

    const std::string base = fs::path(db).filename().string();
    std::vector<std::string> targets = {"//etc/passwd",
                                        "//proc/self/cwd/" + base,
                                        "//proc/self/cwd/" + base + "-wal",
                                        "/..//etc/passwd",
                                        "/../../../../../../etc/passwd",
                                        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                                        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
                                        "/..%2f..%2f..%2fetc%2fpasswd",
                                        "/..%5c..%5c..%5cetc%5cpasswd",
                                        "/..\\..\\..\\etc\\passwd",
                                        "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
                                        "/app.js%00.html",
                                        "/.secret",
                                        "/pipe.js",
                                        "/escape.txt",
                                        "/out/secret.txt",
                                        "/passwd",
                                        "/db.txt",
                                        "/dbdir/" + base,
                                        "/dbdir/" + base + "-wal",
                                        "/dbdir/" + base + "-shm"};
    // The database by its own absolute path, in every spelling of it.
    for (const std::string suffix : {"", "-wal", "-shm"}) {
        const std::string abs = db + suffix;
        targets.push_back("/" + abs);
        targets.push_back(abs);
        std::string encoded;
        for (char c : abs) {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02x", static_cast<unsigned char>(c));
            encoded += hex;
        }
        targets.push_back("/" + encoded);
        targets.push_back("/%2f" + encoded.substr(3));
        targets.push_back("/../.." + abs);
    }
    for (const auto& t : targets) {
        const auto [status, body] = rawGet(server.port(), t);
        EXPECT_EQ(status, 404) << t;
        EXPECT_EQ(body, missing.second) << t;  // the same body as any missing file
    }
    // A raw NUL in the target: refused one way or another, never a file.
    const auto nul = rawGet(server.port(), std::string("/app.js\0.html", 13));
    EXPECT_NE(nul.first, 200);
    fs::remove(web.dir / "db.txt");
    fs::remove(web.dir / "dbdir");
}

// `rainet serve` with these arguments, run to its exit (killed after 20 s, so that a server that
// wrongly starts fails the test instead of hanging it): the status and what it printed.
std::pair<int, std::string> serveExit(const std::string& cwd, const std::string& args) {
    const char* dir = std::getenv("RAINET_BINARY_DIR");
    const std::string bin = std::string(dir ? dir : RAINET_BINARY_DIR_DEFAULT) + "/rainet";
    const std::string cmd =
        "cd '" + cwd + "' && timeout 20 '" + bin + "' serve --listen 127.0.0.1:0 " + args + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(StaticFiles, ServeRefusesADatabaseInsideTheWebRoot) {
    WebRoot web;
    const std::string w = web.dir.string();
    const std::vector<std::string> dbs = {w + "/rainet.db", w + "/assets/data.db", "rainet.db"};
    for (const std::string& db : dbs) {
        const auto [status, out] =
            serveExit(w, "--db '" + db + "' --web " + (db == "rainet.db" ? "." : w));
        EXPECT_EQ(status, 2) << db << "\n" << out;
        EXPECT_NE(out.find("inside the web root"), std::string::npos) << out;
        EXPECT_FALSE(fs::exists(web.dir / "rainet.db"));  // refused before opening anything
    }
    // The default database (rainet.db in the working folder) with the web root as that folder.
    const auto [status, out] = serveExit(w, "--web .");
    EXPECT_EQ(status, 2) << out;
    EXPECT_FALSE(fs::exists(web.dir / "rainet.db"));
}

}  // namespace
}  // namespace rainet::test

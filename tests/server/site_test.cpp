// The site as `rainet serve` sends it: the security headers on every answer (pages, API, errors),
// HSTS only behind a trusted TLS proxy, static files with their cache policy, validators and
// compressed copies, and /metrics on its own address. Requests go over a raw socket so that every
// hostile header reaches the server as written.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <gtest/gtest.h>

#include "players.h"
#include "server/http_negotiation.h"
#include "server/static_files.h"

namespace rainet::test {
namespace {
namespace fs = std::filesystem;

// The rainet binary under test (RAINET_BINARY_DIR overrides the build's, as for the harness).
std::string siteBinary() {
    const char* d = std::getenv("RAINET_BINARY_DIR");
    return d ? std::string(d) + "/rainet" : std::string(RAINET_BIN);
}

struct SiteAnswer {
    int status = 0;
    std::map<std::string, std::string> headers;  // names in lower case; repeated ones joined
    std::string body;
    std::string header(const std::string& name) const {
        auto it = headers.find(name);
        return it == headers.end() ? "" : it->second;
    }
    bool has(const std::string& name) const { return headers.count(name) > 0; }
};

// One raw HTTP/1.1 request with `extra` header lines ("Name: value\r\n" each).
SiteAnswer siteRequest(int port, const std::string& target, const std::string& extra = "",
                       const std::string& method = "GET") {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    SiteAnswer a;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        a.status = -1;
        return a;
    }
    const std::string req = method + " " + target +
                            " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra +
                            "\r\n";
    (void)!::write(fd, req.data(), req.size());
    std::string res;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) res.append(buf, static_cast<size_t>(n));
    ::close(fd);
    if (res.rfind("HTTP/1.1 ", 0) != 0) return a;
    a.status = std::stoi(res.substr(9, 3));
    const auto end = res.find("\r\n\r\n");
    std::istringstream lines(res.substr(0, end));
    std::string line;
    std::getline(lines, line);  // the status line
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(0, 1);
        auto& slot = a.headers[name];
        slot += (slot.empty() ? "" : ", ") + value;
    }
    a.body = end == std::string::npos ? "" : res.substr(end + 4);
    return a;
}

// The security headers every answer carries.
void expectSiteHeaders(const SiteAnswer& a, const std::string& what) {
    SCOPED_TRACE(what);
    const std::string csp = a.header("content-security-policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("style-src 'self'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << csp;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("'unsafe-eval'"), std::string::npos) << csp;
    EXPECT_EQ(a.header("x-content-type-options"), "nosniff");
    EXPECT_EQ(a.header("referrer-policy"), "same-origin");
    EXPECT_EQ(a.header("x-frame-options"), "DENY");
}

// A built web root as web/scripts/build.mjs makes it: hashed script with its compressed copies
// (each with its own content, to tell which was sent), an index.html with its copies, a style
// sheet with none.
struct BuiltRoot {
    fs::path dir = fs::temp_directory_path() / ("rainet_site_" + std::to_string(::getpid()));
    fs::path outside =
        fs::temp_directory_path() / ("rainet_site_out_" + std::to_string(::getpid()));
    static constexpr const char* kApp = "/app.0123456789ab.js";
    BuiltRoot() {
        fs::remove_all(dir);
        fs::remove_all(outside);
        fs::create_directories(dir);
        fs::create_directories(outside);
        std::ofstream(dir / "index.html") << "INDEX";
        std::ofstream(dir / "app.0123456789ab.js") << "APP";
        std::ofstream(dir / "style.css") << "CSS";
        std::ofstream(dir / "site.webmanifest") << "{}";
        std::ofstream(dir / "engine.wasm") << "WASM";
        std::ofstream(outside / "secret") << "SECRET";
        // Written after the originals: not stale.
        std::this_thread::sleep_for(20ms);
        std::ofstream(dir / "app.0123456789ab.js.br") << "APP-BR";
        std::ofstream(dir / "app.0123456789ab.js.gz") << "APP-GZ";
        std::ofstream(dir / "index.html.br") << "INDEX-BR";
        std::ofstream(dir / "index.html.gz") << "INDEX-GZ";
        // A copy leading out of the root is never sent.
        fs::create_symlink(outside / "secret", dir / "style.css.br");
    }
    ~BuiltRoot() {
        fs::remove_all(dir);
        fs::remove_all(outside);
    }
};

TEST(SiteUnits, AcceptEncodingIsReadLeniently) {
    using server::acceptsEncoding;
    EXPECT_TRUE(acceptsEncoding("br", "br"));
    EXPECT_TRUE(acceptsEncoding("gzip, deflate, br, zstd", "br"));
    EXPECT_TRUE(acceptsEncoding("BR;Q=1.000", "br"));
    EXPECT_TRUE(acceptsEncoding("*", "gzip"));
    EXPECT_TRUE(acceptsEncoding("br;q=0.001", "br"));
    EXPECT_TRUE(acceptsEncoding(" gzip ; q=0.5 ", "gzip"));
    EXPECT_FALSE(acceptsEncoding("", "br"));
    EXPECT_FALSE(acceptsEncoding("identity", "gzip"));
    EXPECT_FALSE(acceptsEncoding("br;q=0", "br"));
    EXPECT_FALSE(acceptsEncoding("br;q=0.000", "br"));
    EXPECT_FALSE(acceptsEncoding("*;q=0", "gzip"));
    EXPECT_FALSE(acceptsEncoding("gzip;q=0, *", "gzip"));  // named beats "*"
    EXPECT_FALSE(acceptsEncoding("brotli, xbr, br2", "br"));
    // Malformed weights: the element is ignored.
    EXPECT_FALSE(acceptsEncoding("br;q=abc", "br"));
    EXPECT_FALSE(acceptsEncoding("br;q=1.5", "br"));
    EXPECT_FALSE(acceptsEncoding("br;q=0.0001", "br"));
    EXPECT_FALSE(acceptsEncoding("br;q=", "br"));
    EXPECT_FALSE(acceptsEncoding("br;q=-1", "br"));
    EXPECT_TRUE(acceptsEncoding("br;q=abc, gzip", "gzip"));
    EXPECT_FALSE(acceptsEncoding(",,,;;;==", "br"));
}

TEST(SiteUnits, IfNoneMatchMatchesOnlyWellFormedLists) {
    using server::noneMatchHits;
    const std::string tag = "\"1a-2b\"";
    EXPECT_TRUE(noneMatchHits("\"1a-2b\"", tag));
    EXPECT_TRUE(noneMatchHits("W/\"1a-2b\"", tag));
    EXPECT_TRUE(noneMatchHits("\"x\", \"1a-2b\"", tag));
    EXPECT_TRUE(noneMatchHits(" * ", tag));
    EXPECT_FALSE(noneMatchHits("", tag));
    EXPECT_FALSE(noneMatchHits("1a-2b", tag));                 // unquoted
    EXPECT_FALSE(noneMatchHits("\"1a-2b", tag));               // unterminated
    EXPECT_FALSE(noneMatchHits("\"1A-2B\"", tag));             // tags are case-sensitive
    EXPECT_FALSE(noneMatchHits("\"x\" junk \"1a-2b\"", tag));  // malformed before it
    EXPECT_FALSE(noneMatchHits("*, \"x\"", tag));
}

TEST(SiteUnits, ContentTypesAndHashedNames) {
    using server::contentHashedName;
    using server::contentType;
    EXPECT_STREQ(contentType("/a/engine.wasm"), "application/wasm");
    EXPECT_STREQ(contentType("manifest.webmanifest"), "application/manifest+json");
    EXPECT_STREQ(contentType("app.0123456789ab.js"), "text/javascript; charset=utf-8");
    EXPECT_STREQ(contentType("index.html"), "text/html; charset=utf-8");
    EXPECT_STREQ(contentType("icon.png"), "image/png");
    EXPECT_STREQ(contentType("x.unknown"), "application/octet-stream");
    EXPECT_STREQ(contentType("/dir.js/noext"), "application/octet-stream");
    EXPECT_TRUE(contentHashedName("/web/app.0123456789ab.js"));
    EXPECT_TRUE(contentHashedName("style.deadbeef.css"));
    EXPECT_TRUE(contentHashedName("engine.0123456789ab.wasm"));
    EXPECT_FALSE(contentHashedName("/web/app.js"));
    EXPECT_FALSE(contentHashedName("index.html"));
    EXPECT_FALSE(contentHashedName("0123456789ab.js"));  // the hash must not be the whole name
    EXPECT_FALSE(contentHashedName("app.0123456.js"));   // too short
    EXPECT_FALSE(contentHashedName("app.0123456789AB.js"));
    EXPECT_FALSE(contentHashedName("/tmp/x.0123456789ab/index.html"));  // a folder's name
}

TEST(Site, EveryAnswerCarriesTheSecurityHeaders) {
    BuiltRoot web;
    ServerProcess server(dbPath("site_headers"), {"--web", web.dir.string()});
    const int port = server.port();
    expectSiteHeaders(siteRequest(port, "/"), "the page");
    expectSiteHeaders(siteRequest(port, "/game/g1"), "a client route");
    expectSiteHeaders(siteRequest(port, BuiltRoot::kApp), "the script");
    expectSiteHeaders(siteRequest(port, "/", "If-None-Match: *\r\n"), "a 304");
    expectSiteHeaders(siteRequest(port, "/api/leaderboard"), "the API");
    expectSiteHeaders(siteRequest(port, "/api/nothing"), "an API 404");
    expectSiteHeaders(siteRequest(port, "/missing.js"), "a file's 404");
    expectSiteHeaders(siteRequest(port, "/healthz"), "/healthz");
    expectSiteHeaders(siteRequest(port, "/", "", "DELETE"), "a 405");
    expectSiteHeaders(siteRequest(port, "/" + std::string(5000, 'a')), "a 414");
    expectSiteHeaders(siteRequest(port, "/", "X-Big: " + std::string(20000, 'b') + "\r\n"),
                      "a 431");
    expectSiteHeaders(siteRequest(port, "/x", "Upgrade: websocket\r\nConnection: Upgrade\r\n"),
                      "an upgrade elsewhere than /ws");
    // The API is never cached; no HSTS without a trusted proxy.
    const auto api = siteRequest(port, "/api/leaderboard");
    EXPECT_EQ(api.header("cache-control"), "no-store");
    EXPECT_FALSE(api.has("strict-transport-security"));
    EXPECT_FALSE(
        siteRequest(port, "/", "X-Forwarded-Proto: https\r\n").has("strict-transport-security"));
}

TEST(Site, HstsOnlyWhenATrustedProxySaysTls) {
    BuiltRoot web;
    ServerProcess trusting(dbPath("site_hsts"),
                           {"--web", web.dir.string(), "--trust-proxy", "127.0.0.1/32"});
    const int port = trusting.port();
    const auto https = siteRequest(port, "/", "X-Forwarded-Proto: https\r\n");
    EXPECT_EQ(https.header("strict-transport-security"), "max-age=31536000");
    expectSiteHeaders(https, "behind TLS");
    EXPECT_TRUE(siteRequest(port, "/api/leaderboard", "X-Forwarded-Proto: https\r\n")
                    .has("strict-transport-security"));
    EXPECT_FALSE(siteRequest(port, "/").has("strict-transport-security"));
    EXPECT_FALSE(
        siteRequest(port, "/", "X-Forwarded-Proto: http\r\n").has("strict-transport-security"));
    EXPECT_FALSE(siteRequest(port, "/", "X-Forwarded-Proto: HTTPS-ish\r\n")
                     .has("strict-transport-security"));
    // A client's own value before the proxy's: the proxy's (the last) counts.
    EXPECT_FALSE(siteRequest(port, "/", "X-Forwarded-Proto: https\r\nX-Forwarded-Proto: http\r\n")
                     .has("strict-transport-security"));
    // A trusted peer that is not the one named: an untrusted range believes nothing.
    ServerProcess other(dbPath("site_hsts_other"),
                        {"--web", web.dir.string(), "--trust-proxy", "10.0.0.0/8"});
    EXPECT_FALSE(siteRequest(other.port(), "/", "X-Forwarded-Proto: https\r\n")
                     .has("strict-transport-security"));
}

TEST(Site, StaticFilesAreCachedAndRevalidated) {
    BuiltRoot web;
    ServerProcess server(dbPath("site_cache"), {"--web", web.dir.string()});
    const int port = server.port();
    const auto app = siteRequest(port, BuiltRoot::kApp);
    EXPECT_EQ(app.status, 200);
    EXPECT_EQ(app.body, "APP");
    EXPECT_EQ(app.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(app.header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(app.header("vary"), "Accept-Encoding");
    EXPECT_FALSE(app.has("content-encoding"));
    const std::string appTag = app.header("etag");
    ASSERT_FALSE(appTag.empty());

    for (const char* route : {"/", "/game/g7", "/rules"}) {
        const auto page = siteRequest(port, route);
        EXPECT_EQ(page.body, "INDEX") << route;
        EXPECT_EQ(page.header("cache-control"), "no-cache") << route;
        EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
    }
    const auto page = siteRequest(port, "/");
    const std::string tag = page.header("etag");
    ASSERT_EQ(tag.front(), '"');
    EXPECT_NE(tag, appTag);
    // The validator: 304 with no body, for the tag as sent, weak, in a list, or "*".
    for (const std::string& inm : {tag, "W/" + tag, "\"nope\", " + tag, std::string("*")}) {
        const auto again = siteRequest(port, "/", "If-None-Match: " + inm + "\r\n");
        EXPECT_EQ(again.status, 304) << inm;
        EXPECT_EQ(again.body, "") << inm;
        EXPECT_EQ(again.header("etag"), tag);
        EXPECT_EQ(again.header("cache-control"), "no-cache");
    }
    EXPECT_EQ(siteRequest(port, "/game/g7", "If-None-Match: " + tag + "\r\n").status, 304);
    // Anything else gets the page whole.
    for (const std::string& inm :
         {std::string("\"nope\""), tag.substr(1), std::string("garbage"), std::string(""),
          std::string("W/"), "\"x\" junk " + tag, std::string(3000, '"')}) {
        const auto full = siteRequest(port, "/", "If-None-Match: " + inm + "\r\n");
        EXPECT_EQ(full.status, 200) << inm;
        EXPECT_EQ(full.body, "INDEX") << inm;
    }
    // A changed file gets a new tag: the old one no longer answers 304.
    std::this_thread::sleep_for(20ms);
    std::ofstream(web.dir / "index.html") << "INDEX2";
    const auto changed = siteRequest(port, "/", "If-None-Match: " + tag + "\r\n");
    EXPECT_EQ(changed.status, 200);
    EXPECT_EQ(changed.body, "INDEX2");
    EXPECT_NE(changed.header("etag"), tag);
    // HEAD: the headers of GET, no body.
    const auto head = siteRequest(port, BuiltRoot::kApp, "", "HEAD");
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.header("content-length"), "3");
    EXPECT_EQ(head.header("etag"), appTag);
    EXPECT_EQ(head.body, "");
    // Generic MIME types for what other builds add.
    EXPECT_EQ(siteRequest(port, "/engine.wasm").header("content-type"), "application/wasm");
    EXPECT_EQ(siteRequest(port, "/site.webmanifest").header("content-type"),
              "application/manifest+json");
}

TEST(Site, CompressedCopiesAreChosenByAcceptEncoding) {
    BuiltRoot web;
    ServerProcess server(dbPath("site_encoding"), {"--web", web.dir.string()});
    const int port = server.port();
    const auto with = [&](const std::string& target, const std::string& accept) {
        return siteRequest(port, target, "Accept-Encoding: " + accept + "\r\n");
    };
    const std::map<std::string, std::string> cases = {
        {"br", "APP-BR"},
        {"gzip, deflate, br, zstd", "APP-BR"},
        {"gzip", "APP-GZ"},
        {"br;q=0, gzip", "APP-GZ"},
        {"BR", "APP-BR"},
        {"*", "APP-BR"},
        {"*;q=0", "APP"},
        {"br;q=0.000, gzip;q=0", "APP"},
        {"identity", "APP"},
        {"br;q=abc, gzip;q=2", "APP"},
        {";;;,,,", "APP"},
        {"", "APP"},
        {std::string(8000, 'x'), "APP"},
    };
    std::map<std::string, std::string> tags;
    for (const auto& [accept, body] : cases) {
        const auto a = with(BuiltRoot::kApp, accept);
        EXPECT_EQ(a.status, 200) << accept;
        EXPECT_EQ(a.body, body) << accept;
        EXPECT_EQ(a.header("vary"), "Accept-Encoding") << accept;
        EXPECT_EQ(a.header("content-type"), "text/javascript; charset=utf-8") << accept;
        EXPECT_EQ(a.header("content-encoding"), body == "APP-BR"   ? "br"
                                                : body == "APP-GZ" ? "gzip"
                                                                   : "")
            << accept;
        tags[body] = a.header("etag");
    }
    // One tag per representation.
    EXPECT_EQ(tags.size(), 3u);
    EXPECT_NE(tags["APP-BR"], tags["APP-GZ"]);
    EXPECT_EQ(with(BuiltRoot::kApp, "br").header("cache-control"),
              "public, max-age=31536000, immutable");
    EXPECT_EQ(siteRequest(port, BuiltRoot::kApp,
                          "Accept-Encoding: br\r\nIf-None-Match: " + tags["APP-BR"] + "\r\n")
                  .status,
              304);
    EXPECT_EQ(siteRequest(port, BuiltRoot::kApp,
                          "Accept-Encoding: gzip\r\nIf-None-Match: " + tags["APP-BR"] + "\r\n")
                  .status,
              200);
    // index.html and its routes have copies too.
    EXPECT_EQ(with("/", "br").body, "INDEX-BR");
    EXPECT_EQ(with("/game/g1", "gzip").body, "INDEX-GZ");
    // A copy leading out of the root is never sent; a file without copies is sent as it is.
    const auto css = with("/style.css", "br, gzip");
    EXPECT_EQ(css.body, "CSS");
    EXPECT_FALSE(css.has("content-encoding"));
    // A stale copy (the file edited after the build) is not sent in its place.
    std::this_thread::sleep_for(20ms);
    std::ofstream(web.dir / "app.0123456789ab.js") << "APP2";
    const auto fresh = with(BuiltRoot::kApp, "br, gzip");
    EXPECT_EQ(fresh.body, "APP2");
    EXPECT_FALSE(fresh.has("content-encoding"));
}

// A server as an operator runs it (no --test-mode), with /metrics on its own address; the ports
// read from its log. Stopped (SIGTERM) when it goes.
struct ProductionServer {
    std::string db = dbPath("site_production");
    std::string log = db + ".log";
    pid_t pid = -1;
    int port = 0, metricsPort = 0;
    ProductionServer(const std::string& web) {
        std::vector<std::string> args = {
            siteBinary(), "serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
            "--db",       db,      "--web",    web,           "--password-cost",  "min"};
        pid = fork();
        if (pid == 0) {
            FILE* f = std::fopen(log.c_str(), "w");
            if (f) dup2(fileno(f), 2);
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
        for (int i = 0; i < 1000 && !(port && metricsPort); ++i) {
            std::this_thread::sleep_for(10ms);
            std::ifstream in(log);
            for (std::string line; std::getline(in, line);) {
                auto j = Json::parse(line, nullptr, false);
                if (j.is_discarded()) continue;
                if (j["event"] == "listening") port = j["port"].get<int>();
                if (j["event"] == "metrics_listening") metricsPort = j["port"].get<int>();
            }
        }
    }
    ~ProductionServer() {
        if (pid > 0) {
            ::kill(pid, SIGTERM);
            int status = 0;
            waitpid(pid, &status, 0);
        }
        for (const char* ext : {"", "-wal", "-shm", ".log"}) std::remove((db + ext).c_str());
    }
};

TEST(Site, MetricsAreServedOnTheirOwnAddressOnly) {
    BuiltRoot web;
    ProductionServer server(web.dir.string());
    ASSERT_NE(server.port, 0);
    ASSERT_NE(server.metricsPort, 0);
    ASSERT_NE(server.port, server.metricsPort);
    // The public address: no counters, and not the client's page either.
    const auto pub = siteRequest(server.port, "/metrics");
    EXPECT_EQ(pub.status, 404);
    EXPECT_EQ(pub.body.find("rainet_"), std::string::npos);
    EXPECT_EQ(siteRequest(server.port, "/").body, "INDEX");
    // The metrics address: /metrics and nothing else (no site, no API, no WebSocket).
    const auto m = siteRequest(server.metricsPort, "/metrics");
    EXPECT_EQ(m.status, 200);
    EXPECT_NE(m.body.find("rainet_http_requests_total"), std::string::npos) << m.body;
    EXPECT_EQ(siteRequest(server.metricsPort, "/").status, 404);
    EXPECT_EQ(siteRequest(server.metricsPort, "/api/leaderboard").status, 404);
    EXPECT_EQ(siteRequest(server.metricsPort, "/healthz").status, 404);
    EXPECT_EQ(siteRequest(server.metricsPort, "/metrics", "", "POST").status, 405);
    EXPECT_EQ(siteRequest(server.metricsPort, "/ws",
                          "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: "
                          "13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
                  .status,
              404);
    // /healthz on the public address says ok and nothing more.
    const auto health = siteRequest(server.port, "/healthz");
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.body, "ok\n");
}

TEST(Site, ABadMetricsAddressStopsTheStart) {
    const std::string cmd = siteBinary() +
                            " serve --listen 127.0.0.1:0 --metrics-listen nowhere --db " +
                            dbPath("site_badmetrics") + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    const int status = ::pclose(p);
    EXPECT_EQ(WEXITSTATUS(status), 2) << out;
    EXPECT_NE(out.find("--metrics-listen must be HOST:PORT"), std::string::npos) << out;
}

}  // namespace
}  // namespace rainet::test

// An HTTP session: static files, the archive, profile and leaderboard API, analysis, health,
// metrics and the test-mode controls; an upgrade to /ws is admitted here and handed over.
#include "server/sessions.h"

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <utility>

#include "protocol/http_answers.h"
#include "server/archive.h"
#include "server/cluster_node.h"
#include "server/hex_digit.h"
#include "server/http_negotiation.h"
#include "server/site_headers.h"
#include "server/static_files.h"
#include "store/log.h"

namespace rainet::server {

using protocol::ErrorCode;
using protocol::Json;
using protocol::MsgType;

namespace {

constexpr std::size_t kMaxTargetBytes = 4096;   // an HTTP request target (else 414)
constexpr std::size_t kMaxHeaderBytes = 16384;  // an HTTP header block (else 431)

std::string percentDecode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hexDigit(s[i + 1]) >= 0 && hexDigit(s[i + 2]) >= 0) {
            out += static_cast<char>(hexDigit(s[i + 1]) * 16 + hexDigit(s[i + 2]));
            i += 2;
        } else {
            out += s[i] == '+' ? ' ' : s[i];
        }
    }
    return out;
}

std::string queryParam(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        std::string_view kv = query.substr(0, amp);
        const auto eq = kv.find('=');
        if (kv.substr(0, eq) == key) return eq == kv.npos ? "" : percentDecode(kv.substr(eq + 1));
        if (amp == query.npos) break;
        query.remove_prefix(amp + 1);
    }
    return {};
}

int intParam(std::string_view query, std::string_view key, int fallback, int lo, int hi) {
    const std::string v = queryParam(query, key);
    if (v.empty() || v.size() > 9) return fallback;
    for (char c : v)
        if (!std::isdigit(static_cast<unsigned char>(c))) return fallback;
    return std::clamp(std::stoi(v), lo, hi);
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(tcp::socket&& socket, Hub& hub, Registry& registry, HttpRole role)
        : stream_(std::move(socket)), hub_(hub), registry_(registry), role_(role) {}
    void run() {
        asio::dispatch(stream_.get_executor(),
                       beast::bind_front_handler(&HttpSession::doRead, shared_from_this()));
    }

  private:
    void doRead() {
        parser_.emplace();
        parser_->body_limit(8192);
        parser_->header_limit(kMaxHeaderBytes);
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buf_, *parser_,
                         beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
    }

    void onRead(beast::error_code ec, std::size_t) {
        if (ec == http::error::end_of_stream) {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        if (ec == http::error::header_limit) return refuseOversized();
        if (ec) return;
        auto req = parser_->release();
        const std::string target(req.target());
        if (target.size() > kMaxTargetBytes) {
            req.keep_alive(false);
            return respond(req, http::status::uri_too_long, "text/plain", "target too long\n");
        }
        const std::string path = target.substr(0, target.find('?'));
        tls_ = false;
        if (!registry_.trusted.empty()) {
            beast::error_code pe;
            const auto peer = stream_.socket().remote_endpoint(pe);
            std::string proto;  // every X-Forwarded-Proto header, in order, as one list
            for (auto [it, end] = req.equal_range("X-Forwarded-Proto"); it != end; ++it)
                proto += (proto.empty() ? "" : ",") + std::string(it->value());
            tls_ = !pe && tlsInFront(peer.address(), proto, registry_.trusted);
        }
        if (role_ == HttpRole::Metrics) return metricsOnly(req, path);
        if (websocket::is_upgrade(req)) {
            if (path != "/ws")
                return respond(req, http::status::not_found, "text/plain", "not found\n");
            return upgrade(std::move(req));
        }
        ++hub_.metrics().httpRequests;
        // The request's top: an exception answers this request 500, logged once.
        try {
            handle(
                req, path,
                target.find('?') == std::string::npos ? "" : target.substr(target.find('?') + 1));
        } catch (const std::exception& e) {
            ++hub_.metrics().requestsFailed;
            logEvent("http_exception", {{"path", path}, {"message", e.what()}});
            respond(req, http::status::internal_server_error, "application/json",
                    R"({"error":"internal"})");
        }
    }

    // Under the connection caps, or 503 with Retry-After (docs/protocol.md section 1).
    void upgrade(http::request<http::string_body> req) {
        beast::error_code e;
        const auto peer = stream_.socket().remote_endpoint(e);
        if (e) return;
        std::string forwarded;  // every X-Forwarded-For header, in order, as one list
        for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it)
            forwarded += (forwarded.empty() ? "" : ",") + std::string(it->value());
        const std::string address = clientAddress(peer.address(), forwarded, registry_.trusted);
        auto ticket = registry_.admission.admit(address);
        if (!ticket) {
            ++hub_.metrics().connectionsRefused;
            logEvent("connection_refused", {{"address", address}});
            auto res = std::make_shared<http::response<http::string_body>>(
                http::status::service_unavailable, req.version());
            stamp(*res);
            res->set(http::field::content_type, "text/plain");
            res->set(http::field::retry_after, "10");
            res->keep_alive(false);
            res->body() = "too many connections; try again later\n";
            res->prepare_payload();
            return write(res);
        }
        stream_.expires_never();
        startWsSession(stream_.release_socket(), hub_, registry_, address, std::move(ticket),
                       std::move(req));
    }

    // The request line or the header block is over its limit: 414 or 431, then close. The
    // parser has stored the target once it has read the request line.
    void refuseOversized() {
        const auto seen = parser_->get().target();
        const bool target = seen.empty() || seen.size() > kMaxTargetBytes;
        auto res = std::make_shared<http::response<http::string_body>>(
            target ? http::status::uri_too_long : http::status::request_header_fields_too_large,
            11);
        tls_ = false;  // the headers were not read whole: no X-Forwarded-Proto to believe
        stamp(*res);
        res->set(http::field::content_type, "text/plain");
        res->keep_alive(false);
        res->body() = target ? "target too long\n" : "header block too large\n";
        res->prepare_payload();
        write(res);
    }

    template <class Body>
    void write(std::shared_ptr<http::response<Body>> res) {
        http::async_write(stream_, *res,
                          [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
                              if (ec) return;
                              if (res->need_eof()) return self->lingeringClose();
                              self->doRead();
                          });
    }

    // After the last response: end our side, then read and discard what the client still sends
    // (a request refused before it was read whole) until it closes, for at most 2 s. Closing at
    // once with unread data would reset the connection, and the client could lose the response.
    void lingeringClose() {
        beast::error_code e;
        stream_.socket().shutdown(tcp::socket::shutdown_send, e);
        if (e) return;
        stream_.expires_after(std::chrono::seconds(2));
        discard();
    }
    void discard() {
        buf_.consume(buf_.size());
        stream_.async_read_some(buf_.prepare(4096),
                                [self = shared_from_this()](beast::error_code ec, std::size_t) {
                                    if (!ec) self->discard();
                                });
    }

    void respond(const http::request<http::string_body>& req, http::status status, const char* type,
                 std::string body, const std::string& disposition = {}) {
        auto res = std::make_shared<http::response<http::string_body>>(status, req.version());
        stamp(*res);
        res->set(http::field::content_type, type);
        if (!disposition.empty()) res->set(http::field::content_disposition, disposition);
        res->set(http::field::cache_control, "no-store");
        res->keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res->body() = std::move(body);
        res->prepare_payload();
        write(res);
    }

    void handle(const http::request<http::string_body>& req, const std::string& path,
                const std::string& query) {
        const auto json = "application/json";
        if (req.method() == http::verb::post && path == "/api/test/advance" &&
            hub_.config().testMode) {
            hub_.advanceTime(intParam(query, "cs", 0, 0, 100000000));
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        // Test mode: the store fails on demand (?fail=1), its commits commit but answer that
        // their outcome is unknown (?fail=commit), or it works again (?fail=0); its reads
        // are slow on demand (?delay_reads=MS; 0 releases them). GET: the reads held now.
        if (path == "/api/test/store" && hub_.config().testMode) {
            if (req.method() == http::verb::get)
                return respond(
                    req, http::status::ok, json,
                    protocol::render(protocol::StoreTestState{hub_.store().readsDelayed()}));
            if (req.method() == http::verb::post) {
                if (const std::string ms = queryParam(query, "delay_reads"); !ms.empty())
                    hub_.store().delayReads(intParam(query, "delay_reads", 0, 0, 600000));
                else {
                    const std::string fail = queryParam(query, "fail");
                    hub_.store().injectFaults(fail == "1");
                    hub_.store().injectUnknownCommits(fail == "commit");
                }
                return respond(req, http::status::ok, "text/plain", "ok\n");
            }
        }
        // Test mode: the next message handled in=connection|game|bot|http throws.
        if (req.method() == http::verb::post && path == "/api/test/throw" &&
            hub_.config().testMode) {
            const std::string in = queryParam(query, "in");
            const Hub::TestThrow where = in == "connection" ? Hub::TestThrow::Connection
                                         : in == "game"     ? Hub::TestThrow::Game
                                         : in == "bot"      ? Hub::TestThrow::Bot
                                         : in == "http"     ? Hub::TestThrow::Http
                                                            : Hub::TestThrow::None;
            hub_.armTestThrow(where);
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        // Test mode: no analysis starts while held (?hold=1) until released (?hold=0).
        if (req.method() == http::verb::post && path == "/api/test/analysis" &&
            hub_.config().testMode) {
            registry_.analyses->hold(queryParam(query, "hold") == "1");
            return respond(req, http::status::ok, "text/plain", "ok\n");
        }
        if (hub_.takeTestThrow(Hub::TestThrow::Http))
            throw std::runtime_error("test: thrown on demand in an HTTP request");
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return respond(req, http::status::method_not_allowed, "text/plain",
                           "method not allowed\n");
        if (path == "/healthz") {
            const ClusterNode* cluster = hub_.cluster();
            if (!cluster) return respond(req, http::status::ok, "text/plain", "ok\n");
            return respond(
                req, cluster->healthy() ? http::status::ok : http::status::service_unavailable,
                "application/json", protocol::render(cluster->health()) + "\n");
        }
        // On the public listener only in test mode (the suite reads it there); an operator's
        // Prometheus scrapes --metrics-listen.
        if (path == "/metrics") {
            if (hub_.config().testMode) return sendMetrics(req);
            return respond(req, http::status::not_found, "text/plain", "not found\n");
        }
        if (path == "/api/games" || path == "/api/games/") {
            const std::string status = queryParam(query, "status");
            if (!status.empty() && status != "active" && !parseGameStatus(status))
                return respond(req, http::status::bad_request, json, R"({"error":"bad_status"})");
            if (!firstPage(query)) return badPage(req);
            const std::string after = queryParam(query, "after");
            auto key = parseGameCursor(after);
            if (!after.empty() && !key) return badCursor(req);
            return fromStore(req, [player = queryParam(query, "player"), status, key,
                                   n = intParam(query, "per_page", 20, 1, 100)](store::Store& s) {
                return listed(gameListJson(s, player, status, key, n));
            });
        }
        if (path.rfind("/api/games/", 0) == 0 && path.ends_with("/analysis"))
            return analysis(req, path.substr(11, path.size() - 11 - 9), query);
        if (path.rfind("/api/games/", 0) == 0 && path.ends_with("/record")) {
            const std::string id = path.substr(11, path.size() - 11 - 7);
            return fromStore(req, [id](store::Store& s) {
                auto r = gameRecordText(s, id);
                if (!r) return StoreAnswer::failed(r.error());
                if (!*r)
                    return StoreAnswer{http::status::not_found, "application/json",
                                       R"({"error":"no_record"})"};
                return StoreAnswer{http::status::ok, "text/plain; charset=utf-8", std::move(**r),
                                   "attachment; filename=\"rainet-" + id + ".txt\""};
            });
        }
        if (path.rfind("/api/games/", 0) == 0)
            return fromStore(req, [id = path.substr(11)](store::Store& s) {
                return found(gameRecordJson(s, id), R"({"error":"unknown_game"})");
            });
        if (path == "/api/leaderboard") {
            if (!firstPage(query)) return badPage(req);
            const std::string after = queryParam(query, "after");
            auto key = parseRankCursor(after);
            if (!after.empty() && !key) return badCursor(req);
            return fromStore(req,
                             [key, n = intParam(query, "per_page", 20, 1, 100)](store::Store& s) {
                                 return listed(leaderboardJson(s, key, n));
                             });
        }
        if (path.rfind("/api/players/", 0) == 0)
            return fromStore(req, [id = path.substr(13)](store::Store& s) {
                return found(playerProfileJson(s, id), R"({"error":"unknown_player"})");
            });
        if (path.rfind("/api/", 0) == 0)
            return respond(req, http::status::not_found, json, R"({"error":"not_found"})");
        serveStatic(req, path);
    }

    // GET /api/games/{id}/analysis?side=1|2 (server/analysis.h). Anything but a finished game
    // answers exactly as an unknown game: a game in play is never analysed, and the answer does
    // not tell which games exist unfinished. The network thread only reads the record; the
    // analysis runs on the analysis thread and its answer is posted back to this session.
    void analysis(const http::request<http::string_body>& req, const std::string& id,
                  const std::string& query) {
        const auto json = "application/json";
        const std::string sideText = queryParam(query, "side");
        if (sideText != "1" && sideText != "2")
            return respond(req, http::status::bad_request, json,
                           R"({"error":"bad_side","message":"side=1 or side=2"})");
        const Side side = sideText == "1" ? Side::One : Side::Two;
        Analyses& analyses = *registry_.analyses;
        if (auto hit = analyses.cached(id, side)) return respond(req, http::status::ok, json, *hit);
        // The record is read on a reader thread, then this goes on on the session's strand.
        auto r = std::make_shared<http::request<http::string_body>>(req);
        hub_.store().read([self = shared_from_this(), r, id, side] {
            auto found =
                std::make_shared<store::Lookup<store::GameData>>(self->hub_.store().loadGame(id));
            asio::post(self->stream_.get_executor(),
                       [self, r, id, side, found] { self->analyse(*r, id, side, *found); });
        });
    }
    void analyse(const http::request<http::string_body>& req, const std::string& id, Side side,
                 const store::Lookup<store::GameData>& found) {
        const auto json = "application/json";
        Analyses& analyses = *registry_.analyses;
        if (!found) return internal(req, found.error());
        const auto unknown = [&] {
            respond(req, http::status::not_found, json, R"({"error":"unknown_game"})");
        };
        if (!*found) return unknown();
        const store::GameData& d = **found;
        if (d.game.status != GameStatus::Finished || d.setup[0] < 0 || d.setup[1] < 0)
            return unknown();
        auto start = Position::fromSetups(static_cast<std::uint8_t>(d.setup[0]),
                                          static_cast<std::uint8_t>(d.setup[1]),
                                          Rules::byName(d.game.preset).value_or(Rules::standard()));
        if (!start) return unknown();
        Analyses::Job job{id, side, *start, {}};
        for (const auto& row : d.actions) {
            auto a = parseAction(row.action);
            if (!a) break;
            job.actions.push_back(*a);
        }
        auto r = std::make_shared<http::request<http::string_body>>(req);
        stream_.expires_never();  // no read is pending while the analysis runs
        const bool queued =
            analyses.request(std::move(job), [self = shared_from_this(), r](auto body) {
                asio::post(self->stream_.get_executor(), [self, r, body] {
                    self->stream_.expires_after(std::chrono::seconds(30));
                    if (!body) return self->busy(*r);  // dropped: the server is stopping
                    self->respond(*r, http::status::ok, "application/json", *body);
                });
            });
        if (!queued) busy(req);
    }
    // Too many analyses waiting: 503, try again later.
    void busy(const http::request<http::string_body>& req) {
        auto res = std::make_shared<http::response<http::string_body>>(
            http::status::service_unavailable, req.version());
        stamp(*res);
        res->set(http::field::content_type, "application/json");
        res->set(http::field::cache_control, "no-store");
        res->set(http::field::retry_after, "5");
        res->keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res->body() = R"({"error":"busy"})";
        res->prepare_payload();
        write(res);
    }

    // The store failed: 500, logged, nothing said about what is stored.
    void internal(const http::request<http::string_body>& req, const Error& e) {
        logEvent("store_error", {{"message", e.message}});
        respond(req, http::status::internal_server_error, "application/json",
                R"({"error":"internal"})");
    }
    // An answer read from the store, made on a reader thread.
    struct StoreAnswer {
        http::status status;
        const char* type;
        std::string body;
        std::string disposition = {};
        // The store failed: 500, logged, nothing said about what is stored.
        static StoreAnswer failed(const Error& e) {
            logEvent("store_error", {{"message", e.message}});
            return {http::status::internal_server_error, "application/json",
                    R"({"error":"internal"})"};
        }
    };
    static StoreAnswer listed(Result<std::string> r) {
        if (!r) return StoreAnswer::failed(r.error());
        return {http::status::ok, "application/json", std::move(*r)};
    }
    static StoreAnswer found(store::Lookup<std::string> r, const char* unknown) {
        if (!r) return StoreAnswer::failed(r.error());
        if (!*r) return {http::status::not_found, "application/json", unknown};
        return {http::status::ok, "application/json", std::move(**r)};
    }
    // Reads on the store's reader threads (a slow archive page holds no network thread), then
    // answers on this session's strand. The session reads its next request only after answering
    // this one: one store job per HTTP connection at most.
    template <class Read>
    void fromStore(const http::request<http::string_body>& req, Read read) {
        auto request = std::make_shared<http::request<http::string_body>>(req);
        hub_.store().read([self = shared_from_this(), request, read = std::move(read)]() mutable {
            auto answer = std::make_shared<StoreAnswer>(read(self->hub_.store()));
            asio::post(self->stream_.get_executor(), [self, request, answer] {
                self->respond(*request, answer->status, answer->type, std::move(answer->body),
                              answer->disposition);
            });
        });
    }
    // Listings are paged by cursor (`after`); `page` is accepted as 1 only (the first page), so
    // that links made before cursors keep working and no page is read by skipping rows.
    static bool firstPage(const std::string& query) {
        const std::string page = queryParam(query, "page");
        return page.empty() || page == "1";
    }
    void badPage(const http::request<http::string_body>& req) {
        respond(
            req, http::status::bad_request, "application/json",
            R"({"error":"use_after","message":"pages after the first are asked for with after=<next>"})");
    }
    void badCursor(const http::request<http::string_body>& req) {
        respond(req, http::status::bad_request, "application/json", R"({"error":"bad_cursor"})");
    }

    // Every answer's first headers: who answers, and the site's security headers.
    template <class Res>
    void stamp(Res& res) {
        res.set(http::field::server, "rainet");
        addSiteHeaders(res, tls_);
    }

    void sendMetrics(const http::request<http::string_body>& req) {
        respond(req, http::status::ok, "text/plain; version=0.0.4", hub_.metrics().render());
    }
    // The --metrics-listen address: GET /metrics and nothing else.
    void metricsOnly(const http::request<http::string_body>& req, const std::string& path) {
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return respond(req, http::status::method_not_allowed, "text/plain",
                           "method not allowed\n");
        if (path != "/metrics")
            return respond(req, http::status::not_found, "text/plain", "not found\n");
        sendMetrics(req);
    }

    // A file of the web root (static_files.h), as its copy compressed at build time when the
    // client accepts one (brotli, then gzip), with a validator: an ETag made of the size and the
    // modification time of the bytes sent, answered 304 by If-None-Match. Names carrying their
    // content's hash are cached for a year; everything else (index.html and the client's routes
    // above all) is revalidated on every use.
    void serveStatic(const http::request<http::string_body>& req, const std::string& path) {
        namespace fs = std::filesystem;
        const auto& root = hub_.config().web;
        // One answer for every refusal and every missing file: a 404 tells nothing about what
        // exists outside the root (static_files.h).
        const auto file = resolveStaticFile(root, path);
        if (!file) return respond(req, http::status::not_found, "text/plain", "not found\n");
        const auto joined = [&req](http::field f) {
            std::string all;
            for (auto [it, end] = req.equal_range(f); it != end; ++it)
                all += (all.empty() ? "" : ",") + std::string(it->value());
            return all;
        };
        const std::string accept = joined(http::field::accept_encoding);
        fs::path send = *file;
        std::string coding;
        for (const auto& [c, suffix] : {std::pair{"br", ".br"}, std::pair{"gzip", ".gz"}}) {
            if (!acceptsEncoding(accept, c)) continue;
            if (auto copy = precompressedCopy(root, *file, suffix)) {
                send = *copy;
                coding = c;
                break;
            }
        }
        http::file_body::value_type body;
        beast::error_code bec;
        body.open(send.c_str(), beast::file_mode::scan, bec);
        std::error_code ec;
        const auto modified = fs::last_write_time(send, ec);
        if (bec || ec) return respond(req, http::status::not_found, "text/plain", "not found\n");
        const auto size = body.size();
        char tag[64];
        std::snprintf(tag, sizeof tag, "\"%llx-%llx%s%s\"", static_cast<unsigned long long>(size),
                      static_cast<unsigned long long>(modified.time_since_epoch().count()),
                      coding.empty() ? "" : "-", coding.c_str());
        const std::string etag = tag;
        const char* cache =
            contentHashedName(file->string()) ? "public, max-age=31536000, immutable" : "no-cache";
        const auto headers = [&](auto& res) {
            stamp(res);
            res.set(http::field::etag, etag);
            res.set(http::field::cache_control, cache);
            res.set(http::field::vary, "Accept-Encoding");
            res.keep_alive(req.keep_alive());
        };
        if (noneMatchHits(joined(http::field::if_none_match), etag)) {
            auto res = std::make_shared<http::response<http::empty_body>>(
                http::status::not_modified, req.version());
            headers(*res);
            return write(res);
        }
        const auto described = [&](auto& res) {
            headers(res);
            res.set(http::field::content_type, contentType(file->string()));
            if (!coding.empty()) res.set(http::field::content_encoding, coding);
            res.content_length(size);
        };
        if (req.method() == http::verb::head) {
            auto head =
                std::make_shared<http::response<http::empty_body>>(http::status::ok, req.version());
            described(*head);
            return write(head);
        }
        auto res = std::make_shared<http::response<http::file_body>>(
            std::piecewise_construct, std::make_tuple(std::move(body)),
            std::make_tuple(http::status::ok, req.version()));
        described(*res);
        write(res);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buf_;
    std::optional<http::request_parser<http::string_body>> parser_;
    Hub& hub_;
    Registry& registry_;
    HttpRole role_;
    bool tls_ = false;  // the request being answered came over TLS (site_headers.h)
};

}  // namespace

void startHttpSession(tcp::socket&& socket, Hub& hub, Registry& registry, HttpRole role) {
    std::make_shared<HttpSession>(std::move(socket), hub, registry, role)->run();
}

}  // namespace rainet::server

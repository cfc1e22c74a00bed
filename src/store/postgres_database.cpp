#include "store/postgres_database.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/log.h"

namespace rainet::store {

namespace {

// A connection event in the log (store/log.h), with the target's password redacted.
void logConnection(const char* event, const std::string& uri, const std::string& error) {
    nlohmann::ordered_json fields{{"db", redactTarget(uri)}};
    if (!error.empty()) fields["error"] = error;
    logEvent(event, std::move(fields));
}

// libpq's message on one line, prefixed "store: ".
std::string message(const char* m) {
    std::string s;
    for (const char* p = m ? m : ""; *p; ++p) {
        const bool space = *p == '\n' || *p == '\t' || *p == ' ';
        if (!space)
            s += *p;
        else if (!s.empty() && s.back() != ' ')
            s += ' ';
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return "store: " + (s.empty() ? std::string("PostgreSQL error") : s);
}
std::string message(const std::string& m) {
    return message(m.c_str());
}

// The store's `?` / `?N` placeholders as PostgreSQL's `$N` (string literals left alone).
std::string render(const char* sql) {
    std::string out;
    int next = 1;
    bool quoted = false;
    for (const char* p = sql; *p; ++p) {
        if (*p == '\'') quoted = !quoted;
        if (*p != '?' || quoted) {
            out += *p;
            continue;
        }
        out += '$';
        if (p[1] >= '0' && p[1] <= '9') continue;  // ?N: the digits follow
        out += std::to_string(next++);
    }
    return out;
}

bool isRead(const char* sql) {
    return std::string_view(sql).starts_with("SELECT");
}

}  // namespace

// Parameters as text (the server infers their types from the statement); the result is fetched
// whole at the first step().
class PostgresStatement final : public Statement {
  public:
    // `sql` is rendered at once: only a cached statement's (a literal) is kept, as its key.
    PostgresStatement(PostgresDatabase& db, const char* sql, bool cached)
        : db_(db), sql_(render(sql)), key_(cached ? sql : nullptr), read_(isRead(sql)) {}
    ~PostgresStatement() override { PQclear(res_); }
    void bind(int i, std::int64_t v) override { param(i) = std::to_string(v); }
    void bindReal(int i, double v) override {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);  // round-trips exactly
        param(i) = buf;
    }
    void bind(int i, const std::string& v) override { param(i) = v; }
    void bindNull(int i) override { param(i).reset(); }
    Step step() override {
        if (!executed_) {
            executed_ = true;
            if (!execute() && db_.recoverLostConnection() && read_) execute();
        }
        if (!error_.empty()) return Step::Failed;
        return ++row_ < PQntuples(res_) ? Step::Row : Step::Done;
    }
    std::int64_t integer(int col) const override {
        return PQgetisnull(res_, row_, col)
                   ? 0
                   : std::strtoll(PQgetvalue(res_, row_, col), nullptr, 10);
    }
    double real(int col) const override {
        return PQgetisnull(res_, row_, col) ? 0 : std::strtod(PQgetvalue(res_, row_, col), nullptr);
    }
    std::string text(int col) const override {
        return PQgetisnull(res_, row_, col) ? "" : PQgetvalue(res_, row_, col);
    }
    std::string error() const override { return error_; }

  private:
    std::optional<std::string>& param(int i) {
        if (static_cast<int>(params_.size()) < i) params_.resize(i);
        return params_[i - 1];
    }
    // Runs the statement; false (error_ set) if it failed.
    bool execute() {
        PQclear(res_);
        res_ = nullptr;
        error_.clear();
        if (auto e = db_.ensureConnected()) {
            error_ = e->message;
            return false;
        }
        std::vector<const char*> values;
        for (auto& p : params_) values.push_back(p ? p->c_str() : nullptr);
        const int n = static_cast<int>(values.size());
        if (key_) {
            auto it = db_.prepared_.find(key_);
            if (it == db_.prepared_.end()) {
                // Appended, not "s" + string: g++ 12 warns wrongly (-Wrestrict) about the latter.
                std::string name = "s";
                name += std::to_string(db_.prepared_.size());
                PGresult* r =
                    db_.await(PQsendPrepare(db_.conn_, name.c_str(), sql_.c_str(), 0, nullptr));
                const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
                if (!ok) error_ = message(r ? PQresultErrorMessage(r) : db_.connectionError());
                PQclear(r);
                if (!ok) return false;
                it = db_.prepared_.emplace(key_, name).first;
            }
            res_ = db_.await(PQsendQueryPrepared(db_.conn_, it->second.c_str(), n, values.data(),
                                                 nullptr, nullptr, 0));
        } else {
            res_ = db_.await(PQsendQueryParams(db_.conn_, sql_.c_str(), n, nullptr, values.data(),
                                               nullptr, nullptr, 0));
        }
        const ExecStatusType s = PQresultStatus(res_);
        if (s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK) return true;
        error_ = message(res_ ? PQresultErrorMessage(res_) : db_.connectionError());
        return false;
    }

    PostgresDatabase& db_;
    std::string sql_;
    const char* key_;
    bool read_;
    std::vector<std::optional<std::string>> params_;
    PGresult* res_ = nullptr;
    bool executed_ = false;
    int row_ = -1;
    std::string error_;
};

Result<std::unique_ptr<Database>> PostgresDatabase::open(const std::string& uri,
                                                         const std::string& sync) {
    if (sync != "off" && sync != "normal" && sync != "full")
        return Error{"store: synchronous must be off, normal or full"};
    std::unique_ptr<PostgresDatabase> d(new PostgresDatabase());
    d->uri_ = uri;
    d->syncCommit_ = sync == "off" ? "off" : "on";
    if (auto e = d->connect()) return *e;
    return std::unique_ptr<Database>(std::move(d));
}

PostgresDatabase::~PostgresDatabase() {
    PQfinish(conn_);
}

std::optional<Error> PostgresDatabase::connect() {
    PQfinish(conn_);
    prepared_.clear();
    inTransaction_ = false;
    lost_.clear();
    // Defaults first: the URI's own settings override them. The keepalives find a server gone
    // silent under an idle connection (a partition, a dead host: nothing closes the socket) in
    // 15 + 3 x 5 s, tcp_user_timeout one that stops acknowledging what is sent in 30 s (TCP only;
    // a unix socket has neither). A server that is alive but does not answer (stalled, stopped)
    // still acknowledges at the TCP level: the wait for each answer is bounded below, in await().
    const char* keys[] = {"connect_timeout",           "keepalives",       "keepalives_idle",
                          "keepalives_interval",       "keepalives_count", "tcp_user_timeout",
                          "fallback_application_name", "dbname",           nullptr};
    const char* values[] = {"10", "1", "15", "5", "3", "30000", "rainet", uri_.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, 1);
    if (PQstatus(conn_) != CONNECTION_OK)
        return Error{"store: cannot connect to " + redactTarget(uri_) + ": " +
                     message(PQerrorMessage(conn_)).substr(7)};
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);  // "already exists" notices
    // Nonblocking: no send can block on a server that stopped reading (await() waits instead).
    if (PQsetnonblocking(conn_, 1) != 0) return Error{message(PQerrorMessage(conn_))};
    // The statement timeout: the operator's (the URI's `options=-c statement_timeout=...`, or the
    // role's or database's setting) if there is one, else kStatementTimeoutMs. The answer is the
    // timeout in force, in milliseconds, from which each answer's wait is bounded.
    waitMs_ = waitBound(kStatementTimeoutMs);
    const std::string setup = "SET synchronous_commit = " + syncCommit_ +
                              "; SELECT set_config('statement_timeout', '" +
                              std::to_string(kStatementTimeoutMs) +
                              "', false) WHERE current_setting('statement_timeout') = '0'"
                              "; SELECT setting FROM pg_settings WHERE name = 'statement_timeout'";
    PGresult* r = await(PQsendQuery(conn_, setup.c_str()));
    std::optional<Error> e;
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        e = Error{message(r ? PQresultErrorMessage(r) : connectionError())};
    else
        waitMs_ = waitBound(std::strtoll(PQgetvalue(r, 0, 0), nullptr, 10));
    PQclear(r);
    return e;
}

std::int64_t PostgresDatabase::waitBound(std::int64_t statementTimeoutMs) {
    // 0 (the operator disabled the timeout): the default's bound all the same, the server
    // stalled must still be found out.
    const std::int64_t t = statementTimeoutMs > 0 ? statementTimeoutMs : kStatementTimeoutMs;
    return t + std::max<std::int64_t>(1000, t / 2);
}

std::string PostgresDatabase::connectionError() const {
    return conn_ ? PQerrorMessage(conn_) : lost_;
}

PGresult* PostgresDatabase::await(int sent) {
    if (!sent) return nullptr;  // the error is the connection's
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(waitMs_);
    // Waits until the socket is ready for `events` or the deadline passed (false).
    auto wait = [&](short events) {
        for (;;) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                    .count();
            if (left <= 0) return false;
            pollfd p{PQsocket(conn_), events, 0};
            const int n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, 1 << 30)));
            if (n > 0) return true;
            if (n < 0 && errno != EINTR) return true;  // let libpq find the error
        }
    };
    // The query out (a nonblocking send may leave part of it queued).
    for (;;) {
        const int f = PQflush(conn_);
        if (f == 0) break;
        if (f < 0) return nullptr;
        if (!wait(POLLIN | POLLOUT)) return giveUp();
        if (!PQconsumeInput(conn_)) return nullptr;
    }
    // Every result (as PQexec: the last one, or the first error).
    PGresult* kept = nullptr;
    for (;;) {
        while (PQisBusy(conn_)) {
            if (!wait(POLLIN)) {
                PQclear(kept);
                return giveUp();
            }
            if (!PQconsumeInput(conn_)) break;  // lost: PQgetResult reports it
        }
        PGresult* r = PQgetResult(conn_);
        if (!r) return kept;
        if (kept && PQresultStatus(kept) == PGRES_FATAL_ERROR) {
            PQclear(r);
        } else {
            PQclear(kept);
            kept = r;
        }
        if (PQstatus(conn_) != CONNECTION_OK) return kept;
    }
}

PGresult* PostgresDatabase::giveUp() {
    // The server did not answer in time although its own statement_timeout would have ended the
    // statement by now: it is stalled or cut off. The connection is dropped (its status is then
    // bad), as if the server had closed it: the statement fails, a COMMIT's outcome is unknown,
    // and the next statement connects again.
    lost_ = "PostgreSQL did not answer within " + std::to_string(waitMs_) + " ms";
    PQfinish(conn_);
    conn_ = nullptr;
    prepared_.clear();
    return nullptr;
}

std::optional<Error> PostgresDatabase::ensureConnected() {
    // A server that closed the connection (restarted, or terminated the backend) has said so on
    // the socket: reading it marks the connection bad before a statement is lost on it.
    // Twice: the first read may take just its goodbye (an error message), the second the EOF.
    if (!inTransaction_ && PQstatus(conn_) == CONNECTION_OK && PQconsumeInput(conn_))
        PQconsumeInput(conn_);
    if (PQstatus(conn_) == CONNECTION_OK) return std::nullopt;
    if (inTransaction_) return Error{"store: the PostgreSQL connection was lost"};
    // While the server is away every statement tries to connect again and fails: the loss and
    // the first failure are logged once per outage and connection, not once per statement (a
    // client's every request, each renewal round), which would fill the log.
    if (!down_) logConnection("store_connection_lost", uri_, message(connectionError()));
    if (auto e = connect()) {
        if (!down_) logConnection("store_reconnect_failed", uri_, e->message);
        down_ = true;
        return e;
    }
    down_ = false;
    logConnection("store_reconnected", uri_, "");
    return std::nullopt;
}

bool PostgresDatabase::recoverLostConnection() {
    // Inside a transaction the connection is reopened only at its rollback(): the statements
    // still to come in it must fail, not run on their own on a new connection.
    if (PQstatus(conn_) == CONNECTION_OK || inTransaction_) return false;
    return !ensureConnected();
}

std::optional<Error> PostgresDatabase::run(const char* sql) {
    PGresult* r = await(PQsendQuery(conn_, sql));
    std::optional<Error> e;
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        e = Error{r ? message(PQresultErrorMessage(r)) : message(connectionError())};
    PQclear(r);
    return e;
}

std::unique_ptr<Statement> PostgresDatabase::prepare(const char* sql, bool cached) {
    return std::make_unique<PostgresStatement>(*this, sql, cached);
}

std::optional<Error> PostgresDatabase::exec(const char* sql) {
    if (auto e = ensureConnected()) return e;
    if (auto e = run(sql)) {
        recoverLostConnection();
        return e;
    }
    return std::nullopt;
}

std::optional<Error> PostgresDatabase::begin() {
    if (auto e = exec("BEGIN")) return e;
    inTransaction_ = true;
    return std::nullopt;
}

std::optional<Error> PostgresDatabase::commit() {
    auto e = run("COMMIT");
    inTransaction_ = false;
    if (!e) return e;
    // The connection lost under the COMMIT (the server restarted, a network cut): the server may
    // have committed before the reply was lost. The caller must not take the write for undone.
    if (PQstatus(conn_) != CONNECTION_OK)
        e = Error{std::string(kCommitUnknown) + " (" + e->message + ")"};
    recoverLostConnection();
    return e;
}

void PostgresDatabase::rollback() {
    // A failed ROLLBACK leaves nothing to undo: the connection is checked just below.
    if (PQstatus(conn_) == CONNECTION_OK) (void)run("ROLLBACK");
    inTransaction_ = false;
    recoverLostConnection();
}

std::optional<Error> PostgresDatabase::beginRead() {
    if (auto e = exec("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")) return e;
    inTransaction_ = true;
    return std::nullopt;
}

void PostgresDatabase::endRead() {
    rollback();  // nothing to keep; ends it without a commit record
}

Result<int> PostgresDatabase::schemaVersion() {
    // Nodes starting together on an empty database race on CREATE TABLE IF NOT EXISTS (its
    // catalog check is not atomic: the loser fails on pg_type's unique index), so inside a
    // migration's transaction the creation waits for one advisory lock, held until it ends.
    if (inTransaction_)
        if (auto e = exec("SELECT pg_advisory_xact_lock(7262501)")) return *e;  // "rainet"
    if (auto e = exec("CREATE TABLE IF NOT EXISTS rainet_schema (version INTEGER NOT NULL)"))
        return *e;
    // Inside a migration's transaction: one server migrates at a time, the others wait and then
    // see the new version.
    if (inTransaction_)
        if (auto e = exec("LOCK TABLE rainet_schema IN EXCLUSIVE MODE")) return *e;
    auto st = prepare("SELECT version FROM rainet_schema", false);
    const Step s = st->step();
    if (s == Step::Failed) return Error{st->error()};
    return s == Step::Row ? static_cast<int>(st->integer(0)) : 0;
}

std::optional<Error> PostgresDatabase::setSchemaVersion(int version) {
    const std::string sql = "DELETE FROM rainet_schema; INSERT INTO rainet_schema VALUES (" +
                            std::to_string(version) + ")";
    return exec(sql.c_str());
}

}  // namespace rainet::store

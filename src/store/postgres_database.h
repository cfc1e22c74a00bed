#pragma once
// The PostgreSQL backend of the store (libpq): one connection (the store keeps a few), its hot
// statements prepared on the server. Commits are synchronous (synchronous_commit on, unless `sync`
// is "off"), so a committed write survives a crash of the database server too. A lost connection is
// logged and reopened before the next statement; a statement that fails because the connection was
// lost returns an error (a read outside a transaction is tried once more, on the new connection).
// While the server is away each statement tries to connect once (failing at once on a refused
// connection; libpq's connect_timeout of 10 s bounds an unanswered one), logged once an outage.
// A server that stops answering without closing (stalled, a silent partition) is bounded too:
// each statement has the server's statement_timeout (kStatementTimeoutMs unless the operator set
// one), and the wait for any answer a little more (waitBound()); past it the connection is
// dropped as if lost. TCP keepalives and tcp_user_timeout find a dead peer under an idle
// connection. docs/scaling.md, "PostgreSQL outages".
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "store/database.h"

struct pg_conn;
struct pg_result;

namespace rainet::store {

class PostgresDatabase final : public Database {
  public:
    // `uri`: a libpq connection URI (postgresql://...). `sync`: off, normal or full; normal and
    // full both mean synchronous_commit on.
    static Result<std::unique_ptr<Database>> open(const std::string& uri, const std::string& sync);
    ~PostgresDatabase() override;

    Dialect dialect() const override { return Dialect::Postgres; }
    std::unique_ptr<Statement> prepare(const char* sql, bool cached) override;
    [[nodiscard]] std::optional<Error> exec(const char* sql) override;
    [[nodiscard]] std::optional<Error> begin() override;
    [[nodiscard]] std::optional<Error> commit() override;
    void rollback() override;
    [[nodiscard]] std::optional<Error> beginRead() override;
    void endRead() override;
    const char* lockRows() const override { return " FOR NO KEY UPDATE"; }
    Result<int> schemaVersion() override;
    [[nodiscard]] std::optional<Error> setSchemaVersion(int version) override;

    // The statement_timeout set on each connection whose URI, role and database set none.
    static constexpr std::int64_t kStatementTimeoutMs = 10000;
    // How long a connection waits for the server's answer to one statement given the
    // statement timeout in force (0: none): the timeout and half again (at least 1 s more), as
    // the server ends a statement past its timeout itself and says so. 15 s by default.
    static std::int64_t waitBound(std::int64_t statementTimeoutMs);

  private:
    friend class PostgresStatement;
    PostgresDatabase() = default;
    [[nodiscard]] std::optional<Error> connect();
    // Before a statement: reopens the connection if the server closed it.
    [[nodiscard]] std::optional<Error> ensureConnected();
    // After a failed statement: true (the loss logged, the connection reopened) if it was lost.
    bool recoverLostConnection();
    [[nodiscard]] std::optional<Error> run(
        const char* sql);  // one statement without parameters or rows
    // The result of the query just sent (`sent`: what PQsend* returned) as PQexec gives it,
    // waiting at most waitMs_ for it; nullptr if the send failed or no answer came in time (then
    // the connection is dropped: giveUp()).
    pg_result* await(int sent);
    pg_result* giveUp();
    // The connection's error message, or why it was dropped.
    std::string connectionError() const;
    pg_conn* conn_ = nullptr;  // nullptr once dropped by giveUp()
    std::string lost_;
    std::int64_t waitMs_ = waitBound(kStatementTimeoutMs);
    std::string uri_, syncCommit_;
    bool inTransaction_ = false;
    // Reconnecting failed and has not succeeded since (the loss is logged once per outage).
    bool down_ = false;
    // Hot statements prepared on this connection: SQL literal -> statement name.
    std::unordered_map<const char*, std::string> prepared_;
};

}  // namespace rainet::store

#pragma once
// The PostgreSQL backend of the store (libpq): one connection (the store keeps a few), its hot
// statements prepared on the server. Commits are synchronous (synchronous_commit on, unless `sync`
// is "off"), so a committed write survives a crash of the database server too. A lost connection is
// logged and reopened before the next statement; a statement that fails because the connection was
// lost returns an error (a read outside a transaction is tried once more, on the new connection).
// While the server is away each statement tries to connect once (failing at once on a refused
// connection; libpq's connect_timeout of 10 s bounds an unanswered one), logged once an outage.
#include <memory>
#include <string>
#include <unordered_map>

#include "store/database.h"

struct pg_conn;

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
    pg_conn* conn_ = nullptr;
    std::string uri_, syncCommit_;
    bool inTransaction_ = false;
    // Reconnecting failed and has not succeeded since (the loss is logged once per outage).
    bool down_ = false;
    // Hot statements prepared on this connection: SQL literal -> statement name.
    std::unordered_map<const char*, std::string> prepared_;
};

}  // namespace rainet::store

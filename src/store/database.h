#pragma once
// The SQL connection the store runs its statements on: SQLite (sqlite_database.h) or PostgreSQL
// (postgres_database.h). The store writes each statement once, with `?` placeholders (or `?N`,
// numbered, never both in one statement) and types both engines accept; a backend renders it for
// its dialect. A connection is not thread-safe: the store gives each to one call at a time.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/error.h"

namespace rainet::store {

inline constexpr const char* kCommitUnknown = "store: the commit's outcome is unknown";
// Whether `e` is a commit that may or may not have happened (Database::commit).
inline bool commitUnknown(const Error& e) {
    return e.message.rfind(kCommitUnknown, 0) == 0;
}

enum class Dialect { Sqlite, Postgres };

enum class Step { Row, Done, Failed };

// One statement: bind parameters (from 1), then step() through its rows (columns from 0). A
// statement that cannot be prepared fails at its first step().
class Statement {
  public:
    virtual ~Statement() = default;
    virtual void bind(int i, std::int64_t v) = 0;
    virtual void bindReal(int i, double v) = 0;
    virtual void bind(int i, const std::string& v) = 0;
    virtual void bindNull(int i) = 0;
    virtual Step step() = 0;
    // Of the current row; NULL reads as 0 or "".
    virtual std::int64_t integer(int col) const = 0;
    virtual double real(int col) const = 0;
    virtual std::string text(int col) const = 0;
    // After Step::Failed: what went wrong, prefixed "store: ".
    virtual std::string error() const = 0;

    void bind(int i, int v) { bind(i, static_cast<std::int64_t>(v)); }
    // A player id, NULL for 0 (no player).
    void bindPlayer(int i, std::int64_t v) { v ? bind(i, v) : bindNull(i); }
};

class Database {
  public:
    virtual ~Database() = default;
    virtual Dialect dialect() const = 0;
    // `cached`: a hot statement, kept prepared; `sql` must then outlive the database (a literal).
    virtual std::unique_ptr<Statement> prepare(const char* sql, bool cached = false) = 0;
    // Statements separated by ';', no parameters and no rows (migrations).
    [[nodiscard]] virtual std::optional<Error> exec(const char* sql) = 0;
    // A write transaction. SQLite takes its write lock at once (BEGIN IMMEDIATE).
    [[nodiscard]] virtual std::optional<Error> begin() = 0;
    // A commit that fails with the connection lost under it (its reply never came) may have
    // committed: its error starts with kCommitUnknown (commitUnknown()), and the caller must not
    // take the write for undone.
    [[nodiscard]] virtual std::optional<Error> commit() = 0;
    virtual void rollback() = 0;
    // A read-only transaction: the statements until endRead() see one state of the database.
    [[nodiscard]] virtual std::optional<Error> beginRead() = 0;
    virtual void endRead() = 0;
    // The clause that locks the rows a SELECT reads until the transaction ends ("" where the
    // transaction locks the whole database, as SQLite's).
    virtual const char* lockRows() const = 0;
    // The number of migration steps applied (SQLite: PRAGMA user_version; PostgreSQL: the table
    // rainet_schema); set inside the migration's transaction.
    virtual Result<int> schemaVersion() = 0;
    [[nodiscard]] virtual std::optional<Error> setSchemaVersion(int version) = 0;
};

// Whether `target` names a PostgreSQL database (a postgresql:// or postgres:// URI) rather than a
// SQLite file.
bool isPostgresTarget(const std::string& target);

// `target` fit for a log line: a URI's password replaced by "***".
std::string redactTarget(const std::string& target);

}  // namespace rainet::store

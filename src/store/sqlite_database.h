#pragma once
// The SQLite backend of the store: one connection to a file in WAL mode, its hot statements kept
// prepared, and a thread that checkpoints the WAL once a second on a connection of its own, so
// that no writer waits for a checkpoint (its copying and its fsync); automatic checkpoints are off
// on the writing connection. Measured: docs/performance.md.
// Durability is SQLite's `synchronous`: "off" hands each commit to the OS, so it survives the
// server process being killed but not an OS crash; "normal" (the default) also keeps the database
// intact through power loss, syncing at checkpoints; "full" syncs every commit.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "store/database.h"

struct sqlite3;
struct sqlite3_stmt;

namespace rainet::store {

class SqliteDatabase final : public Database {
  public:
    // `sync`: off, normal or full.
    static Result<std::unique_ptr<Database>> open(const std::string& path, const std::string& sync);
    // A connection for reads only (query_only, no checkpointer), beside the writing one: WAL lets
    // it read while the writer commits. Its read transactions are real ones (one snapshot).
    static Result<std::unique_ptr<Database>> openReader(const std::string& path);
    ~SqliteDatabase() override;

    Dialect dialect() const override { return Dialect::Sqlite; }
    std::unique_ptr<Statement> prepare(const char* sql, bool cached) override;
    [[nodiscard]] std::optional<Error> exec(const char* sql) override;
    [[nodiscard]] std::optional<Error> begin() override;
    [[nodiscard]] std::optional<Error> commit() override;
    void rollback() override;
    // The writing connection, given to one call at a time, already sees one state; a reader
    // opens a transaction to see one.
    [[nodiscard]] std::optional<Error> beginRead() override;
    void endRead() override;
    const char* lockRows() const override { return ""; }
    Result<int> schemaVersion() override;
    [[nodiscard]] std::optional<Error> setSchemaVersion(int version) override;

  private:
    SqliteDatabase() = default;
    void checkpointLoop(std::string path);
    sqlite3* db_ = nullptr;
    bool reader_ = false;
    std::unordered_map<const char*, sqlite3_stmt*> cache_;
    std::mutex stopMu_;
    std::condition_variable stopCv_;
    bool stopping_ = false;
    std::thread checkpointer_;
};

}  // namespace rainet::store

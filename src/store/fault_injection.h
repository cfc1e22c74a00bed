#pragma once
// Test mode only: a connection that fails on demand. While the switch is on, every statement,
// begin and commit fails with "store: injected fault", and no new connection opens (the store's
// opener), as when the disk is full or the database server is gone; otherwise each call goes to the
// real connection. Or, on its own switch, each commit commits and then says its outcome is unknown
// (a connection lost before the reply). It lets the server tests check that a store failure is
// answered as an error, never as an absence, and changes nothing. ReadDelay makes reads slow on
// demand instead, to check that a slow read stalls nobody else.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "store/database.h"

namespace rainet::store {

// The message of every injected failure.
inline constexpr const char* kInjectedFault = "store: injected fault";

// The switches (the store's), read at each call.
struct FaultSwitches {
    std::atomic<bool> failing{false};  // every statement, begin and commit fails
    // Each commit commits, then answers kCommitUnknown, as when the connection is lost between
    // the commit and its reply.
    std::atomic<bool> commitsUnknown{false};
};

class FaultInjection final : public Database {
  public:
    FaultInjection(std::unique_ptr<Database> inner, const FaultSwitches& switches)
        : inner_(std::move(inner)), switches_(switches) {}

    Dialect dialect() const override { return inner_->dialect(); }
    std::unique_ptr<Statement> prepare(const char* sql, bool cached) override;
    [[nodiscard]] std::optional<Error> exec(const char* sql) override;
    [[nodiscard]] std::optional<Error> begin() override;
    [[nodiscard]] std::optional<Error> commit() override;
    void rollback() override { inner_->rollback(); }
    [[nodiscard]] std::optional<Error> beginRead() override;
    void endRead() override { inner_->endRead(); }
    const char* lockRows() const override { return inner_->lockRows(); }
    Result<int> schemaVersion() override { return inner_->schemaVersion(); }
    [[nodiscard]] std::optional<Error> setSchemaVersion(int version) override {
        return inner_->setSchemaVersion(version);
    }

  private:
    bool failing() const { return switches_.failing.load(std::memory_order_relaxed); }
    std::unique_ptr<Database> inner_;
    const FaultSwitches& switches_;
};

// Test mode only: while set, each read waits that long before it takes a connection (the store
// calls wait() first); setting it to 0 releases every read waiting.
class ReadDelay {
  public:
    void set(std::int64_t ms);
    void wait();
    std::size_t waiting() const;

  private:
    mutable std::mutex mu_;
    std::condition_variable changed_;
    std::int64_t ms_ = 0;
    std::size_t waiting_ = 0;
};

}  // namespace rainet::store

#include "store/fault_injection.h"

namespace rainet::store {

namespace {

class FailedStatement final : public Statement {
  public:
    void bind(int, std::int64_t) override {}
    void bindReal(int, double) override {}
    void bind(int, const std::string&) override {}
    void bindNull(int) override {}
    Step step() override { return Step::Failed; }
    std::int64_t integer(int) const override { return 0; }
    double real(int) const override { return 0; }
    std::string text(int) const override { return {}; }
    std::string error() const override { return kInjectedFault; }
};

}  // namespace

std::unique_ptr<Statement> FaultInjection::prepare(const char* sql, bool cached) {
    if (failing()) return std::make_unique<FailedStatement>();
    return inner_->prepare(sql, cached);
}

std::optional<Error> FaultInjection::exec(const char* sql) {
    if (failing()) return Error{kInjectedFault};
    return inner_->exec(sql);
}

std::optional<Error> FaultInjection::begin() {
    if (failing()) return Error{kInjectedFault};
    return inner_->begin();
}

std::optional<Error> FaultInjection::commit() {
    // A commit that fails leaves the transaction to the caller's rollback, as a real one does.
    if (failing()) return Error{kInjectedFault};
    auto e = inner_->commit();
    if (!e && switches_.commitsUnknown.load(std::memory_order_relaxed))
        return Error{std::string(kCommitUnknown) + " (injected)"};
    return e;
}

std::optional<Error> FaultInjection::beginRead() {
    if (failing()) return Error{kInjectedFault};
    return inner_->beginRead();
}

void ReadDelay::set(std::int64_t ms) {
    {
        std::lock_guard lock(mu_);
        ms_ = ms;
    }
    changed_.notify_all();
}

void ReadDelay::wait() {
    std::unique_lock lock(mu_);
    if (ms_ <= 0) return;
    ++waiting_;
    changed_.wait_for(lock, std::chrono::milliseconds(ms_), [&] { return ms_ <= 0; });
    --waiting_;
}

std::size_t ReadDelay::waiting() const {
    std::lock_guard lock(mu_);
    return waiting_;
}

}  // namespace rainet::store

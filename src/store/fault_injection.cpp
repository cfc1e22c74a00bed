#include "store/fault_injection.h"

namespace rainet::store {

namespace {

constexpr const char* kFault = "store: injected fault";

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
    std::string error() const override { return kFault; }
};

}  // namespace

std::unique_ptr<Statement> FaultInjection::prepare(const char* sql, bool cached) {
    if (failing()) return std::make_unique<FailedStatement>();
    return inner_->prepare(sql, cached);
}

std::optional<Error> FaultInjection::exec(const char* sql) {
    if (failing()) return Error{kFault};
    return inner_->exec(sql);
}

std::optional<Error> FaultInjection::begin() {
    if (failing()) return Error{kFault};
    return inner_->begin();
}

std::optional<Error> FaultInjection::commit() {
    // A commit that fails leaves the transaction to the caller's rollback, as a real one does.
    if (failing()) return Error{kFault};
    return inner_->commit();
}

std::optional<Error> FaultInjection::beginRead() {
    if (failing()) return Error{kFault};
    return inner_->beginRead();
}

}  // namespace rainet::store

#pragma once
// What the files implementing Store's methods share: the connection lease, and running a
// statement to its end.
#include "store/store.h"

namespace rainet::store {

// One connection of the store's pool, taken for one call and given back after it.
class Store::Lease {
  public:
    Lease(Pool& p, Database* db) : p_(p), db_(db) {}
    ~Lease() {
        {
            std::lock_guard lock(p_.mu);
            p_.free.push_back(db_);
        }
        p_.freed.notify_one();
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Database& operator*() const { return *db_; }
    Database* operator->() const { return db_; }

  private:
    Pool& p_;
    Database* db_;
};

// Runs a write statement (or one past its last returned row) to its end.
inline std::optional<Error> done(Statement& st) {
    if (st.step() != Step::Done) return Error{st.error()};
    return std::nullopt;
}

}  // namespace rainet::store

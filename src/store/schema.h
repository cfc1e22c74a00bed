#pragma once
// The schema as migration steps, the same steps in each dialect: step i takes a database from
// schema version i to i + 1, in one transaction (Store::open applies the missing ones).
#include <span>

#include "store/database.h"

namespace rainet::store {

struct Migration {
    const char* sqlite;
    const char* postgres;
    const char* sql(Dialect d) const { return d == Dialect::Sqlite ? sqlite : postgres; }
};

std::span<const Migration> migrations();

}  // namespace rainet::store

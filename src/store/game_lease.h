#pragma once
// Which node owns a live game in a cluster (docs/scaling.md): a lease in the database
// with an owner, an epoch and an expiry. Taking over an expired lease (or one released) raises
// the epoch, and every action a node writes for the game is fenced by the epoch it holds: once
// another node has taken over, the old owner's writes fail, however late they arrive.
#include <cstdint>
#include <string>

namespace rainet::store {

struct GameLease {
    std::string game;
    std::string owner;       // the node's id
    std::int64_t epoch = 0;  // raised by every change of hands
    std::int64_t expires =
        0;  // unix ms (the nodes' clocks, which must agree to well under the TTL)
};

}  // namespace rainet::store

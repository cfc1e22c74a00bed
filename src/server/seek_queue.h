#pragma once
// The seeks waiting for quick pairing, oldest first, and their pairing: a new seek is paired with
// the oldest compatible seek of another player (same preset, clock and rated flag), else it
// waits. Thread-safe; it starts no game and sends nothing (the hub does, with what it returns).
// A single node's queue: a cluster's seeks wait in Redis instead (server/cluster_seeks.h, which
// offers the same steps: place, put back, withdraw, and the summary the lobby shows).
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "protocol/objects.h"
#include "server/client.h"
#include "store/store.h"

namespace rainet::server {

class SeekQueue {
  public:
    struct Seek {
        store::PlayerRow player;
        std::weak_ptr<Client> client;  // a seek whose connection is gone is dropped
        const Client* key = nullptr;   // its connection, to withdraw its seeks when it closes
        std::string preset;
        int clockInitial = 0, clockIncrement = 0;
        bool rated = true;
        // When the computer takes the seat if nobody came (cs of the hub's time; 0: never).
        std::int64_t computerAtCs = 0;
        // The players it is never paired with: those its player blocked or was blocked by
        // (read from the store when it is placed; a single node's queue only).
        std::vector<std::int64_t> avoid;
    };
    // Whether two seeks may be paired (their players aside, but for blocks).
    [[nodiscard]] static bool compatible(const Seek& a, const Seek& b);

    struct Placed {
        std::optional<Seek> partner;  // the seek it was paired with (taken off the queue)
        std::vector<protocol::SeekEntry> summary;  // the queue afterwards, for the lobby
    };
    // Replaces the player's earlier seek (and drops those of closed connections), then pairs `s`
    // with the oldest compatible seek, or queues it.
    [[nodiscard]] Placed place(Seek s);
    // A pairing that could not start its game: the partner's seek goes back to the head of the
    // queue (it keeps its place). The summary afterwards.
    [[nodiscard]] std::vector<protocol::SeekEntry> putBack(Seek partner);
    // Withdraws the seeks of `player` or, with player 0, those of connection `c` (and drops those
    // of closed connections). The summary afterwards, or nullopt if nothing changed.
    [[nodiscard]] std::optional<std::vector<protocol::SeekEntry>> withdraw(const Client* c,
                                                                           std::int64_t player);
    // The seeks whose computerAtCs has come (taken off the queue; those of closed connections
    // dropped), and the summary afterwards when any was taken. Also the earliest computerAtCs of
    // those left (0: none).
    struct Due {
        std::vector<Seek> seeks;
        std::optional<std::vector<protocol::SeekEntry>> summary;
        std::int64_t nextCs = 0;
    };
    [[nodiscard]] Due takeDue(std::int64_t nowCs);
    // The seeks waiting, by kind (preset, clock, rated), in the order each kind first waited.
    [[nodiscard]] std::vector<protocol::SeekEntry> summary();

  private:
    std::vector<protocol::SeekEntry> summaryLocked() const;  // caller holds mu_

    std::mutex mu_;
    std::vector<Seek> seeks_;  // oldest first
};

}  // namespace rainet::server

#pragma once
// `rainet loadtest`: opens N client pairs (plus spectators) to a running `rainet serve` over
// loopback, plays random legal games at a given pace, and reports actions/s, latencies (act -> ack
// to the mover, act -> event at the opponent and at a spectator; p50/p99), the server's RSS per
// game and CPU. Games that end are replaced, so N stay in play. With --abandon P, P% of the games
// are abandoned instead (both players disconnect while the game is open, in setup or in play, and
// come back with their tokens to start another), which the server's expiry must clean up;
// --sample S prints the server's RSS, open descriptors and database size every S seconds;
// --join-port puts side 2 and the spectators on another node of a cluster.
#include <string>

namespace rainet::loadgen {

struct LoadOptions {
    std::string host = "127.0.0.1";
    int port = 8080;
    // Side 2 and the spectators connect here (0: `port`): another node of a cluster, to measure
    // the cross-node path (docs/scaling.md).
    int joinPort = 0;
    int games = 100;
    int spectators = 0;  // per game
    int paceMs = 1000;   // per game, between actions
    int seconds = 30;
    int rampPerSecond = 500;  // new games started per second
    int serverPid = 0;
    int abandonPercent = 0;  // of the games started
    int sampleSeconds = 0;   // 0: no samples
    std::string dbFile;      // its size (with -wal) in the samples
};

// Runs the load against the server and prints the report on stdout (progress on stderr).
void run(const LoadOptions& o);

}  // namespace rainet::loadgen

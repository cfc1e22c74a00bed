// `rainet loadtest`: the flags of the load generator (loadgen/loadgen.h).
#include "cli/options.h"
#include "loadgen/loadgen.h"

namespace rainet::cli {
namespace {

using loadgen::LoadOptions;

int run(const Args& args);
const Command kLoadtest{
    "loadtest",
    "loadtest [--port P] [--join-port P] [--games N] [--spectators K] [--pace MS] "
    "[--seconds S] [--ramp GAMES_PER_S] [--server-pid PID] [--abandon PERCENT] "
    "[--sample SECONDS] [--db-file FILE]",
    "play N concurrent random games against a local server and report "
    "actions/s, latency, RSS and CPU",
    run};

int run(const Args& args) {
    LoadOptions o;
    auto app = makeApp(kLoadtest);
    app->add_option("--port", o.port, "the server's port on 127.0.0.1");
    app->add_option("--join-port", o.joinPort,
                    "side 2 and the spectators connect to this port (another cluster node)")
        ->check(CLI::Range(1, 65535));
    app->add_option("--games", o.games, "games in play at once")->check(CLI::PositiveNumber);
    app->add_option("--spectators", o.spectators, "spectators per game")
        ->check(CLI::NonNegativeNumber);
    app->add_option("--pace", o.paceMs, "milliseconds between two actions of a game")
        ->check(CLI::NonNegativeNumber);
    app->add_option("--seconds", o.seconds, "how long to measure after the ramp")
        ->check(CLI::PositiveNumber);
    app->add_option("--ramp", o.rampPerSecond, "games started per second")
        ->check(CLI::PositiveNumber);
    app->add_option("--server-pid", o.serverPid, "the server process, for its RSS and CPU");
    app->add_option("--abandon", o.abandonPercent, "percent of the games abandoned")
        ->check(CLI::Range(0, 100));
    app->add_option("--sample", o.sampleSeconds, "print RSS, descriptors and db size every S s")
        ->check(CLI::NonNegativeNumber);
    app->add_option("--db-file", o.dbFile, "the server's SQLite file, for its size in the samples");
    if (auto status = parseArgs(*app, kLoadtest, args)) return *status;
    loadgen::run(o);
    return 0;
}

RAINET_COMMAND(loadtest, kLoadtest);

}  // namespace
}  // namespace rainet::cli

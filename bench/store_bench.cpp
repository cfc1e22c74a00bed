// Store write throughput: actions appended (Store::saveAction, one committed transaction each),
// by 1 and 4 threads sharing one store, on SQLite (a file in /tmp) and, when RAINET_TEST_PG holds
// a maintenance URI (scripts/postgres.sh start prints one), on PostgreSQL databases made for the
// run; each with --sync normal (the default: on PostgreSQL synchronous_commit on) and full / off.
// Figures go to docs/performance.md.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "store/store.h"
#include "support/postgres_test_db.h"

namespace rainet {
namespace {

struct Target {
    std::unique_ptr<store::Store> store;
    std::int64_t player = 0;
    std::atomic<int> games{0};
};

void BM_SaveAction(benchmark::State& state, Target* t) {
    store::GameRow g;
    g.id = std::to_string(t->games++);
    g.id.insert(g.id.begin(), 'g');  // (not "g" + ...: GCC 12's -Wrestrict false positive)
    g.creator = g.player[0] = t->player;
    g.status = GameStatus::Playing;
    if (auto e = t->store->insertGame(g)) {
        state.SkipWithError(e->message.c_str());
        return;
    }
    int ply = 0;
    for (auto _ : state) {
        if (auto e = t->store->saveAction(g, {ply, "d2-d3", "7", 5900, ply + 5})) {
            state.SkipWithError(e->message.c_str());
            break;
        }
        ++ply;
    }
    state.SetItemsProcessed(state.iterations());
}

bool add(const std::string& name, const std::string& target, const std::string& sync, Target& t) {
    auto s = store::Store::open(target, sync);
    auto p = s ? (*s)->createPlayer("pA", "ha", "alice") : Result<store::PlayerRow>(s.error());
    if (!p) {
        std::fprintf(stderr, "store_bench: %s\n", p.error().message.c_str());
        return false;
    }
    t.store = std::move(*s);
    t.player = p->id;
    for (int threads : {1, 4})
        benchmark::RegisterBenchmark(("BM_SaveAction/" + name + "/" + sync).c_str(), BM_SaveAction,
                                     &t)
            ->Threads(threads)
            ->UseRealTime();
    return true;
}

}  // namespace
}  // namespace rainet

int main(int argc, char** argv) {
    using namespace rainet;
    const std::string path = "/tmp/rainet_store_bench_" + std::to_string(::getpid());
    auto removeFiles = [&](const std::string& sync) {
        for (const char* ext : {"", "-wal", "-shm"})
            std::filesystem::remove(path + sync + ".db" + ext);
    };
    // Declared before the stores: dropped after them.
    std::vector<std::unique_ptr<test::PostgresTestDb>> dbs;
    std::vector<std::unique_ptr<Target>> targets;
    for (const std::string sync : {"normal", "full"}) {
        removeFiles(sync);
        targets.push_back(std::make_unique<Target>());
        if (!add("sqlite", path + sync + ".db", sync, *targets.back())) return 1;
    }
    if (test::postgresTestUri())
        for (const std::string sync : {"normal", "off"}) {
            dbs.push_back(std::make_unique<test::PostgresTestDb>("store_bench_" + sync));
            targets.push_back(std::make_unique<Target>());
            if (dbs.back()->uri().empty() ||
                !add("postgres", dbs.back()->uri(), sync, *targets.back()))
                return 1;
        }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    targets.clear();
    for (const std::string sync : {"normal", "full"}) removeFiles(sync);
    return 0;
}

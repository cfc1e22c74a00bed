// The server's hot message: the action event of every action, rendered for each viewer class
// (protocol/server_messages.h), over the positions of fixed random games.
#include <benchmark/benchmark.h>

#include <vector>

#include "core/position.h"
#include "core/random.h"
#include "core/view.h"
#include "protocol/server_messages.h"

namespace {

using namespace rainet;

struct Case {
    Position before;
    Action action;
    Viewer viewer;
    std::string view;
    ActionList legal;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    Rng rng(5);
    for (int game = 0; game < 20; ++game) {
        std::uint8_t masks[2] = {0x0f, 0xf0};
        auto p = Position::fromSetups(masks[game % 2], masks[1 - game % 2], Rules::standard());
        Position pos = *p;
        while (!pos.isOver() && pos.ply() < 200) {
            const ActionList legal = pos.legalActions();
            const Action a =
                legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))];
            Position after = pos;
            after.doAction(a);
            for (Viewer v : {Viewer::Side1, Viewer::Side2, Viewer::Spectator}) {
                const View view = View::of(after, v);
                out.push_back({pos, a, v, view.toString(), view.legalActions()});
            }
            pos = after;
        }
    }
    return out;
}

void BM_RenderActionEvent(benchmark::State& state) {
    const std::vector<Case> all = cases();
    std::size_t i = 0;
    for (auto _ : state) {
        const Case& c = all[i++ % all.size()];
        protocol::ActionEvent e{"g12345678",
                                42,
                                c.before.ply(),
                                c.before.toMove(),
                                observe(c.before, c.action, c.viewer),
                                c.view,
                                c.legal.empty() ? nullptr : &c.legal,
                                protocol::Clocks{{29850, 30000}, Side::Two, std::nullopt},
                                std::nullopt};
        benchmark::DoNotOptimize(protocol::render(e));
    }
}
BENCHMARK(BM_RenderActionEvent);

}  // namespace

BENCHMARK_MAIN();

#include "core/perft.h"

namespace rainet {

std::uint64_t perft(Position& p, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return static_cast<std::uint64_t>(p.countLegalActions());
    ActionList list;
    p.legalActions(list);
    std::uint64_t n = 0;
    const PositionState saved = p.state();
    for (Action a : list) {
        p.doAction(a);
        n += perft(p, depth - 1);
        p.undoAction(saved);
    }
    return n;
}

std::vector<std::pair<Action, std::uint64_t>> perftDivide(Position& p, int depth) {
    std::vector<std::pair<Action, std::uint64_t>> out;
    if (depth <= 0) return out;
    const PositionState saved = p.state();
    for (Action a : p.legalActions()) {
        p.doAction(a);
        out.emplace_back(a, perft(p, depth - 1));
        p.undoAction(saved);
    }
    return out;
}

}  // namespace rainet

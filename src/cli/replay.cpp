// rainet replay FILE
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/options.h"
#include "core/record.h"

namespace rainet::cli {
namespace {

int run(const Args& args);
const Command kCommand{"replay", "replay FILE",
                       "validate a full game record; print the final position and result", run};

int run(const Args& args) {
    Options o = parseOptions(args, {}, {});
    if (!o.error.empty()) return usageError(kCommand, o.error);
    if (o.positional.size() != 1) return usageError(kCommand, "expected one FILE");
    std::ifstream in(o.positional[0], std::ios::binary);
    if (!in) {
        std::cerr << "rainet replay: cannot read " << o.positional[0] << "\n";
        return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    auto rec = parseRecord(ss.str());
    if (!rec) {
        std::cerr << "rainet replay: " << rec.error().message << "\n";
        return 1;
    }
    auto final = replay(*rec);
    if (!final) {
        std::cerr << "rainet replay: " << final.error().message << "\n";
        return 1;
    }
    std::cout << "Plies: " << rec->actions.size() << "\nPosition: " << final->toString()
              << "\nResult: " << resultString(rec->result);
    if (!rec->termination.empty()) std::cout << " (" << rec->termination << ")";
    std::cout << "\n";
    return 0;
}

}  // namespace
RAINET_COMMAND(replay, kCommand);
}  // namespace rainet::cli

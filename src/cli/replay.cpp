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
    auto app = makeApp(kCommand);
    std::string file;
    app->add_option("FILE", file, "a game record (docs/notation.md)")->required();
    if (auto status = parseArgs(*app, kCommand, args)) return *status;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::cerr << "rainet replay: cannot read " << file << "\n";
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

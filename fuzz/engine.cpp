// libFuzzer target: the engine protocol (`rainet engine`, docs/engine-protocol.md). The input is
// a session, one command per line. Searches are bounded so that a run stays fast: every `go` gets
// " nodes 16" appended (the last budget given wins), and the session waits for it. Sixteen
// iterations still expand and roll out from every fuzzed position; at 64 the searches of the
// grown corpus took half the run (docs/fuzzing.md).
#include <cstdint>
#include <string>
#include <string_view>

#include "ai/engine_protocol.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;  // long sessions only repeat what short ones cover
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::size_t lines = 0;
    rainet::ai::EngineSession session([&](const std::string&) { ++lines; }, "random", 1);
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string line(text.substr(0, nl));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        const auto first = line.find_first_not_of(" \t\n\v\f\r");
        const bool go = first != std::string::npos && line.compare(first, 2, "go") == 0;
        if (go) line += " nodes 16";
        if (!session.handle(line)) break;
        if (go) session.waitIdle();
    }
    session.finish();
    return 0;
}

// libFuzzer target: the action notation (CLI `apply`, records, the engine protocol, the client's
// `action` message). An accepted action prints back to text that parses to the same action.
#include <cstdint>
#include <string_view>

#include "core/action.h"

using namespace rainet;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)parseSquare(text);
    for (bool allowPublic : {false, true}) {
        auto a = parseAction(text, allowPublic);
        if (!a.ok()) continue;
        const Notation form = allowPublic ? Notation::Public : Notation::Full;
        auto again = parseAction(toString(*a, form), allowPublic);
        if (!again.ok() || toString(*again, form) != toString(*a, form)) __builtin_trap();
    }
    return 0;
}

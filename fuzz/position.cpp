// libFuzzer target: the position and view parsers (--position, records' [Position] tag, the
// engine protocol's `position view`; fuzz_engine takes views on to the InfoSet). Whatever the
// bytes, parsing gives an error or a valid state that prints back to the same string; a valid state
// generates its legal actions.
#include <cstdint>
#include <string_view>

#include "core/position.h"
#include "core/view.h"

using namespace rainet;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const Rules& rules : {Rules::standard(), Rules::official()}) {
        auto p = Position::parse(text, rules);
        if (p.ok()) {
            if (p->validate()) __builtin_trap();
            auto again = Position::parse(p->toString(), rules);
            if (!again.ok() || !(*again == *p)) __builtin_trap();
            (void)p->legalActions();
        }
        for (Viewer v : {Viewer::Side1, Viewer::Side2, Viewer::Spectator}) {
            auto view = View::parse(text, v, rules);
            if (view.ok()) (void)view->legalActions();
        }
    }
    return 0;
}

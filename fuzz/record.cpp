// libFuzzer target: game records (`rainet replay`, the archive). An accepted record replays to an
// error naming the ply or to a final position; a full record writes back to text that parses to
// the same record, and one that replays also renders its public form.
#include <cstdint>
#include <string_view>

#include "core/record.h"

using namespace rainet;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = parseRecord(text);
    if (!r.ok()) return 0;
    auto final = replay(*r);
    if (r->isPublic) return 0;
    const std::string written = writeFullRecord(*r);
    auto again = parseRecord(written);
    if (!again.ok() || writeFullRecord(*again) != written) __builtin_trap();
    if (final.ok()) (void)writePublicRecord(*r);
    return 0;
}

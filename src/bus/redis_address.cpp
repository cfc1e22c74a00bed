#include "bus/redis_address.h"

#include <charconv>

namespace rainet::bus {
namespace {

Error bad(std::string_view text, std::string_view why) {
    return Error{"--redis '" + std::string(text.substr(0, 200)) + "': " + std::string(why)};
}

bool printable(std::string_view s) {
    for (unsigned char ch : s)
        if (ch <= 0x20 || ch >= 0x7f) return false;
    return true;
}

// A decimal number in [lo, hi] spelled without sign, spaces or leading junk.
[[nodiscard]] bool number(std::string_view s, int lo, int hi, int& out) {
    if (s.empty() || s.size() > 5) return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out >= lo && out <= hi;
}

}  // namespace

std::string RedisAddress::toString() const {
    // Appended piece by piece: GCC 12 at -O3 flags "[" + host + "]" with a false -Wrestrict.
    std::string out;
    if (isUnix()) return out.append("unix:").append(socketPath);
    out.append("redis://");
    const bool v6 = host.find(':') != std::string::npos;
    if (v6) out.push_back('[');
    out.append(host);
    if (v6) out.push_back(']');
    out.append(":").append(std::to_string(port));
    if (db) out.append("/").append(std::to_string(db));
    return out;
}

Result<RedisAddress> parseRedisAddress(std::string_view text) {
    if (text.size() > 1024) return bad(text, "too long");
    if (!printable(text)) return bad(text, "spaces or control characters");
    RedisAddress a;
    if (text.starts_with("unix:")) {
        std::string_view path = text.substr(5);
        if (path.starts_with("//")) path.remove_prefix(2);
        if (!path.starts_with('/')) return bad(text, "the socket path must be absolute");
        if (path.size() > 107)
            return bad(text, "the socket path is longer than a unix socket allows");
        a.socketPath = std::string(path);
        return a;
    }
    if (!text.starts_with("redis://"))
        return bad(text, "expected redis://host[:port][/db] or unix:/path");
    std::string_view rest = text.substr(8);
    if (rest.find('@') != std::string_view::npos)  // not echoed: it would put the secret in logs
        return Error{"--redis: no credentials in the URL: use a unix socket with file permissions"};
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        if (!number(rest.substr(slash + 1), 0, 15, a.db))
            return bad(text, "the database must be 0-15");
        rest = rest.substr(0, slash);
    }
    if (rest.starts_with('[')) {  // [IPv6]:port
        const auto close = rest.find(']');
        if (close == std::string_view::npos) return bad(text, "unclosed '['");
        a.host = std::string(rest.substr(1, close - 1));
        rest = rest.substr(close + 1);
        if (!rest.empty() && !rest.starts_with(':')) return bad(text, "junk after ']'");
    } else {
        const auto colon = rest.find(':');
        a.host = std::string(rest.substr(0, colon));
        rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon);
    }
    if (a.host.empty()) return bad(text, "no host");
    if (!rest.empty() && !number(rest.substr(1), 1, 65535, a.port))
        return bad(text, "the port must be 1-65535");
    return a;
}

}  // namespace rainet::bus

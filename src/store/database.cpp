#include "store/database.h"

namespace rainet::store {

bool isPostgresTarget(const std::string& target) {
    return target.starts_with("postgresql://") || target.starts_with("postgres://");
}

std::string redactTarget(const std::string& target) {
    if (!isPostgresTarget(target)) return target;
    std::string s = target;
    // postgresql://user:PASSWORD@host...
    const std::size_t start = s.find("://") + 3;
    const std::size_t end = s.find_first_of("/?", start);
    const std::size_t at = s.rfind('@', end == std::string::npos ? s.size() : end);
    if (at != std::string::npos && at >= start) {
        const std::size_t colon = s.find(':', start);
        if (colon < at) s.replace(colon + 1, at - colon - 1, "***");
    }
    // ...?password=PASSWORD&...
    for (std::size_t p = s.find("password="); p != std::string::npos;
         p = s.find("password=", p + 1)) {
        if (p == 0 || (s[p - 1] != '?' && s[p - 1] != '&')) continue;
        const std::size_t v = p + 9, w = s.find('&', v);
        s.replace(v, (w == std::string::npos ? s.size() : w) - v, "***");
    }
    return s;
}

}  // namespace rainet::store

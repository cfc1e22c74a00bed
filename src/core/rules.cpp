#include "core/rules.h"

namespace rainet {

std::optional<Rules> Rules::byName(std::string_view name) {
    if (name == "standard") return standard();
    if (name == "official") return official();
    return std::nullopt;
}

std::string Rules::name() const {
    if (*this == standard()) return "standard";
    if (*this == official()) return "official";
    return "custom";
}

}  // namespace rainet

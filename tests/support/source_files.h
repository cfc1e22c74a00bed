#pragma once
// A file of the source tree, for tests that check a committed file against what is compiled in.
// ctest sets RAINET_SOURCE_DIR; nothing comes back without it or without the file.
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace rainet::test {

inline std::optional<std::string> readSourceFile(const std::string& relative) {
    const char* src = std::getenv("RAINET_SOURCE_DIR");
    if (!src) return std::nullopt;
    std::ifstream f(std::string(src) + "/" + relative);
    if (!f) return std::nullopt;
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}

}  // namespace rainet::test

#include "client/token_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace rainet::client::play {

std::string defaultTokenFile() {
    const char* home = std::getenv("HOME");
    return std::string(home ? home : ".") + "/.config/rainet/token";
}

std::string readToken(const std::string& path) {
    std::ifstream in(path);
    std::string t;
    in >> t;
    return t;
}

std::optional<Error> writeToken(const std::string& path, const std::string& token) {
    std::error_code ec;
    const auto dir = std::filesystem::path(path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);  // open() says if it failed
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return Error{"cannot write the token to " + path + ": " + std::strerror(errno)};
    ::fchmod(fd, 0600);  // an existing file keeps its mode through open(): narrowed here
    const std::string text = token + "\n";
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!ok) return Error{"cannot write the token to " + path};
    return std::nullopt;
}

}  // namespace rainet::client::play

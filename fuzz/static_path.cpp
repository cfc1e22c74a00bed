// libFuzzer target: the HTTP static file resolver. A web root with a file, a
// hidden file, a subfolder, a symlink leading out of the root and one staying inside is made once
// under /tmp; whatever the request path, the answer is nothing or a regular file strictly inside
// the canonical root, never the secret beside the root.
#include <unistd.h>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "server/static_files.h"

namespace fs = std::filesystem;

namespace {

struct Tree {
    fs::path base, root, secret;
    Tree() {
        base = fs::temp_directory_path() / ("rainet-fuzz-static-" + std::to_string(::getpid()));
        fs::remove_all(base);
        root = base / "web";
        fs::create_directories(root / "assets");
        std::ofstream(root / "index.html") << "index";
        std::ofstream(root / "assets" / "app.js") << "app";
        std::ofstream(root / ".hidden") << "hidden";
        secret = base / "rainet.db";
        std::ofstream(secret) << "secret";
        fs::create_symlink(secret, root / "db.js");            // leads out: refused
        fs::create_symlink(root / "assets", root / "linked");  // stays inside: allowed
        root = fs::canonical(root);
        secret = fs::canonical(secret);
    }
    ~Tree() {
        std::error_code ec;
        fs::remove_all(base, ec);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Tree tree;
    const std::string_view path(reinterpret_cast<const char*>(data), size);
    const auto file = rainet::server::resolveStaticFile(tree.root, path);
    if (!file) return 0;
    std::error_code ec;
    const fs::path canonical = fs::canonical(*file, ec);
    if (ec || !fs::is_regular_file(canonical) || canonical == tree.secret) __builtin_trap();
    const std::string inside = tree.root.string() + "/";
    if (canonical.string().compare(0, inside.size(), inside) != 0) __builtin_trap();
    if (canonical.filename().string().front() == '.') __builtin_trap();  // hidden files stay hidden
    return 0;
}

#include "server/static_files.h"

#include <algorithm>
#include <vector>

#include "server/hex_digit.h"
#include "store/database.h"

namespace rainet::server {
namespace fs = std::filesystem;
namespace {

// The segments of `path` decoded once, or nothing when any of them is refused (see the header).
// A trailing '/' yields a last empty segment.
std::optional<std::vector<std::string>> segmentsOf(std::string_view path) {
    if (path.empty() || path[0] != '/') return std::nullopt;
    std::vector<std::string> segments(1);
    for (std::size_t i = 1; i < path.size(); ++i) {
        char c = path[i];
        if (c == '/') {
            if (segments.back().empty()) return std::nullopt;  // "//"
            segments.emplace_back();
            continue;
        }
        if (c == '%') {
            if (i + 2 >= path.size()) return std::nullopt;  // truncated escape
            const int hi = hexDigit(path[i + 1]), lo = hexDigit(path[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
            if (c == '/') return std::nullopt;  // an encoded separator is never a separator
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte > 0x7e || c == '\\') return std::nullopt;
        if (segments.back().empty() && c == '.') return std::nullopt;  // ".", "..", dotfiles
        segments.back() += c;
    }
    return segments;
}

// True when `p` lies strictly below `root`; both canonical.
bool strictlyInside(const fs::path& p, const fs::path& root) {
    auto [r, q] = std::mismatch(root.begin(), root.end(), p.begin(), p.end());
    return r == root.end() && q != p.end();
}

std::optional<fs::path> regularInside(const fs::path& candidate, const fs::path& root) {
    std::error_code ec;
    const fs::path file = fs::canonical(candidate, ec);
    if (ec || !strictlyInside(file, root) || !fs::is_regular_file(file, ec)) return std::nullopt;
    return file;
}

}  // namespace

std::optional<fs::path> resolveStaticFile(const fs::path& root, std::string_view path) {
    const auto segments = segmentsOf(path);
    if (!segments) return std::nullopt;
    std::error_code ec;
    const fs::path canonicalRoot = fs::canonical(root, ec);
    if (ec) return std::nullopt;
    fs::path relative;
    for (const auto& s : *segments)
        if (!s.empty()) relative /= s;
    if (!relative.empty()) {
        const fs::path candidate = canonicalRoot / relative;
        const fs::path resolved = fs::canonical(candidate, ec);
        if (!ec) {
            // It exists: serve it if it is a regular file inside the root, and never fall back
            // to the client's page for a name that leads out of the root.
            if (!strictlyInside(resolved, canonicalRoot)) return std::nullopt;
            if (fs::is_regular_file(resolved, ec)) return resolved;
        }
        if (segments->back().find('.') != std::string::npos) return std::nullopt;
    }
    return regularInside(canonicalRoot / "index.html", canonicalRoot);
}

std::optional<fs::path> precompressedCopy(const fs::path& root, const fs::path& file,
                                          std::string_view suffix) {
    std::error_code ec;
    const fs::path canonicalRoot = fs::canonical(root, ec);
    if (ec) return std::nullopt;
    fs::path candidate = file;
    candidate += suffix;
    auto copy = regularInside(candidate, canonicalRoot);
    if (!copy) return std::nullopt;
    const auto copied = fs::last_write_time(*copy, ec);
    if (ec) return std::nullopt;
    const auto original = fs::last_write_time(file, ec);
    if (ec || copied < original) return std::nullopt;
    return copy;
}

const char* contentType(std::string_view path) {
    const auto slash = path.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto dot = name.rfind('.');
    const std::string_view ext = dot == std::string_view::npos ? "" : name.substr(dot);
    static constexpr std::pair<std::string_view, const char*> kTypes[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".map", "application/json"},
        {".webmanifest", "application/manifest+json"},
        {".wasm", "application/wasm"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".webp", "image/webp"},
        {".ico", "image/x-icon"},
        {".woff2", "font/woff2"},
        {".txt", "text/plain; charset=utf-8"},
    };
    for (const auto& [e, type] : kTypes)
        if (e == ext) return type;
    return "application/octet-stream";
}

bool contentHashedName(std::string_view path) {
    const auto slash = path.rfind('/');
    std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const auto last = name.rfind('.');
    if (last == std::string_view::npos) return false;
    name = name.substr(0, last);  // the extension is not the hash
    for (auto dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.')) {
        name.remove_prefix(dot + 1);
        const std::string_view part = name.substr(0, name.find('.'));
        if (part.size() >= 8 && std::all_of(part.begin(), part.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
            }))
            return true;
    }
    return false;
}

std::optional<std::string> databaseExposure(const std::string& db, const std::string& web) {
    if (store::isPostgresTarget(db)) return std::nullopt;
    std::error_code ec;
    // weakly_canonical leaves a relative path relative when none of it exists yet: absolute first.
    const fs::path webRoot = fs::weakly_canonical(fs::absolute(web), ec);
    if (ec) return "cannot resolve --web " + web + ": " + ec.message();
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        const fs::path file = fs::weakly_canonical(fs::absolute(db + suffix), ec);
        if (ec) return "cannot resolve --db " + db + ": " + ec.message();
        if (file == webRoot || strictlyInside(file, webRoot))
            return "the database " + file.string() + " would be inside the web root " +
                   webRoot.string() + ", where anyone could download it; keep --db outside --web";
    }
    return std::nullopt;
}

}  // namespace rainet::server

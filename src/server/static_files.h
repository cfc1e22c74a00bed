#pragma once
// Which file, if any, a request path names inside the web root. Every request for a static file
// goes through resolveStaticFile; nothing else joins a client's path to a directory. As nginx does,
// the path is decoded once and must then be a plain relative path: anything that could name a
// place outside the root, in any spelling, is refused rather than normalised.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rainet::server {

// The canonical path of the file to serve for `path` (the request target without its query), or
// nothing: the caller answers 404 with one body for every refusal and every missing file.
// - Refused: a path not starting with '/', an empty segment ("//"), a segment starting with '.'
//   ("." and ".." and hidden files), an encoded '/' or '\' (%2f, %5c), a bad or truncated %
//   escape, and, after decoding once, any byte that is not printable ASCII (NUL, controls,
//   backslash, and every non-ASCII byte, so overlong UTF-8 such as %c0%ae never reaches the
//   filesystem).
// - Served: a regular file whose canonical path (symlinks resolved) lies strictly inside the
//   canonical `root`; a symlink leading out of the root is refused.
// - Client routes: a path whose last segment has no '.' (/, /game/ab12, /rules) that names no
//   file gets `root/index.html`.
std::optional<std::filesystem::path> resolveStaticFile(const std::filesystem::path& root,
                                                       std::string_view path);

// The copy of `file` (a path resolveStaticFile returned) compressed at build time, `file` +
// `suffix` (".br", ".gz"), when it is a regular file inside `root` no older than `file`; a stale
// copy (the file edited after the build) is never served in its place.
std::optional<std::filesystem::path> precompressedCopy(const std::filesystem::path& root,
                                                       const std::filesystem::path& file,
                                                       std::string_view suffix);

// The Content-Type of a file by its extension (application/octet-stream when unknown).
const char* contentType(std::string_view path);

// True when the file's name carries its content's hash (web/scripts/build.mjs names them
// `app.<hash>.js`): one dot-separated part of 8 or more lowercase hex digits before the extension.
// Such a file never changes under its name, and is cached for a year as immutable.
bool contentHashedName(std::string_view path);

// Why `serve` must not start with this database and web root, or nothing: a SQLite file (or its
// -wal, -shm or -journal) inside the web root could be fetched by anyone. PostgreSQL targets are
// never files.
std::optional<std::string> databaseExposure(const std::string& db, const std::string& web);

}  // namespace rainet::server

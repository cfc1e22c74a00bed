#pragma once
// A test's own SQLite database file in the temporary folder, and its removal with the WAL and
// shared-memory files beside it.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace rainet::test {

// Removes a SQLite database and its WAL and shared-memory files.
inline void removeDb(const std::string& path) {
    for (const char* ext : {"", "-wal", "-shm"}) std::filesystem::remove(path + ext);
}

// The path of a test's own SQLite database in the temporary folder, with no file of it left
// (database, WAL, shared memory) from an earlier run.
inline std::string freshDbPath(const std::string& name) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("rainet_store_" + name + "_" + std::to_string(::getpid()) + ".db"))
                                 .string();
    removeDb(path);
    return path;
}

}  // namespace rainet::test

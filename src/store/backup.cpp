#include "store/backup.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "store/database.h"

namespace rainet::store {
namespace {

namespace fs = std::filesystem;

// Closes a connection when it goes out of scope.
struct Connection {
    sqlite3* db = nullptr;
    ~Connection() { sqlite3_close_v2(db); }
    std::string error() const { return db ? sqlite3_errmsg(db) : "out of memory"; }
};

Error failed(const std::string& what) {
    return Error{"backup: " + what};
}

}  // namespace

Result<BackupInfo> backupDatabase(const std::string& db, const std::string& to) {
    if (isPostgresTarget(db))
        return failed(
            "a PostgreSQL database is backed up with pg_dump and restored with pg_restore "
            "(docs/deploy.md)");
    std::error_code ec;
    if (!fs::is_regular_file(db, ec)) return failed("no database file " + db);
    if (to.empty()) return failed("--to names no file");
    if (fs::weakly_canonical(fs::absolute(to), ec) == fs::weakly_canonical(fs::absolute(db), ec))
        return failed("--to names the database itself");
    Connection source;
    // Read-write (not SQLITE_OPEN_READONLY): a reader of a WAL database must be able to use its
    // -shm index. Nothing is written: query_only.
    if (sqlite3_open_v2(db.c_str(), &source.db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
        return failed("cannot open " + db + ": " + source.error());
    sqlite3_busy_timeout(source.db, 10000);
    sqlite3_exec(source.db, "PRAGMA query_only=1", nullptr, nullptr, nullptr);
    int version = 0;
    {
        sqlite3_stmt* st = nullptr;
        // A file that is not a database fails here, at its first read.
        if (sqlite3_prepare_v2(source.db,
                               "SELECT (SELECT user_version FROM pragma_user_version), "
                               "(SELECT count(*) FROM sqlite_master WHERE name = 'games')",
                               -1, &st, nullptr) != SQLITE_OK)
            return failed(db + " is not a SQLite database: " + source.error());
        const bool row = sqlite3_step(st) == SQLITE_ROW;
        version = row ? sqlite3_column_int(st, 0) : 0;
        const bool games = row && sqlite3_column_int(st, 1) == 1;
        sqlite3_finalize(st);
        if (!row) return failed(db + " is not a SQLite database: " + source.error());
        if (version <= 0 || !games) return failed(db + " is not a rainet database");
    }

    const std::string partial = to + ".partial";
    fs::remove(partial, ec);
    // Readable by its owner alone, whatever the umask: it holds password hashes and tokens
    // (SQLite keeps the mode of a file that exists; an empty file is an empty database).
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return failed("cannot create " + partial + ": " + std::strerror(errno));
    ::close(fd);
    BackupInfo info;
    {
        Connection copy;
        if (sqlite3_open_v2(partial.c_str(), &copy.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                            nullptr) != SQLITE_OK)
            return failed("cannot create " + partial + ": " + copy.error());
        sqlite3_backup* b = sqlite3_backup_init(copy.db, "main", source.db, "main");
        if (!b) {
            const std::string why = copy.error();
            fs::remove(partial, ec);
            return failed("cannot start: " + why);
        }
        // All pages in one step: one read transaction, one snapshot. A step that finds the
        // database locked (a checkpoint truncating the WAL) is tried again.
        int rc;
        while ((rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        sqlite3_backup_finish(b);
        std::string why;
        if (rc != SQLITE_DONE) why = copy.error();
        if (why.empty() && sqlite3_exec(copy.db, "PRAGMA journal_mode=DELETE", nullptr, nullptr,
                                        nullptr) != SQLITE_OK)
            why = copy.error();
        if (why.empty()) {
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(copy.db, "PRAGMA quick_check", -1, &st, nullptr);
            const unsigned char* said =
                st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_text(st, 0) : nullptr;
            const bool ok = said && std::string(reinterpret_cast<const char*>(said)) == "ok";
            sqlite3_finalize(st);
            if (!ok) why = "the copy fails its check";
        }
        if (!why.empty()) {
            fs::remove(partial, ec);
            return failed(why);
        }
    }
    fs::rename(partial, to, ec);
    if (ec) {
        fs::remove(partial, ec);
        return failed("cannot rename the copy to " + to + ": " + ec.message());
    }
    info.bytes = static_cast<std::int64_t>(fs::file_size(to, ec));
    info.schemaVersion = version;
    return info;
}

}  // namespace rainet::store

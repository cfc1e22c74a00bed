#pragma once
// `rainet backup`: a consistent copy of a live SQLite database, made with SQLite's online backup
// API while the server plays on. In WAL mode the copy reads one snapshot of the database (every
// transaction committed when it began, none after) and blocks no writer; the server needs no
// pause and no notice. PostgreSQL has its own tools (pg_dump, pg_restore: docs/deploy.md).
#include <cstdint>
#include <string>

#include "core/error.h"

namespace rainet::store {

struct BackupInfo {
    std::int64_t bytes = 0;  // of the copy
    int schemaVersion = 0;   // the migration steps the copy has (store/schema.h)
};

// Copies the rainet database `db` (a SQLite file) to `to`: written beside it as `to`.partial,
// checked (PRAGMA quick_check), made a single file (journal_mode DELETE: no -wal to carry along),
// then renamed over `to`, so that `to` is always a whole backup or the previous one; the copy is
// readable by its owner only (mode 0600). Refused: a PostgreSQL target, a `db` that is missing or
// not a rainet database, `to` naming `db` itself.
Result<BackupInfo> backupDatabase(const std::string& db, const std::string& to);

}  // namespace rainet::store

#pragma once
// A SQLite VFS over the default one that sends a commit's WAL writes to the OS as one write.
// SQLite writes each frame as two calls, its 24-byte header and then its page; a commit of the
// game server writes about one frame per action, and those calls were the server's most frequent
// system call (4.4 per action; docs/performance.md). Here the writes of a WAL that follow one
// another in the file are gathered (up to 64 KiB) and go out with the page of the commit frame
// (the only frame whose header holds the database size), so that a failed write fails the commit
// as it would without this VFS; any other call on the file sends them first. As a second guard,
// the database file's WAL index barrier sends them too: SQLite publishes a commit by writing the
// index header's two copies with that barrier between them, and readers take the header only when
// the copies agree, so no other connection can read a frame that is not in the file. Only the
// writing connection opens its files here (the database file is wrapped only for that guard).
#include <cstdint>

namespace rainet::store {

// The VFS's name for sqlite3_open_v2, registered (not as the default) on the first call.
const char* joinedWalVfs();

// Since the process started, over every WAL file opened through the VFS: writes given to the
// OS, and those of them that carried more than one of SQLite's writes.
struct JoinedWalCounts {
    std::uint64_t osWrites = 0;
    std::uint64_t joined = 0;
};
JoinedWalCounts joinedWalCounts();

}  // namespace rainet::store

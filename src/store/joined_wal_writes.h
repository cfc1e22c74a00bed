#pragma once
// A SQLite VFS over the default one that joins each WAL frame's two writes into one. SQLite writes
// a frame as its 24-byte header, then its page, in two calls; a commit of the game server writes
// about one frame per action, so half of the server's write system calls were those headers
// (docs/performance.md). Here a write shorter than the smallest page is held back and sent with
// the next write when that one follows it in the file; any other call on the file sends it first.
// SQLite never leaves a frame's header without its page: a held header is gone before the frame
// is made visible to other connections (after the page write), and an error writing the two
// together is the page write's error, as a failed frame already is. Only WAL files are wrapped;
// the database and journal files are the default VFS's own.
#include <cstdint>

namespace rainet::store {

// The VFS's name for sqlite3_open_v2, registered (not as the default) on the first call.
const char* joinedWalVfs();

// Since the process started, over every WAL file opened through the VFS: writes given to the
// OS, and held writes that went out joined to the next one.
struct JoinedWalCounts {
    std::uint64_t osWrites = 0;
    std::uint64_t joined = 0;
};
JoinedWalCounts joinedWalCounts();

}  // namespace rainet::store

#include "store/joined_wal_writes.h"

#include <sqlite3.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <new>

namespace rainet::store {

namespace {

// Writes shorter than the smallest SQLite page are held: the frame headers (24 bytes) and the WAL
// header (32); pages are never held.
constexpr int kHeldBelow = 512;

std::atomic<std::uint64_t> gOsWrites{0};
std::atomic<std::uint64_t> gJoined{0};

sqlite3_vfs* gReal = nullptr;  // the default VFS under this one

struct JoinedFile {
    sqlite3_file base;   // base.pMethods is kMethods
    sqlite3_file* real;  // the default VFS's file, stored after this struct
    sqlite3_int64 heldAt;
    int held;  // bytes in hold
    unsigned char hold[2 * kHeldBelow];
    unsigned char* joined;  // the buffer of joined writes (sqlite3_malloc'd), grown as needed
    int joinedSize;
};

constexpr std::size_t kRealOffset = (sizeof(JoinedFile) + 15) / 16 * 16;

JoinedFile* self(sqlite3_file* f) {
    return reinterpret_cast<JoinedFile*>(f);
}
const sqlite3_io_methods* realMethods(JoinedFile* j) {
    return j->real->pMethods;
}

int osWrite(JoinedFile* j, const void* p, int amt, sqlite3_int64 at) {
    gOsWrites.fetch_add(1, std::memory_order_relaxed);
    return realMethods(j)->xWrite(j->real, p, amt, at);
}

int flush(JoinedFile* j) {
    if (j->held == 0) return SQLITE_OK;
    const int n = j->held;
    j->held = 0;
    return osWrite(j, j->hold, n, j->heldAt);
}

int jWrite(sqlite3_file* f, const void* p, int amt, sqlite3_int64 at) {
    JoinedFile* j = self(f);
    if (j->held > 0 && at == j->heldAt + j->held) {
        if (amt < kHeldBelow && j->held + amt <= static_cast<int>(sizeof j->hold)) {
            std::memcpy(j->hold + j->held, p, static_cast<std::size_t>(amt));
            j->held += amt;
            return SQLITE_OK;
        }
        const int total = j->held + amt;
        if (total > j->joinedSize) {
            auto* grown = static_cast<unsigned char*>(sqlite3_realloc(j->joined, total));
            if (!grown) return flush(j) != SQLITE_OK ? SQLITE_IOERR_WRITE : osWrite(j, p, amt, at);
            j->joined = grown;
            j->joinedSize = total;
        }
        std::memcpy(j->joined, j->hold, static_cast<std::size_t>(j->held));
        std::memcpy(j->joined + j->held, p, static_cast<std::size_t>(amt));
        const sqlite3_int64 from = j->heldAt;
        j->held = 0;
        gJoined.fetch_add(1, std::memory_order_relaxed);
        return osWrite(j, j->joined, total, from);
    }
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    if (amt < kHeldBelow) {
        std::memcpy(j->hold, p, static_cast<std::size_t>(amt));
        j->held = amt;
        j->heldAt = at;
        return SQLITE_OK;
    }
    return osWrite(j, p, amt, at);
}

int jClose(sqlite3_file* f) {
    JoinedFile* j = self(f);
    const int rc = flush(j);
    const int closed = realMethods(j)->xClose(j->real);
    sqlite3_free(j->joined);
    j->joined = nullptr;
    return rc != SQLITE_OK ? rc : closed;
}

// Every other call sees the file as written so far: the held bytes go out first, then the call
// goes to the real file.
template <auto Method, class... Args>
int flushThen(sqlite3_file* f, Args... args) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return (realMethods(j)->*Method)(j->real, args...);
}
// Calls that neither read nor write the file's bytes go straight to the real file.
template <auto Method, class... Args>
auto passOn(sqlite3_file* f, Args... args) {
    JoinedFile* j = self(f);
    return (realMethods(j)->*Method)(j->real, args...);
}
void jShmBarrier(sqlite3_file* f) {
    JoinedFile* j = self(f);
    (void)flush(j);  // a failed write shows again at the next call that needs the bytes
    realMethods(j)->xShmBarrier(j->real);
}

using M = sqlite3_io_methods;
const sqlite3_io_methods kMethods = {
    3,
    jClose,
    flushThen<&M::xRead, void*, int, sqlite3_int64>,
    jWrite,
    flushThen<&M::xTruncate, sqlite3_int64>,
    flushThen<&M::xSync, int>,
    flushThen<&M::xFileSize, sqlite3_int64*>,
    flushThen<&M::xLock, int>,
    flushThen<&M::xUnlock, int>,
    passOn<&M::xCheckReservedLock, int*>,
    flushThen<&M::xFileControl, int, void*>,
    passOn<&M::xSectorSize>,
    passOn<&M::xDeviceCharacteristics>,
    passOn<&M::xShmMap, int, int, int, void volatile**>,
    flushThen<&M::xShmLock, int, int, int>,
    jShmBarrier,
    passOn<&M::xShmUnmap, int>,
    flushThen<&M::xFetch, sqlite3_int64, int, void**>,
    passOn<&M::xUnfetch, sqlite3_int64, void*>,
};

int vOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* outFlags) {
    // The real VFS's methods must all be there to be forwarded (the default unix VFS's are).
    if (!(flags & SQLITE_OPEN_WAL)) return gReal->xOpen(gReal, name, f, flags, outFlags);
    auto* j = new (f) JoinedFile{};
    j->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + kRealOffset);
    j->real->pMethods = nullptr;
    const int rc = gReal->xOpen(gReal, name, j->real, flags, outFlags);
    if (rc != SQLITE_OK || !j->real->pMethods || j->real->pMethods->iVersion < 3) {
        if (j->real->pMethods) j->real->pMethods->xClose(j->real);
        f->pMethods = nullptr;
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    f->pMethods = &kMethods;
    return SQLITE_OK;
}

// The rest of the VFS is the real one's, called with the real VFS (which finds its own data).
template <auto Method, class... Args>
auto real(sqlite3_vfs*, Args... args) {
    return (gReal->*Method)(gReal, args...);
}

using V = sqlite3_vfs;

sqlite3_vfs gVfs{};

}  // namespace

const char* joinedWalVfs() {
    static std::once_flag once;
    std::call_once(once, [] {
        gReal = sqlite3_vfs_find(nullptr);
        gVfs.iVersion = 2;
        gVfs.szOsFile = static_cast<int>(kRealOffset) + gReal->szOsFile;
        gVfs.mxPathname = gReal->mxPathname;
        gVfs.zName = "rainet-joined-wal";
        gVfs.xOpen = vOpen;
        gVfs.xDelete = real<&V::xDelete, const char*, int>;
        gVfs.xAccess = real<&V::xAccess, const char*, int, int*>;
        gVfs.xFullPathname = real<&V::xFullPathname, const char*, int, char*>;
        gVfs.xDlOpen = real<&V::xDlOpen, const char*>;
        gVfs.xDlError = real<&V::xDlError, int, char*>;
        gVfs.xDlSym = real<&V::xDlSym, void*, const char*>;
        gVfs.xDlClose = real<&V::xDlClose, void*>;
        gVfs.xRandomness = real<&V::xRandomness, int, char*>;
        gVfs.xSleep = real<&V::xSleep, int>;
        gVfs.xCurrentTime = real<&V::xCurrentTime, double*>;
        gVfs.xGetLastError = real<&V::xGetLastError, int, char*>;
        gVfs.xCurrentTimeInt64 = real<&V::xCurrentTimeInt64, sqlite3_int64*>;
        sqlite3_vfs_register(&gVfs, 0);
    });
    return gVfs.zName;
}

JoinedWalCounts joinedWalCounts() {
    return {gOsWrites.load(std::memory_order_relaxed), gJoined.load(std::memory_order_relaxed)};
}

}  // namespace rainet::store

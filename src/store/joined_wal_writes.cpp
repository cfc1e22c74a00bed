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

// Every other call sees the file as written so far: the held bytes go out first.
int jRead(sqlite3_file* f, void* p, int amt, sqlite3_int64 at) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xRead(j->real, p, amt, at);
}
int jTruncate(sqlite3_file* f, sqlite3_int64 size) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xTruncate(j->real, size);
}
int jSync(sqlite3_file* f, int flags) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xSync(j->real, flags);
}
int jFileSize(sqlite3_file* f, sqlite3_int64* size) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xFileSize(j->real, size);
}
int jLock(sqlite3_file* f, int level) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xLock(j->real, level);
}
int jUnlock(sqlite3_file* f, int level) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xUnlock(j->real, level);
}
int jCheckReservedLock(sqlite3_file* f, int* out) {
    JoinedFile* j = self(f);
    return realMethods(j)->xCheckReservedLock(j->real, out);
}
int jFileControl(sqlite3_file* f, int op, void* arg) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xFileControl(j->real, op, arg);
}
int jSectorSize(sqlite3_file* f) {
    JoinedFile* j = self(f);
    return realMethods(j)->xSectorSize(j->real);
}
int jDeviceCharacteristics(sqlite3_file* f) {
    JoinedFile* j = self(f);
    return realMethods(j)->xDeviceCharacteristics(j->real);
}
int jShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
    JoinedFile* j = self(f);
    return realMethods(j)->xShmMap(j->real, region, size, extend, out);
}
int jShmLock(sqlite3_file* f, int offset, int n, int flags) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xShmLock(j->real, offset, n, flags);
}
void jShmBarrier(sqlite3_file* f) {
    JoinedFile* j = self(f);
    (void)flush(j);  // a failed write shows again at the next call that needs the bytes
    realMethods(j)->xShmBarrier(j->real);
}
int jShmUnmap(sqlite3_file* f, int deleteFlag) {
    JoinedFile* j = self(f);
    return realMethods(j)->xShmUnmap(j->real, deleteFlag);
}
int jFetch(sqlite3_file* f, sqlite3_int64 at, int amt, void** out) {
    JoinedFile* j = self(f);
    if (int rc = flush(j); rc != SQLITE_OK) return rc;
    return realMethods(j)->xFetch(j->real, at, amt, out);
}
int jUnfetch(sqlite3_file* f, sqlite3_int64 at, void* p) {
    JoinedFile* j = self(f);
    return realMethods(j)->xUnfetch(j->real, at, p);
}

const sqlite3_io_methods kMethods = {
    3,
    jClose,
    jRead,
    jWrite,
    jTruncate,
    jSync,
    jFileSize,
    jLock,
    jUnlock,
    jCheckReservedLock,
    jFileControl,
    jSectorSize,
    jDeviceCharacteristics,
    jShmMap,
    jShmLock,
    jShmBarrier,
    jShmUnmap,
    jFetch,
    jUnfetch,
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
int vDelete(sqlite3_vfs*, const char* name, int syncDir) {
    return gReal->xDelete(gReal, name, syncDir);
}
int vAccess(sqlite3_vfs*, const char* name, int flags, int* out) {
    return gReal->xAccess(gReal, name, flags, out);
}
int vFullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
    return gReal->xFullPathname(gReal, name, n, out);
}
void* vDlOpen(sqlite3_vfs*, const char* name) {
    return gReal->xDlOpen(gReal, name);
}
void vDlError(sqlite3_vfs*, int n, char* out) {
    gReal->xDlError(gReal, n, out);
}
void (*vDlSym(sqlite3_vfs*, void* h, const char* sym))(void) {
    return gReal->xDlSym(gReal, h, sym);
}
void vDlClose(sqlite3_vfs*, void* h) {
    gReal->xDlClose(gReal, h);
}
int vRandomness(sqlite3_vfs*, int n, char* out) {
    return gReal->xRandomness(gReal, n, out);
}
int vSleep(sqlite3_vfs*, int us) {
    return gReal->xSleep(gReal, us);
}
int vCurrentTime(sqlite3_vfs*, double* out) {
    return gReal->xCurrentTime(gReal, out);
}
int vGetLastError(sqlite3_vfs*, int n, char* out) {
    return gReal->xGetLastError(gReal, n, out);
}
int vCurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
    return gReal->xCurrentTimeInt64(gReal, out);
}

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
        gVfs.xDelete = vDelete;
        gVfs.xAccess = vAccess;
        gVfs.xFullPathname = vFullPathname;
        gVfs.xDlOpen = vDlOpen;
        gVfs.xDlError = vDlError;
        gVfs.xDlSym = vDlSym;
        gVfs.xDlClose = vDlClose;
        gVfs.xRandomness = vRandomness;
        gVfs.xSleep = vSleep;
        gVfs.xCurrentTime = vCurrentTime;
        gVfs.xGetLastError = vGetLastError;
        gVfs.xCurrentTimeInt64 = vCurrentTimeInt64;
        sqlite3_vfs_register(&gVfs, 0);
    });
    return gVfs.zName;
}

JoinedWalCounts joinedWalCounts() {
    return {gOsWrites.load(std::memory_order_relaxed), gJoined.load(std::memory_order_relaxed)};
}

}  // namespace rainet::store

#include "store/joined_wal_writes.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>

namespace rainet::store {

namespace {

// A WAL linked to its database file (the same connection's, both opened here) gathers every
// write that follows the one before in the file, up to kGatherCap bytes, and sends them when the
// page of a commit frame is written (the frame header's bytes 4-7, the database size after the
// commit, are nonzero only there: docs/sqlite's WAL file format). A WAL not linked (not
// expected) writes through. The cap: the default unix VFS writes at most 128 KiB per call (its
// seekAndWriteFd masks the size with 0x1ffff; a larger write lost its tail), so 64 KiB.
constexpr int kGatherCap = 1 << 16;
constexpr int kFrameHeader = 24;

std::atomic<std::uint64_t> gOsWrites{0};
std::atomic<std::uint64_t> gJoined{0};

sqlite3_vfs* gReal = nullptr;  // the default VFS under this one

struct WalFile;

// Both wrappers begin the same way: SQLite's file, then the real one (stored after the wrapper).
struct DbFile {
    sqlite3_file base;  // base.pMethods is kDbMethods
    sqlite3_file* real;
    WalFile* wal;  // its WAL while that is open, or null
};

struct WalFile {
    sqlite3_file base;  // base.pMethods is kWalMethods
    sqlite3_file* real;
    DbFile* db;          // its database file, or null: then nothing is gathered
    unsigned char* buf;  // what is gathered (sqlite3_malloc'd), `len` bytes from offset `at`
    int cap;
    int len;
    int writes;  // SQLite's writes in it
    sqlite3_int64 at;
    bool commitNext;  // the last write was a commit frame's header: its page ends the commit
};

constexpr std::size_t kRealOffset = (std::max(sizeof(DbFile), sizeof(WalFile)) + 15) / 16 * 16;

// Sends what is gathered; on failure it stays gathered, to be tried (and reported) again.
int flush(WalFile* w) {
    if (w->len == 0) return SQLITE_OK;
    gOsWrites.fetch_add(1, std::memory_order_relaxed);
    const int rc = w->real->pMethods->xWrite(w->real, w->buf, w->len, w->at);
    if (rc != SQLITE_OK) return rc;
    if (w->writes > 1) gJoined.fetch_add(1, std::memory_order_relaxed);
    w->len = 0;
    return SQLITE_OK;
}

int flush(DbFile* d) {
    return d->wal ? flush(d->wal) : SQLITE_OK;
}

// Room for `size` (at most kGatherCap) bytes, the buffer doubled as needed up to kGatherCap.
bool reserve(WalFile* w, int size) {
    if (size <= w->cap) return true;
    const int grown = std::min(std::max(size, 2 * w->cap), kGatherCap);
    auto* b = static_cast<unsigned char*>(sqlite3_realloc(w->buf, grown));
    if (!b) return false;
    w->buf = b;
    w->cap = grown;
    return true;
}

bool isCommitHeader(const void* p, int amt) {
    if (amt != kFrameHeader) return false;
    const auto* b = static_cast<const unsigned char*>(p);
    return (b[4] | b[5] | b[6] | b[7]) != 0;
}

// Gathers `p`, or sends what was gathered and then `p`; returns the error of any write made.
int gather(WalFile* w, const void* p, int amt, sqlite3_int64 at) {
    if (w->len > 0 && at == w->at + w->len && w->len + amt <= kGatherCap &&
        reserve(w, w->len + amt)) {
        std::memcpy(w->buf + w->len, p, static_cast<std::size_t>(amt));
        w->len += amt;
        ++w->writes;
        return SQLITE_OK;
    }
    if (int rc = flush(w); rc != SQLITE_OK) return rc;
    if (w->db && amt <= kGatherCap && reserve(w, amt)) {
        std::memcpy(w->buf, p, static_cast<std::size_t>(amt));
        w->len = amt;
        w->writes = 1;
        w->at = at;
        return SQLITE_OK;
    }
    gOsWrites.fetch_add(1, std::memory_order_relaxed);
    return w->real->pMethods->xWrite(w->real, p, amt, at);
}

int walWrite(sqlite3_file* f, const void* p, int amt, sqlite3_int64 at) {
    auto* w = reinterpret_cast<WalFile*>(f);
    const bool endsCommit = std::exchange(w->commitNext, false);
    if (int rc = gather(w, p, amt, at); rc != SQLITE_OK) return rc;
    w->commitNext = isCommitHeader(p, amt);
    // The commit's last page: out now, so that a failed write fails the commit (SQLite then
    // publishes nothing), as it would have without this VFS.
    return endsCommit ? flush(w) : SQLITE_OK;
}

int walClose(sqlite3_file* f) {
    auto* w = reinterpret_cast<WalFile*>(f);
    const int rc = flush(w);
    if (w->db) w->db->wal = nullptr;
    const int closed = w->real->pMethods->xClose(w->real);
    sqlite3_free(w->buf);
    w->buf = nullptr;
    return rc != SQLITE_OK ? rc : closed;
}

int dbClose(sqlite3_file* f) {
    auto* d = reinterpret_cast<DbFile*>(f);
    int rc = SQLITE_OK;
    if (d->wal) {
        rc = flush(d->wal);
        d->wal->db = nullptr;  // not expected: SQLite closes the WAL first
    }
    const int closed = d->real->pMethods->xClose(d->real);
    return rc != SQLITE_OK ? rc : closed;
}

// Every other call on a WAL sees the file as written so far: what is gathered goes out first.
// On the database file the same holds for the calls around the WAL index, a second guard: a
// commit becomes visible to other connections when SQLite writes the WAL index header, two
// copies with a barrier (xShmBarrier) between them, and a reader takes the header only when both
// agree, so even a commit whose end was not recognised is in the file before anyone can see it.
template <class F, auto Method, class... Args>
int flushThen(sqlite3_file* f, Args... args) {
    auto* x = reinterpret_cast<F*>(f);
    if (int rc = flush(x); rc != SQLITE_OK) return rc;
    return (x->real->pMethods->*Method)(x->real, args...);
}
// Calls that neither read nor write the file's bytes go straight to the real file.
template <class F, auto Method, class... Args>
auto passOn(sqlite3_file* f, Args... args) {
    auto* x = reinterpret_cast<F*>(f);
    return (x->real->pMethods->*Method)(x->real, args...);
}
template <class F>
void barrier(sqlite3_file* f) {
    auto* x = reinterpret_cast<F*>(f);
    (void)flush(x);  // a failed write stays gathered: the next call tries it and reports it
    x->real->pMethods->xShmBarrier(x->real);
}

using M = sqlite3_io_methods;

template <class F, auto Close, auto Write>
constexpr sqlite3_io_methods methodsOf() {
    return {
        3,
        Close,
        flushThen<F, &M::xRead, void*, int, sqlite3_int64>,
        Write,
        flushThen<F, &M::xTruncate, sqlite3_int64>,
        flushThen<F, &M::xSync, int>,
        flushThen<F, &M::xFileSize, sqlite3_int64*>,
        flushThen<F, &M::xLock, int>,
        flushThen<F, &M::xUnlock, int>,
        passOn<F, &M::xCheckReservedLock, int*>,
        flushThen<F, &M::xFileControl, int, void*>,
        passOn<F, &M::xSectorSize>,
        passOn<F, &M::xDeviceCharacteristics>,
        passOn<F, &M::xShmMap, int, int, int, void volatile**>,
        flushThen<F, &M::xShmLock, int, int, int>,
        barrier<F>,
        passOn<F, &M::xShmUnmap, int>,
        flushThen<F, &M::xFetch, sqlite3_int64, int, void**>,
        passOn<F, &M::xUnfetch, sqlite3_int64, void*>,
    };
}

const sqlite3_io_methods kWalMethods = methodsOf<WalFile, walClose, walWrite>();
const sqlite3_io_methods kDbMethods =
    methodsOf<DbFile, dbClose, passOn<DbFile, &M::xWrite, const void*, int, sqlite3_int64>>();

// Opens the real file after the wrapper; on failure an error code, and no file left open.
int openReal(sqlite3_file* f, sqlite3_filename name, int flags, int* outFlags,
             sqlite3_file** real) {
    *real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + kRealOffset);
    (*real)->pMethods = nullptr;
    const int rc = gReal->xOpen(gReal, name, *real, flags, outFlags);
    // The real VFS's methods must all be there to be forwarded (the default unix VFS's are).
    if (rc != SQLITE_OK || !(*real)->pMethods || (*real)->pMethods->iVersion < 3) {
        if ((*real)->pMethods) (*real)->pMethods->xClose(*real);
        f->pMethods = nullptr;
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    return SQLITE_OK;
}

int vOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* outFlags) {
    if (flags & SQLITE_OPEN_MAIN_DB) {
        auto* d = new (f) DbFile{};
        if (int rc = openReal(f, name, flags, outFlags, &d->real); rc != SQLITE_OK) return rc;
        f->pMethods = &kDbMethods;
        return SQLITE_OK;
    }
    if (!(flags & SQLITE_OPEN_WAL)) return gReal->xOpen(gReal, name, f, flags, outFlags);
    auto* w = new (f) WalFile{};
    if (int rc = openReal(f, name, flags, outFlags, &w->real); rc != SQLITE_OK) return rc;
    if (sqlite3_file* db = sqlite3_database_file_object(name); db && db->pMethods == &kDbMethods) {
        w->db = reinterpret_cast<DbFile*>(db);
        w->db->wal = w;
    }
    f->pMethods = &kWalMethods;
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

// Unit tests of the analysis service's bounds (server/analysis.h): the cache keeps the last
// kCacheEntries answers and no more, the queue refuses beyond kMaxJobs, and what waits when the
// service stops is answered (nullptr), never left hanging.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "server/analysis.h"

namespace rainet::server {
namespace {

// A game of no action: one ply to analyse, quick.
Analyses::Job job(int n, Side side = Side::One) {
    std::string id = "g";  // (not "g" + ...: gcc 12 warns falsely on that, -Wrestrict)
    id += std::to_string(n);
    return {id, side, *Position::fromSetups(0x0F, 0x0F), {}};
}

// Requests `j` and waits for its answer.
std::shared_ptr<const std::string> analyse(Analyses& a, Analyses::Job j) {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::shared_ptr<const std::string> body;
    EXPECT_TRUE(a.request(std::move(j), [&](std::shared_ptr<const std::string> b) {
        std::lock_guard lock(mu);
        body = std::move(b);
        done = true;
        cv.notify_all();
    }));
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return done; });
    return body;
}

TEST(AnalysesUnits, TheCacheKeepsTheMostRecentlyUsedAndNoMore) {
    Analyses a(10);
    const auto first = analyse(a, job(0));
    ASSERT_TRUE(first);
    EXPECT_EQ(a.cached("g0", Side::One), first);
    EXPECT_EQ(a.cached("g0", Side::Two), nullptr);  // per side
    for (int i = 1; i < static_cast<int>(Analyses::kCacheEntries); ++i) analyse(a, job(i));
    EXPECT_TRUE(a.cached("g0", Side::One));  // used again: now the most recent
    analyse(a, job(1000));                   // one over the bound: the least recent (g1) goes
    EXPECT_EQ(a.cached("g1", Side::One), nullptr);
    EXPECT_TRUE(a.cached("g0", Side::One));
    EXPECT_TRUE(a.cached("g1000", Side::One));
    // A cached answer is given at once, on the caller's thread.
    bool called = false;
    EXPECT_TRUE(a.request(job(0), [&](auto body) { called = body == first; }));
    EXPECT_TRUE(called);
}

TEST(AnalysesUnits, TheQueueIsBoundedAndStoppingAnswersWhatWaits) {
    int dropped = 0;
    {
        Analyses a(10);
        a.hold(true);
        for (int i = 0; i < static_cast<int>(Analyses::kMaxJobs); ++i)
            EXPECT_TRUE(a.request(job(i), [&](auto body) { dropped += body == nullptr; }));
        EXPECT_FALSE(a.request(job(99), [](auto) { ADD_FAILURE() << "refused, never called"; }));
        // Joining one that waits is not a new job, up to kMaxWaiters on it.
        for (std::size_t i = 1; i < Analyses::kMaxWaiters; ++i)
            EXPECT_TRUE(a.request(job(0), [&](auto body) { dropped += body == nullptr; }));
        EXPECT_FALSE(a.request(job(0), [](auto) { ADD_FAILURE() << "refused, never called"; }));
    }
    EXPECT_EQ(dropped, static_cast<int>(Analyses::kMaxJobs + Analyses::kMaxWaiters - 1));
}

}  // namespace
}  // namespace rainet::server

#pragma once
// Analyses of finished games (GET /api/games/{id}/analysis?side=1|2, docs/protocol.md §10): the
// per-ply work of ai/analysis.h, run on one analysis thread of its own (never a network thread,
// never the bot workers that live games wait on), queued with a bound, cached with a bound.
// - at most kMaxJobs analyses wait or run; a request for one more is refused (`busy`);
// - a request for an analysis already waiting or running joins it (at most kMaxWaiters each);
// - the last kCacheEntries answers are kept (least recently used out): a finished game never
//   changes, so an answer is never stale.
// Only finished games are analysed (a game in play would get an engine's help): the caller
// checks that and builds the Job from the store's record.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "ai/analysis.h"
#include "core/position.h"

namespace rainet::server {

class Analyses {
  public:
    static constexpr std::size_t kMaxJobs = 8;
    static constexpr std::size_t kMaxWaiters = 16;
    static constexpr std::size_t kCacheEntries = 64;

    // The JSON answer, or nullptr if the analysis was dropped (shutdown). Called on the analysis
    // thread, or at once by request() for a cached answer.
    using Done = std::function<void(std::shared_ptr<const std::string>)>;
    struct Job {
        std::string game;
        Side side = Side::One;
        Position start;
        std::vector<Action> actions;
    };

    explicit Analyses(std::uint64_t nodesPerPly);
    ~Analyses();  // drops what waits, stops what runs (its waiters get nullptr), joins
    Analyses(const Analyses&) = delete;
    Analyses& operator=(const Analyses&) = delete;

    // The cached answer for (game, side), if any (and it becomes the most recently used).
    std::shared_ptr<const std::string> cached(const std::string& game, Side side);
    // Queues `job` (or joins the same one in progress); false when over the bounds (`done` is
    // then not called).
    [[nodiscard]] bool request(Job job, Done done);

    std::uint64_t nodesPerPly() const { return config_.nodes; }
    // Test mode (POST /api/test/analysis?hold=1|0): while held, no analysis starts, so that a
    // test can fill the queue and see the bound hold without racing the thread.
    void hold(bool on);

  private:
    using Key = std::string;  // game id + "/" + side
    static Key key(const std::string& game, Side side);
    struct Pending {
        Job job;
        std::vector<Done> waiters;
    };
    void run();
    void remember(const Key& k, std::shared_ptr<const std::string> body);  // caller holds mu_

    ai::AnalysisConfig config_;
    std::mutex mu_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool held_ = false;
    std::deque<Key> queue_;                                              // waiting, oldest first
    std::unordered_map<Key, Pending> pending_;                           // waiting or running
    std::list<std::pair<Key, std::shared_ptr<const std::string>>> lru_;  // most recent first
    std::unordered_map<Key, decltype(lru_)::iterator> cache_;
    std::thread thread_;
};

// The JSON of one game's analysis (exposed for tests of its format).
std::string analysisJson(const std::string& game, Side side, std::uint64_t nodes,
                         const std::vector<ai::PlyAnalysis>& plies);

}  // namespace rainet::server

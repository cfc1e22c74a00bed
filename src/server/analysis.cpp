#include "server/analysis.h"

#include <cmath>

#include "protocol/http_answers.h"

namespace rainet::server {

namespace {

// Three decimals: enough to draw, and the answer stays small (about 150 bytes a ply).
double rounded(double x) {
    return std::round(x * 1000.0) / 1000.0;
}

}  // namespace

std::string analysisJson(const std::string& game, Side side, std::uint64_t nodes,
                         const std::vector<ai::PlyAnalysis>& plies) {
    protocol::GameAnalysis out{game, side, nodes, {}};
    out.plies.reserve(plies.size());
    for (const ai::PlyAnalysis& p : plies) {
        protocol::AnalysedPlyAnswer ply;
        ply.ply = p.ply;
        ply.toMove = p.toMove;
        ply.win = rounded(p.win);
        if (p.over) ply.over = true;
        for (const auto& [sq, v] : p.virus)
            ply.virus.entries.emplace_back(squareName(sq), rounded(v));
        // Only the analysed side's own turns list actions: its own choices, NF swap bit included.
        for (const ai::AnalysedAction& a : p.best)
            ply.best.push_back(
                {toString(a.action, Notation::Full), rounded(a.share), rounded(a.win)});
        out.plies.push_back(std::move(ply));
    }
    return protocol::render(out);
}

Analyses::Analyses(std::uint64_t nodesPerPly) {
    config_.nodes = nodesPerPly;
    thread_ = std::thread([this] { run(); });
}

Analyses::~Analyses() {
    std::vector<Done> dropped;
    {
        std::lock_guard lock(mu_);
        stopping_ = true;
        for (const Key& k : queue_) {
            for (auto& d : pending_[k].waiters) dropped.push_back(std::move(d));
            pending_.erase(k);
        }
        queue_.clear();
    }
    wake_.notify_all();
    thread_.join();
    for (auto& d : dropped) d(nullptr);
}

void Analyses::hold(bool on) {
    {
        std::lock_guard lock(mu_);
        held_ = on;
    }
    wake_.notify_all();
}

Analyses::Key Analyses::key(const std::string& game, Side side) {
    return game + "/" + std::string(protocol::nameOf(side));
}

std::shared_ptr<const std::string> Analyses::cached(const std::string& game, Side side) {
    std::lock_guard lock(mu_);
    auto it = cache_.find(key(game, side));
    if (it == cache_.end()) return nullptr;
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->second;
}

bool Analyses::request(Job job, Done done) {
    const Key k = key(job.game, job.side);
    std::shared_ptr<const std::string> hit;
    {
        std::lock_guard lock(mu_);
        if (stopping_) return false;
        if (auto c = cache_.find(k); c != cache_.end()) {
            lru_.splice(lru_.begin(), lru_, c->second);
            hit = c->second->second;
        } else if (auto p = pending_.find(k); p != pending_.end()) {
            if (p->second.waiters.size() >= kMaxWaiters) return false;
            p->second.waiters.push_back(std::move(done));
            return true;
        } else {
            if (pending_.size() >= kMaxJobs) return false;
            Pending& fresh = pending_[k];
            fresh.job = std::move(job);
            fresh.waiters.push_back(std::move(done));
            queue_.push_back(k);
        }
    }
    if (hit) {
        done(std::move(hit));
        return true;
    }
    wake_.notify_one();
    return true;
}

void Analyses::remember(const Key& k, std::shared_ptr<const std::string> body) {
    lru_.emplace_front(k, std::move(body));
    cache_[k] = lru_.begin();
    if (lru_.size() > kCacheEntries) {
        cache_.erase(lru_.back().first);
        lru_.pop_back();
    }
}

void Analyses::run() {
    for (;;) {
        Key k;
        Job job;
        {
            std::unique_lock lock(mu_);
            wake_.wait(lock, [&] { return stopping_ || (!held_ && !queue_.empty()); });
            if (stopping_) return;
            k = queue_.front();
            queue_.pop_front();
            job = pending_[k].job;  // a copy: the entry stays while it runs (for joiners)
        }
        auto plies = ai::analyseGame(job.start, job.actions, job.side, config_, [&](int) {
            std::lock_guard lock(mu_);
            return !stopping_;
        });
        std::shared_ptr<const std::string> body;
        if (plies)
            body = std::make_shared<const std::string>(
                analysisJson(job.game, job.side, config_.nodes, *plies));
        std::vector<Done> waiters;
        {
            std::lock_guard lock(mu_);
            waiters = std::move(pending_[k].waiters);
            pending_.erase(k);
            if (body) remember(k, body);
        }
        for (auto& d : waiters) d(body);
    }
}

}  // namespace rainet::server

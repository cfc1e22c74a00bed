#pragma once
// One background thread of a server unit (ClusterNode's liveness rounds, Forwarder's jobs), with
// the mutex and condition variable its owner shares with it: the owner keeps its own state (a
// job queue) under mutex() and waits on wake() for it or for stopping(). start() and stop() are
// the steps both owners repeated: start a thread under the mutex unless one runs; set the
// stopping flag under the mutex, wake the thread, join it. The owner calls stop() in its own
// destructor, before the members the thread reads are gone.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace rainet::server {

class WorkerThread {
  public:
    WorkerThread() = default;
    WorkerThread(const WorkerThread&) = delete;
    WorkerThread& operator=(const WorkerThread&) = delete;
    ~WorkerThread() { stop(); }

    // Runs `body` on a new thread, unless one already runs; clears the stopping flag first.
    template <class F>
    void start(F&& body) {
        std::lock_guard lock(mu_);
        if (thread_.joinable()) return;
        stopping_ = false;
        thread_ = std::thread(std::forward<F>(body));
    }
    // Sets the stopping flag, wakes the thread and waits for it to return (nothing if none runs).
    void stop() {
        {
            std::lock_guard lock(mu_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    // The body of an owner's thread that has a periodic round and, with `jobs` (a queue the
    // owner fills under mutex() and signals with wake()), work handed to it: `round` at once and
    // then every `every`, the jobs in order in between, each run outside the mutex. A job that
    // throws goes to `failed` (the owner logs it) and the others go on. Returns once stopping.
    template <class Round, class Failed>
    void loop(std::chrono::milliseconds every, Round round, std::deque<std::function<void()>>* jobs,
              Failed failed) {
        auto next = std::chrono::steady_clock::now();
        std::unique_lock lock(mu_);
        while (!stopping_) {
            if (std::chrono::steady_clock::now() >= next) {
                lock.unlock();
                round();
                lock.lock();
                next = std::chrono::steady_clock::now() + every;
                continue;
            }
            if (!jobs || jobs->empty()) {
                wake_.wait_until(lock, next, [&] { return stopping_ || (jobs && !jobs->empty()); });
                continue;
            }
            auto job = std::move(jobs->front());
            jobs->pop_front();
            lock.unlock();
            try {
                job();
            } catch (const std::exception& e) {
                failed(e);
            }
            lock.lock();
        }
    }

    std::mutex& mutex() { return mu_; }
    std::condition_variable& wake() { return wake_; }
    // Read under mutex().
    bool stopping() const { return stopping_; }

  private:
    std::mutex mu_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace rainet::server

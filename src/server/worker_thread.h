#pragma once
// One background thread of a server unit (ClusterNode's liveness rounds, Forwarder's jobs), with
// the mutex and condition variable its owner shares with it: the owner keeps its own state (a
// job queue) under mutex() and waits on wake() for it or for stopping(). start() and stop() are
// the steps both owners repeated: start a thread under the mutex unless one runs; set the
// stopping flag under the mutex, wake the thread, join it. The owner calls stop() in its own
// destructor, before the members the thread reads are gone.
#include <condition_variable>
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

#pragma once
// When a cluster round that trusts a version must read in full all the same. The lobby's and the
// seeks' rounds (cluster_lobby.h, cluster_seeks.h) skip their full read while a version in Redis
// says nothing changed; but a change whose version was lost (a Redis restarted empty counts
// again from 0, and may reach the same number) would then be missed for good, so every
// kFullEvery rounds a full read is due whatever the version says.
namespace rainet::server {

class FullReadSchedule {
  public:
    static constexpr int kFullEvery = 30;  // rounds: at 5 s leases, a full read every 50 s

    // A round whose version matches the last full read's: true if a full read is due anyway.
    bool due() { return ++since_ >= kFullEvery; }
    // A full read was made.
    void done() { since_ = 0; }

  private:
    int since_ = 0;  // rounds since the last full read
};

}  // namespace rainet::server

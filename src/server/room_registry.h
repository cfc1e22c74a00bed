#pragma once
// The registry of loaded game rooms: the rooms of games not over (held), and ended rooms while
// someone still follows them (weakly held, so that everyone watching an ended game shares one
// room). Thread-safe; it never reads the store and holds its mutex only over map updates, so
// that opening a game (store reads, replay) never blocks other games: the hub does the I/O and
// registers what it built here. A template over the room type only so that its tests need no
// hub (tests/server/room_registry_test.cpp); the server uses RoomRegistry.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace rainet::server {

template <class Room>
class BasicRoomRegistry {
  public:
    // The room of game `id` (held, or ended and still followed), else nullptr.
    [[nodiscard]] std::shared_ptr<Room> find(const std::string& id) {
        std::lock_guard lock(mu_);
        return findLocked(id);
    }
    // Registers the room of a game not over (a new game, or one restored at start).
    void hold(const std::string& id, std::shared_ptr<Room> room) {
        std::lock_guard lock(mu_);
        rooms_[id] = std::move(room);
    }
    // Registers a room just rebuilt from the store (held, or only while followed when `over`),
    // unless another connection registered one meanwhile: the room to use, that one if so.
    [[nodiscard]] std::shared_ptr<Room> adopt(const std::string& id,
                                              const std::shared_ptr<Room>& room, bool over) {
        std::lock_guard lock(mu_);
        if (auto r = findLocked(id)) return r;
        if (over)
            keepFinished(id, room);
        else
            rooms_[id] = room;
        return room;
    }
    // The game ended: its room is no longer held, only remembered while followed. True if it was
    // held (then nobody needs to own the game any more).
    [[nodiscard]] bool retire(const std::string& id) {
        std::lock_guard lock(mu_);
        auto it = rooms_.find(id);
        if (it == rooms_.end()) return false;
        keepFinished(id, it->second);
        rooms_.erase(it);
        return true;
    }
    // Room `room` of game `id` failed: forgotten, so that the next open rebuilds it. True if it
    // was held (then any node may rebuild the game).
    [[nodiscard]] bool drop(const std::string& id, const Room* room) {
        std::lock_guard lock(mu_);
        bool held = false;
        if (auto it = rooms_.find(id); it != rooms_.end() && it->second.get() == room) {
            rooms_.erase(it);
            held = true;
        }
        if (auto it = finished_.find(id); it != finished_.end()) {
            auto kept = it->second.lock();
            if (!kept || kept.get() == room) finished_.erase(it);
        }
        return held;
    }
    // Every held room (games not over), for shutdown and time checks.
    [[nodiscard]] std::vector<std::shared_ptr<Room>> rooms() {
        std::lock_guard lock(mu_);
        std::vector<std::shared_ptr<Room>> out;
        out.reserve(rooms_.size());
        for (auto& [id, r] : rooms_) out.push_back(r);
        return out;
    }
    // Ended rooms remembered, some perhaps no longer followed (swept as the map grows).
    [[nodiscard]] std::size_t finishedKept() {
        std::lock_guard lock(mu_);
        return finished_.size();
    }

  private:
    std::shared_ptr<Room> findLocked(const std::string& id) {
        if (auto it = rooms_.find(id); it != rooms_.end()) return it->second;
        if (auto it = finished_.find(id); it != finished_.end()) return it->second.lock();
        return nullptr;
    }
    // Remembers an ended room while someone holds it; the forgotten ones go now and then, so
    // that the map stays within twice the rooms still followed (and at least kSweepAtLeast).
    void keepFinished(const std::string& id, const std::shared_ptr<Room>& room) {
        finished_[id] = room;
        if (finished_.size() < sweepAt_) return;
        std::erase_if(finished_, [](const auto& e) { return e.second.expired(); });
        sweepAt_ = std::max<std::size_t>(kSweepAtLeast, 2 * finished_.size());
    }

    static constexpr std::size_t kSweepAtLeast = 64;
    std::mutex mu_;
    std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
    std::unordered_map<std::string, std::weak_ptr<Room>> finished_;
    std::size_t sweepAt_ = kSweepAtLeast;
};

class GameRoom;
using RoomRegistry = BasicRoomRegistry<GameRoom>;

}  // namespace rainet::server

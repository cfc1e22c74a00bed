#pragma once
// The arenas this node runs (docs/protocol.md, "Tournaments"): creating, joining, pausing,
// withdrawing, watching; the scheduler that starts an arena at its time, pairs players as they
// free up (tournament::Arena decides who) and ends it; live standings pushed to every follower.
// Each arena's state is rebuilt from the store at start (load), so that a restart in mid-arena
// resumes it from the stored start with every point kept. One mutex guards everything here;
// store calls run under it, so callers run these on the store's writer thread (as create does).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "protocol/messages.h"
#include "protocol/server_messages.h"
#include "server/client.h"
#include "store/store.h"
#include "tournament/arena.h"
#include "tournament/schedule.h"

namespace rainet::server {

class Hub;

class Tournaments {
  public:
    // Bounds (docs/protocol.md): followers of one tournament, tournaments one connection
    // follows, and tournaments listed.
    static constexpr std::size_t kMaxFollowers = 5000;
    static constexpr std::size_t kMaxFollowedPerConnection = 8;
    static constexpr int kListed = 50;

    // `schedule`: the operator's recurring arenas (Config::arenaSchedule, checked by serve).
    Tournaments(Hub& hub, const std::vector<std::string>& schedule);

    // At start: every created or running tournament back in memory.
    [[nodiscard]] std::optional<Error> load();

    // Each answers the client itself (ack, or an error; tournament_watch: the state).
    void create(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                const protocol::ClientMessage& m);
    void join(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
              const protocol::ClientMessage& m);
    void pause(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
               const protocol::ClientMessage& m);
    void withdraw(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                  const protocol::ClientMessage& m);
    // Follows a tournament: its state now and on every change; `player` is the connection's
    // (0 for none), whose pairings it is told of (`matched`).
    void watch(const std::shared_ptr<Client>& c, std::int64_t player,
               const protocol::ClientMessage& m);
    // Stops following one tournament ("" every one: a closing connection).
    void unwatch(const Client* c, const std::string& tournament);
    void list(const std::shared_ptr<Client>& c, const protocol::ClientMessage& m);

    // Berserk by `player` in tournament game `game` with `ownActions` made: nothing when
    // allowed (and recorded), else why not (the tournament layer's codes, "not_tournament" for
    // a game of no tournament).
    [[nodiscard]] std::optional<std::string> berserk(const std::string& game, std::int64_t player,
                                                     int ownActions);
    // Whether `game` is a tournament game (berserk and rematch ask).
    [[nodiscard]] bool isTournamentGame(const std::string& game);
    // A game ended (from its room): scored, its players paired again.
    void gameEnded(const store::GameRow& row, const int actions[2]);

    // The scheduler: starts arenas whose time has come, pairs free players, ends arenas.
    // Called every second (real time) and by the test clock.
    void tick();

  private:
    struct Follower {
        std::weak_ptr<Client> client;
        std::int64_t player = 0;
    };
    struct Live {
        store::TournamentRow row;
        tournament::Arena arena{0, 0};
        std::map<std::int64_t, store::TournamentPlayerRow> people;  // by player id
        std::map<const Client*, Follower> followers;
    };
    Live* find(const std::string& id);
    protocol::TournamentInfo info(const Live& t) const;
    std::string render(const Live& t) const;
    void push(Live& t);
    void startArena(Live& t);
    void pairNow(Live& t);
    void finishArena(Live& t);
    // Creates the next slot's arena of each recurring schedule, once.
    void schedule(std::int64_t nowMs);
    void refuse(const std::shared_ptr<Client>& c, protocol::ErrorCode code,
                std::string_view message, const protocol::ClientMessage& m);

    Hub& hub_;
    std::mutex mu_;
    std::map<std::string, std::unique_ptr<Live>> live_;
    std::map<std::string, std::string> games_;  // game -> tournament, while the arena is live
    std::map<const Client*, int> followed_;     // tournaments each connection follows
    std::vector<tournament::RecurringArena> recurring_;
    std::set<std::string> scheduled_;  // slot keys whose arena exists
};

}  // namespace rainet::server

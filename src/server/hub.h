#pragma once
// The server's shared state and what connections ask of it: identities and accounts, new games,
// opening a game, matchmaking, the lobby, and the services rooms use (store, time source, ids,
// metrics, the bot worker pool). Thread-safe. The state lives in units that each hold their own
// mutex: the loaded rooms (RoomRegistry), the lobby (Lobby), the seeks waiting (SeekQueue), the
// acks of recent creates (CreateAcks); the hub does the store I/O and glues them together.
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "protocol/messages.h"
#include "protocol/objects.h"
#include "server/accounts.h"
#include "server/client.h"
#include "server/config.h"
#include "server/create_acks.h"
#include "server/ids.h"
#include "server/lobby.h"
#include "server/metrics.h"
#include "server/player_links.h"
#include "server/room_registry.h"
#include "server/seek_queue.h"
#include "server/shared_limits.h"
#include "server/time_source.h"
#include "store/store.h"

namespace rainet::server {

namespace asio = boost::asio;
class GameRoom;
class ClusterNode;
class ClusterSeeks;
class ClusterLobby;
class Tournaments;
class ClusterNotices;

class Hub {
  public:
    Hub(asio::io_context& io, store::Store& store, TimeSource& time, IdSource& ids,
        Metrics& metrics, const Config& config);
    ~Hub();

    asio::io_context& io() { return io_; }
    store::Store& store() { return store_; }
    TimeSource& time() { return time_; }
    IdSource& ids() { return ids_; }
    Metrics& metrics() { return metrics_; }
    const Config& config() const { return config_; }
    asio::thread_pool& bots() { return bots_; }

    struct Identity {
        store::PlayerRow player;
        std::string token;
    };
    // The player of a token, or a new guest (with a new token) when the token is empty or
    // unknown. A new guest is not stored (its `player.id` is 0) until storeGuest: a client that
    // only says hello, watches or pings writes nothing.
    [[nodiscard]] Result<Identity> hello(const std::string& token, const std::string& name);
    struct Refusal {
        protocol::ErrorCode code;
        std::string message;
    };
    // Messages that need the sender stored in the database (a seat, a name, a chat line, an
    // account): before them a new guest is admitted (admitGuest) and stored (storeGuest).
    [[nodiscard]] static bool needsStoredPlayer(protocol::MsgType t);
    // Counts one new identity of client `address` under its limit, or refuses. With a cluster
    // this may wait for a Redis round trip: not on a network thread, nor the store's writer.
    [[nodiscard]] std::optional<Refusal> admitGuest(const std::string& address);
    // Stores a new guest (sets `p.id`).
    [[nodiscard]] std::optional<Refusal> storeGuest(store::PlayerRow& p,
                                                    const std::string& tokenHash);
    // The player's games that are not over, for welcome.
    [[nodiscard]] Result<std::vector<protocol::PlayerGame>> activeGames(const store::PlayerRow& p);
    // The `welcome` message for an identity (`id`: the login's request id, when it had one); an
    // error if the store failed.
    [[nodiscard]] Result<std::string> welcome(const Identity& who,
                                              const protocol::Json& id = nullptr);
    // A player as shown to itself (welcome, the ack of register and rename): id, name, kind,
    // rating (rounded), bot for a bot account.
    [[nodiscard]] static protocol::Player ownPlayer(const store::PlayerRow& p);

    // Accounts (docs/protocol.md §2). Register and login hash a password, slow by design: they
    // run on the hub's password thread and call `done` there, with an identity or an error.
    // At most kMaxPasswordJobs wait or run there: beyond, `done` gets `busy` at once; stop()
    // drops those waiting.
    static constexpr int kMaxPasswordJobs = 16;
    struct AuthReply {
        std::optional<Identity> identity;  // register: the player (token empty); login: a token
        protocol::ErrorCode code = protocol::ErrorCode::Internal;
        std::string message;
        std::optional<store::PlayerRow> guest;  // register failed, but stored the new guest
    };
    using AuthDone = std::function<void(AuthReply)>;
    // `address` (the client's) is limited like new guests. A new guest (`p.id` 0) is stored with
    // `tokenHash` first, unless the username is already taken: a registration that fails on a
    // taken name writes nothing.
    void registerAccount(const store::PlayerRow& p, const std::string& tokenHash,
                         const std::string& address, std::string username, std::string password,
                         bool bot, AuthDone done);
    // Failed logins are throttled per client address `ip` and per (address, username), with
    // backoff; never per username alone, so that nobody can lock another player out.
    void login(const std::string& ip, std::string username, std::string password, AuthDone done);
    [[nodiscard]] std::optional<Error> logout(const std::string& token);
    // Shutdown: password work not yet started is dropped.
    void stop();

    // Handles `create` completely (validation done by the parser): answers the client. Returns
    // the new room, which the client follows (nullptr for a repeated or failed create).
    [[nodiscard]] std::shared_ptr<GameRoom> create(const std::shared_ptr<Client>& c,
                                                   const store::PlayerRow& p,
                                                   const protocol::ClientMessage& m);
    // The next game of a finished one (a rematch): the same settings, sides swapped, both
    // seated and in setup (or the computer seated again). Returns its id.
    [[nodiscard]] Result<std::string> rematch(const store::GameRow& old);
    // A loaded room, or a room rebuilt from the store (finished games too); nullptr if unknown,
    // an error if the store failed. Finished rooms are shared while any connection follows them,
    // so that everyone watching an ended game sees the same room (rematch offers live there).
    [[nodiscard]] Result<std::shared_ptr<GameRoom>> open(const std::string& id);
    // The room of game `id` if it is in memory (no store access), else nullptr.
    [[nodiscard]] std::shared_ptr<GameRoom> loaded(const std::string& id) {
        return rooms_.find(id);
    }
    // Called by a room when its game ended: it is no longer held in the registry.
    void retire(const std::string& id);
    // Tournaments (server/tournaments.h): the arenas this node runs.
    Tournaments& tournaments() { return *tournaments_; }
    // A tournament's game: stored (drawing its id) and started, both seats taken, naming `t`.
    [[nodiscard]] Result<std::shared_ptr<GameRoom>> launchTournamentGame(store::GameRow& row,
                                                                         protocol::TournamentRef t);
    // Called by a room that failed (an exception): forgotten, so that the next open rebuilds the
    // game from the store.
    void drop(const std::string& id, const GameRoom* room);

    // Test mode: POST /api/test/throw?in=... makes the next message handled there throw, to check
    // that an exception fails only the connection or the game concerned.
    enum class TestThrow { None, Connection, Game, Bot, Http };
    void armTestThrow(TestThrow where) { testThrow_ = where; }
    // True once after armTestThrow(where) (never outside test mode).
    [[nodiscard]] bool takeTestThrow(TestThrow where) {
        TestThrow expected = where;
        return testThrow_.load(std::memory_order_relaxed) == where &&
               testThrow_.compare_exchange_strong(expected, TestThrow::None);
    }
    // At start: every game not over, back in memory; an error if the store cannot be read.
    [[nodiscard]] std::optional<Error> loadUnfinished();

    // Matchmaking: `seek` pairs the player with the oldest compatible seek of another player
    // (same preset, clock and rated flag) in a new game, or queues it; answers the client.
    void seek(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
              const protocol::ClientMessage& m);
    // "Nobody waits alone": a seek that waited its computer_after (single node; default
    // kGuestComputerAfterS for a guest) is answered by the computer: an unrated game against it
    // at computerLevel(rating), `matched` sent to the seeker. Checked by a timer armed for the
    // earliest such seek (real time), or on advanceTime (test mode).
    static constexpr int kGuestComputerAfterS = 20;
    [[nodiscard]] static int computerLevel(double rating);
    void seatComputerForDueSeeks();
    // Withdraws the player's seek (`unseek`) or, with player 0, every seek of a closing connection.
    void unseek(const Client* c, std::int64_t player);
    // A cluster: the seeks wait in Redis (server/cluster_seeks.h) instead of this node's queue,
    // and the lobby shows the cluster's summary. Set once, before the node serves.
    void setClusterSeeks(ClusterSeeks* s) { clusterSeeks_ = s; }
    // A cluster: the open games are listed in every node's lobby (server/cluster_lobby.h).
    void setClusterLobby(ClusterLobby* l) { clusterLobby_ = l; }
    Lobby& lobby() { return lobby_; }
    void setSeekSummary(std::vector<protocol::SeekEntry> summary) {
        lobby_.setSeeks(std::move(summary));
    }

    // Lobby: open games anyone may join.
    // nullopt removes; in a cluster the change goes to every node's lobby (hub_cluster.cpp).
    void setLobbyEntry(const std::string& id, std::optional<protocol::LobbyEntry> entry,
                       std::int64_t created = 0);
    void subscribeLobby(const std::shared_ptr<Client>& c) { lobby_.subscribe(c); }
    void unsubscribeLobby(const Client* c) { lobby_.unsubscribe(c); }

    // The cluster (server/cluster_node.h; hub_cluster.cpp): null on a single node, where every
    // call below is a no-op or true. Set once, before the node serves.
    void setCluster(ClusterNode* c) { cluster_ = c; }
    // A cluster: the login and new-identity throttles count in Redis (hub_cluster.cpp).
    void shareLimits(const std::shared_ptr<SharedCounters>& counters);
    ClusterNode* cluster() const { return cluster_; }
    // open()'s error for an unfinished game whose live lease another node holds: the client's
    // messages for it are forwarded to the owner (server/forwarding.h); never loaded twice.
    static constexpr std::string_view kHeldElsewhere = "the game is served by another node";
    // Whether this node may still commit for game `id` (its lease held and live).
    [[nodiscard]] bool leaseLive(const std::string& id) const;
    // The fence of any other write of game `id`: nullopt on a single node, and for a game over
    // whose lease was released (nobody owns it); else the lease if held and live, or one that
    // fails every write.
    [[nodiscard]] std::optional<store::GameLease> writeFence(const std::string& id,
                                                             bool over) const;
    // The fence of an action write of game `id` (nullopt on a single node).
    [[nodiscard]] std::optional<store::GameLease> fence(const std::string& id) const;
    // The lease of `id` let go, on the store's writer thread (a finished or dropped game).
    void releaseLease(const std::string& id);
    // The lease of `id` was lost: its room stops, is dropped, and its clients are closed (1012)
    // so that they reconnect to the game's new owner.
    void evict(const std::string& id);

    // Notifications (docs/protocol.md, "Notifications"; hub_notifications.cpp). notify() stores
    // one for `recipient` (a stored player) on the store's writer thread, never blocking the
    // caller (a network thread, a room's strand), then pushes `notification` to the recipient's
    // connections on every node. `kind`: a name of protocol::NotificationKind; `data`: a JSON
    // object of ids and names, at most store::Store::kMaxNotificationData bytes (a kind's data
    // is far smaller: one over it is a programming error, logged and dropped). Bounded per
    // player by the store (kMaxNotificationsPerPlayer).
    void notify(std::int64_t recipient, std::string_view kind, protocol::Json data);
    // The connections of each player on this node (added once its identity is known).
    PlayerLinks& links() { return links_; }
    // `text` to every connection of `player`, on this node and (a cluster) the others.
    void sendToPlayer(std::int64_t player, const std::string& text);
    // A cluster: the messages for a player's connections go to every node. Set once.
    void setClusterNotices(ClusterNotices* n) { clusterNotices_ = n; }
    // The answers to `notifications` and `notifications_read` (run on a store thread).
    [[nodiscard]] Result<std::string> notificationPage(std::int64_t player, std::int64_t before,
                                                       int limit, const protocol::Json& id);
    // Marks read; the new unread count (also sent to the player's connections as `unread`).
    [[nodiscard]] Result<std::int64_t> markNotificationsRead(std::int64_t player,
                                                             std::int64_t upTo);
    // Deletes the notifications older than the retention (--notification-days), on the writer
    // thread; at most once per kPruneEvery of game time.
    void pruneNotifications();
    static constexpr std::int64_t kPruneEvery = 10 * 60 * 1000;  // ms

    // Challenges and follows (docs/protocol.md, "Challenges", "Follows"; hub_challenges.cpp).
    // Each runs on the store's writer thread and answers the client itself. Bounds: a player has
    // at most kMaxChallengesOut pending challenges and receives at most kMaxChallengesIn; an
    // address makes at most 20 challenges, then one per 30 s; a challenge lapses unanswered
    // after kChallengeTtlMs; a player follows at most kMaxFollows players.
    static constexpr int kMaxChallengesOut = 10;
    static constexpr int kMaxChallengesIn = 50;
    static constexpr std::int64_t kChallengeTtlMs = 10 * 60 * 1000;
    static constexpr int kMaxFollows = 1000;
    // Counts one challenge of client `address` under its limit, or refuses (a cluster's limit
    // asks Redis: on a reader thread).
    [[nodiscard]] std::optional<Refusal> admitChallenge(const std::string& address);
    void challenge(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                   const protocol::ClientMessage& m);
    // challenge_accept, challenge_decline, challenge_cancel.
    void answerChallenge(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                         const protocol::ClientMessage& m);
    [[nodiscard]] Result<std::string> challengeList(const store::PlayerRow& p,
                                                    const protocol::Json& id);
    void setChallengeSettings(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                              const protocol::ClientMessage& m);
    // Lapsed challenges marked expired (on the writer thread), both players told.
    void expireChallenges();
    // follow and unfollow.
    void follow(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                const protocol::ClientMessage& m);
    [[nodiscard]] Result<std::string> followingList(const store::PlayerRow& p,
                                                    const protocol::Json& id);
    // A game of `player` began: its followers who asked for it (follow `starts`) are notified
    // (follow_started_game), at most kMaxFollows of them; read and sent off the caller's thread.
    void notifyGameStarted(std::int64_t player, const std::string& publicId,
                           const std::string& name, const std::string& game);
    // The player's correspondence games in play, their moves first (`my_games`; hub_games.cpp).
    static constexpr int kMaxMyGames = 100;
    [[nodiscard]] Result<std::string> myGames(const store::PlayerRow& p, const protocol::Json& id);

    // Moderation (docs/protocol.md, "Moderation"; hub_moderation.cpp). Each runs on the store's
    // writer thread and answers the client itself. Bounds: a player blocks at most kMaxBlocks
    // players and makes at most kMaxReportsPerDay reports in any 24 hours; `reports` answers at
    // most kMaxReportsListed. `reports` and `moderate` need the moderator or admin role.
    static constexpr int kMaxBlocks = 500;
    static constexpr int kMaxReportsPerDay = 10;
    static constexpr int kMaxReportsListed = 100;
    // Quick pairing avoids at most this many players who blocked the seeker (and every player
    // it blocked).
    static constexpr int kMaxBlockersAvoided = 10000;
    // block and unblock.
    void block(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
               const protocol::ClientMessage& m);
    [[nodiscard]] Result<std::string> blockedList(const store::PlayerRow& p,
                                                  const protocol::Json& id);
    void report(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                const protocol::ClientMessage& m);
    void reports(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                 const protocol::ClientMessage& m);
    void moderate(const std::shared_ptr<Client>& c, const store::PlayerRow& p,
                  const protocol::ClientMessage& m);

    // Test mode: moves the manual clock and lets every room check its flags and expiry.
    void advanceTime(std::int64_t cs);
    // Every loaded room, for shutdown and time checks.
    [[nodiscard]] std::vector<std::shared_ptr<GameRoom>> rooms() { return rooms_.rooms(); }

  private:
    // The player a social message names (`m.player`) when it is another than `p`; otherwise the
    // client is refused with a clear error (unreadable, unknown, or `p` itself: "you cannot
    // <verb> yourself") and nullopt returned. On the writer thread (hub_challenges.cpp).
    std::optional<store::PlayerRow> otherPlayer(const std::shared_ptr<Client>& c,
                                                const store::PlayerRow& p,
                                                const protocol::ClientMessage& m,
                                                std::string_view verb);
    // How often rooms check whether they expired (real time only; manual time checks on
    // advanceTime): an expired game ends at most this late.
    static constexpr std::chrono::seconds kExpirySweepEvery{30};
    void sweepExpired();
    // How often the tournaments' scheduler runs (real time; manual time runs it on advanceTime).
    static constexpr std::chrono::seconds kTournamentTickEvery{1};
    void tickTournaments();
    // Stores a new game (drawing ids until one is free) and registers its room.
    [[nodiscard]] Result<std::shared_ptr<GameRoom>> launch(store::GameRow& row,
                                                           std::optional<Side> botSide);
    // Takes the lease of unfinished game `id` (cluster only): nullopt once held, else the error.
    [[nodiscard]] std::optional<Error> acquireLease(const std::string& id);
    // The game of a pairing: `waiting` (its player) waited, `mine` completes the pair; sets
    // `waitingSide` (0 or 1, drawn). The stored row, or nullopt if it could not be stored.
    [[nodiscard]] std::optional<store::GameRow> launchMatch(const SeekQueue::Seek& mine,
                                                            std::int64_t waiting, int& waitingSide);
    // Hub::seek with the seeks in Redis (hub_seeks.cpp).
    void seekAcrossNodes(const std::shared_ptr<Client>& c, const SeekQueue::Seek& mine,
                         const protocol::ClientMessage& m);

    ClusterNode* cluster_ = nullptr;
    ClusterSeeks* clusterSeeks_ = nullptr;
    ClusterLobby* clusterLobby_ = nullptr;
    ClusterNotices* clusterNotices_ = nullptr;
    PlayerLinks links_;
    std::atomic<std::int64_t> lastPruneMs_{0};
    asio::io_context& io_;
    store::Store& store_;
    TimeSource& time_;
    IdSource& ids_;
    Config config_;
    Metrics& metrics_;
    asio::thread_pool bots_;
    [[nodiscard]] bool cheapHashes() const;
    [[nodiscard]] AuthReply busy();  // the answer when the password queue is full

    PasswordWorker passwords_{kMaxPasswordJobs};
    SharedThrottle loginsByAddress_{20, 2000, true};  // 20 failures, then one per 20 s, backing off
    SharedThrottle loginsByUser_{5, 2000, true};      // per (address, username)
    SharedThrottle identities_;                       // new guests and registrations per address
    SharedThrottle challengesByAddress_{20, 3000};    // 20 challenges, then one per 30 s
    asio::steady_timer expirySweep_;
    asio::steady_timer tournamentTick_;
    std::unique_ptr<Tournaments> tournaments_;
    asio::steady_timer seekTimer_;
    std::atomic<std::int64_t> seekTimerAtCs_{0};  // when seekTimer_ fires (0: not armed)
    // Arms seekTimer_ for `atCs` unless it fires earlier already (real time only).
    void armSeekTimer(std::int64_t atCs);
    std::once_flag dummyOnce_;
    std::string dummyHash_;  // verified against when a username is unknown: same time either way

    std::atomic<TestThrow> testThrow_{TestThrow::None};
    RoomRegistry rooms_;
    CreateAcks created_{metrics_.createIdsHeld};
    Lobby lobby_;
    SeekQueue seeks_;
};

}  // namespace rainet::server

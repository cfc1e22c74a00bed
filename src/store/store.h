#pragma once
// Persistence of players, games, setups, actions and ratings, in SQLite (a file, the default) or
// PostgreSQL (a postgresql:// URI): the same rows, statements and guarantees on both, the backend
// behind store/database.h. Every write is one transaction, committed before the caller
// acknowledges or broadcasts what it records. Safe to call from several threads: each call takes a
// connection of the store's own (SQLite: one, so calls run one at a time; PostgreSQL: up to
// kPostgresConnections, so commits overlap, with row locks where a transaction reads what it
// writes). Errors are values; nothing throws. Durability: sqlite_database.h and
// postgres_database.h.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/game_facts.h"
#include "store/database.h"
#include "store/fault_injection.h"
#include "store/game_lease.h"
#include "store/moderation_rows.h"
#include "store/tournament_rows.h"

namespace rainet::store {

// A player: a guest, or an account (kind "account": a row in `accounts` holds its username and
// password hash). A player may hold several tokens (one per browser), kept hashed in `tokens`.
struct PlayerRow {
    std::int64_t id = 0;
    std::string publicId;  // "p..."
    std::string name;
    std::string kind = "guest";                         // guest, account
    double rating = 1500, rd = 350, volatility = 0.06;  // Glicko-2 (store/glicko2.h)
    int ratedGames = 0;
    std::int64_t ratedAt = 0;  // unix ms: when the rating was last updated (0: never)
    bool bot = false;          // an account played by a program (`register` with bot: true)
};

struct AccountRow {
    std::int64_t player = 0;
    std::string username;      // as registered
    std::string passwordHash;  // libsodium crypto_pwhash_str
};

enum class Registration { Registered, UsernameTaken, AlreadyRegistered };

// A player's rating before and after one rated game.
struct RatingChange {
    std::int64_t player = 0;
    double before = 0, after = 0, rdBefore = 0, rdAfter = 0;
};

// A player's profile: the row and its finished games, counted.
struct PlayerStats {
    PlayerRow player;
    std::int64_t games = 0, wins = 0, draws = 0, losses = 0;
};

// One game as stored. Clocks are the remaining centiseconds at the last action (or start).
struct GameRow {
    std::string id;
    std::string preset = "standard";
    int clockInitial = 0;  // 0: untimed
    int clockIncrement = 0;
    std::string opponent = "open";  // open, invite, computer
    int level = 0;
    std::string sideWish = "random";
    std::int64_t creator = 0;
    std::int64_t player[2] = {0, 0};  // 0: seat free (or the computer)
    GameStatus status = GameStatus::Open;
    std::string result, reason;  // empty while not ended
    std::int64_t version = 0;
    std::int64_t clock[2] = {0, 0};
    std::int64_t created = 0, ended = 0;  // unix ms
    bool rated = false;                   // human vs human, the creator's choice
    // Pending offers (side 1 or 2; 0: none), written with the version that made them. A draw
    // offer lapses with the next action (loading drops it when a later action exists).
    int drawOffer = 0, rematchOffer = 0;
    std::string nextGame;  // the rematch, once agreed
    // A correspondence game (clock increment protocol::kCorrespondence): when the state must
    // move on by (unix ms: the side to move's move, or the setup), and the side to move (1 or 2;
    // 0 when not in play). 0 and 0 for other games.
    std::int64_t deadline = 0;
    int toMove = 0;
};

// A chat line of a game: `seq` numbers the game's lines (both rooms) from 1; `channel` 0 is the
// players' room, 1 the spectators'; `line` the JSON the server sends (docs/protocol.md).
struct ChatRow {
    std::int64_t seq = 0;
    int channel = 0;
    std::string line;
};

struct ActionRow {
    int ply = 0;
    std::string action;           // full notation
    std::string clientId;         // JSON of the request id, empty for the computer's actions
    std::int64_t clockAfter = 0;  // the mover's clock after the action (increment included)
    std::int64_t version = 0;     // the game's version after the action
};

// Everything needed to rebuild a game.
struct GameData {
    GameRow game;
    int setup[2] = {-1, -1};  // link masks, -1 when not submitted
    std::vector<ActionRow> actions;
    std::vector<RatingChange> ratings;  // by side (2 entries) for a rated finished game, else none
    std::vector<ChatRow> chat;          // the last kChatLoaded lines of each room, in order of seq
};

struct GameSummary {
    GameRow game;
    std::string names[2], publicIds[2];
};

// Where a listing page ends, to ask for the next one (keyset pagination).
struct GameKey {
    std::int64_t created = 0;
    std::string id;
};
struct RankKey {
    double rating = 0;
    int ratedGames = 0;
    std::int64_t id = 0;
};

// One entry of a player's inbox (docs/protocol.md, "Notifications"): `data` is the JSON object
// of its kind, as the server sends it.
struct NotificationRow {
    std::int64_t id = 0;  // increasing: a newer notification has a higher id
    std::string kind;
    std::string data;
    std::int64_t createdMs = 0;  // game time (the server's TimeSource), ms
    bool read = false;
};
// A page of an inbox, newest first, and how many of the player's notifications are unread.
struct NotificationPage {
    std::vector<NotificationRow> items;
    std::int64_t unread = 0;
};

// A challenge of one named player by another (docs/protocol.md, "Challenges"). status: pending,
// accepted, declined, canceled, expired. Times are the server's game time, unix ms.
struct ChallengeRow {
    std::string id;
    std::int64_t challenger = 0, challenged = 0;
    std::string preset = "standard";
    int clockInitial = 0, clockIncrement = 0;  // cs; 0: untimed
    bool rated = false;
    std::string side = "random";  // the challenger's wish: 1, 2, random
    std::string status = "pending";
    std::string reason;  // a decline's
    std::string game;    // once accepted
    std::int64_t created = 0, expires = 0;
};
enum class ChallengeInsert { Created, TooManyOut, TooManyIn };
// Who may challenge a player: from "everyone", "followed" (players it follows) or "nobody"; and
// whether bot accounts may.
struct ChallengeSettings {
    std::string from = "everyone";
    bool bots = true;
};
enum class FollowResult { Added, Already, Full };
// A followed player and its games in play (at most 10, newest first).
struct FollowedPlayer {
    PlayerRow player;
    std::vector<std::string> games;
};

// A read's three outcomes: a value, std::nullopt (there is none) or an Error (the store failed).
template <class T>
using Lookup = Result<std::optional<T>>;

class Store {
  public:
    // `target`: a postgresql:// (or postgres://) URI, else the path of a SQLite file. `sync`: off,
    // normal or full (SQLite's synchronous; on PostgreSQL "off" turns synchronous_commit off).
    // `faultInjection`: make injectFaults() available (test mode).
    static Result<std::unique_ptr<Store>> open(const std::string& target,
                                               const std::string& sync = "normal",
                                               bool faultInjection = false);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // The schema version this build writes (the number of migration steps, store/schema.h);
    // open() migrates older databases and refuses newer ones.
    static int schemaVersion();
    Dialect dialect() const { return dialect_; }

    // Reads answer the row, std::nullopt when there is none, or an Error when the store failed:
    // a failure is never taken for an absence (a missing player would become a new guest).
    Lookup<PlayerRow> playerByTokenHash(const std::string& hash);
    Lookup<PlayerRow> playerById(std::int64_t id);
    Lookup<PlayerRow> playerByPublicId(const std::string& publicId);
    // A new guest holding one token.
    Result<PlayerRow> createPlayer(const std::string& publicId, const std::string& tokenHash,
                                   const std::string& name);
    [[nodiscard]] std::optional<Error> renamePlayer(std::int64_t id, const std::string& name);
    // Tokens: another one for a player (a login), or one revoked (a logout).
    [[nodiscard]] std::optional<Error> addToken(std::int64_t player, const std::string& tokenHash);
    [[nodiscard]] std::optional<Error> revokeToken(const std::string& tokenHash);

    // Accounts. Usernames are unique case-insensitively (ASCII). Registering makes the player an
    // account named after its username (a bot account when `bot`); nothing changes unless the
    // answer is Registered.
    Result<Registration> registerAccount(std::int64_t player, const std::string& username,
                                         const std::string& passwordHash, bool bot = false);
    Lookup<AccountRow> accountByUsername(const std::string& username);

    // Ratings and profiles.
    Lookup<PlayerStats> playerStats(const std::string& publicId);
    // Players with at least one rated game, best first (ties: more games, then older): at most
    // `limit` of them, those after `after` (keyset pagination on an index, no OFFSET).
    Result<std::vector<PlayerRow>> leaderboard(const std::optional<RankKey>& after, int limit);
    // How many players have a rated game (the leaderboard's length).
    Result<std::int64_t> ratedPlayers();

    [[nodiscard]] std::optional<Error> insertGame(const GameRow& g);
    // updateGame, finishGame, saveSetup and saveChat take a `fence` as saveAction does (a
    // cluster's node): inside the write's transaction the lease row is read locked, and the write
    // fails, changing nothing, unless the lease is still the node's.
    [[nodiscard]] std::optional<Error> updateGame(
        const GameRow& g, const std::optional<GameLease>& fence = std::nullopt);
    // Ends game g (status finished or aborted): writes its row and, when it is rated and has a
    // result, both players' new Glicko-2 ratings and the changes, in one transaction. Returns the
    // changes by side (none for an unrated game).
    Result<std::vector<RatingChange>> finishGame(
        const GameRow& g, const std::optional<GameLease>& fence = std::nullopt);
    [[nodiscard]] std::optional<Error> saveSetup(
        const GameRow& g, int side, int links,
        const std::optional<GameLease>& fence = std::nullopt);
    // Appends an action of game g. The games row is not rewritten: loading takes the version and
    // the clocks from the last actions.
    // With a `fence` (a cluster's node), only while that lease is still the game's: an error
    // otherwise, and nothing written.
    [[nodiscard]] std::optional<Error> saveAction(
        const GameRow& g, const ActionRow& a, const std::optional<GameLease>& fence = std::nullopt);
    // The same, by group commit: queued for the store's writer thread, which commits what was
    // queued meanwhile, from any games, in one transaction (at most kMaxBatch writes; no wait
    // added: a batch is what arrived while the previous one committed). `done` is called on the
    // writer thread once the batch is committed, with its outcome: acknowledge only then. A write
    // that fails its batch fails alone (the batch is retried one write per transaction).
    using Done = std::function<void(std::optional<Error>)>;
    // An action of a correspondence game, with the games row's deadline and side to move
    // (g.deadline, g.toMove) in the same transaction: the next mover's deadline survives a
    // restart exactly. Fenced as saveAction.
    [[nodiscard]] std::optional<Error> saveCorrespondenceAction(
        const GameRow& g, const ActionRow& a, const std::optional<GameLease>& fence = std::nullopt);
    void saveActionBatched(const GameRow& g, const ActionRow& a, Done done,
                           std::optional<GameLease> fence = std::nullopt);

    // Game leases (store/game_lease.h). `now` and `ttl` in ms. acquireLease: the lease if `node`
    // holds it now (new, taken over from an expired or released one with the epoch raised, or
    // its own live one extended), std::nullopt while another node's is live. renewLease: the
    // extended lease, std::nullopt if it is no longer held (taken over). releaseLease: ends it
    // now, keeping the epoch, so the next owner's is higher.
    Lookup<GameLease> acquireLease(const std::string& game, const std::string& node,
                                   std::int64_t now, std::int64_t ttl);
    Lookup<GameLease> renewLease(const GameLease& held, std::int64_t now, std::int64_t ttl);
    // Every lease of `held` at once, in one statement (a cluster node's round): the ones still
    // held (same owner and epoch), extended to now + ttl, in no particular order. A lease left
    // out of the answer was taken over (or is unknown): it is no longer its holder's.
    Result<std::vector<GameLease>> renewLeases(const std::vector<GameLease>& held, std::int64_t now,
                                               std::int64_t ttl);
    [[nodiscard]] std::optional<Error> releaseLease(const GameLease& held);
    // Games not over whose lease has expired (or that never had one): what a node may take over.
    Result<std::vector<std::string>> orphanedGames(std::int64_t now, int limit);
    // The lease of `game` as it stands (live or not), std::nullopt if it never had one: which
    // node serves the game, for a node that forwards its clients' messages there.
    Lookup<GameLease> leaseOf(const std::string& game);
    // The store's executor, so that no network thread waits for the database. write(): `job` runs
    // on the writer thread after everything queued before it (batched actions and jobs alike), so
    // that one game's writes commit in the order they were queued. read(): `job` runs on one of
    // kReadThreads reader threads, which take the read connections. A job calls the synchronous
    // methods below and hands its result back itself (posting to its caller's strand); it must
    // not throw. Both queues are bounded by their callers: a room or a connection has at most one
    // job queued at a time (docs/architecture.md).
    using Job = std::function<void()>;
    void write(Job job);
    void read(Job job);
    static constexpr std::size_t kReadThreads = 2;
    // Runs what is queued and stops the writer and reader threads (at shutdown, while the
    // callers' executors still exist); later jobs and batched writes then run at once, on the
    // caller's thread.
    void stopThreads();
    static constexpr std::size_t kMaxBatch = 256;
    // Appends a chat line of game `game` (store/chat_store.h).
    [[nodiscard]] std::optional<Error> saveChat(
        const std::string& game, const ChatRow& line,
        const std::optional<GameLease>& fence = std::nullopt);
    // Chat lines loaded with a game, per room (the server shows as many).
    static constexpr int kChatLoaded = 50;

    Lookup<GameData> loadGame(const std::string& id);
    Result<std::vector<GameData>> loadUnfinished();
    // Games newest first (ties: by id), at most `limit`, those after `after` (keyset pagination:
    // each filter has an index in that order, no OFFSET); `playerPublicId` "" = anyone's, status
    // "" = any, "active" = open/setup/playing.
    // The correspondence games in play that `player` is seated in, the soonest deadline first,
    // at most `limit` (the "your turn" list; docs/protocol.md, "my_games").
    Result<std::vector<GameSummary>> correspondenceGames(std::int64_t player, int limit);
    Result<std::vector<GameSummary>> listGames(const std::string& playerPublicId,
                                               const std::string& status,
                                               const std::optional<GameKey>& after, int limit);

    // Tournaments (store/tournament_rows.h, tournament_store.cpp). Each call is one transaction.
    [[nodiscard]] std::optional<Error> insertTournament(const TournamentRow& t);
    // Sets status and ended.
    [[nodiscard]] std::optional<Error> updateTournamentStatus(const std::string& id,
                                                              const std::string& status,
                                                              std::int64_t ended);
    // Adds `player` (state Active), or makes a paused player active again: true. False, changing
    // nothing, when the player had withdrawn for good.
    Result<bool> joinTournament(const std::string& id, std::int64_t player, std::int64_t now,
                                int seed);
    [[nodiscard]] std::optional<Error> setEntrant(const std::string& id, std::int64_t player,
                                                  Entrant state);
    // A game paired in the tournament (its games row is inserted before, by the caller).
    [[nodiscard]] std::optional<Error> addTournamentGame(const std::string& id,
                                                         const TournamentGameRow& g);
    // A tournament game's berserk flags, actions, result and end, as the game left them.
    [[nodiscard]] std::optional<Error> finishTournamentGame(const TournamentGameRow& g);
    Lookup<TournamentData> loadTournament(const std::string& id);
    // The tournament a game belongs to ("" for none).
    Result<std::string> tournamentOfGame(const std::string& game);
    // A tournament game's tournament (id and name) and who berserked in it; nothing for a game
    // of no tournament.
    Lookup<GameTournamentRow> gameTournament(const std::string& game);
    // Tournaments with status `status` ("" any), by start (created, running: soonest first;
    // finished: latest first), at most `limit`, with their players counted.
    struct TournamentListing {
        TournamentRow tournament;
        int players = 0;
    };
    Result<std::vector<TournamentListing>> listTournaments(const std::string& status, int limit);
    // Created or running tournaments made by `creator` (the per-account limit).
    Result<int> openTournamentsBy(std::int64_t creator);
    // Notifications (store/notification_store.cpp). A player keeps at most
    // kMaxNotificationsPerPlayer: adding one deletes the oldest beyond, in the same transaction.
    // `data` (a JSON object) of more than kMaxNotificationData bytes is refused (an error, and
    // nothing written): the server's kinds are far smaller, so this is a programming error.
    static constexpr int kMaxNotificationsPerPlayer = 200;
    static constexpr int kMaxNotificationPage = 50;
    static constexpr std::size_t kMaxNotificationData = 2048;
    Result<std::int64_t> addNotification(std::int64_t player, const std::string& kind,
                                         const std::string& data, std::int64_t nowMs);
    // Newest first, those with an id below `beforeId` (0: from the newest), at most `limit`
    // (clamped to 1..kMaxNotificationPage); with the unread count.
    Result<NotificationPage> notifications(std::int64_t player, std::int64_t beforeId, int limit);
    Result<std::int64_t> unreadNotifications(std::int64_t player);
    // Marks read every notification of the player with an id <= upToId; how many changed.
    Result<int> markNotificationsRead(std::int64_t player, std::int64_t upToId);
    // Deletes every notification created before `olderThanMs` (the retention); how many.
    Result<int> pruneNotifications(std::int64_t olderThanMs);

    // Challenges (store/social_store.cpp). insertChallenge adds a pending one unless the
    // challenger has `maxOut` pending (unexpired) already, or the challenged `maxIn`.
    Result<ChallengeInsert> insertChallenge(const ChallengeRow& c, int maxOut, int maxIn);
    Lookup<ChallengeRow> challenge(const std::string& id);
    // The player's pending, unexpired challenges, made or received, oldest first.
    Result<std::vector<ChallengeRow>> pendingChallenges(std::int64_t player, std::int64_t now);
    // A pending, unexpired challenge moved to `status` (accepted, declined, canceled): the row
    // after, std::nullopt if it was not pending any more (answered, canceled or expired).
    Lookup<ChallengeRow> settleChallenge(const std::string& id, const std::string& status,
                                         const std::string& reason, std::int64_t now);
    [[nodiscard]] std::optional<Error> setChallengeGame(const std::string& id,
                                                        const std::string& game);
    // Pending challenges expired by `now`, marked expired; those it marked (each once).
    Result<std::vector<ChallengeRow>> expireChallenges(std::int64_t now);
    Result<ChallengeSettings> challengeSettings(std::int64_t player);
    [[nodiscard]] std::optional<Error> setChallengeSettings(std::int64_t player,
                                                            const ChallengeSettings& s);
    // Follows: at most `cap` per follower (Full beyond; Already when it existed).
    Result<FollowResult> follow(std::int64_t follower, std::int64_t followed, std::int64_t now,
                                int cap);
    Result<bool> unfollow(std::int64_t follower, std::int64_t followed);  // false: was not
    Result<bool> follows(std::int64_t follower, std::int64_t followed);
    // The players `follower` follows, by name, with their games in play.
    Result<std::vector<FollowedPlayer>> following(std::int64_t follower);
    // Whether `follower` is told when `followed` starts a game (an existing follow; off at first).
    [[nodiscard]] std::optional<Error> setFollowStarts(std::int64_t follower, std::int64_t followed,
                                                       bool on);
    // The ids of the players following `followed` who asked to be told of its games, at most
    // `limit`.
    Result<std::vector<std::int64_t>> startFollowers(std::int64_t followed, int limit);
    // The ids of the players following `followed`, at most `limit`.
    Result<std::vector<std::int64_t>> followers(std::int64_t followed, int limit);

    // Moderation (store/moderation_rows.h, moderation_store.cpp). Every action of a moderator or
    // of the operator (`by`/`actor`: a player id, 0 for the operator) is written to the
    // moderation log in the transaction that makes it.
    // Blocks: at most `cap` per player (Full beyond; Already when it existed).
    Result<BlockResult> block(std::int64_t player, std::int64_t blocked, std::int64_t now, int cap);
    Result<bool> unblock(std::int64_t player, std::int64_t blocked);  // false: was not
    Result<std::vector<PlayerRow>> blockedBy(std::int64_t player);    // whom it blocked, by name
    // The players who blocked `player`, at most `limit`.
    Result<std::vector<std::int64_t>> blockersOf(std::int64_t player, int limit);
    Result<bool> blocks(std::int64_t player, std::int64_t other);
    // A report, unless its reporter made `maxPerWindow` since `windowStart` (std::nullopt then,
    // nothing written): its id.
    Lookup<std::int64_t> addReport(const ReportRow& r, int maxPerWindow, std::int64_t windowStart);
    // Reports in `state` ("" any), oldest first, at most `limit`.
    Result<std::vector<ReportRow>> reports(const std::string& state, int limit);
    // Closes an open report (logged as close_report): false if it was not open (or unknown).
    Result<bool> closeReport(std::int64_t id, std::int64_t actor, const std::string& reason,
                             std::int64_t now);
    // Roles ("moderator", "admin"): true when it changed anything (logged as grant / revoke).
    Result<bool> setRole(std::int64_t player, const std::string& role, bool on, std::int64_t actor,
                         const std::string& reason, std::int64_t now);
    Result<std::vector<std::string>> roles(std::int64_t player);
    // A ban (its tokens are revoked in the same transaction: every session ends) or a mute,
    // replacing the player's current one of that kind; logged as ban / mute.
    [[nodiscard]] std::optional<Error> sanction(const SanctionRow& s, std::int64_t now);
    // Ends the player's ban or mute: false if there was none (logged as unban / unmute).
    Result<bool> liftSanction(std::int64_t player, const std::string& kind, std::int64_t actor,
                              const std::string& reason, std::int64_t now);
    // The player's ban or mute in force at `now`, if any.
    Lookup<SanctionRow> activeSanction(std::int64_t player, const std::string& kind,
                                       std::int64_t now);
    // The moderation log, newest first, at most `limit`.
    Result<std::vector<ModLogRow>> moderationLog(int limit);
    // Privacy (store/privacy_store.cpp). Everything stored about a player, as a JSON document
    // (profile, account, games, ratings, notifications, follows, blocks, reports made, bans and
    // mutes, chat lines written); std::nullopt for no such player.
    Lookup<std::string> exportPlayer(std::int64_t player);
    // Closes an account in one transaction: its chat lines, tokens (every session ends),
    // account row (the username is free at once), notifications, follows, blocks and roles are
    // deleted, its pending challenges canceled, its reports' texts emptied, and the player
    // renamed "deleted player"; its games and ratings stay. Logged as close_account. False for
    // no such player.
    Result<bool> closeAccount(std::int64_t player, std::int64_t actor, const std::string& reason,
                              std::int64_t now);

    // Test mode only (open(..., faultInjection = true)): while on, every statement, begin and
    // commit fails, as when the disk or the database server is gone. False if not enabled.
    bool injectFaults(bool on);
    // Test mode only: while on, each commit commits and then fails with kCommitUnknown
    // (database.h), as when the connection is lost before the commit's reply.
    bool injectUnknownCommits(bool on);
    // Test mode only: every read waits `ms` before it takes a connection (0: none; setting 0
    // releases the reads waiting), as a slow disk or database server would make it. False if not
    // enabled.
    bool delayReads(std::int64_t ms);
    // The reads waiting in that delay now (tests sync on it).
    std::size_t readsDelayed() const;

    // Connections a PostgreSQL store opens at most (when calls overlap), reads and writes.
    static constexpr std::size_t kPostgresConnections = 4;
    // SQLite: read-only connections beside the writing one, so that reads (identities, game
    // loads, listings) never wait for a commit and commits never wait for a slow listing.
    static constexpr std::size_t kSqliteReaders = 2;
    // The connections open now, writers' and readers' pools (for tests and operators).
    struct ConnectionCount {
        std::size_t writers = 0, readers = 0;
    };
    ConnectionCount connectionsOpen();
    // Batches of actions that failed as one and were written again one by one (each failing
    // alone if at fault) since the store opened.
    std::uint64_t batchesSplit() const { return batchesSplit_.load(std::memory_order_relaxed); }

  private:
    std::atomic<std::uint64_t> batchesSplit_{0};
    using Opener = std::function<Result<std::unique_ptr<Database>>()>;
    class Lease;  // one connection, taken for one call
    // Connections opened on demand up to a bound, each lent to one call at a time. A connection
    // that cannot be opened (the server refuses more, or is down for a moment) is tried again
    // after kReopenAfter, never given up for good: the bound stays what it was.
    struct Pool {
        std::mutex mu;
        std::condition_variable freed;
        Opener opener;
        std::size_t max = 0, opening = 0;
        std::chrono::steady_clock::time_point retryAt{};  // no opening before this
        std::vector<std::unique_ptr<Database>> all;
        std::vector<Database*> free;
    };
    static constexpr std::chrono::milliseconds kReopenAfter{500};
    Store(Opener opener, std::size_t maxConnections, std::unique_ptr<Database> first);
    // A free connection of `pool`, opened if none is free and the bound allows. Null only when
    // `orNone` and the pool has no connection at all and cannot open one now (the readers: the
    // caller then uses the writers' pool); otherwise it waits for one to be freed.
    static Database* take(Pool& pool, bool orNone);
    static Lease lease(Pool& pool);
    Lease lease();      // for writes (and reads that must see them: none yet)
    Lease readLease();  // for reads: the readers, if any
    [[nodiscard]] std::optional<Error> migrate(Database& db);
    // A batched action (job empty) or a write job.
    struct QueuedWrite {
        std::string game;
        ActionRow action;
        Done done;
        Job job;
        std::optional<GameLease> fence;
    };
    void enqueueWrite(QueuedWrite w);
    void writeLoop();
    // Commits the batched actions of `batch` in one transaction (jobs in it run in their place).
    void commitBatch(std::vector<QueuedWrite>& batch);
    void commitActions(std::span<QueuedWrite> actions);
    void readLoop();
    Dialect dialect_;
    Pool writers_;
    Pool readers_;  // max 0: reads use writers_
    bool faultInjection_ = false;
    std::mutex writeMu_;  // guards the writer's queue
    std::condition_variable writeCv_;
    std::deque<QueuedWrite> writes_;
    bool writerStopped_ = false;
    std::thread writer_;
    std::mutex readMu_;  // guards the readers' queue
    std::condition_variable readCv_;
    std::deque<Job> reads_;
    bool readersStopped_ = false;
    std::vector<std::thread> readThreads_;
    FaultSwitches faults_;
    ReadDelay readDelay_;
};

}  // namespace rainet::store

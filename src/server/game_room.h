#pragma once
// One game as a serialized actor: every method below runs on the room's strand (callers post
// with run()). The room is the only holder of the full Position; everything it sends to a side or
// a spectator is rendered from View::of(position, viewer) and observe(before, action, viewer).
// Each change is stored, then acknowledged, then broadcast as a versioned event rendered per role.
#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ai/bot.h"
#include "core/infoset.h"
#include "core/position.h"
#include "core/random.h"
#include "core/view.h"
#include "protocol/messages.h"
#include "protocol/server_messages.h"
#include "server/client.h"
#include "server/expiry.h"
#include "server/metrics.h"
#include "store/store.h"

namespace rainet::server {

namespace asio = boost::asio;
class Hub;

class GameRoom : public std::enable_shared_from_this<GameRoom> {
  public:
    using Json = protocol::Json;
    using Strand = asio::strand<asio::io_context::executor_type>;

    // A new game (row already filled and stored by the hub); `botSide` plays the computer.
    // An error if its players could not be read from the store.
    [[nodiscard]] static Result<std::shared_ptr<GameRoom>> create(Hub& hub, store::GameRow row,
                                                                  std::optional<Side> botSide);
    // A stored game rebuilt by replaying its setups and actions; an error if the data is corrupt
    // or the store failed.
    [[nodiscard]] static Result<std::shared_ptr<GameRoom>> restore(Hub& hub,
                                                                   const store::GameData& data);

    ~GameRoom();
    const std::string& id() const { return id_; }
    // Runs f on the strand, after the commit in flight if there is one (so f sees the state the
    // commit leads to). A throw fails this game only (fail()); a failed room runs nothing.
    template <class F>
    void run(F f) {
        asio::post(strand_, [self = shared_from_this(), f = std::move(f)]() mutable {
            self->enter(std::move(f));
        });
    }
    // Whether the room failed (an exception): the hub has dropped it; opening the game again
    // rebuilds it from the store, where everything acknowledged is.
    [[nodiscard]] bool broken() const { return broken_.load(std::memory_order_acquire); }

    // --- on the strand ---
    // Starts what the game needs after creation or restore: the computer's setup or move, timers.
    void activate();
    // A tournament's game: its tournament, named by its snapshots.
    void setTournament(protocol::TournamentRef t) { tournament_ = std::move(t); }
    // A game message from a client (type other than hello/create/lobby/ping).
    void handle(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                const protocol::ClientMessage& m);
    // The creator's subscription right after create: ack then snapshot.
    void welcomeCreator(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                        const std::string& ack);
    void unsubscribe(const Client* c);
    // Flags the side to move if its time is up (timer, or manual time moved).
    void checkClock();
    // Ends the game if nobody has attended it for too long (server/expiry.h; the hub's sweep).
    void checkExpiry();
    // Shutdown: stop timers so the io_context can finish.
    void stop();
    // An exception escaped while handling this game: logged once, everyone following it is told
    // (an `internal` error naming the game: follow it again), and the hub drops the room.
    void fail(const std::string& what);
    // The game's lease was lost (a cluster: another node owns the game now): nothing more is
    // committed or sent; the room is dropped and everyone following it is closed with 1012.
    void evict();

  private:
    // What fail and evict share: timers stopped, each follower told (`tell`) and forgotten, the
    // room dropped from the hub. The caller marked the room broken first.
    void shutDown(const std::function<void(Client&)>& tell);
    // A finished game: each seated person without a connection to it is notified (game_ended).
    void notifyEnded();
    // A correspondence game's side to move, after an action, is notified (your_turn) when no
    // connection of theirs follows the game.
    void notifyTurn();
    struct Seat {
        std::int64_t player = 0;
        std::string publicId, name;
        double rating = 1500;
        bool bot = false;         // the server's computer player
        bool botAccount = false;  // an account played by a program (`rainet bot`)
        int connections = 0;
        std::int64_t goneSince = 0;  // cs, while connections == 0
    };
    struct Sub {
        std::weak_ptr<Client> client;
        const Client* key;
        Viewer role;
        std::int64_t player = 0;  // who it is (0: not stored), whose blocks hide chat lines
    };
    struct Event {
        std::int64_t v;
        std::shared_ptr<const std::string> text[3];  // by Viewer
    };

    GameRoom(Hub& hub, store::GameRow row);
    void setStatus(GameStatus status);
    std::optional<Side> sideOf(std::int64_t player) const;
    Viewer roleOf(std::int64_t player) const;
    [[nodiscard]] bool isTimed() const { return row_.clockInitial > 0; }
    // Days per move (protocol::kCorrespondence): the clocks are wall-clock deadlines (row_'s,
    // stored) instead of time left, so that days pass across restarts as they pass for players.
    [[nodiscard]] bool isCorrespondence() const {
        return protocol::isCorrespondence(row_.clockIncrement);
    }
    // A correspondence game's time per move (and per setup), in ms.
    [[nodiscard]] std::int64_t perMoveMs() const {
        return static_cast<std::int64_t>(row_.clockInitial) * 10;
    }

    // Rendering for one role.
    std::optional<protocol::Clocks> clocks() const;
    std::optional<protocol::Player> seatPlayer(Side s) const;  // null while the seat is free
    std::optional<protocol::Result> result() const;            // once the game is over
    std::vector<std::string> legal(Viewer v) const;            // the viewer's legal actions
    protocol::RematchState rematchState() const;
    std::string snapshot(Viewer v) const;

    void subscribe(const std::shared_ptr<Client>& c, Viewer role, std::int64_t player);
    void setConnections(Side s, int delta);
    // The number of spectators' connections changed: everyone following is told.
    void setSpectators(int n);
    void broadcastPresence(Side s);
    // An unversioned message to every connection following the game, whatever its role.
    template <class Message>
    void sendAll(const Message& message) {
        sendAll(std::make_shared<const std::string>(protocol::render(message)));
    }
    void sendAll(const std::shared_ptr<const std::string>& text);
    // Sends a new event (row_.version already incremented and stored): `make(viewer)` gives the
    // event as that role sees it (a protocol event struct).
    template <class Make>
    void emit(Make make);
    // Sends each subscriber its role's text of the new event and holds the texts for replay.
    // `ack`, when given, goes to `acker` just before its event (in one hand-over when `acker`
    // follows the game), else after the event is sent to the others.
    using Texts = std::shared_ptr<const std::string>[3];  // by Viewer
    void publish(const Texts& live, const Texts& held,
                 const std::shared_ptr<Client>& acker = nullptr,
                 std::shared_ptr<const std::string> ack = nullptr);
    // Sends the held events after version `after` (the caller checked they are all held).
    void replay(const std::shared_ptr<Client>& c, Viewer role, std::int64_t after);
    // Sends the held chat lines of the role's room numbered after `after`.
    void replayChat(const std::shared_ptr<Client>& c, Viewer role, std::int64_t after);

    using Task = std::function<void(GameRoom&)>;
    void enter(Task f);
    void guarded(const Task& f);
    // After a commit: what waited for it runs, in order, until another commit starts.
    void resumeHeld();
    void dispatch(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                  const protocol::ClientMessage& m);
    void error(const std::shared_ptr<Client>& c, protocol::ErrorCode code, std::string message,
               const protocol::ClientMessage& m);
    [[nodiscard]] bool store(std::optional<Error> e, const std::shared_ptr<Client>& c,
                             const protocol::ClientMessage& m);
    void ack(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m);
    // The ack of `m`, recorded for a repeat of its request id.
    std::string ackText(Side s, const protocol::ClientMessage& m);

    // State changes; `c` is null for the computer and for timers.
    void join(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
              const protocol::ClientMessage& m);
    void setup(const std::shared_ptr<Client>& c, Side s, std::uint8_t links,
               const protocol::ClientMessage& m);
    void startPlay();
    // Play begins from `p`, once stored.
    void started(const Position& p);
    // A player seated by join, once stored (`rating`: theirs as stored, if it could be read).
    void joined(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
                const protocol::ClientMessage& m, int i, std::optional<double> rating);
    // After end() stored the result: the rest of the end.
    void ended(std::vector<store::RatingChange> ratings, const Task& beforeBroadcast);
    // An action: stored by group commit (store::Store::saveActionBatched), then acted() applies,
    // acknowledges and broadcasts it on the strand; the room holds other work meanwhile.
    void act(const std::shared_ptr<Client>& c, Side s, Action a, const protocol::ClientMessage& m);
    void acted(const std::shared_ptr<Client>& c, Side s, Action a, const protocol::ClientMessage& m,
               const store::GameRow& saved, std::int64_t now, std::optional<Error> stored);
    // Ends the game (stored first); `beforeBroadcast` runs between the store and the event (acks).
    void end(std::optional<Side> winner, GameEnd reason, Task beforeBroadcast = nullptr);
    // A side event (bump: a draw offer or decline, a rematch offer or decline); `then(room,
    // stored)` once stored or not.
    template <class Event, class Then>
    void sideEvent(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m,
                   Then then);
    // A chat line: players talk among players, spectators among spectators.
    void chat(const std::shared_ptr<Client>& c, const store::PlayerRow& who,
              const protocol::ClientMessage& m);
    // A chat line once stored: acknowledged and sent to its room.
    // `hidden`: the players who blocked the speaker, whose connections are not sent the line.
    void chatStored(const std::shared_ptr<Client>& c, const protocol::ClientMessage& m, int channel,
                    protocol::ChatLine line, const std::vector<std::int64_t>& hidden);
    // After the end: offer, accept (a second offer) or decline a rematch.
    void rematch(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m);
    void declineRematch(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m);
    // Stores a new version of the game row and broadcasts it, then `then(room, stored)`: stored
    // false (the row as it was, the client told) if the store failed.
    template <class Make, class Then>
    void bump(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m, Make make,
              Then then);
    // Every write of the room goes through here (actions through saveActionBatched, the same
    // queue): `write(store, fence)` runs on the store's writer thread, after this game's earlier
    // writes, with the fence it must pass to the store (Hub::writeFence; nullopt on one node),
    // and `then(room, result)` on the strand once it committed. The room holds other work until
    // then (committing_): what follows sees the state the write leads to, and nothing is
    // acknowledged before it is stored. The write must not touch the room (it runs elsewhere).
    using Fence = std::optional<store::GameLease>;
    template <class Write, class Then>
    void commit(Write write, Then then);
    // From any thread, once a commit is done: `then` on the strand, then what waited for it.
    template <class Then>
    void afterCommit(Then then);
    template <class Then>
    void afterCommit(std::shared_ptr<GameRoom> self, Then then);  // `self`: this room, moved in

    // Clocks.
    std::int64_t remaining(Side s) const;
    // The flag timer, at the side to move's time out, and not sooner than `atLeastMs` from now.
    void armTimer(std::int64_t atLeastMs = 0);
    // A time out whose end could not be stored (the database away) is tried again this much
    // later, not at once: at once it would retry (and log) as fast as the store fails.
    static constexpr std::int64_t kEndRetryMs = 1000;
    // The computer's action that could not be stored is chosen again this much later: otherwise
    // the game would wait for it forever once the database is back.
    static constexpr std::int64_t kBotRetryMs = 1000;
    void botRetryLater();
    // The computer.
    void botSetup();
    void botThink();

    Hub& hub_;
    Metrics& metrics_;  // outlives the hub (see serve())
    Strand strand_;
    asio::steady_timer timer_;
    asio::steady_timer botRetry_;  // the computer's next try after its action failed to store
    std::string id_;
    store::GameRow row_;
    Seat seats_[2];
    int setups_[2] = {-1, -1};
    std::optional<Position> start_, pos_;
    std::vector<Action> actions_;
    std::optional<Side> drawOffer_;
    std::optional<Side> rematchOffer_;  // after the end (stored with the game, as draw offers)
    std::string nextGame_;              // the rematch, once created (stored)
    std::deque<protocol::ChatLine> chat_[2];  // the last lines of the players' and spectators' chat
    std::int64_t chatSeq_ = 0;                // the `n` of the game's last chat line (stored)
    struct ChatBucket {
        double tokens;
        std::int64_t at;                 // cs
        std::deque<std::string> recent;  // ids of the player's last lines: a repeat is not sent
    };
    std::unordered_map<std::int64_t, ChatBucket> chatBuckets_;  // by player: flood control
    std::int64_t turnStart_ = 0;   // cs, when the side to move began its turn
    std::int64_t stateSince_ = 0;  // cs, when the status last changed (or the game was loaded)
    std::uint64_t timerGeneration_ = 0;
    Rng rng_;
    std::optional<Side> botSide_;
    std::optional<InfoSet> botKnows_;
    bool botBusy_ = false;
    std::vector<Sub> subs_;
    int spectators_ = 0;                                    // subscriptions in the spectator role
    std::deque<Event> events_;                              // the last kEventsHeld
    std::unordered_map<std::string, std::string> done_[2];  // request id -> ack, per side
    bool stopped_ = false;
    std::vector<store::RatingChange> ratings_;  // by side, once a rated game has ended
    // Tournament games: their tournament; a side that berserked has half its clock and no
    // increment.
    std::optional<protocol::TournamentRef> tournament_;
    bool berserk_[2] = {false, false};
    // Berserk (arena games): checked with the tournament, then the clock halved and stored.
    void berserk(const std::shared_ptr<Client>& c, Side s, const protocol::ClientMessage& m);
    // Tells everyone following the game that side `s` berserked, with the clocks now.
    void announceBerserk(Side s);
    // Actions each side has made (side One moves first, then they alternate).
    [[nodiscard]] int actionsOf(Side s) const;
    std::optional<Error> loadError_;  // set by the constructor if the store failed
    std::atomic<bool> broken_{false};
    bool committing_ = false;  // an action's commit is in flight: held_ waits for it
    std::deque<Task> held_;
};

}  // namespace rainet::server

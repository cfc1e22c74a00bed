#pragma once
// A player (or spectator) over one WebSocket connection, following what the server says about each
// game: version, status, view, legal actions. Scripted tests and random games are built on it.
#include <limits>
#include <map>
#include <random>

#include "harness.h"

namespace rainet::test {

struct GameState {
    long v = -1;
    std::string status, view, you;
    std::vector<std::string> legal;
    Json clocks, end;
};

class Player {
  public:
    // Request ids are unique per player: a player coming back (with a token) numbers its new
    // requests from 1000 so they never repeat the ones of its earlier connection.
    // `firstId`: where a third connection of the same player starts, its second having
    // started at 1000 (the server answers a repeated id with the first answer).
    Player(int port, std::string token = {}, int firstId = 0)
        : token_(std::move(token)),
          nextId_(firstId          ? firstId
                  : token_.empty() ? 1
                                   : 1000) {
        connect(port);
    }

    void connect(int port, bool sayHello = true) {
        ws_ = std::make_unique<WsClient>(port);
        if (!sayHello) return;
        Json hello{{"type", "hello"}};
        if (!token_.empty()) hello["token"] = token_;
        ws_->send(hello);
        Json w = take([](const Json& j) { return j["type"] == "welcome"; });
        token_ = w["token"].get<std::string>();
        id_ = w["player"]["id"].get<std::string>();
        welcome_ = w;
    }
    void disconnect() { ws_.reset(); }
    WsClient& ws() { return *ws_; }
    const std::string& token() const { return token_; }
    const std::string& id() const { return id_; }
    const Json& welcome() const { return welcome_; }
    GameState& game(const std::string& g) { return games_[g]; }

    // Sends a message with a fresh id and returns the ack or error answering it.
    Json request(Json m) {
        m["id"] = nextId_++;
        return requestWithId(m);
    }
    Json requestWithId(const Json& m) {
        ws_->send(m);
        return take([&](const Json& j) {
            return (j["type"] == "ack" || j["type"] == "error") && j.contains("id") &&
                   j["id"] == m["id"];
        });
    }
    // Takes messages (following every game) until one matches.
    template <class Pred>
    Json take(Pred pred, std::chrono::milliseconds timeout = 10s) {
        return ws_->waitFor(
            [&](const Json& j) {
                follow(j);
                return pred(j);
            },
            timeout);
    }
    void waitVersion(const std::string& g, long v) {
        if (games_[g].v >= v) return;
        take([&](const Json& j) {
            return (j["type"] == "event" || j["type"] == "snapshot") && j["game"] == g &&
                   j["v"].get<long>() >= v;
        });
    }
    // Everything this connection receives until game `g`'s room has answered a `watch` (which
    // changes nothing for a connection already following it). The room answers on its strand,
    // after whatever it had already queued here, so the list is complete: a test shows that
    // nothing else arrived without waiting for a quiet spell, which proves nothing.
    std::vector<Json> sync(const std::string& g) {
        ws_->send(Json{{"type", "watch"}, {"game", g}});
        std::vector<Json> before;
        take([&](const Json& j) {
            if (j["type"] == "snapshot" && j["game"] == g) return true;
            before.push_back(j);
            return false;
        });
        return before;
    }

  private:
    void follow(const Json& j) {
        if (!j.is_object() || !j.contains("game") || !j["game"].is_string()) return;
        GameState& s = games_[j["game"].get<std::string>()];
        const std::string type = j["type"];
        if (type == "snapshot") {
            s.v = j["v"];
            s.status = j["status"];
            s.you = j["you"];
            s.view = j["view"].is_string() ? j["view"].get<std::string>() : "";
            s.legal = j.contains("legal") ? j["legal"].get<std::vector<std::string>>()
                                          : std::vector<std::string>{};
            s.clocks = j["clocks"];
            if (!j["result"].is_null()) s.end = j["result"];
        } else if (type == "event") {
            s.v = j["v"];
            const std::string kind = j.value("kind", "");
            if (kind == "joined") s.status = "setup";
            if (kind == "start" || kind == "action") {
                s.status = "playing";
                s.view = j["view"];
                s.clocks = j["clocks"];
                s.legal = j.contains("legal") ? j["legal"].get<std::vector<std::string>>()
                                              : std::vector<std::string>{};
            }
            if (kind == "end") {
                s.status = j["reason"] == "aborted" ? "aborted" : "finished";
                s.legal.clear();
                s.end = j;
                s.clocks = j["clocks"];
            }
        }
    }

    std::unique_ptr<WsClient> ws_;
    std::string token_, id_;
    Json welcome_;
    int nextId_;
    std::map<std::string, GameState> games_;
};

// Creates a game by `a` (side 1 unless said otherwise) that `b` joins; returns its id, in setup.
inline std::string createAndJoin(Player& a, Player& b, Json create = Json::object()) {
    create["type"] = "create";
    if (!create.contains("side")) create["side"] = "1";
    if (!create.contains("opponent")) create["opponent"] = "invite";
    Json ack = a.request(create);
    EXPECT_EQ(ack["type"], "ack") << ack.dump();
    const std::string g = ack["game"];
    a.take([&](const Json& j) { return j["type"] == "snapshot"; });
    EXPECT_EQ(b.request({{"type", "join"}, {"game", g}})["type"], "ack");
    b.take([&](const Json& j) { return j["type"] == "snapshot"; });
    return g;
}

// createAndJoin, then both submit arrangements (random unless given); returns the game id once
// play has started.
inline std::string startGame(Player& a, Player& b, Json create = Json::object(),
                             Json linksA = nullptr, Json linksB = nullptr) {
    const std::string g = createAndJoin(a, b, std::move(create));
    auto setup = [&](Player& p, const Json& links) {
        Json m{{"type", "setup"}, {"game", g}};
        if (links.is_null())
            m["random"] = true;
        else
            m["links"] = links;
        EXPECT_EQ(p.request(m)["type"], "ack");
    };
    setup(a, linksA);
    setup(b, linksB);
    a.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    b.take([&](const Json& j) { return j["type"] == "event" && j["kind"] == "start"; });
    return g;
}

// `p` watches game `g`: its snapshot.
inline Json snapshotOf(Player& p, const std::string& g) {
    p.ws().send(Json{{"type", "watch"}, {"game", g}});
    return p.take([&](const Json& j) { return j["type"] == "snapshot" && j["game"] == g; });
}

// The next event of game `g` of that kind that `p` receives.
inline Json takeEvent(Player& p, const std::string& g, const std::string& kind) {
    return p.take([&](const Json& j) {
        return j["type"] == "event" && j["game"] == g && j.value("kind", "") == kind;
    });
}

// The side to move plays one action from its legal list; both wait for the event(s).
inline Json playOne(Player& a, Player& b, const std::string& g, const std::string& action) {
    Player& mover = a.game(g).legal.empty() ? b : a;
    const long v = mover.game(g).v;
    Json r = mover.request({{"type", "act"}, {"game", g}, {"action", action}, {"v", v}});
    EXPECT_EQ(r["type"], "ack") << r.dump();
    a.waitVersion(g, v + 1);
    b.waitVersion(g, v + 1);
    if (a.game(g).legal.empty() && b.game(g).legal.empty()) {  // the action ended the game
        a.waitVersion(g, v + 2);
        b.waitVersion(g, v + 2);
    }
    return r;
}

inline std::string moverAction(Player& a, Player& b, const std::string& g, std::mt19937& rng) {
    auto& legal = a.game(g).legal.empty() ? b.game(g).legal : a.game(g).legal;
    return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
}

// Random legal actions until the game ends (or maxPlies); returns the number of actions played.
inline int playRandom(Player& a, Player& b, const std::string& g, std::mt19937& rng,
                      int maxPlies = 100000) {
    int plies = 0;
    while (a.game(g).status == "playing" && plies < maxPlies) {
        if (a.game(g).legal.empty() && b.game(g).legal.empty()) {
            ADD_FAILURE() << "nobody to move";
            break;
        }
        playOne(a, b, g, moverAction(a, b, g, rng));
        ++plies;
        if (::testing::Test::HasFailure()) break;
    }
    return plies;
}

// Plays up to `n` random actions of `g` from the side to move (fewer if the game ends),
// remembering every acknowledged action.
inline void playAcked(Player& a, Player& b, const std::string& g, std::mt19937& rng,
                      std::vector<std::string>& acked, int n) {
    for (int i = 0; i < n && a.game(g).status == "playing" && !::testing::Test::HasFailure(); ++i) {
        const std::string action = moverAction(a, b, g, rng);
        if (playOne(a, b, g, action)["type"] == "ack") acked.push_back(action);
    }
}

// Plays `g` to its end from the side to move, remembering every acknowledged action.
inline void playToEnd(Player& a, Player& b, const std::string& g, std::mt19937& rng,
                      std::vector<std::string>& acked) {
    playAcked(a, b, g, rng, acked, std::numeric_limits<int>::max());
}

// The next chat line `p` receives.
inline Json nextChat(Player& p) {
    return p.take([](const Json& j) { return j["type"] == "chat"; });
}

// The value of one series of GET /metrics (-1 when absent).
inline long metric(ServerProcess& server, const std::string& series) {
    const std::string text = server.http("GET", "/metrics").second;
    const auto at = text.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stol(text.substr(at + series.size() + 2));
}

// A raw connection whose first message is `login`: the welcome or the error.
inline Json loginFirst(WsClient& ws, const std::string& username, const std::string& password,
                       Json id = 1) {
    ws.send(Json{{"type", "login"}, {"id", id}, {"username", username}, {"password", password}});
    return ws.waitFor([](const Json& j) { return j["type"] == "welcome" || j["type"] == "error"; });
}

// Actions joined by spaces, as storedSequence-like queries return them.
inline std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
    return out;
}

}  // namespace rainet::test

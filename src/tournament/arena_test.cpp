// The arena's state: joining, pausing, withdrawing, pairing as players free up, berserk, the
// end, and a rebuild from stored rows giving the same standings.
#include <gtest/gtest.h>

#include <cstdlib>

#include "tournament/arena.h"

namespace rainet::tournament {
namespace {

constexpr std::int64_t kStart = 10'000;
constexpr std::int64_t kEnd = 100'000;
constexpr int kMax = 100;
const int kActions[2] = {10, 10};

Arena fourPlayers() {
    Arena a(kStart, kEnd);
    for (PlayerKey p = 1; p <= 4; ++p)
        EXPECT_EQ(a.join(p, 1500 + static_cast<int>(p), 0, kMax), std::nullopt);
    return a;
}

// "g<n>" (built by append: g++ 12 warns wrongly about "g" + string at -O3).
std::string gameName(int n) {
    std::string id(1, 'g');
    id.append(std::to_string(n));
    return id;
}

// Starts a game for each pairing, named g<n>, and returns their ids in order.
std::vector<std::string> startAll(Arena& a, std::int64_t now, int& counter) {
    std::vector<std::string> ids;
    for (const Pairing& p : a.pairings(now)) {
        ids.push_back(gameName(++counter));
        a.gameStarted(ids.back(), p, now);
    }
    return ids;
}

TEST(Arena, JoiningTwiceIsRefused) {
    Arena a(kStart, kEnd);
    EXPECT_EQ(a.join(1, 1500, 0, kMax), std::nullopt);
    EXPECT_EQ(a.join(1, 1500, 0, kMax), "already_joined");
    EXPECT_EQ(a.players().size(), 1u);
}

TEST(Arena, JoiningAfterTheEndIsRefused) {
    Arena a(kStart, kEnd);
    EXPECT_EQ(a.join(1, 1500, kEnd, kMax), "tournament_over");
    EXPECT_TRUE(a.players().empty());
}

TEST(Arena, JoiningAFullArenaIsRefused) {
    Arena a(kStart, kEnd);
    EXPECT_EQ(a.join(1, 1500, 0, 1), std::nullopt);
    EXPECT_EQ(a.join(2, 1500, 0, 1), "tournament_full");
}

TEST(Arena, NobodyIsPairedBeforeTheStartOrFromTheEnd) {
    Arena a = fourPlayers();
    EXPECT_TRUE(a.pairings(kStart - 1).empty());
    EXPECT_EQ(a.pairings(kStart).size(), 2u);
    EXPECT_TRUE(a.pairings(kEnd).empty());
}

TEST(Arena, APlayerWhoseGameEndsIsPairedAgainWithTheNextFreeOne) {
    Arena a = fourPlayers();
    int n = 0;
    const auto first = startAll(a, kStart, n);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_TRUE(a.pairings(kStart + 1).empty());  // everyone is playing
    // One game ends: its two players were each other's last opponent, and nobody else is free:
    // they meet again (no one else is free).
    ASSERT_TRUE(a.gameEnded(first[0], GameOutcome::FirstWins, kActions, kStart + 5));
    auto again = a.pairings(kStart + 5);
    ASSERT_EQ(again.size(), 1u);
    // Both games end: the four are free and nobody meets their last opponent.
    ASSERT_TRUE(a.gameEnded(first[1], GameOutcome::Draw, kActions, kStart + 6));
    const auto next = a.pairings(kStart + 6);
    ASSERT_EQ(next.size(), 2u);
    for (const Pairing& p : next) {
        EXPECT_NE(a.player(p.first)->lastOpponent, p.second);
        EXPECT_NE(a.player(p.second)->lastOpponent, p.first);
    }
}

TEST(Arena, APausedPlayerIsNotPairedAndComesBackByJoining) {
    Arena a = fourPlayers();
    EXPECT_EQ(a.pause(4, 0), std::nullopt);
    auto p = a.pairings(kStart);
    ASSERT_EQ(p.size(), 1u);
    for (const Pairing& pr : p) {
        EXPECT_NE(pr.first, 4);
        EXPECT_NE(pr.second, 4);
    }
    EXPECT_EQ(a.join(4, 1504, 0, kMax), std::nullopt);
    EXPECT_EQ(a.pairings(kStart).size(), 2u);
}

TEST(Arena, AWithdrawnPlayerIsNeverPairedAndCannotComeBack) {
    Arena a = fourPlayers();
    int n = 0;
    const auto games = startAll(a, kStart, n);
    const ArenaGameRecord* g = a.game(games[0]);
    const PlayerKey quitter = g->player[0];
    EXPECT_EQ(a.withdraw(quitter), std::nullopt);
    // The game in play goes on and counts.
    ASSERT_TRUE(a.gameEnded(games[0], GameOutcome::FirstWins, kActions, kStart + 1));
    EXPECT_EQ(a.player(quitter)->sheet.points, 2);
    ASSERT_TRUE(a.gameEnded(games[1], GameOutcome::Draw, kActions, kStart + 1));
    for (const Pairing& pr : a.pairings(kStart + 1)) {
        EXPECT_NE(pr.first, quitter);
        EXPECT_NE(pr.second, quitter);
    }
    EXPECT_EQ(a.join(quitter, 1500, kStart + 2, kMax), "withdrawn");
    EXPECT_EQ(a.withdraw(quitter), "not_joined");
    // The points stay in the standings.
    bool listed = false;
    for (const ArenaRank& r : a.standings()) listed |= r.player == quitter && r.points == 2;
    EXPECT_TRUE(listed);
}

TEST(Arena, PausingOrWithdrawingWithoutJoiningIsRefused) {
    Arena a(kStart, kEnd);
    EXPECT_EQ(a.pause(9, 0), "not_joined");
    EXPECT_EQ(a.withdraw(9), "not_joined");
}

TEST(Arena, BerserkBeforeTheFirstActionOnceAndOnlyByAPlayer) {
    Arena a = fourPlayers();
    int n = 0;
    const auto games = startAll(a, kStart, n);
    const ArenaGameRecord* g = a.game(games[0]);
    const PlayerKey p = g->player[1];
    EXPECT_EQ(a.berserk(games[0], p, 1), "berserk_too_late");
    EXPECT_EQ(a.berserk(games[0], p, 0), std::nullopt);
    EXPECT_EQ(a.berserk(games[0], p, 0), "already_berserk");
    EXPECT_EQ(a.berserk(games[0], 99, 0), "not_a_player");
    EXPECT_EQ(a.berserk("gNOPE", p, 0), "unknown_game");
    EXPECT_TRUE(a.game(games[0])->berserk[1]);
    EXPECT_FALSE(a.game(games[0])->berserk[0]);
    // A berserked win with enough actions earns the bonus.
    const int actions[2] = {8, kBerserkMinActions};
    ASSERT_TRUE(a.gameEnded(games[0], GameOutcome::SecondWins, actions, kStart + 1));
    EXPECT_EQ(a.player(p)->sheet.points, 3);
    EXPECT_EQ(a.berserk(games[0], g->player[0], 0), "game_over");
}

TEST(Arena, AGameStartedBeforeTheEndCountsAfterIt) {
    Arena a = fourPlayers();
    int n = 0;
    const auto games = startAll(a, kEnd - 1, n);
    EXPECT_TRUE(a.over(kEnd));
    EXPECT_FALSE(a.finished(kEnd));  // games are still in play
    ASSERT_TRUE(a.gameEnded(games[0], GameOutcome::FirstWins, kActions, kEnd + 50'000));
    ASSERT_TRUE(a.gameEnded(games[1], GameOutcome::Draw, kActions, kEnd + 60'000));
    EXPECT_TRUE(a.finished(kEnd + 60'000));
    EXPECT_TRUE(a.game(games[0])->counted);
    EXPECT_EQ(a.player(a.game(games[0])->player[0])->sheet.points, 2);
}

TEST(Arena, AGameStartedAtTheEndDoesNotCount) {
    // The arena never pairs at the end; a game recorded then (a clock skew) scores nothing.
    Arena a = fourPlayers();
    a.gameStarted("late", {1, 2}, kEnd);
    ASSERT_TRUE(a.gameEnded("late", GameOutcome::FirstWins, kActions, kEnd + 10));
    EXPECT_FALSE(a.game("late")->counted);
    EXPECT_EQ(a.player(1)->sheet.points, 0);
    EXPECT_EQ(a.player(1)->sheet.games(), 0);
}

TEST(Arena, AnAbortedGameFreesItsPlayersAndScoresNothing) {
    Arena a = fourPlayers();
    int n = 0;
    const auto games = startAll(a, kStart, n);
    ASSERT_TRUE(a.gameEnded(games[0], std::nullopt, kActions, kStart + 1));
    const ArenaGameRecord* g = a.game(games[0]);
    EXPECT_TRUE(g->over);
    EXPECT_FALSE(g->counted);
    EXPECT_TRUE(a.player(g->player[0])->game.empty());
    EXPECT_EQ(a.player(g->player[0])->sheet.games(), 0);
    EXPECT_EQ(a.pairings(kStart + 1).size(), 1u);
}

TEST(Arena, JoinRefusalAnswersAsJoinWithoutJoining) {
    Arena a(kStart, kEnd);
    EXPECT_EQ(a.joinRefusal(1, 0, kMax), std::nullopt);
    EXPECT_TRUE(a.players().empty());
    ASSERT_EQ(a.join(1, 1500, 0, kMax), std::nullopt);
    EXPECT_EQ(a.joinRefusal(1, 0, kMax), "already_joined");
    EXPECT_EQ(a.joinRefusal(2, kEnd, kMax), "tournament_over");
    EXPECT_EQ(a.joinRefusal(2, 0, 1), "tournament_full");
}

TEST(Arena, ARepeatedOrUnknownEndChangesNothing) {
    Arena a = fourPlayers();
    int n = 0;
    const auto games = startAll(a, kStart, n);
    ASSERT_TRUE(a.gameEnded(games[0], GameOutcome::FirstWins, kActions, kStart + 1));
    EXPECT_FALSE(a.gameEnded(games[0], GameOutcome::SecondWins, kActions, kStart + 2));
    EXPECT_FALSE(a.gameEnded("gNOPE", GameOutcome::Draw, kActions, kStart + 2));
    EXPECT_EQ(a.player(a.game(games[0])->player[0])->sheet.points, 2);
    EXPECT_EQ(a.player(a.game(games[0])->player[1])->sheet.points, 0);
}

TEST(Arena, StandingsGoByPointsAndFireDoublesAfterTwoWins) {
    Arena a(kStart, kEnd);
    ASSERT_EQ(a.join(1, 1500, 0, kMax), std::nullopt);
    ASSERT_EQ(a.join(2, 1500, 0, kMax), std::nullopt);
    // Only two players: they meet again each time (nobody else is free).
    for (int i = 0; i < 3; ++i) {
        const auto p = a.pairings(kStart + i);
        ASSERT_EQ(p.size(), 1u);
        const std::string id = gameName(i);
        a.gameStarted(id, p[0], kStart + i);
        const bool oneIsFirst = p[0].first == 1;
        ASSERT_TRUE(a.gameEnded(id, oneIsFirst ? GameOutcome::FirstWins : GameOutcome::SecondWins,
                                kActions, kStart + i));
    }
    EXPECT_EQ(a.player(1)->sheet.points, 2 + 2 + 4);
    EXPECT_TRUE(a.player(1)->sheet.onFire());
    const auto s = a.standings();
    EXPECT_EQ(s[0].player, 1);
    EXPECT_EQ(s[0].points, 8);
    EXPECT_EQ(s[1].points, 0);
    // Sides alternate between the two.
    EXPECT_LE(std::abs(a.player(1)->firstSides - a.player(1)->secondSides), 1);
}

TEST(Arena, ARebuildFromStoredRowsGivesTheSameStandings) {
    Arena live = fourPlayers();
    int n = 0;
    std::int64_t now = kStart;
    std::vector<ArenaGameRecord> stored;
    // Several rounds with mixed results, one berserk, one game left in play.
    for (int round = 0; round < 4; ++round) {
        const auto ids = startAll(live, now, n);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            if (round == 1 && i == 0) {
                ASSERT_EQ(live.berserk(ids[i], live.game(ids[i])->player[0], 0), std::nullopt);
            }
            if (round == 3 && i == 1) continue;  // still in play
            const GameOutcome o = (round + static_cast<int>(i)) % 3 == 0 ? GameOutcome::FirstWins
                                  : (round + static_cast<int>(i)) % 3 == 1
                                      ? GameOutcome::Draw
                                      : GameOutcome::SecondWins;
            ASSERT_TRUE(live.gameEnded(ids[i], o, kActions, now + 10 + static_cast<int>(i)));
        }
        now += 100;
    }
    ASSERT_EQ(live.pause(3, now), std::nullopt);
    std::vector<Arena::StoredPlayer> players;
    for (const auto& [key, p] : live.players()) players.push_back({key, p.rating, p.state});
    // Stored in another order: the rebuild orders them itself.
    std::vector<ArenaGameRecord> games(live.games().rbegin(), live.games().rend());
    const Arena back = Arena::rebuild(kStart, kEnd, players, games);
    const auto a = live.standings();
    const auto b = back.standings();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].player, b[i].player);
        EXPECT_EQ(a[i].points, b[i].points);
        EXPECT_EQ(a[i].performance, b[i].performance);
    }
    for (const auto& [key, p] : live.players()) {
        const ArenaPlayer* q = back.player(key);
        ASSERT_NE(q, nullptr);
        EXPECT_EQ(q->game, p.game) << key;
        EXPECT_EQ(q->state, p.state);
        EXPECT_EQ(q->lastOpponent, p.lastOpponent);
        EXPECT_EQ(q->sheet.winStreak, p.sheet.winStreak);
        EXPECT_EQ(q->sheet.berserks, p.sheet.berserks);
    }
    // The same pairings follow.
    const auto pa = live.pairings(now);
    const auto pb = back.pairings(now);
    ASSERT_EQ(pa.size(), pb.size());
    for (std::size_t i = 0; i < pa.size(); ++i) {
        EXPECT_EQ(pa[i].first, pb[i].first);
        EXPECT_EQ(pa[i].second, pb[i].second);
    }
}

}  // namespace
}  // namespace rainet::tournament

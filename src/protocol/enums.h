#pragma once
// The closed sets of strings the server sends (docs/protocol.md §3-6), each once with its string
// form: the serializers write these, the validator and the TypeScript types list them.
#include <array>
#include <cstdint>
#include <string_view>

#include "core/game_facts.h"
#include "core/types.h"
#include "core/view.h"
#include "protocol/messages.h"
#include "protocol/schema.h"

namespace rainet::protocol {

// Game status and how a game ended are core's (core/game_facts.h), with their names.
enum class Preset : std::uint8_t { Standard, Official };
// "match": paired by quick pairing (seek), never listed.
enum class Opponent : std::uint8_t { Open, Invite, Computer, Match };
enum class SideWish : std::uint8_t { One, Two, Random };
enum class PlayerKind : std::uint8_t { Guest, Account };
enum class Revealed : std::uint8_t { Link, Virus };
enum class GameResult : std::uint8_t { OneWins, TwoWins, Draw };
enum class ChatChannel : std::uint8_t { Players, Spectators };
// What a notification tells (docs/protocol.md, "Notifications"); each kind has its `data`.
enum class ChallengeStatus : std::uint8_t { Pending, Accepted, Declined, Canceled, Expired };
enum class NotificationKind : std::uint8_t {
    Challenge,
    ChallengeAccepted,
    ChallengeDeclined,
    YourTurn,
    GameEnded,
    Followed,
    FollowStartedGame,
    TournamentStarting,
    TournamentEnded,
};

template <>
struct EnumInfo<Side> {
    static constexpr std::string_view kName = "SideId";
    static constexpr std::array<std::string_view, 2> kNames = {"1", "2"};
};
template <>
struct EnumInfo<Viewer> {
    static constexpr std::string_view kName = "Role";
    static constexpr std::array<std::string_view, 3> kNames = {"1", "2", "spectator"};
};
template <>
struct EnumInfo<GameStatus> {
    static constexpr std::string_view kName = "GameStatus";
    static constexpr auto kNames = kGameStatusNames;
};
template <>
struct EnumInfo<Preset> {
    static constexpr std::string_view kName = "Preset";
    static constexpr std::array<std::string_view, 2> kNames = {"standard", "official"};
};
template <>
struct EnumInfo<Opponent> {
    static constexpr std::string_view kName = "Opponent";
    static constexpr std::array<std::string_view, 4> kNames = {"open", "invite", "computer",
                                                               "match"};
};
template <>
struct EnumInfo<SideWish> {
    static constexpr std::string_view kName = "SideWish";
    static constexpr std::array<std::string_view, 3> kNames = {"1", "2", "random"};
};
template <>
struct EnumInfo<PlayerKind> {
    static constexpr std::string_view kName = "PlayerKind";
    static constexpr std::array<std::string_view, 2> kNames = {"guest", "account"};
};
template <>
struct EnumInfo<Revealed> {
    static constexpr std::string_view kName = "Revealed";
    static constexpr std::array<std::string_view, 2> kNames = {"link", "virus"};
};
template <>
struct EnumInfo<GameEnd> {
    static constexpr std::string_view kName = "EndReason";
    static constexpr auto kNames = kGameEndNames;
};
template <>
struct EnumInfo<GameResult> {
    static constexpr std::string_view kName = "GameResult";
    static constexpr std::array<std::string_view, 3> kNames = {"1-0", "0-1", "1/2-1/2"};
};
template <>
struct EnumInfo<ChatChannel> {
    static constexpr std::string_view kName = "ChatChannel";
    static constexpr std::array<std::string_view, 2> kNames = {"players", "spectators"};
};
template <>
struct EnumInfo<ChallengeStatus> {
    static constexpr std::string_view kName = "ChallengeStatus";
    static constexpr std::array<std::string_view, 5> kNames = {"pending", "accepted", "declined",
                                                               "canceled", "expired"};
};
template <>
struct EnumInfo<NotificationKind> {
    static constexpr std::string_view kName = "NotificationKind";
    static constexpr std::array<std::string_view, 9> kNames = {
        "challenge", "challenge_accepted",  "challenge_declined",  "your_turn",       "game_ended",
        "followed",  "follow_started_game", "tournament_starting", "tournament_ended"};
};
template <>
struct EnumInfo<ErrorCode> {
    static constexpr std::string_view kName = "ErrorCode";
    static constexpr std::array<std::string_view, kErrorCodeCount> kNames = {"bad_json",
                                                                             "bad_message",
                                                                             "unknown_type",
                                                                             "too_large",
                                                                             "rate_limited",
                                                                             "not_authenticated",
                                                                             "unknown_game",
                                                                             "not_a_player",
                                                                             "wrong_status",
                                                                             "not_your_turn",
                                                                             "illegal_action",
                                                                             "stale_version",
                                                                             "bad_setup",
                                                                             "already_set_up",
                                                                             "no_draw_offer",
                                                                             "cannot_claim",
                                                                             "cannot_abort",
                                                                             "no_rematch_offer",
                                                                             "bad_credentials",
                                                                             "username_taken",
                                                                             "already_registered",
                                                                             "unknown_player",
                                                                             "unknown_challenge",
                                                                             "challenge_refused",
                                                                             "busy",
                                                                             "unknown_tournament",
                                                                             "already_joined",
                                                                             "not_joined",
                                                                             "tournament_over",
                                                                             "tournament_full",
                                                                             "withdrawn",
                                                                             "berserk_refused",
                                                                             "too_many_tournaments",
                                                                             "banned",
                                                                             "muted",
                                                                             "chat_refused",
                                                                             "forbidden",
                                                                             "internal"};
};

}  // namespace rainet::protocol

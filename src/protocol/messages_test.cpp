#include "protocol/messages.h"

#include "protocol/text.h"

#include <gtest/gtest.h>

namespace rainet::protocol {
namespace {

ErrorCode failCode(std::string_view text) {
    auto r = parseClientMessage(text);
    EXPECT_TRUE(std::holds_alternative<Failure>(r)) << text;
    return std::holds_alternative<Failure>(r) ? std::get<Failure>(r).code : ErrorCode::Internal;
}

TEST(Messages, ParsesAct) {
    auto r = parseClientMessage(R"({"type":"act","id":4,"game":"g12","action":"d2-d3","v":5})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    const auto& m = std::get<ClientMessage>(r);
    EXPECT_EQ(m.type, MsgType::Act);
    EXPECT_EQ(m.id, 4);
    EXPECT_EQ(m.game, "g12");
    EXPECT_EQ(m.action, "d2-d3");
    EXPECT_EQ(m.v, 5);
}

TEST(Messages, ParsesCreateWithDefaultsAndClock) {
    auto r = parseClientMessage(
        R"({"type":"create","id":"c1","clock":{"initial":6000,"increment":100},"opponent":"computer","level":3})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    const auto& m = std::get<ClientMessage>(r);
    EXPECT_EQ(m.preset, "standard");
    EXPECT_EQ(m.side, "random");
    ASSERT_TRUE(m.clock);
    EXPECT_EQ(*m.clock, (ClockSpec{6000, 100}));
    EXPECT_EQ(m.level, 3);
}

TEST(Messages, Failures) {
    EXPECT_EQ(failCode("{"), ErrorCode::BadJson);
    EXPECT_EQ(failCode("[1,2]"), ErrorCode::BadJson);
    EXPECT_EQ(failCode(R"({"type":"fly"})"), ErrorCode::UnknownType);
    EXPECT_EQ(failCode(R"({"type":"act","game":"g1","action":"d2-d3"})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"act","id":1,"game":"g/../1","action":"d2-d3"})"),
              ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"create","id":1,"level":9})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"setup","id":1,"game":"g1","links":"a1"})"),
              ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"resume","game":"g1","v":-1})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"resume","game":"g1","v":1,"chat":"3"})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"resume","game":"g1","v":1,"chat":-1})"), ErrorCode::BadMessage);
}

TEST(Messages, ResumeMayNameTheLastChatLineSeen) {
    auto r = parseClientMessage(R"({"type":"resume","game":"g1","v":4,"chat":7})");
    const auto& m = std::get<ClientMessage>(r);
    EXPECT_EQ(m.v, 4);
    EXPECT_EQ(m.chatSeen, 7);
    EXPECT_FALSE(
        std::get<ClientMessage>(parseClientMessage(R"({"type":"resume","game":"g1","v":4})"))
            .chatSeen);
}

TEST(Messages, FailureEchoesIdAndGame) {
    auto r = parseClientMessage(R"({"type":"act","id":7,"game":"g1"})");
    const auto& f = std::get<Failure>(r);
    EXPECT_EQ(f.id, 7);
    EXPECT_EQ(f.game, "g1");
    EXPECT_EQ(
        renderError(f.code, f.message, f.id, f.game),
        R"({"type":"error","code":"bad_message","message":"'action' must be an action string","id":7,"game":"g1"})");
}

TEST(Messages, RematchAndRename) {
    auto r = parseClientMessage(R"({"type":"rematch","id":3,"game":"g9"})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    EXPECT_EQ(std::get<ClientMessage>(r).type, MsgType::Rematch);
    EXPECT_EQ(std::get<ClientMessage>(r).game, "g9");
    r = parseClientMessage(R"({"type":"rename","id":"n1","name":"Mayuri"})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    EXPECT_EQ(std::get<ClientMessage>(r).name, "Mayuri");
    EXPECT_EQ(failCode(R"({"type":"rematch","id":3})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"rematch_decline","game":"g9"})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"rename","id":1})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"rename","id":1,"name":7})"), ErrorCode::BadMessage);
    EXPECT_STREQ(codeName(ErrorCode::NoRematchOffer), "no_rematch_offer");
    EXPECT_STREQ(codeName(ErrorCode::AlreadyRegistered), "already_registered");
    EXPECT_STREQ(codeName(ErrorCode::Internal), "internal");
}

TEST(Messages, AccountMessages) {
    auto r = parseClientMessage(
        R"({"type":"register","id":1,"username":"Alice_9-x","password":"correct horse"})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    EXPECT_EQ(std::get<ClientMessage>(r).type, MsgType::Register);
    EXPECT_EQ(std::get<ClientMessage>(r).username, "Alice_9-x");
    EXPECT_EQ(std::get<ClientMessage>(r).password, "correct horse");
    auto l = parseClientMessage(R"({"type":"login","username":"x","password":"y"})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(l));  // login checks no rules, only types
    EXPECT_EQ(failCode(R"({"type":"register","username":"alice","password":"12345678"})"),
              ErrorCode::BadMessage);  // no id
    EXPECT_EQ(failCode(R"({"type":"register","id":1,"username":"al","password":"12345678"})"),
              ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"register","id":1,"username":"al ice","password":"12345678"})"),
              ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"register","id":1,"username":"alice","password":"1234567"})"),
              ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"login","username":"alice"})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"create","id":1,"rated":"yes"})"), ErrorCode::BadMessage);
    EXPECT_TRUE(validUsername("abc"));
    EXPECT_TRUE(validUsername(std::string(24, 'z')));
    EXPECT_FALSE(validUsername(std::string(25, 'z')));
    EXPECT_FALSE(
        validUsername("a\xc3\xa9"
                      "b"));
    EXPECT_TRUE(validPassword(
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"));  // 8 characters
    EXPECT_FALSE(validPassword("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"));  // 8 bytes, 4 characters
    EXPECT_TRUE(validPassword(std::string(128, 'p')));
    EXPECT_FALSE(validPassword(std::string(129, 'p')));
}

// A setup of the wrong size is a bad arrangement, not a malformed message.
TEST(Messages, SetupOfTheWrongSizeIsBadSetup) {
    EXPECT_EQ(failCode(R"({"type":"setup","id":1,"game":"g1","links":["a1","b1"]})"),
              ErrorCode::BadSetup);
    EXPECT_EQ(failCode(R"({"type":"setup","id":1,"game":"g1","links":["a1","b1","c1","d2","e2"]})"),
              ErrorCode::BadSetup);
    EXPECT_EQ(failCode(R"({"type":"setup","id":1,"game":"g1","links":["a1","b1","c1","z9"]})"),
              ErrorCode::BadSetup);
    EXPECT_EQ(failCode(R"({"type":"setup","id":1,"game":"g1","links":["a1","b1","c1",4]})"),
              ErrorCode::BadMessage);
}

std::string nameOf(const std::string& type, const std::string& name) {
    auto r = parseClientMessage(Json{{"type", type}, {"id", 1}, {"name", name}}.dump());
    return std::holds_alternative<ClientMessage>(r) ? std::get<ClientMessage>(r).name : "<refused>";
}

std::string chatOf(const std::string& text) {
    auto r = parseClientMessage(Json{{"type", "chat"}, {"game", "g1"}, {"text", text}}.dump());
    return std::holds_alternative<ClientMessage>(r) ? std::get<ClientMessage>(r).text : "<refused>";
}

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

// Names and chat count code points; controls and bidi overrides are refused.
TEST(Messages, NamesAndChatCountCodePointsAndRefuseControls) {
    const std::string emoji = "\xF0\x9F\x98\x80";  // U+1F600, 4 bytes
    const std::string cjk = "\xE6\xBC\xA2";        // U+6F22, 3 bytes
    for (const char* type : {"hello", "rename"}) {
        EXPECT_EQ(nameOf(type, repeat(emoji, 24)), repeat(emoji, 24)) << type;
        EXPECT_EQ(nameOf(type, repeat(cjk, 9)), repeat(cjk, 9)) << type;
        EXPECT_EQ(nameOf(type, repeat(cjk, 24)), repeat(cjk, 24)) << type;
        EXPECT_EQ(nameOf(type, repeat(cjk, 25)), "<refused>") << type;
        EXPECT_EQ(nameOf(type, "   "), "<refused>") << type;
        EXPECT_EQ(nameOf(type, "\xE3\x80\x80\xC2\xA0"), "<refused>") << type;  // U+3000 U+00A0
        for (const char* bad : {"a\x01", "a\x7F", "a\xC2\x85", "a\xC2\x9B", "a\xE2\x80\xAE",
                                "a\xE2\x81\xA6", "a\xE2\x80\xA8", "a\tb"})
            EXPECT_EQ(nameOf(type, bad), "<refused>") << type << " " << bad;
    }
    EXPECT_EQ(nameOf("hello", ""), "");  // no name: the guest's default
    EXPECT_EQ(nameOf("rename", ""), "<refused>");

    EXPECT_EQ(chatOf(repeat(emoji, 300)), repeat(emoji, 300));
    EXPECT_EQ(chatOf(repeat(emoji, 301)), "<refused>");
    EXPECT_EQ(chatOf("  hi  "), "hi");
    for (const char* bad : {"a\x7F",
                            "a\xC2\x85"
                            "b",
                            "a\xC2\x9B",
                            "\xE2\x80\xAE"
                            "evil",
                            "a\x1B[2J", "\xE2\x81\xA9"})
        EXPECT_EQ(chatOf(bad), "<refused>") << bad;
    EXPECT_EQ(chatOf("\xE3\x80\x80"), "<refused>");  // only an ideographic space
}

// A request id is a key the server keeps per player: its bound is in bytes (UTF-8), not characters.
TEST(Messages, StringIdsAreBoundedInBytes) {
    const std::string emoji = "\xF0\x9F\x98\x80";  // U+1F600, 4 bytes
    auto id = [](const std::string& s) {
        return Json{{"type", "act"}, {"id", s}, {"game", "g1"}, {"action", "d2-d3"}}.dump();
    };
    for (const std::string& ok : {std::string(1, 'a'), std::string(64, 'a'), repeat(emoji, 16)}) {
        auto r = parseClientMessage(id(ok));
        ASSERT_TRUE(std::holds_alternative<ClientMessage>(r)) << ok;
        EXPECT_EQ(std::get<ClientMessage>(r).id, ok);
    }
    for (const std::string& bad : {std::string(), std::string(65, 'a'), repeat(emoji, 17)}) {
        auto r = parseClientMessage(id(bad));
        ASSERT_TRUE(std::holds_alternative<Failure>(r)) << bad;
        EXPECT_EQ(std::get<Failure>(r).code, ErrorCode::BadMessage);
        EXPECT_EQ(std::get<Failure>(r).message,
                  "'id' must be an integer or a string of 1 to 64 bytes (UTF-8)");
    }
}

TEST(Messages, InvalidUtf8IsRefused) {
    EXPECT_EQ(codePoints("a\xC3\xA9"), 2u);
    EXPECT_EQ(codePoints("\xF0\x9F\x98\x80"), 1u);
    for (const char* bad : {"\xC3", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                            "\x80", "\xFF", "\xE6\xBC"})
        EXPECT_FALSE(codePoints(bad)) << bad;
    EXPECT_EQ(checkText("\xC0\xAF", 24), TextProblem::BadUtf8);
    // The JSON layer never lets invalid UTF-8 through either.
    EXPECT_EQ(failCode("{\"type\":\"rename\",\"id\":1,\"name\":\"\xC0\xAF\"}"), ErrorCode::BadJson);
}

TEST(Messages, OverLongTokenIsAnUnknownToken) {
    auto r = parseClientMessage(Json{{"type", "hello"}, {"token", std::string(200, 'a')}}.dump());
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    EXPECT_EQ(std::get<ClientMessage>(r).token, "");
    r = parseClientMessage(Json{{"type", "hello"}, {"token", std::string(64, 'a')}}.dump());
    EXPECT_EQ(std::get<ClientMessage>(r).token, std::string(64, 'a'));
    EXPECT_EQ(failCode(R"({"type":"hello","token":7})"), ErrorCode::BadMessage);
}

TEST(Messages, SetupMask) {
    EXPECT_EQ(setupMask(Side::One, {0, 1, 2, 11}), 0b01000111);
    EXPECT_FALSE(setupMask(Side::Two, {0, 1, 2, 11}));
    EXPECT_FALSE(setupMask(Side::One, {0, 0, 1, 2}));
    EXPECT_EQ(setupJson(Side::One, 0b01000111), Json({"a1", "b1", "c1", "d2"}));
}

}  // namespace
}  // namespace rainet::protocol

namespace rainet::protocol {
namespace {

TEST(TournamentMessages, ParsesCreateWithItsFields) {
    auto r = parseClientMessage(
        R"({"type":"tournament_create","id":1,"name":"Evening arena","clock":{"initial":18000,"increment":200},"startsIn":600,"minutes":60,"rated":false,"bots":true})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    const auto& m = std::get<ClientMessage>(r);
    EXPECT_EQ(m.type, MsgType::TournamentCreate);
    EXPECT_EQ(m.name, "Evening arena");
    EXPECT_EQ(*m.clock, (ClockSpec{18000, 200}));
    EXPECT_EQ(m.startsIn, 600);
    EXPECT_EQ(m.minutes, 60);
    EXPECT_EQ(m.rated, false);
    EXPECT_TRUE(m.bots);
    EXPECT_EQ(m.format, "arena");
}

TEST(TournamentMessages, CreateRefusesEachFieldOutOfRange) {
    const std::string ok =
        R"("name":"A","clock":{"initial":18000,"increment":200},"startsIn":0,"minutes":5)";
    EXPECT_TRUE(std::holds_alternative<ClientMessage>(
        parseClientMessage(R"({"type":"tournament_create","id":1,)" + ok + "}")));
    for (
        const char* bad : {
            R"({"type":"tournament_create","id":1,"clock":{"initial":18000,"increment":0},"startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"","clock":{"initial":18000,"increment":0},"startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":2999,"increment":0},"startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":360001,"increment":0},"startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000,"increment":6001},"startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000},"startsIn":0,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000,"increment":0},"startsIn":-1,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000,"increment":0},"startsIn":604801,"minutes":5})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000,"increment":0},"startsIn":0,"minutes":4})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000,"increment":0},"startsIn":0,"minutes":361})",
            R"({"type":"tournament_create","id":1,"name":"A","clock":{"initial":18000,"increment":0},"startsIn":0,"minutes":5,"format":"swiss"})",
            R"({"type":"tournament_create","name":"A","clock":{"initial":18000,"increment":0},"startsIn":0,"minutes":5})",
        })
        EXPECT_EQ(failCode(bad), ErrorCode::BadMessage) << bad;
}

TEST(TournamentMessages, JoinPauseWithdrawWatchNameTheTournament) {
    for (const char* type : {"tournament_join", "tournament_pause", "tournament_withdraw",
                             "tournament_watch", "tournament_unwatch"}) {
        const std::string good =
            std::string(R"({"type":")") + type + R"(","id":1,"tournament":"tAB12"})";
        auto r = parseClientMessage(good);
        ASSERT_TRUE(std::holds_alternative<ClientMessage>(r)) << type;
        EXPECT_EQ(std::get<ClientMessage>(r).tournament, "tAB12");
        EXPECT_EQ(failCode(std::string(R"({"type":")") + type + R"(","id":1})"),
                  ErrorCode::BadMessage);
        EXPECT_EQ(failCode(std::string(R"({"type":")") + type + R"(","id":1,"tournament":"t/.."})"),
                  ErrorCode::BadMessage);
    }
    // Joining changes state: it needs an id.
    EXPECT_EQ(failCode(R"({"type":"tournament_join","tournament":"tAB12"})"),
              ErrorCode::BadMessage);
}

TEST(TournamentMessages, BerserkNamesItsGameAndNeedsAnId) {
    auto r = parseClientMessage(R"({"type":"berserk","id":3,"game":"g12"})");
    ASSERT_TRUE(std::holds_alternative<ClientMessage>(r));
    EXPECT_EQ(std::get<ClientMessage>(r).type, MsgType::Berserk);
    EXPECT_EQ(failCode(R"({"type":"berserk","game":"g12"})"), ErrorCode::BadMessage);
    EXPECT_EQ(failCode(R"({"type":"berserk","id":3})"), ErrorCode::BadMessage);
    EXPECT_STREQ(codeName(ErrorCode::BerserkRefused), "berserk_refused");
    EXPECT_STREQ(codeName(ErrorCode::TooManyTournaments), "too_many_tournaments");
}

}  // namespace
}  // namespace rainet::protocol

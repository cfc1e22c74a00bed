#include "protocol/messages.h"

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
    EXPECT_EQ(failCode(R"({"type":"setup","id":1,"game":"g1","links":["a1","b1"]})"),
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

TEST(Messages, SetupMask) {
    EXPECT_EQ(setupMask(Side::One, {0, 1, 2, 11}), 0b01000111);
    EXPECT_FALSE(setupMask(Side::Two, {0, 1, 2, 11}));
    EXPECT_FALSE(setupMask(Side::One, {0, 0, 1, 2}));
    EXPECT_EQ(setupJson(Side::One, 0b01000111), Json({"a1", "b1", "c1", "d2"}));
}

}  // namespace
}  // namespace rainet::protocol

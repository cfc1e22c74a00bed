#pragma once
// Small helpers for core tests: build positions from strings and play actions by notation,
// failing the test (not crashing) on any error.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "core/position.h"

namespace rainet::test {

inline Position pos(const std::string& text, Rules rules = Rules::standard()) {
    auto p = Position::parse(text, rules);
    EXPECT_TRUE(p.ok()) << text << ": " << (p.ok() ? "" : p.error().message);
    return p.ok() ? *p : Position::start(rules);
}

inline Action act(const std::string& text) {
    auto a = parseAction(text);
    EXPECT_TRUE(a.ok()) << text;
    return a.ok() ? *a : Action{};
}

inline bool legal(const Position& p, const std::string& action) {
    return p.isLegal(act(action));
}

inline Position play(Position p, std::initializer_list<const char*> actions) {
    for (const char* a : actions) {
        const Action x = act(a);
        EXPECT_TRUE(p.isLegal(x)) << a << " in " << p.toString();
        if (!p.isLegal(x)) return p;
        p.doAction(x);
    }
    return p;
}

}  // namespace rainet::test

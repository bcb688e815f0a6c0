// SPDX-License-Identifier: GPL-2.0
// Helpers the smcctl tests share: parsing a command line and looking at the result.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "cli.hpp"

namespace smcctl::test {

inline Invocation parse(std::vector<std::string> argv) {
    return parse_command_line(argv);
}

// The command of an invocation as a T (a default T, and a failed expectation, if it is not).
template <typename T> T as(const Invocation& inv) {
    EXPECT_TRUE(std::holds_alternative<T>(inv.command)) << "command index " << inv.command.index();
    return std::holds_alternative<T>(inv.command) ? std::get<T>(inv.command) : T{};
}

// The usage error's message, or "" when parsing succeeded.
inline std::string usage_error_of(std::vector<std::string> argv) {
    try {
        parse_command_line(argv);
    } catch (const usage_error& e) {
        EXPECT_FALSE(e.usage().empty());
        return e.what();
    }
    return {};
}

// The message of the std::invalid_argument f() throws, or "" when it throws none.
template <typename F> std::string invalid_argument_of(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

inline bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

} // namespace smcctl::test

// SPDX-License-Identifier: GPL-2.0
// Running a parsed command: fetch through Client, print through format, and turn failures
// into one-line messages that name the cause.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "nl.hpp"

namespace smcctl {

// Exit codes.
constexpr int exit_ok = 0;
constexpr int exit_failure = 1; // the kernel refused, or the module is missing
constexpr int exit_usage = 2;   // bad command line

// Executes an invocation; output to `out`, diagnostics to `err`.  Returns the exit code.
int run(const Invocation& inv, std::ostream& out, std::ostream& err);

// Whole program: parse argv, run, report.
int main_entry(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

// The diagnostic for a netlink failure while running `command` (without the program name).
std::string describe_failure(const Command& command, const nl::error& e);

} // namespace smcctl

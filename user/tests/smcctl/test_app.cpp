// SPDX-License-Identifier: GPL-2.0
// End-to-end through main_entry for everything that needs no kernel, and the error texts.
#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "app.hpp"
#include "smcx/version.h"

using namespace smcctl;

namespace {

struct Result {
    int rc;
    std::string out, err;
};

Result run_main(std::vector<std::string> argv) {
    std::ostringstream out, err;
    const int rc = main_entry(argv, out, err);
    return {rc, out.str(), err.str()};
}

} // namespace

TEST(App, Version) {
    const auto r = run_main({"smcctl", "--version"});
    EXPECT_EQ(r.rc, exit_ok);
    EXPECT_EQ(r.out, std::string("smcctl (smcx) ") + SMCX_VERSION + "\n");
    EXPECT_EQ(run_main({"/usr/sbin/smc_pnet", "-v"}).out,
              std::string("smc_pnet (smcx) ") + SMCX_VERSION + "\n");
}

TEST(App, HelpGoesToStdout) {
    const auto r = run_main({"smcr", "help"});
    EXPECT_EQ(r.rc, exit_ok);
    EXPECT_NE(r.out.find("Usage: smcr"), std::string::npos);
    EXPECT_TRUE(r.err.empty());
}

TEST(App, UsageErrorExitsTwoWithUsage) {
    const auto r = run_main({"smcr", "ueid", "add", "bad eid"});
    EXPECT_EQ(r.rc, exit_usage);
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(r.err.rfind("smcr: invalid user EID: blanks", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("Usage: smcr [OPTIONS] ueid"), std::string::npos) << r.err;
}

TEST(App, SmcRunWithoutProgramIsAUsageError) {
    const auto r = run_main({"smc_run"});
    EXPECT_EQ(r.rc, exit_usage);
    EXPECT_NE(r.err.find("no program to run"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Usage: smc_run"), std::string::npos) << r.err;
}

TEST(App, WarningsArePrinted) {
    // -s with -I: the show itself needs the kernel, so only look at the warning.
    const auto r = run_main({"smc_pnet", "-s", "-I", "eth0"});
    EXPECT_NE(r.err.find("smc_pnet: warning: interface eth0 ignored"), std::string::npos) << r.err;
}

TEST(Describe, ModuleNotLoaded) {
    EXPECT_EQ(describe_failure(cmd::UeidShow{}, nl::family_not_found("SMC_GEN_NETLINK")),
              "SMC module not loaded (generic netlink family SMC_GEN_NETLINK not found)");
    EXPECT_EQ(describe_failure(cmd::PnetShow{}, nl::family_not_found("SMC_PNETID")),
              "SMC module not loaded (generic netlink family SMC_PNETID not found)");
}

TEST(Describe, Permission) {
    EXPECT_EQ(describe_failure(cmd::UeidAdd{"X"}, nl::error("x", EPERM)),
              "ueid add: permission denied (needs CAP_NET_ADMIN in the initial user namespace; run "
              "as root on the host)");
    EXPECT_EQ(describe_failure(cmd::PnetFlush{}, nl::error("x", EPERM)),
              "pnet flush: permission denied (needs CAP_NET_ADMIN in the initial user namespace; "
              "run as root on the host)");
}

TEST(Describe, CommandSpecific) {
    EXPECT_EQ(describe_failure(cmd::UeidAdd{"X"}, nl::error("x", EEXIST)),
              "ueid add: user EID is already defined");
    EXPECT_EQ(describe_failure(cmd::UeidAdd{"X"}, nl::error("x", ERANGE)),
              "ueid add: user EID table is full (at most 4 entries)");
    EXPECT_EQ(describe_failure(cmd::UeidDel{"X"}, nl::error("x", ENOENT)),
              "ueid delete: user EID is not defined");
    EXPECT_EQ(describe_failure(cmd::PnetDel{"NET9"}, nl::error("x", ENOENT)),
              "pnet delete: PNET ID NET9 not found");
    EXPECT_NE(describe_failure(cmd::PnetAdd{"N", "eth0", {}, 1}, nl::error("x", EEXIST))
                  .find("nothing added"),
              std::string::npos);
    EXPECT_EQ(
        describe_failure(cmd::PnetAdd{"N", "eth0", {}, 1}, nl::error("x", ENOSPC)),
        "pnet add: PNET table is full (smcx keeps at most 256 entries per network namespace)");
    EXPECT_EQ(describe_failure(cmd::StatsShow{}, nl::error("x", EOPNOTSUPP)),
              "stats: not supported by the running kernel");
}

TEST(Describe, FallsBackToTheErrorText) {
    EXPECT_EQ(describe_failure(cmd::InfoShow{}, nl::error("No buffer space available", ENOBUFS)),
              "info: No buffer space available");
    EXPECT_EQ(describe_failure(cmd::StatsShow{true}, nl::malformed_reply("bad")),
              "stats reset: malformed reply: bad");
}

// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli.hpp"
#include "cli_util.hpp"

using namespace smcctl;
using namespace smcctl::test;

namespace {

std::string pad32(std::string s) {
    s.resize(32, ' ');
    return s;
}

} // namespace

// ---- personalities ---------------------------------------------------------------------

TEST(Personality, FromArgv0BaseName) {
    EXPECT_EQ(personality_from_argv0("/usr/sbin/smcr"), Personality::smcr);
    EXPECT_EQ(personality_from_argv0("smc_pnet"), Personality::smc_pnet);
    EXPECT_EQ(personality_from_argv0("./build/smcss"), Personality::smcss);
    EXPECT_EQ(personality_from_argv0("smc_dbg"), Personality::smc_dbg);
    EXPECT_EQ(personality_from_argv0("smc_run"), Personality::smc_run);
    EXPECT_EQ(personality_from_argv0("/x/smcctl"), Personality::smcctl);
    EXPECT_EQ(personality_from_argv0("something-else"), Personality::smcctl);
    EXPECT_EQ(personality_from_argv0(""), Personality::smcctl);
}

TEST(Personality, ProgNameFollowsPersonality) {
    EXPECT_EQ(parse({"/bin/smcr", "info"}).prog, "smcr");
    EXPECT_EQ(parse({"/bin/smcctl", "info"}).prog, "smcctl");
}

TEST(Personality, UnimplementedOnesSayVersionAndHelp) {
    EXPECT_TRUE(std::holds_alternative<cmd::Unsupported>(parse({"smc_run"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Unsupported>(parse({"smc_run", "-x"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smc_run", "-v"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smc_run", "--help"}).command));
}

// ---- smc_pnet options ------------------------------------------------------------------

TEST(SmcPnet, NoArgumentsShowsAll) {
    const auto s = as<cmd::PnetShow>(parse({"smc_pnet"}));
    EXPECT_FALSE(s.pnetid);
}

TEST(SmcPnet, ShowOneUpperCases) {
    EXPECT_EQ(as<cmd::PnetShow>(parse({"smc_pnet", "-s", "net1"})).pnetid, "NET1");
    EXPECT_EQ(as<cmd::PnetShow>(parse({"smc_pnet", "--show", "net1"})).pnetid, "NET1");
    EXPECT_FALSE(as<cmd::PnetShow>(parse({"smc_pnet", "-s"})).pnetid);
}

TEST(SmcPnet, AddInterface) {
    const auto a = as<cmd::PnetAdd>(parse({"smc_pnet", "-a", "net1", "-I", "eth0"}));
    EXPECT_EQ(a.pnetid, "NET1");
    EXPECT_EQ(a.eth, "eth0");
    EXPECT_FALSE(a.ib);
    EXPECT_EQ(a.port, 1);
}

TEST(SmcPnet, AddDeviceWithPortInAnyOrder) {
    const auto a = as<cmd::PnetAdd>(parse({"smc_pnet", "-D", "rxe0", "-P", "2", "-a", "NET1"}));
    EXPECT_EQ(a.pnetid, "NET1");
    EXPECT_EQ(a.ib, "rxe0");
    EXPECT_EQ(a.port, 2);
}

TEST(SmcPnet, AddDeviceDefaultsToPortOne) {
    EXPECT_EQ(as<cmd::PnetAdd>(parse({"smc_pnet", "-a", "N", "-D", "mlx5_0"})).port, 1);
}

TEST(SmcPnet, LongAndAttachedForms) {
    const cmd::PnetAdd want{"NET1", "eth1", "rxe1", 2};
    EXPECT_EQ(as<cmd::PnetAdd>(parse({"smc_pnet", "--add", "net1", "--interface", "eth1",
                                      "--ibdevice", "rxe1", "--ibport", "2"})),
              want);
    EXPECT_EQ(as<cmd::PnetAdd>(parse(
                  {"smc_pnet", "--add=net1", "--interface=eth1", "--ibdevice=rxe1", "--ibport=2"})),
              want);
    EXPECT_EQ(as<cmd::PnetAdd>(parse({"smc_pnet", "-a", "net1", "-Ieth1", "-Drxe1", "-P2"})), want);
    EXPECT_EQ(as<cmd::PnetAdd>(parse(
                  {"smc_pnet", "--ad", "net1", "--inter", "eth1", "--ibd", "rxe1", "--ibp", "2"})),
              want);
}

TEST(SmcPnet, AddBothInterfaceAndDevice) {
    const auto a = as<cmd::PnetAdd>(parse({"smc_pnet", "-a", "X", "-I", "eth0", "-D", "rxe0"}));
    EXPECT_EQ(a.eth, "eth0");
    EXPECT_EQ(a.ib, "rxe0");
}

TEST(SmcPnet, DeleteAndFlush) {
    EXPECT_EQ(as<cmd::PnetDel>(parse({"smc_pnet", "-d", "net1"})).pnetid, "NET1");
    EXPECT_EQ(as<cmd::PnetDel>(parse({"smc_pnet", "--delete", "net1"})).pnetid, "NET1");
    EXPECT_TRUE(std::holds_alternative<cmd::PnetFlush>(parse({"smc_pnet", "-f"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::PnetFlush>(parse({"smc_pnet", "--flush"}).command));
}

TEST(SmcPnet, JsonFlag) {
    EXPECT_TRUE(parse({"smc_pnet", "-j"}).opt.json);
    EXPECT_TRUE(parse({"smc_pnet", "--json", "-s"}).opt.json);
    EXPECT_TRUE(parse({"smc_pnet", "-s", "--json"}).opt.json);
    EXPECT_FALSE(parse({"smc_pnet", "-s"}).opt.json);
}

TEST(SmcPnet, VersionAndHelp) {
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smc_pnet", "-v"}).command));
    const auto h = as<cmd::Help>(parse({"smc_pnet", "--help"}));
    EXPECT_NE(h.text.find("--interface"), std::string::npos);
}

TEST(SmcPnet, IgnoredOptionsWarn) {
    const auto inv = parse({"smc_pnet", "-s", "-I", "eth0"});
    EXPECT_TRUE(std::holds_alternative<cmd::PnetShow>(inv.command));
    ASSERT_EQ(inv.warnings.size(), 1u);
    EXPECT_NE(inv.warnings[0].find("eth0"), std::string::npos);
}

TEST(SmcPnet, Errors) {
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", "NET1"}).find("missing"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", "-I", "eth0"}).find("needs a PNET ID"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", "N", "-d", "N"}).find("only one"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-s", "A", "B"}).find("too many"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "NET1"}).find("without"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-f", "NET1"}).find("no parameters"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-d"}).find("needs a PNET ID"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-x"}).find("unknown option"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "--bogus"}).find("unknown option"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "--i", "x"}).find("ambiguous"), std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", "N", "-D", "rxe0", "-P", "3"}).find("IB port"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", "N", "-I"}).find("needs a value"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", "NET-1", "-I", "eth0"}).find("PNET ID"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smc_pnet", "-a", std::string(17, 'A'), "-I", "eth0"})
                  .find("16 characters"),
              std::string::npos);
    EXPECT_NE(
        usage_error_of({"smc_pnet", "-a", "N", "-I", std::string(16, 'e')}).find("interface name"),
        std::string::npos);
}

// ---- smcctl pnet -----------------------------------------------------------------------

TEST(SmcctlPnet, SubcommandForms) {
    EXPECT_FALSE(as<cmd::PnetShow>(parse({"smcctl", "pnet"})).pnetid);
    EXPECT_FALSE(as<cmd::PnetShow>(parse({"smcctl", "pnet", "show"})).pnetid);
    EXPECT_EQ(as<cmd::PnetShow>(parse({"smcctl", "pnet", "show", "x1"})).pnetid, "X1");
    const auto a = as<cmd::PnetAdd>(
        parse({"smcctl", "pnet", "add", "net1", "eth", "eth0", "ib", "rxe0", "port", "2"}));
    EXPECT_EQ(a, (cmd::PnetAdd{"NET1", "eth0", "rxe0", 2}));
    EXPECT_EQ(as<cmd::PnetAdd>(parse({"smcctl", "pnet", "add", "n", "ib", "rxe0"})).port, 1);
    EXPECT_EQ(as<cmd::PnetDel>(parse({"smcctl", "pnet", "del", "n"})).pnetid, "N");
    EXPECT_EQ(as<cmd::PnetDel>(parse({"smcctl", "pnet", "delete", "n"})).pnetid, "N");
    EXPECT_TRUE(std::holds_alternative<cmd::PnetFlush>(parse({"smcctl", "pnet", "fl"}).command));
}

TEST(SmcctlPnet, OptionFormEqualsSmcPnet) {
    EXPECT_EQ(as<cmd::PnetAdd>(parse({"smcctl", "pnet", "-a", "net1", "-I", "eth0"})),
              as<cmd::PnetAdd>(parse({"smc_pnet", "-a", "net1", "-I", "eth0"})));
    EXPECT_EQ(as<cmd::PnetDel>(parse({"smcctl", "pnet", "-d", "net1"})).pnetid, "NET1");
}

TEST(SmcctlPnet, Errors) {
    EXPECT_NE(usage_error_of({"smcctl", "pnet", "add", "n"}).find("needs an interface"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "pnet", "add", "n", "eth"}).find("needs a value"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "pnet", "add", "n", "eth", "e0", "port", "2"})
                  .find("port needs a device"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "pnet", "add"}).find("needs a PNET ID"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "pnet", "frob"}).find("unknown pnet command"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "pnet", "flush", "x"}).find("unexpected"),
              std::string::npos);
}

// ---- ueid ------------------------------------------------------------------------------

TEST(Ueid, SmcrAndSmcctlForms) {
    EXPECT_TRUE(std::holds_alternative<cmd::UeidShow>(parse({"smcr", "ueid"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::UeidShow>(parse({"smcr", "ueid", "show"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::UeidShow>(parse({"smcctl", "ueid", "sh"}).command));
    EXPECT_EQ(as<cmd::UeidAdd>(parse({"smcr", "ueid", "add", "smcx-lab-ueid"})).eid,
              pad32("SMCX-LAB-UEID"));
    EXPECT_EQ(as<cmd::UeidAdd>(parse({"smcctl", "ueid", "add", "A.B"})).eid, pad32("A.B"));
    EXPECT_EQ(as<cmd::UeidDel>(parse({"smcr", "ueid", "del", "a"})).eid, pad32("A"));
    EXPECT_EQ(as<cmd::UeidDel>(parse({"smcr", "ueid", "remove", "a"})).eid, pad32("A"));
    EXPECT_TRUE(std::holds_alternative<cmd::UeidFlush>(parse({"smcr", "ueid", "flush"}).command));
    EXPECT_TRUE(parse({"smcr", "ueid", "show", "--json"}).opt.json);
}

TEST(Ueid, Errors) {
    EXPECT_NE(usage_error_of({"smcr", "ueid", "add"}).find("needs an EID"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcr", "ueid", "add", "a b"}).find("blanks"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcr", "ueid", "add", std::string(33, 'A')}).find("32"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcr", "ueid", "add", "A", "B"}).find("unexpected"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcr", "ueid", "zap"}).find("unknown ueid command"),
              std::string::npos);
}

// ---- info and stats --------------------------------------------------------------------

TEST(Info, Forms) {
    EXPECT_TRUE(std::holds_alternative<cmd::InfoShow>(parse({"smcr", "info"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::InfoShow>(parse({"smcctl", "i", "show"}).command));
    EXPECT_TRUE(parse({"smcctl", "-j", "info"}).opt.json);
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smcr", "info", "help"}).command));
    EXPECT_NE(usage_error_of({"smcr", "info", "bogus"}).find("unknown info"), std::string::npos);
}

TEST(Stats, Forms) {
    auto inv = parse({"smcr", "stats"});
    EXPECT_FALSE(as<cmd::StatsShow>(inv).reset);
    EXPECT_FALSE(inv.opt.json);

    inv = parse({"smcr", "stats", "json"});
    EXPECT_TRUE(inv.opt.json);

    inv = parse({"smcr", "stats", "--json"});
    EXPECT_TRUE(inv.opt.json);
    EXPECT_TRUE(std::holds_alternative<cmd::StatsShow>(inv.command));

    EXPECT_TRUE(as<cmd::StatsShow>(parse({"smcctl", "stats", "reset"})).reset);

    inv = parse({"smcr", "-d", "stats"});
    EXPECT_TRUE(inv.opt.details);
    inv = parse({"smcr", "-ad", "stats"});
    EXPECT_TRUE(inv.opt.details && inv.opt.absolute);
    inv = parse({"smcr", "--absolute", "stats", "show"});
    EXPECT_TRUE(inv.opt.absolute);
    inv = parse({"smcr", "stats", "-d", "show"});
    EXPECT_TRUE(inv.opt.details);
    inv = parse({"smcr", "-dd", "stats"});
    EXPECT_TRUE(inv.opt.details);
}

TEST(Stats, SmcctlEqualsSmcr) {
    const auto a = parse({"smcctl", "stats", "reset"});
    const auto b = parse({"smcr", "stats", "reset"});
    EXPECT_EQ(as<cmd::StatsShow>(a).reset, as<cmd::StatsShow>(b).reset);
}

TEST(Stats, Errors) {
    EXPECT_NE(usage_error_of({"smcr", "stats", "zero"}).find("unknown stats"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcr", "stats", "show", "reset"}).find("unexpected"),
              std::string::npos);
    EXPECT_NE(usage_error_of({"smcr", "stats", "-q"}).find("unknown option"), std::string::npos);
}

// ---- top level -------------------------------------------------------------------------

TEST(TopLevel, VersionAndHelp) {
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smcctl", "--version"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smcctl", "-v"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smcr", "-version"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smcctl", "version"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smcctl", "help"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smcctl", "-h"}).command));
    EXPECT_NE(as<cmd::Help>(parse({"smcctl", "pnet", "help"})).text.find("pnet add"),
              std::string::npos);
}

TEST(TopLevel, ObjectAbbreviations) {
    EXPECT_TRUE(std::holds_alternative<cmd::StatsShow>(parse({"smcr", "st"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::UeidShow>(parse({"smcr", "u"}).command));
}

TEST(TopLevel, SmcrHasNoPnet) {
    EXPECT_NE(usage_error_of({"smcr", "pnet"}).find("unknown object"), std::string::npos);
}

TEST(TopLevel, LinkgroupAndDeviceObjects) {
    EXPECT_TRUE(std::holds_alternative<cmd::LgrShow>(parse({"smcr", "linkgroup"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::DevShow>(parse({"smcctl", "device"}).command));
}

TEST(TopLevel, Errors) {
    EXPECT_NE(usage_error_of({"smcctl"}).find("missing object"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "frobnicate"}).find("unknown object"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "--frob"}).find("unknown option"), std::string::npos);
    EXPECT_NE(usage_error_of({"smcctl", "-x"}).find("unknown option"), std::string::npos);
}

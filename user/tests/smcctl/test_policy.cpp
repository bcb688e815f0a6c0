// SPDX-License-Identifier: GPL-2.0
// smcctl policy: the command line, the CIDR, range and name rules, the text and JSON forms,
// and the decoding of the kernel's rule dump.
#include <gtest/gtest.h>

#include <arpa/inet.h>

#include "cli_util.hpp"
#include "genl_reply.hpp"
#include "policy.hpp"
#include "uapi/linux/smcx.h"

namespace smcctl {
namespace {

using test::contains;
using test::parse;
using test::usage_error_of;

cmd::Policy policy_of(std::vector<std::string> argv) {
    return test::as<cmd::Policy>(parse(std::move(argv)));
}

PolicyRule added(std::vector<std::string> words) {
    std::vector<std::string> argv{"smcctl", "policy", "add"};
    argv.insert(argv.end(), words.begin(), words.end());
    const cmd::Policy p = policy_of(argv);
    EXPECT_TRUE(std::holds_alternative<cmd::PolicyAdd>(p.op));
    return std::holds_alternative<cmd::PolicyAdd>(p.op) ? std::get<cmd::PolicyAdd>(p.op).rule
                                                        : PolicyRule{};
}

std::string add_error(std::vector<std::string> words) {
    std::vector<std::string> argv{"smcctl", "policy", "add"};
    argv.insert(argv.end(), words.begin(), words.end());
    return usage_error_of(argv);
}

TEST(PolicyCidr, Ipv4IsV4MappedWithPrefixPlus96) {
    const Cidr c = parse_cidr("10.1.2.3/24");
    EXPECT_EQ(c.family, AF_INET);
    EXPECT_EQ(c.prefix, 96 + 24);
    const std::array<std::uint8_t, 16> want{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 0};
    EXPECT_EQ(c.addr, want); // host bits cleared
    EXPECT_EQ(cidr_text(c), "10.1.2.0/24");
}

TEST(PolicyCidr, HostAndZeroPrefixes) {
    EXPECT_EQ(parse_cidr("192.168.0.7").prefix, 128);
    EXPECT_EQ(cidr_text(parse_cidr("192.168.0.7")), "192.168.0.7/32");
    EXPECT_EQ(cidr_text(parse_cidr("0.0.0.0/0")), "0.0.0.0/0");
    EXPECT_EQ(parse_cidr("0.0.0.0/0").prefix, 96);
    EXPECT_EQ(cidr_text(parse_cidr("1.2.3.4/31")), "1.2.3.4/31");
    EXPECT_EQ(cidr_text(parse_cidr("1.2.3.5/31")), "1.2.3.4/31");
}

TEST(PolicyCidr, Ipv6) {
    const Cidr c = parse_cidr("fd00:1:2::9/48");
    EXPECT_EQ(c.family, AF_INET6);
    EXPECT_EQ(c.prefix, 48);
    EXPECT_EQ(cidr_text(c), "fd00:1:2::/48");
    EXPECT_EQ(cidr_text(parse_cidr("::1")), "::1/128");
    EXPECT_EQ(cidr_text(parse_cidr("fe80::1/0")), "::/0");
    EXPECT_EQ(cidr_text(parse_cidr("2001:db8::ff/121")), "2001:db8::80/121");
    // v4-mapped text is an IPv6 prefix and prints as one
    const Cidr m = parse_cidr("::ffff:10.1.2.3/120");
    EXPECT_EQ(m.family, AF_INET6);
    EXPECT_EQ(m.prefix, 120);
    EXPECT_EQ(m.addr, parse_cidr("10.1.2.0/24").addr);
    EXPECT_EQ(cidr_text(m), "::ffff:10.1.2.0/120");
}

TEST(PolicyCidr, Rejects) {
    for (const char* bad : {"", "/8", "10.0.0.1/33", "10.0.0.1/", "10.0.0.1/-1", "10.0.0.1/8x",
                            "fd00::/129", "10.0.0", "host.example", "10.0.0.1/ 8", "1.2.3.4/08a"})
        EXPECT_THROW(parse_cidr(bad), std::invalid_argument) << bad;
}

TEST(PolicyRange, PortsAndUids) {
    EXPECT_EQ(parse_range("22", 65535, "port"), (Range{22, 22}));
    EXPECT_EQ(parse_range("1024-65535", 65535, "port"), (Range{1024, 65535}));
    EXPECT_EQ(parse_range("0", 65535, "port"), (Range{0, 0}));
    EXPECT_EQ(parse_range("1000-1999", 0xfffffffe, "uid"), (Range{1000, 1999}));
    for (const char* bad : {"", "-", "65536", "22-", "-22", "30-20", "a", "1-2-3", "+1", " 1"})
        EXPECT_THROW(parse_range(bad, 65535, "port"), std::invalid_argument) << bad;
    try {
        parse_range("30-20", 65535, "port");
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(contains(e.what(), "first is above the last")) << e.what();
    }
}

TEST(PolicyComm, OneToFifteen) {
    EXPECT_EQ(check_comm("redis-cli"), "redis-cli");
    EXPECT_EQ(check_comm("fifteen-chars-x"), "fifteen-chars-x");
    EXPECT_THROW(check_comm(""), std::invalid_argument);
    EXPECT_THROW(check_comm("sixteen-chars-xy"), std::invalid_argument);
}

TEST(PolicyCli, ListIsTheDefault) {
    EXPECT_TRUE(std::holds_alternative<cmd::PolicyList>(policy_of({"smcctl", "policy"}).op));
    EXPECT_TRUE(std::holds_alternative<cmd::PolicyList>(policy_of({"smcctl", "po", "l"}).op));
    EXPECT_TRUE(
        std::holds_alternative<cmd::PolicyList>(policy_of({"smcctl", "policy", "show"}).op));
    const Invocation j = parse({"smcctl", "policy", "list", "--json"});
    EXPECT_TRUE(j.opt.json);
    EXPECT_TRUE(parse({"smcctl", "policy", "list", "-j"}).opt.json);
    EXPECT_TRUE(parse({"smcctl", "-j", "policy"}).opt.json);
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "policy", "list", "x"}), "unexpected"));
}

TEST(PolicyCli, AddEveryMatcher) {
    const PolicyRule r = added({"client", "cgroup", "/smcxtest", "comm", "redis-cli", "uid",
                                "1000-1999", "dst", "10.0.0.0/8", "port", "6379", "action", "tcp"});
    EXPECT_EQ(r.role, PolicyRole::client);
    EXPECT_EQ(r.cgroup, "/smcxtest");
    EXPECT_EQ(r.comm, "redis-cli");
    EXPECT_EQ(r.uid, (Range{1000, 1999}));
    ASSERT_TRUE(r.dst);
    EXPECT_EQ(cidr_text(*r.dst), "10.0.0.0/8");
    EXPECT_EQ(r.port, (Range{6379, 6379}));
    EXPECT_EQ(r.action, PolicyAction::tcp);
    EXPECT_EQ(rule_words(r), "client cgroup /smcxtest comm redis-cli uid 1000-1999 "
                             "dst 10.0.0.0/8 port 6379 action tcp");
}

TEST(PolicyCli, AddInAnyOrderWithAbbreviations) {
    const PolicyRule r = added({"act", "smc", "po", "1-1024", "server"});
    EXPECT_EQ(r.role, PolicyRole::server);
    EXPECT_EQ(r.port, (Range{1, 1024}));
    EXPECT_EQ(r.action, PolicyAction::smc);
    EXPECT_FALSE(r.dst || r.cgroup || r.comm || r.uid);
    // an empty rule matches everything
    const PolicyRule all = added({"action", "tcp"});
    EXPECT_EQ(all.role, PolicyRole::any);
    EXPECT_EQ(rule_words(all), "action tcp");
}

TEST(PolicyCli, AddRejects) {
    EXPECT_TRUE(contains(add_error({"port", "22"}), "needs 'action smc' or 'action tcp'"));
    EXPECT_TRUE(contains(add_error({"action", "udp"}), "unknown action"));
    EXPECT_TRUE(contains(add_error({"action"}), "needs a value"));
    EXPECT_TRUE(contains(add_error({"port", "22", "port", "23", "action", "tcp"}), "twice"));
    EXPECT_TRUE(contains(add_error({"client", "server", "action", "tcp"}), "role given twice"));
    EXPECT_TRUE(contains(add_error({"port", "70000", "action", "tcp"}), "bad port"));
    EXPECT_TRUE(contains(add_error({"port", "30-20", "action", "tcp"}), "above the last"));
    EXPECT_TRUE(contains(add_error({"dst", "10.0.0.0/40", "action", "tcp"}), "prefix"));
    EXPECT_TRUE(contains(add_error({"comm", "a-very-long-command", "action", "tcp"}), "15"));
    EXPECT_TRUE(contains(add_error({"cgroup", "", "action", "tcp"}), "empty cgroup"));
    EXPECT_TRUE(contains(add_error({"uid", "4294967295", "action", "tcp"}), "bad uid"));
    EXPECT_TRUE(contains(add_error({"server", "dst", "10.0.0.1", "action", "tcp"}),
                         "server rule has no destination"));
    EXPECT_TRUE(contains(add_error({"bogus", "action", "tcp"}), "unknown word"));
}

TEST(PolicyCli, DelAndFlush) {
    const cmd::Policy d = policy_of({"smcctl", "policy", "del", "7"});
    ASSERT_TRUE(std::holds_alternative<cmd::PolicyDel>(d.op));
    EXPECT_EQ(std::get<cmd::PolicyDel>(d.op).id, 7u);
    EXPECT_TRUE(
        std::holds_alternative<cmd::PolicyDel>(policy_of({"smcctl", "policy", "delete", "1"}).op));
    EXPECT_TRUE(
        std::holds_alternative<cmd::PolicyFlush>(policy_of({"smcctl", "policy", "flush"}).op));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "policy", "del"}), "needs a rule id"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "policy", "del", "0"}), "bad rule id"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "policy", "del", "x1"}), "bad rule id"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "policy", "del", "1", "2"}), "unexpected"));
    EXPECT_FALSE(usage_error_of({"smcctl", "policy", "flush", "now"}).empty());
}

TEST(PolicyCli, OnlySmcctlHasIt) {
    EXPECT_TRUE(contains(usage_error_of({"smcr", "policy"}), "unknown object"));
}

TEST(PolicyFormat, TextAndJson) {
    PolicyTable t;
    EXPECT_EQ(to_text(t), "");
    PolicyRule r = added({"client", "dst", "10.0.0.2", "port", "22", "action", "tcp"});
    r.id = 3;
    r.hits = 12;
    t.rules.push_back(r);
    EXPECT_EQ(to_text(t), "ID            HITS  RULE\n"
                          "3               12  client dst 10.0.0.2/32 port 22 action tcp\n");
    const std::string j = to_json(t);
    for (const char* want :
         {"\"policy\": [", "\"id\": 3", "\"role\": \"client\"", "\"action\": \"tcp\"",
          "\"dst\": \"10.0.0.2/32\"", "\"port_min\": 22", "\"port_max\": 22", "\"uid_min\": null",
          "\"cgroup\": null", "\"hits\": 12"})
        EXPECT_TRUE(contains(j, want)) << want << " in " << j;
}

TEST(PolicyWire, DecodesADumpMessage) {
    std::array<std::uint8_t, 16> addr{};
    addr[10] = addr[11] = 0xff;
    addr[12] = 192;
    addr[13] = 168;
    test::Reply m(SMCX_CMD_POLICY_GET);
    m.begin(SMCX_A_POLICY)
        .u32(SMCX_POLICY_A_ID, 5)
        .u8(SMCX_POLICY_A_ACTION, SMCX_POLICY_TCP)
        .u8(SMCX_POLICY_A_ROLE, SMCX_POLICY_CLIENT)
        .u64(SMCX_POLICY_A_HITS, 9)
        .str(SMCX_POLICY_A_COMM, "curl")
        .u32(SMCX_POLICY_A_UID_MIN, 1000)
        .u32(SMCX_POLICY_A_UID_MAX, 1000)
        .u8(SMCX_POLICY_A_FAMILY, AF_INET)
        .bytes(SMCX_POLICY_A_ADDR, addr.data(), 16)
        .u8(SMCX_POLICY_A_PREFIX, 96 + 16)
        .u16(SMCX_POLICY_A_PORT_MIN, 80)
        .u16(SMCX_POLICY_A_PORT_MAX, 89)
        .end();
    const PolicyRule r = wire::decode_policy_rule(m.hdr());
    EXPECT_EQ(r.id, 5u);
    EXPECT_EQ(r.action, PolicyAction::tcp);
    EXPECT_EQ(r.role, PolicyRole::client);
    EXPECT_EQ(r.hits, 9u);
    EXPECT_EQ(r.comm, "curl");
    EXPECT_EQ(r.uid, (Range{1000, 1000}));
    EXPECT_EQ(r.port, (Range{80, 89}));
    EXPECT_FALSE(r.cgroup);
    ASSERT_TRUE(r.dst);
    EXPECT_EQ(cidr_text(*r.dst), "192.168.0.0/16");
    EXPECT_EQ(rule_words(r), "client comm curl uid 1000 dst 192.168.0.0/16 port 80-89 action tcp");
}

TEST(PolicyWire, ARuleWithoutAnIdIsMalformed) {
    test::Reply m(SMCX_CMD_POLICY_GET);
    m.begin(SMCX_A_POLICY).u8(SMCX_POLICY_A_ACTION, SMCX_POLICY_SMC).end();
    EXPECT_THROW(wire::decode_policy_rule(m.hdr()), nl::malformed_reply);
}

} // namespace
} // namespace smcctl

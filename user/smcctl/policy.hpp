// SPDX-License-Identifier: GPL-2.0
// smcctl policy: the scope rules of tcp2smc and IPPROTO_SMC (docs/transparent.md, "Scope
// rules"), kept per network namespace by the kernel and spoken over the generic netlink
// family SMCX.  The rule model, the parsing of its words (pure, unit-tested), its text and
// JSON forms, and the netlink client.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <netlink/netlink.h>

#include "nl.hpp"
#include "smcx_family.hpp"

namespace smcctl {

// An address prefix as the kernel keeps it: 16 bytes (IPv4 v4-mapped), the prefix over all
// 16 (an IPv4 /n is 96 + n).
struct Cidr {
    int family = 0; // AF_INET or AF_INET6
    std::array<std::uint8_t, 16> addr{};
    std::uint8_t prefix = 128;

    bool operator==(const Cidr&) const = default;
};

// An inclusive range of ports or uids.
struct Range {
    std::uint32_t min = 0;
    std::uint32_t max = 0;

    bool operator==(const Range&) const = default;
};

enum class PolicyRole : std::uint8_t { any = 0, client = 1, server = 2 };
enum class PolicyAction : std::uint8_t { smc = 1, tcp = 2 };

// One rule: the matchers it has, what it decides, and (listed) its id and hits.
struct PolicyRule {
    std::uint32_t id = 0;
    PolicyRole role = PolicyRole::any;
    PolicyAction action = PolicyAction::smc;
    std::optional<std::string> cgroup;
    std::optional<std::string> comm;
    std::optional<Range> uid;
    std::optional<Cidr> dst;
    std::optional<Range> port;
    std::uint64_t hits = 0;

    bool operator==(const PolicyRule&) const = default;
};

struct PolicyTable {
    std::vector<PolicyRule> rules; // in the order they are asked
};

// ---- the words of a rule (throw std::invalid_argument with the reason) -------------------

// "10.1.2.0/24", "fd00::/8", "10.1.2.3" (/32), "::1" (/128); the host bits are cleared.
Cidr parse_cidr(std::string_view s);
// The prefix as given: "10.1.2.0/24", "fd00::/8".
std::string cidr_text(const Cidr& c);
// "N" or "N-M" with N <= M <= max; `what` names it in messages ("port", "uid").
Range parse_range(std::string_view s, std::uint32_t max, std::string_view what);
// The command name a rule matches: 1..15 characters (the kernel's TASK_COMM_LEN - 1).
std::string check_comm(std::string_view s);

// The rule in the words of "policy add": "client port 22 action tcp".
std::string rule_words(const PolicyRule& r);

std::string to_text(const PolicyTable& t);
std::string to_json(const PolicyTable& t);

namespace cmd {

struct PolicyList {};
struct PolicyAdd {
    PolicyRule rule;
};
struct PolicyDel {
    std::uint32_t id = 0;
};
struct PolicyFlush {};

// smcctl policy list | add RULE | del ID | flush
struct Policy {
    std::variant<PolicyList, PolicyAdd, PolicyDel, PolicyFlush> op;
};

} // namespace cmd

namespace wire {
// One SMCX_CMD_POLICY_GET reply message.
PolicyRule decode_policy_rule(nlmsghdr* hdr);
} // namespace wire

// A session with the SMCX family's rule commands.
class PolicyClient {
public:
    PolicyTable list();
    void add(const PolicyRule& r);
    void del(std::uint32_t id);
    void flush();

private:
    SmcxSession s_;
};

// Runs a policy command; what it prints goes to `out`.  Throws nl::error (family missing)
// or std::runtime_error with a message for the user.
int run_policy(const cmd::Policy& c, bool json, std::ostream& out);

} // namespace smcctl

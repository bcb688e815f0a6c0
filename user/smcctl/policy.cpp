// SPDX-License-Identifier: GPL-2.0
// smcctl policy: the words of a rule, its text and JSON forms, and the command runner.
#include "policy.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <charconv>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "addr.hpp"
#include "json.hpp"

namespace smcctl {

namespace {

// A decimal number of the whole of `s`, at most `max`.
std::optional<std::uint32_t> number(std::string_view s, std::uint32_t max) {
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v > max)
        return std::nullopt;
    return v;
}

std::string range_text(const Range& r) {
    return r.min == r.max ? std::to_string(r.min)
                          : std::to_string(r.min) + "-" + std::to_string(r.max);
}

constexpr std::string_view role_name(PolicyRole r) {
    switch (r) {
    case PolicyRole::client:
        return "client";
    case PolicyRole::server:
        return "server";
    default:
        return "any";
    }
}

constexpr std::string_view action_name(PolicyAction a) {
    return a == PolicyAction::tcp ? "tcp" : "smc";
}

} // namespace

Cidr parse_cidr(std::string_view s) {
    const auto slash = s.find('/');
    const std::string host(s.substr(0, slash));
    const auto a = parse_addr(host);
    if (!a)
        throw std::invalid_argument("'" + host + "' is not an IPv4 or IPv6 address");
    Cidr c;
    c.family = a->family;
    c.addr = a->bytes;
    const std::uint32_t bits = c.family == AF_INET ? 32 : 128;
    std::uint32_t len = bits;
    if (slash != std::string_view::npos) {
        const auto n = number(s.substr(slash + 1), bits);
        if (!n)
            throw std::invalid_argument("bad prefix length in '" + std::string(s) + "' (0.." +
                                        std::to_string(bits) + ")");
        len = *n;
    }
    c.prefix = static_cast<std::uint8_t>(c.family == AF_INET ? 96 + len : len);
    for (std::size_t i = 0; i < c.addr.size(); ++i) {
        const int keep = static_cast<int>(c.prefix) - static_cast<int>(i * 8);
        if (keep <= 0)
            c.addr[i] = 0;
        else if (keep < 8)
            c.addr[i] &= static_cast<std::uint8_t>(0xff << (8 - keep));
    }
    return c;
}

std::string cidr_text(const Cidr& c) {
    const int len = c.family != AF_INET ? c.prefix : c.prefix >= 96 ? c.prefix - 96 : 0;
    return addr_text(c.addr, c.family) + "/" + std::to_string(len);
}

Range parse_range(std::string_view s, std::uint32_t max, std::string_view what) {
    const auto dash = s.find('-');
    const auto lo = number(s.substr(0, dash), max);
    const auto hi = dash == std::string_view::npos ? lo : number(s.substr(dash + 1), max);
    const std::string name(what);
    if (!lo || !hi)
        throw std::invalid_argument("bad " + name + " '" + std::string(s) + "' (N or N-M, 0.." +
                                    std::to_string(max) + ")");
    if (*lo > *hi)
        throw std::invalid_argument("bad " + name + " range '" + std::string(s) +
                                    "': the first is above the last");
    return Range{*lo, *hi};
}

std::string check_comm(std::string_view s) {
    if (s.empty() || s.size() > 15)
        throw std::invalid_argument("a command name has 1 to 15 characters, '" + std::string(s) +
                                    "' has " + std::to_string(s.size()));
    return std::string(s);
}

std::string rule_words(const PolicyRule& r) {
    std::string w;
    if (r.role != PolicyRole::any)
        w += std::string(role_name(r.role)) + " ";
    if (r.cgroup)
        w += "cgroup " + *r.cgroup + " ";
    if (r.comm)
        w += "comm " + *r.comm + " ";
    if (r.uid)
        w += "uid " + range_text(*r.uid) + " ";
    if (r.dst)
        w += "dst " + cidr_text(*r.dst) + " ";
    if (r.port)
        w += "port " + range_text(*r.port) + " ";
    return w + "action " + std::string(action_name(r.action));
}

std::string to_text(const PolicyTable& t) {
    if (t.rules.empty())
        return {};
    std::ostringstream o;
    o << std::left << std::setw(6) << "ID" << std::right << std::setw(12) << "HITS"
      << "  RULE\n";
    for (const auto& r : t.rules)
        o << std::left << std::setw(6) << r.id << std::right << std::setw(12) << r.hits << "  "
          << rule_words(r) << '\n';
    return o.str();
}

std::string to_json(const PolicyTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("policy").begin_array();
    for (const auto& r : t.rules) {
        j.begin_object().field("id", static_cast<std::uint64_t>(r.id));
        j.field("role", role_name(r.role)).field("action", action_name(r.action));
        const auto opt_str = [&](std::string_view k, const std::optional<std::string>& v) {
            j.key(k);
            v ? j.value(*v) : j.null();
        };
        const auto opt_num = [&](std::string_view k, std::optional<std::uint32_t> v) {
            j.key(k);
            v ? j.value(static_cast<std::uint64_t>(*v)) : j.null();
        };
        opt_str("cgroup", r.cgroup);
        opt_str("comm", r.comm);
        opt_num("uid_min", r.uid ? std::optional(r.uid->min) : std::nullopt);
        opt_num("uid_max", r.uid ? std::optional(r.uid->max) : std::nullopt);
        opt_str("dst", r.dst ? std::optional(cidr_text(*r.dst)) : std::nullopt);
        opt_num("port_min", r.port ? std::optional(r.port->min) : std::nullopt);
        opt_num("port_max", r.port ? std::optional(r.port->max) : std::nullopt);
        j.field("hits", r.hits).end_object();
    }
    j.end_array().end_object();
    j.finish();
    return o.str();
}

namespace {

// What a refused policy command means, for the user.
std::string policy_failure(const cmd::Policy& c, const nl::error& e) {
    const int err = e.errno_value();
    const auto* add = std::get_if<cmd::PolicyAdd>(&c.op);
    const auto* del = std::get_if<cmd::PolicyDel>(&c.op);
    const std::string verb = add ? "add" : del ? "del" : "flush";
    const std::string prefix = "policy " + verb + ": ";
    if (err == EPERM || err == EACCES)
        return prefix + "permission denied (needs CAP_NET_ADMIN over the network namespace)";
    if (add && err == ENOSPC)
        return prefix + "the network namespace has 256 rules already";
    if (add && add->rule.cgroup && (err == ENOENT || err == ENOTDIR))
        return prefix + "no cgroup v2 directory " + *add->rule.cgroup +
               " (a path as under /sys/fs/cgroup)";
    if (add && err == EOPNOTSUPP)
        return prefix + "the running kernel does not keep a socket's cgroup";
    if (del && err == ENOENT)
        return prefix + "no rule " + std::to_string(del->id);
    return prefix + e.what();
}

} // namespace

int run_policy(const cmd::Policy& c, bool json, std::ostream& out) {
    PolicyClient cl;
    try {
        if (const auto* a = std::get_if<cmd::PolicyAdd>(&c.op))
            cl.add(a->rule);
        else if (const auto* d = std::get_if<cmd::PolicyDel>(&c.op))
            cl.del(d->id);
        else if (std::holds_alternative<cmd::PolicyFlush>(c.op))
            cl.flush();
        else
            out << (json ? to_json(cl.list()) : to_text(cl.list()));
    } catch (const nl::family_not_found&) {
        throw;
    } catch (const nl::error& e) {
        if (std::holds_alternative<cmd::PolicyList>(c.op))
            throw;
        throw std::runtime_error(policy_failure(c, e));
    }
    return 0;
}

} // namespace smcctl

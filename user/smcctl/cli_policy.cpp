// SPDX-License-Identifier: GPL-2.0
// smcctl policy: the scope rules of tcp2smc and IPPROTO_SMC.
#include <algorithm>
#include <charconv>

#include "cli_parse.hpp"

namespace smcctl::cli {

namespace {

// The words of "policy add" that take a value, and how each is read into the rule.
using WordParser = void (*)(const Context& c, const std::string& v, PolicyRule& r);

struct RuleWord {
    std::string_view name;
    WordParser parse;
};

constexpr RuleWord rule_words_table[] = {
    {"cgroup",
     [](const Context& c, const std::string& v, PolicyRule& r) {
         if (v.empty())
             c.fail("empty cgroup path");
         r.cgroup = v;
     }},
    {"comm", [](const Context& c, const std::string& v,
                PolicyRule& r) { r.comm = c.checked([&] { return check_comm(v); }); }},
    {"uid",
     [](const Context& c, const std::string& v, PolicyRule& r) {
         r.uid = c.checked([&] { return parse_range(v, 0xfffffffeu, "uid"); });
     }},
    {"dst", [](const Context& c, const std::string& v,
               PolicyRule& r) { r.dst = c.checked([&] { return parse_cidr(v); }); }},
    {"port",
     [](const Context& c, const std::string& v, PolicyRule& r) {
         r.port = c.checked([&] { return parse_range(v, 65535, "port"); });
     }},
    {"action",
     [](const Context& c, const std::string& v, PolicyRule& r) {
         const auto a = match_word(v, {"smc", "tcp"});
         if (!a)
             c.fail("unknown action '" + v + "' (smc or tcp)");
         r.action = *a == "tcp" ? PolicyAction::tcp : PolicyAction::smc;
     }},
};

Command parse_add(const Context& c) {
    PolicyRule r;
    std::vector<std::string_view> seen;
    while (!c.args.empty()) {
        const std::string w = c.args.take();
        const auto kw = match_word(
            w, {"client", "server", "any", "cgroup", "comm", "uid", "dst", "port", "action"});
        if (!kw)
            c.fail("unknown word '" + w + "' in a rule");
        const bool role = *kw == "client" || *kw == "server" || *kw == "any";
        const std::string_view key = role ? "role" : *kw;
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            c.fail(std::string(key) + " given twice");
        seen.push_back(key);
        if (role) {
            r.role = *kw == "client"   ? PolicyRole::client
                     : *kw == "server" ? PolicyRole::server
                                       : PolicyRole::any;
            continue;
        }
        if (c.args.empty())
            c.fail(std::string(*kw) + " needs a value");
        const std::string v = c.args.take();
        for (const auto& rw : rule_words_table)
            if (rw.name == *kw)
                rw.parse(c, v, r);
    }
    if (std::find(seen.begin(), seen.end(), "action") == seen.end())
        c.fail("a rule needs 'action smc' or 'action tcp'");
    if (r.role == PolicyRole::server && r.dst)
        c.fail("a server rule has no destination (dst); its port is the listen port");
    return cmd::Policy{cmd::PolicyAdd{std::move(r)}};
}

Command parse_del(const Context& c) {
    if (c.args.empty())
        c.fail("policy del needs a rule id");
    const std::string w = c.args.take();
    std::uint32_t id = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), id);
    if (w.empty() || ec != std::errc() || end != w.data() + w.size() || id == 0)
        c.fail("bad rule id '" + w + "' (1, 2, ... as 'policy list' shows)");
    c.expect_end();
    return cmd::Policy{cmd::PolicyDel{id}};
}

} // namespace

Command parse_policy(const Context& c) {
    if (c.args.empty())
        return cmd::Policy{cmd::PolicyList{}};
    const std::string word = c.args.take();
    const auto verb = match_word(word, {"list", "show", "add", "delete", "flush", "help"});
    if (!verb)
        c.fail("unknown policy command '" + word + "'");
    if (*verb == "help")
        return c.help();
    if (*verb == "add")
        return parse_add(c);
    if (*verb == "delete")
        return parse_del(c);
    if (*verb == "flush") {
        c.expect_end();
        return cmd::Policy{cmd::PolicyFlush{}};
    }
    while (!c.args.empty()) {
        const std::string w = c.args.take();
        if (w != "-j" && w != "--json" && w != "json")
            c.fail("unexpected argument '" + w + "'");
        c.opt.json = true;
    }
    return cmd::Policy{cmd::PolicyList{}};
}

std::string policy_usage(Personality p) {
    const std::string also = "       " + std::string(personality_name(p)) + " policy ";
    return object_prefix(p) + "policy [list [--json]]\n" + also +
           "add [client | server] [cgroup PATH] [comm NAME] [uid N[-M]]\n" +
           std::string(also.size() + 4, ' ') + "[dst CIDR] [port N[-M]] action smc | tcp\n" + also +
           "del ID\n" + also + "flush\n" +
           "Scope rules of tcp2smc and IPPROTO_SMC in this network namespace: the first\n"
           "rule that matches a connect() (client: dst, port) or a listen() (server: the\n"
           "listen port) decides; no rule: SMC.  add appends a rule; list shows each\n"
           "rule's id and how many sockets it decided.  add, del and flush need\n"
           "CAP_NET_ADMIN.\n";
}

} // namespace smcctl::cli

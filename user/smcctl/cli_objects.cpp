// SPDX-License-Identifier: GPL-2.0
// The objects smcctl, smcr and smcd share: ueid, seid, info, stats.
#include "cli_parse.hpp"
#include "names.hpp"

namespace smcctl::cli {

namespace {

// stats' options: -d, -dd, -a, -j, -ad (one or two dashes, abbreviable).
constexpr WordOption stats_options[] = {
    {"details", 'd'}, {"ddetails", 'D'}, {"absolute", 'a'}, {"json", 'j'}, {"ad", 'A'}, {"da", 'A'},
};

void stats_option(const Context& c, const std::string& tok) {
    const auto ids = word_option(tok, stats_options, {});
    if (!ids)
        c.fail("unknown option '" + tok + "'");
    const char id = ids->front();
    if (id == 'a' || id == 'A')
        c.opt.absolute = true;
    if (id == 'j')
        c.opt.json = true;
    if (id == 'd' || id == 'A')
        add_detail(c.opt, 1);
    if (id == 'D')
        add_detail(c.opt, 2);
}

} // namespace

Command parse_ueid(const Context& c) {
    if (c.args.empty())
        return cmd::UeidShow{};
    const std::string word = c.args.take();
    const auto verb = match_word(word, {"show", "add", "delete", "remove", "flush", "help"});
    if (!verb)
        c.fail("unknown ueid command '" + word + "'");
    if (*verb == "help")
        return c.help();
    if (*verb == "show" || *verb == "flush") {
        c.expect_end();
        if (*verb == "show")
            return cmd::UeidShow{};
        return cmd::UeidFlush{};
    }
    if (c.args.empty())
        c.fail("ueid " + std::string(*verb) + " needs an EID");
    const std::string eid = c.checked([&] { return normalize_ueid(c.args.take()); });
    c.expect_end();
    if (*verb == "add")
        return cmd::UeidAdd{eid};
    return cmd::UeidDel{eid};
}

std::string ueid_usage(Personality p) {
    const std::string also = "       " + std::string(personality_name(p)) + " ueid ";
    return object_prefix(p) + "ueid [show]\n" + also + "add EID\n" + also + "delete EID\n" + also +
           "flush\n" +
           "An EID has up to 32 characters A-Z, 0-9, '.', '-' (first A-Z or 0-9);\n"
           "lower case is converted, the kernel stores it blank padded.\n";
}

Command parse_seid(const Context& c) {
    if (c.args.empty())
        return cmd::SeidShow{};
    const std::string word = c.args.take();
    const auto verb = match_word(word, {"show", "enable", "disable", "help"});
    if (!verb)
        c.fail("unknown seid command '" + word + "'");
    if (*verb == "help")
        return c.help();
    c.expect_end();
    if (*verb == "show")
        return cmd::SeidShow{};
    return cmd::SeidSet{*verb == "enable"};
}

std::string seid_usage(Personality p) {
    const std::string also = "       " + std::string(personality_name(p)) + " seid ";
    return object_prefix(p) + "seid [show]\n" + also + "enable\n" + also + "disable\n" +
           "The system EID exists only with ISMv2 devices (s390); disabling it needs a\n"
           "user EID.  enable and disable need CAP_NET_ADMIN.\n";
}

Command parse_info(const Context& c) {
    if (!c.args.empty()) {
        const std::string word = c.args.take();
        const auto verb = match_word(word, {"show", "help"});
        if (!verb)
            c.fail("unknown info command '" + word + "'");
        if (*verb == "help")
            return c.help();
    }
    c.expect_end();
    return cmd::InfoShow{};
}

std::string info_usage(Personality p) {
    return object_prefix(p) + "info [show]\n";
}

Command parse_stats(const Context& c) {
    cmd::StatsShow show;
    bool have_verb = false;
    while (!c.args.empty()) {
        const std::string word = c.args.take();
        if (word.size() > 1 && word[0] == '-') {
            stats_option(c, word);
            continue;
        }
        if (have_verb)
            c.fail("unexpected argument '" + word + "'");
        const auto verb = match_word(word, {"show", "json", "reset", "help"});
        if (!verb)
            c.fail("unknown stats command '" + word + "'");
        have_verb = true;
        if (*verb == "help")
            return c.help();
        if (*verb == "json")
            c.opt.json = true;
        else if (*verb == "reset")
            show.reset = true;
    }
    return show;
}

std::string stats_usage(Personality p) {
    return object_prefix(p) +
           "stats [show | json | reset]\n"
           "  -d, --details    per-reason fallbacks and more counters\n"
           "  -a, --absolute   ignore the baseline stored by 'stats reset'\n"
           "  -j, --json       JSON output (same as 'stats json')\n"
           "'reset' shows the counters, then stores them as the baseline that later\n"
           "'show' subtracts; the kernel's counters are not changed.\n";
}

} // namespace smcctl::cli

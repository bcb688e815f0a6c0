// SPDX-License-Identifier: GPL-2.0
// smcss, and smcctl's "ss" object: which SMC sockets, with which columns.
#include "cli_parse.hpp"

namespace smcctl::cli {

namespace {

constexpr OptSpec ss_opts[] = {
    {"all", 'a', false, {}, "all sockets, listening and initializing ones too"},
    {"listening", 'l', false, {}, "listening sockets only"},
    {"debug", 'd', false, {}, "shutdown state, buffers and cursors (also -e)"},
    {"extended", 'e'},
    {"smcr", 'R', false, {}, "SMC-R sockets only, with their link"},
    {"smcd", 'D', false, {}, "SMC-D sockets only, with their DMB"},
    {"wide", 'W', false, {}, "do not truncate addresses"},
    {"wide", 'w'},
    {"json", 'j', false, {}, "JSON output, every field"},
    {"why", 'y', false, {}, "why each one is or is not SMC (smcctl why)"},
    {"version", 'v', false, {}, "show the version"},
    {"version", 'V'},
    {"help", 'h', false, {}, "this text"},
};
constexpr OptionSet ss_set{ss_opts, 20};

std::string ss_options_usage() {
    return options_usage(ss_set) + "Without options: connected and closing sockets.\n";
}

// Checks the combinations and sets which sockets.
cmd::SsShow settle(const Context& c, cmd::SsShow ss, bool all, bool listening) {
    if (ss.smcr && ss.smcd)
        c.fail("--smcd together with --smcr is not supported");
    if (listening) {
        if (all)
            c.fail("--listening together with --all is not supported");
        if (ss.debug)
            c.fail("--listening together with --debug is not supported");
        if (ss.smcr || ss.smcd)
            c.fail("--listening together with --smcr or --smcd is not supported");
        ss.which = cmd::SsShow::Which::listening;
    } else if (all) {
        ss.which = cmd::SsShow::Which::all;
    }
    return ss;
}

} // namespace

Command parse_ss(const Context& c) {
    if (!c.args.empty() && c.args.peek() == "help") // "smcctl ss help", like the other objects
        return c.help();
    cmd::SsShow ss;
    CommonOptions common;
    bool all = false, listening = false;
    parse_options(c, ss_set, [&](char id, const std::optional<std::string>&) {
        if (common.apply(c, id))
            return;
        switch (id) {
        case 'a':
            all = true;
            break;
        case 'l':
            listening = true;
            break;
        case 'd':
        case 'e':
            ss.debug = true;
            break;
        case 'D':
            ss.smcd = true;
            break;
        case 'R':
            ss.smcr = true;
            break;
        case 'W':
        case 'w':
            ss.wide = true;
            break;
        case 'y':
            ss.why = true;
            break;
        case 'V':
            common.version = true;
            break;
        }
    });
    if (auto answer = common.answer(c))
        return *answer;
    return settle(c, ss, all, listening);
}

std::string ss_usage(Personality p) {
    return "Usage: " + std::string(personality_name(p)) + " [OPTIONS]\n" + ss_options_usage();
}

std::string ss_object_usage(Personality p) {
    return "Usage: " + std::string(personality_name(p)) + " ss [OPTIONS]\n" + ss_options_usage();
}

} // namespace smcctl::cli

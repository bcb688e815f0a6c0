// SPDX-License-Identifier: GPL-2.0
// The command table (personalities, their objects, parsers and usage texts) and the
// dispatcher.  The parsers are in cli_<personality>.cpp, the option parser in
// cli_options.cpp.
#include <algorithm>
#include <array>

#include "cli_parse.hpp"
#include "run.hpp"

namespace smcctl::cli {

namespace {

constexpr unsigned by_all = by_smcctl | by_smcr | by_smcd;

Command help_object(const Context& c) {
    return cmd::Help{usage_text(c.who)};
}

Command version_object(const Context&) {
    return cmd::Version{};
}

std::string personality_usage(Personality p) {
    return usage_text(p);
}

// The objects of smcctl, smcr and smcd, in the order of their usage text.  The order
// matters for abbreviations: "s" is stats.
constexpr ObjectSpec objects[] = {
    {"pnet", by_smcctl, parse_pnet_object, pnet_object_usage},
    {"info", by_all, parse_info, info_usage},
    {"stats", by_all, parse_stats, stats_usage},
    {"ss", by_smcctl, parse_ss, ss_object_usage},
    {"ueid", by_all, parse_ueid, ueid_usage},
    {"seid", by_all, parse_seid, seid_usage},
    {"linkgroup", by_smcctl | by_smcr, parse_lgr, lgr_usage},
    {"linkgroup", by_smcd, parse_smcd_lgr, smcd_lgr_usage},
    {"device", by_smcctl | by_smcr, parse_dev, dev_usage},
    {"device", by_smcd, parse_smcd_dev, smcd_dev_usage},
    {"why", by_smcctl, parse_why, why_usage},
    {"peers", by_smcctl, parse_peers, peers_usage},
    {"doctor", by_smcctl, parse_doctor, doctor_usage},
    {"policy", by_smcctl, parse_policy, policy_usage},
    {"help", by_all, help_object, personality_usage},
    {"version", by_smcctl, version_object, personality_usage, false},
};

// The names the tool answers to, smcctl first; CMake links each other one to smcctl.
constexpr PersonalitySpec personalities[] = {
    {Personality::smcctl, "smcctl", parse_objects, objects_usage},
    {Personality::smc_pnet, "smc_pnet", parse_smc_pnet, smc_pnet_usage},
    {Personality::smcr, "smcr", parse_objects, objects_usage},
    {Personality::smcd, "smcd", parse_objects, objects_usage},
    {Personality::smcss, "smcss", parse_ss, ss_usage},
    {Personality::smc_dbg, "smc_dbg", parse_dbg, dbg_usage},
    {Personality::smc_run, "smc_run", parse_run, run_usage},
    {Personality::smc_chk, "smc_chk", parse_chk, chk_usage},
    {Personality::smc_rnics, "smc_rnics", parse_rnics, rnics_usage},
};

constexpr auto personality_list = [] {
    std::array<Personality, std::size(personalities)> all{};
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = personalities[i].who;
    return all;
}();

unsigned who_bit(Personality p) {
    switch (p) {
    case Personality::smcctl:
        return by_smcctl;
    case Personality::smcr:
        return by_smcr;
    case Personality::smcd:
        return by_smcd;
    default:
        return 0;
    }
}

const PersonalitySpec& spec_of(Personality p) {
    const auto it = std::find_if(std::begin(personalities), std::end(personalities),
                                 [p](const PersonalitySpec& s) { return s.who == p; });
    return it == std::end(personalities) ? personalities[0] : *it;
}

// `words` joined by `sep`, broken before a line would pass 80 columns; continuation lines
// start at `indent` columns.
std::string wrap(std::string line, const std::vector<std::string_view>& words, std::string_view sep,
                 std::string_view last_sep, std::string_view end, std::size_t indent) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string_view s =
            i + 1 == words.size() ? end : (i + 2 == words.size() ? last_sep : sep);
        const std::string piece = std::string(words[i]) + std::string(s);
        const std::string trimmed = piece.substr(0, piece.find_last_not_of(' ') + 1);
        if (line.size() + trimmed.size() > 79 && line.find_first_not_of(' ') != std::string::npos) {
            out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
            line.assign(indent, ' ');
        }
        line += piece;
    }
    return out + line;
}

// Leading options of smcctl, smcr and smcd: -j -d -dd -a -ad -v -h (one or two dashes,
// abbreviable).
constexpr WordOption global_options[] = {
    {"json", 'j'},     {"details", 'd'}, {"ddetails", 'D'},
    {"absolute", 'a'}, {"version", 'v'}, {"help", 'h'},
};

// Returns a Help or Version command when one of those was asked for.
std::optional<Command> parse_global_options(const Context& c) {
    while (!c.args.empty()) {
        const std::string& tok = c.args.peek();
        if (tok.size() < 2 || tok[0] != '-')
            break;
        const std::string word = c.args.take();
        if (word == "--")
            break;
        const auto ids = word_option(word, global_options, "jdav");
        if (!ids)
            c.fail("unknown option '" + word + "'");
        for (const char id : *ids) {
            if (id == 'j')
                c.opt.json = true;
            else if (id == 'a')
                c.opt.absolute = true;
            else if (id == 'd' || id == 'D')
                add_detail(c.opt, id == 'D' ? 2 : 1);
            else if (id == 'v')
                return cmd::Version{};
            else
                return cmd::Help{usage_text(c.who)};
        }
    }
    return std::nullopt;
}

} // namespace

std::span<const ObjectSpec> object_table() {
    return objects;
}

std::span<const PersonalitySpec> personality_table() {
    return personalities;
}

const ObjectSpec* find_object(Personality p, std::string_view name) {
    const ObjectSpec* any = nullptr;
    for (const auto& o : objects) {
        if (o.name != name)
            continue;
        if (o.who & who_bit(p))
            return &o;
        if (!any)
            any = &o;
    }
    return any;
}

Command parse_objects(const Context& c) {
    if (auto help_or_version = parse_global_options(c))
        return *help_or_version;
    if (c.args.empty())
        c.fail("missing object");
    const std::string word = c.args.take();
    for (const auto& o : objects)
        if ((o.who & who_bit(c.who)) && abbreviates(word, o.name))
            return o.parse(c.with(o.name));
    c.fail("unknown object '" + word + "'");
}

std::string objects_usage(Personality p) {
    const std::string prog(personality_name(p));
    std::vector<std::string_view> names;
    for (const auto& o : objects)
        if (o.listed && (o.who & who_bit(p)) &&
            std::find(names.begin(), names.end(), o.name) == names.end())
            names.push_back(o.name);
    std::string out = "Usage: " + prog + " [OPTIONS] OBJECT [COMMAND [ARGS]]\n" +
                      wrap("  OBJECT := { ", names, " | ", " | ", " }", 14) + "\n";
    if (p != Personality::smcctl)
        return out +
               "  OPTIONS := { -j[son] | -d[etails] | -dd | -a[bsolute] | -v[ersion] | -h[elp] }\n"
               "Run '" +
               prog + " OBJECT help' for the commands of an object.\n";
    std::vector<std::string_view> others;
    for (const auto& s : personalities)
        if (s.who != Personality::smcctl)
            others.push_back(s.name);
    return out + "  OPTIONS := { -j[son] | -d[etails] | -a[bsolute] | -v[ersion] | -h[elp] }\n" +
           "Run 'smcctl OBJECT help' for the commands of an object.\n" +
           wrap("Also runs as ", others, ", ", " and ", " (by program name).", 0) + "\n";
}

std::string object_prefix(Personality p) {
    return "Usage: " + std::string(personality_name(p)) + " [OPTIONS] ";
}

// smc_run runs apart from the parser (app.cpp hands it its arguments); here it only answers
// -v and -h.
Command parse_run(const Context& c) {
    if (!c.args.empty()) {
        const std::string& t = c.args.peek();
        if (t == "-v" || t == "--version")
            return cmd::Version{};
        if (t == "-h" || t == "--help")
            return c.help();
    }
    return cmd::Unsupported{std::string(personality_name(c.who))};
}

std::string run_usage(Personality) {
    return smc_run::usage();
}

} // namespace smcctl::cli

namespace smcctl {

using namespace cli;

std::span<const Personality> all_personalities() {
    return personality_list;
}

Personality personality_from_argv0(std::string_view argv0) {
    const auto slash = argv0.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
    for (const auto& s : personalities)
        if (s.name == name)
            return s.who;
    return Personality::smcctl;
}

std::string_view personality_name(Personality p) {
    return spec_of(p).name;
}

Invocation parse_command_line(const std::vector<std::string>& argv) {
    Invocation inv;
    inv.who = personality_from_argv0(argv.empty() ? std::string_view{} : argv.front());
    inv.prog = std::string(personality_name(inv.who));

    // --json is accepted anywhere before "--", by every personality.
    std::vector<std::string> rest;
    bool after_dashdash = false;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        if (!after_dashdash && argv[i] == "--json") {
            inv.opt.json = true;
            continue;
        }
        if (argv[i] == "--")
            after_dashdash = true;
        rest.push_back(argv[i]);
    }
    Args a(std::move(rest));
    const Context c{inv.who, {}, a, inv.opt, inv.warnings};
    inv.command = spec_of(inv.who).parse(c);
    return inv;
}

std::string usage_text(Personality p, std::string_view object) {
    if (who_bit(p) && !object.empty())
        if (const ObjectSpec* o = find_object(p, object))
            return o->usage(p);
    return spec_of(p).usage(p);
}

} // namespace smcctl

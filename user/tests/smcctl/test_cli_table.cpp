// SPDX-License-Identifier: GPL-2.0
// The command table: every personality and object resolves and has a usage text, the usage
// lists what the table holds, and the option parser's errors read as they always did.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_parse.hpp"
#include "cli_util.hpp"

using namespace smcctl;
using namespace smcctl::cli;
using namespace smcctl::test;

namespace {

bool has_objects(Personality p) {
    return p == Personality::smcctl || p == Personality::smcr || p == Personality::smcd;
}

unsigned bit(Personality p) {
    return p == Personality::smcctl ? by_smcctl : p == Personality::smcr ? by_smcr : by_smcd;
}

} // namespace

TEST(CliTable, EveryPersonalityResolvesByName) {
    std::set<std::string_view> names;
    for (const auto& s : personality_table()) {
        EXPECT_TRUE(names.insert(s.name).second) << s.name << " twice";
        EXPECT_EQ(personality_from_argv0("/usr/sbin/" + std::string(s.name)), s.who);
        EXPECT_EQ(personality_name(s.who), s.name);
        EXPECT_EQ(parse({std::string(s.name), "-h"}).prog, s.name);
    }
    EXPECT_EQ(personality_table().front().who, Personality::smcctl);
    EXPECT_EQ(all_personalities().size(), personality_table().size());
}

TEST(CliTable, EveryPersonalityHasHelp) {
    for (const auto& s : personality_table()) {
        const std::string usage = usage_text(s.who);
        EXPECT_EQ(usage.rfind("Usage: " + std::string(s.name) + " ", 0), 0u) << usage;
        EXPECT_EQ(usage.back(), '\n') << s.name;
        // -h shows the same text (smcctl, smcr and smcd take -h before the object)
        EXPECT_EQ(as<cmd::Help>(parse({std::string(s.name), "-h"})).text, usage) << s.name;
    }
}

TEST(CliTable, EveryObjectResolvesAndHasHelp) {
    for (const auto p : all_personalities()) {
        if (!has_objects(p))
            continue;
        const std::string prog(personality_name(p));
        for (const auto& o : object_table()) {
            if (!(o.who & bit(p)) || o.name == "version")
                continue;
            const std::string name(o.name);
            const std::string usage = o.usage(p);
            EXPECT_EQ(usage_text(p, o.name), usage) << prog << " " << name;
            EXPECT_EQ(usage.rfind("Usage: " + prog + " ", 0), 0u) << usage;
            if (name != "help") {
                EXPECT_TRUE(contains(usage, " " + name + " ") || contains(usage, " " + name + "\n"))
                    << prog << " " << name << ": " << usage;
            }
            // "OBJECT help" shows it, whatever object it is
            EXPECT_EQ(as<cmd::Help>(parse({prog, name, "help"})).text, usage)
                << prog << " " << name;
        }
    }
}

TEST(CliTable, UsageListsEveryListedObject) {
    for (const auto p : all_personalities()) {
        if (!has_objects(p))
            continue;
        const std::string usage = usage_text(p);
        for (const auto& o : object_table()) {
            // smcr's and smcd's linkgroup are two entries of one name
            const bool has = (find_object(p, o.name)->who & bit(p)) != 0;
            EXPECT_EQ(contains(usage, " " + std::string(o.name) + " "), has && o.listed)
                << personality_name(p) << " " << o.name;
        }
        for (const std::string line : {"OBJECT := {", "OPTIONS := {"})
            EXPECT_TRUE(contains(usage, line)) << usage;
    }
    // smcctl names the other personalities, from the same table
    for (const auto& s : personality_table())
        EXPECT_TRUE(contains(usage_text(Personality::smcctl), std::string(s.name)));
}

TEST(CliTable, UsageLinesFitEightyColumns) {
    for (const auto p : all_personalities()) {
        std::istringstream usage(usage_text(p));
        for (std::string line; std::getline(usage, line);)
            EXPECT_LE(line.size(), 80u) << personality_name(p) << ": " << line;
    }
}

TEST(CliTable, AbbreviationsFollowTableOrder) {
    for (const char* prog : {"smcctl", "smcr", "smcd"}) {
        as<cmd::StatsShow>(parse({prog, "s"}));
        as<cmd::SeidShow>(parse({prog, "se"}));
        as<cmd::InfoShow>(parse({prog, "i"}));
        as<cmd::UeidShow>(parse({prog, "u"}));
    }
    as<cmd::SsShow>(parse({"smcctl", "ss"}));
    as<cmd::SmcdDevShow>(parse({"smcd", "d"}));
    as<cmd::DevShow>(parse({"smcr", "d"}));
    EXPECT_EQ(usage_error_of({"smcr", "pnet"}), "unknown object 'pnet'");
    EXPECT_EQ(usage_error_of({"smcd", "ss"}), "unknown object 'ss'");
    EXPECT_EQ(usage_error_of({"smcr", "version"}), "unknown object 'version'");
}

TEST(CliTable, UnknownOptionErrorsAsBefore) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"smcctl", "-x"}, "unknown option '-x'"},
        {{"smcctl", "--jsonx"}, "unknown option '--jsonx'"},
        {{"smcr", "linkgroup", "-x"}, "unknown option '-x'"},
        {{"smcr", "linkgroup", "--"}, "unknown option '--'"},
        {{"smcr", "stats", "-dj"}, "unknown option '-dj'"},
        {{"smcss", "--bogus"}, "unknown option '--bogus'"},
        {{"smcss", "-x"}, "unknown option '-x'"},
        {{"smcss", "--"}, "unknown option '--'"},
        {{"smcss", "word"}, "unexpected argument 'word'"},
        {{"smcss", "--wide=1"}, "option '--wide' takes no value"},
        {{"smc_chk", "--c", "x"}, "ambiguous option '--c'"},
        {{"smc_chk", "-C"}, "option '-C' needs a value"},
        {{"smc_dbg", "--output"}, "option '--output' needs a value"},
        {{"smc_rnics", "-x"}, "unknown option '-x'"},
        {{"smc_pnet", "-x"}, "unknown option '-x'"},
        {{"smc_pnet", "--bogus"}, "unknown option '--bogus'"},
        {{"smc_pnet", "--interface"}, "option '--interface' needs a value"},
        {{"smc_pnet", "-a", "X", "-I"}, "option '-I' needs a value"},
    };
    for (const auto& [argv, want] : cases)
        EXPECT_EQ(usage_error_of(argv), want) << argv.front() << " " << argv.back();
}

TEST(CliTable, OperandsOnlyWhereTaken) {
    // smc_pnet: "--" ends the options, "--add=NAME" is the operand
    EXPECT_EQ(as<cmd::PnetShow>(parse({"smc_pnet", "-s", "--", "n1"})).pnetid, "N1");
    EXPECT_EQ(as<cmd::PnetDel>(parse({"smc_pnet", "--delete=n1"})).pnetid, "N1");
    EXPECT_EQ(usage_error_of({"smc_pnet", "--flush=x"}), "-f takes no parameters");
    as<cmd::Help>(parse({"smc_pnet", "--help=x"}));
}

TEST(CliTable, OptionsUsageAlignsAndHidesAliases) {
    constexpr OptSpec opts[] = {
        {"alpha", 'a', false, {}, "first"},
        {"alias", 'A'},
        {"beta", 'b', true, "VALUE", "two\nlines"},
    };
    EXPECT_EQ(options_usage({opts, 20}), "  -a, --alpha       first\n"
                                         "  -b, --beta VALUE  two\n"
                                         "                    lines\n");
    // a column too narrow still leaves a blank
    EXPECT_EQ(options_usage({std::span(opts, 1), 4}), "  -a, --alpha first\n");
}

TEST(CliTable, WordOptions) {
    constexpr WordOption names[] = {{"json", 'j'}, {"details", 'd'}, {"ddetails", 'D'}};
    EXPECT_EQ(word_option("-j", names, "dj"), "j");
    EXPECT_EQ(word_option("--det", names, "dj"), "d");
    EXPECT_EQ(word_option("-dd", names, "dj"), "D");
    EXPECT_EQ(word_option("-ddj", names, "dj"), "ddj");
    EXPECT_EQ(word_option("--dj", names, "dj"), std::nullopt);
    EXPECT_EQ(word_option("-x", names, "dj"), std::nullopt);
    EXPECT_EQ(word_option("--", names, "dj"), std::nullopt);
}

// SPDX-License-Identifier: GPL-2.0
// What the parsers of the personalities (cli_*.cpp) share: the argument cursor, usage
// errors, the option parser, and the table that ties personalities and objects to their
// parsers and usage texts (cli.cpp).  Internal to smcctl; the tests include it to check the
// table.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"

namespace smcctl::cli {

// `word` abbreviates `full` (non-empty prefix), as smc-tools and ip(8) accept.
bool abbreviates(std::string_view word, std::string_view full);

// First candidate that `word` abbreviates.
std::optional<std::string_view> match_word(std::string_view word,
                                           std::initializer_list<std::string_view> candidates);

// Cursor over the arguments after argv[0].
class Args {
public:
    explicit Args(std::vector<std::string> v) : v_(std::move(v)) {}
    bool empty() const { return i_ >= v_.size(); }
    const std::string& peek() const { return v_[i_]; }
    std::string take() { return v_[i_++]; }

private:
    std::vector<std::string> v_;
    std::size_t i_ = 0;
};

// What a parser works on: who runs, which object (for the usage text of an error; empty for
// the personality's own), the arguments, and where the results go.
struct Context {
    Personality who;
    std::string_view object;
    Args& args;
    Options& opt;
    std::vector<std::string>& warnings;

    Context with(std::string_view obj) const { return {who, obj, args, opt, warnings}; }
    std::string usage() const { return usage_text(who, object); }
    cmd::Help help() const { return cmd::Help{usage()}; }
    [[noreturn]] void fail(const std::string& msg) const { throw usage_error(msg, usage()); }
    // Fails if any argument is left.
    void expect_end() const;

    // Runs a normalizer, turning its std::invalid_argument into a usage error.
    template <typename F> auto checked(F&& f) const -> decltype(f()) {
        try {
            return f();
        } catch (const std::invalid_argument& e) {
            fail(e.what());
        }
    }
};

// -d once more (detail level 1, 2, ...).
void add_detail(Options& opt, unsigned n);

// ---- the option parser -------------------------------------------------------------------

// One getopt-style option: -x and --name, with or without a value.
struct OptSpec {
    std::string_view name;      // long name
    char id;                    // short letter
    bool takes_value = false;   // -x VALUE, -xVALUE, --name VALUE, --name=VALUE
    std::string_view metavar{}; // shown after the name in the usage text
    std::string_view help{};    // the usage line; empty for an alias the usage does not list
};

// The options of a personality (or object) and how its usage lists them.
struct OptionSet {
    std::span<const OptSpec> opts;
    std::size_t help_column; // where the descriptions start in the usage text
};

// Called with each option's id and value (an attached "=VALUE" for options without a value
// only when operands are collected).
using ApplyOption = std::function<void(char id, std::optional<std::string> value)>;

// Parses getopt-style options to the end of the arguments: short clusters ("-ab",
// "-oFILE"), "--name", "--name=value" and unique abbreviations of the long names.
// `operands` null: an argument that is no option is an error.  Otherwise it collects them,
// "--" ends the options, and "--flag=VALUE" hands VALUE on (smc_pnet's "--add=PNETID").
void parse_options(const Context& c, const OptionSet& set, const ApplyOption& apply,
                   std::vector<std::string>* operands = nullptr);

// -h, -v and -j, which every option-driven personality takes.
struct CommonOptions {
    bool help = false;
    bool version = false;

    // True if `id` was one of them.
    bool apply(const Context& c, char id);
    // Help or Version if asked for: they win over all other options.
    std::optional<Command> answer(const Context& c) const;
};

// The usage lines of `set`: "  -x, --name METAVAR   help", one per listed option.
std::string options_usage(const OptionSet& set);

// One ip(8)-style option (smcctl, smcr, smcd and their objects): "-WORD" or "--WORD".
struct WordOption {
    std::string_view name; // WORD may abbreviate it; the first match in table order wins
    char id;
};

// The ids `tok` stands for: one for a (possibly abbreviated) name, one per letter for a
// single-dash cluster of `cluster` letters ("-dj").  Nullopt if it is neither.
std::optional<std::string> word_option(std::string_view tok, std::span<const WordOption> names,
                                       std::string_view cluster);

// ---- the table -----------------------------------------------------------------------------

using Parser = Command (*)(const Context&);
using Usage = std::string (*)(Personality);

// Which personalities have an object.
enum Who : unsigned {
    by_smcctl = 1u << 0,
    by_smcr = 1u << 1,
    by_smcd = 1u << 2,
};

// An object of smcctl, smcr and smcd ("smcr linkgroup show ...").
struct ObjectSpec {
    std::string_view name; // abbreviable; the first in table order wins
    unsigned who;          // Who bits
    Parser parse;          // parses the words after the object's name
    Usage usage;           // its usage text
    bool listed = true;    // named in the personality's OBJECT list
};

// A name the tool answers to (argv[0]).
struct PersonalitySpec {
    Personality who;
    std::string_view name;
    Parser parse; // parses all arguments after argv[0]
    Usage usage;  // its usage text
};

std::span<const ObjectSpec> object_table();
std::span<const PersonalitySpec> personality_table();

// The object `name` (not abbreviated) of `p`, or of any personality; null if none.
const ObjectSpec* find_object(Personality p, std::string_view name);

// ---- the parsers and usage texts the table points to (one cli_*.cpp each) ----------------

Command parse_objects(const Context& c); // smcctl, smcr, smcd: [OPTIONS] OBJECT ...
std::string objects_usage(Personality p);

Command parse_ss(const Context& c); // cli_ss.cpp: smcss, smcctl ss
std::string ss_usage(Personality p);
std::string ss_object_usage(Personality p);

Command parse_smc_pnet(const Context& c); // cli_pnet.cpp: smc_pnet, smcctl pnet
std::string smc_pnet_usage(Personality p);
Command parse_pnet_object(const Context& c);
std::string pnet_object_usage(Personality p);

Command parse_lgr(const Context& c); // cli_lgr.cpp: smcr/smcd linkgroup and device
std::string lgr_usage(Personality p);
Command parse_dev(const Context& c);
std::string dev_usage(Personality p);
Command parse_smcd_lgr(const Context& c);
std::string smcd_lgr_usage(Personality p);
Command parse_smcd_dev(const Context& c);
std::string smcd_dev_usage(Personality p);

Command parse_ueid(const Context& c); // cli_objects.cpp: ueid, seid, info, stats
std::string ueid_usage(Personality p);
Command parse_seid(const Context& c);
std::string seid_usage(Personality p);
Command parse_info(const Context& c);
std::string info_usage(Personality p);
Command parse_stats(const Context& c);
std::string stats_usage(Personality p);

Command parse_why(const Context& c); // cli_why.cpp: smcctl why, smcctl peers
std::string why_usage(Personality p);
Command parse_peers(const Context& c);
std::string peers_usage(Personality p);
Command parse_policy(const Context& c); // cli_policy.cpp: smcctl policy
std::string policy_usage(Personality p);

Command parse_chk(const Context& c); // cli_chk.cpp: smc_chk
std::string chk_usage(Personality p);

Command parse_rnics(const Context& c); // cli_rnics.cpp: smc_rnics
std::string rnics_usage(Personality p);

Command parse_doctor(const Context& c); // cli_doctor.cpp: smcctl doctor
std::string doctor_usage(Personality p);

Command parse_dbg(const Context& c); // cli_dbg.cpp: smc_dbg
std::string dbg_usage(Personality p);

Command parse_run(const Context& c); // cli.cpp: smc_run (the program runs apart from this)
std::string run_usage(Personality p);

// "Usage: PROG [OPTIONS] " that the object usages start with.
std::string object_prefix(Personality p);

} // namespace smcctl::cli

// SPDX-License-Identifier: GPL-2.0
// The option parser every personality uses, and the helpers the parsers share.
#include <algorithm>

#include "cli_parse.hpp"

namespace smcctl::cli {

bool abbreviates(std::string_view word, std::string_view full) {
    return !word.empty() && word.size() <= full.size() && full.substr(0, word.size()) == word;
}

std::optional<std::string_view> match_word(std::string_view word,
                                           std::initializer_list<std::string_view> candidates) {
    for (auto c : candidates)
        if (abbreviates(word, c))
            return c;
    return std::nullopt;
}

void Context::expect_end() const {
    if (!args.empty())
        fail("unexpected argument '" + args.peek() + "'");
}

void add_detail(Options& opt, unsigned n) {
    opt.detail_level += n;
    opt.details = true;
}

namespace {

// The option "--name" (abbreviated or not) stands for.
const OptSpec& find_long(const Context& c, std::span<const OptSpec> opts, const std::string& tok,
                         std::string_view name) {
    const OptSpec* hit = nullptr;
    for (const auto& o : opts) {
        if (o.name == name)
            return o;
        if (abbreviates(name, o.name)) {
            if (hit && hit->name != o.name)
                c.fail("ambiguous option '" + tok + "'");
            hit = &o;
        }
    }
    if (!hit)
        c.fail("unknown option '" + tok + "'");
    return *hit;
}

void parse_long(const Context& c, std::span<const OptSpec> opts, const std::string& tok,
                const ApplyOption& apply, bool operands) {
    std::string name = tok.substr(2);
    std::optional<std::string> value;
    if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
    }
    const OptSpec& o = find_long(c, opts, tok, name);
    if (o.takes_value && !value) {
        if (c.args.empty())
            c.fail("option '--" + std::string(o.name) + "' needs a value");
        value = c.args.take();
    }
    if (!o.takes_value && value && !operands)
        c.fail("option '--" + std::string(o.name) + "' takes no value");
    apply(o.id, std::move(value));
}

// A cluster of short options; a value-taking one consumes the rest of the token or the next
// argument.
void parse_short(const Context& c, std::span<const OptSpec> opts, const std::string& tok,
                 const ApplyOption& apply) {
    for (std::size_t k = 1; k < tok.size(); ++k) {
        const char id = tok[k];
        const auto o =
            std::find_if(opts.begin(), opts.end(), [id](const OptSpec& x) { return x.id == id; });
        if (o == opts.end())
            c.fail(std::string("unknown option '-") + id + "'");
        if (!o->takes_value) {
            apply(id, std::nullopt);
            continue;
        }
        if (k + 1 < tok.size())
            return apply(id, tok.substr(k + 1));
        if (c.args.empty())
            c.fail(std::string("option '-") + id + "' needs a value");
        return apply(id, c.args.take());
    }
}

} // namespace

void parse_options(const Context& c, const OptionSet& set, const ApplyOption& apply,
                   std::vector<std::string>* operands) {
    bool only_operands = false;
    while (!c.args.empty()) {
        std::string tok = c.args.take();
        const bool option = !only_operands && tok.size() >= 2 && tok[0] == '-';
        if (!option) {
            if (!operands)
                c.fail("unexpected argument '" + tok + "'");
            operands->push_back(std::move(tok));
        } else if (tok == "--" && operands) {
            only_operands = true;
        } else if (tok[1] == '-') {
            parse_long(c, set.opts, tok, apply, operands != nullptr);
        } else {
            parse_short(c, set.opts, tok, apply);
        }
    }
}

bool CommonOptions::apply(const Context& c, char id) {
    if (id == 'h')
        help = true;
    else if (id == 'v')
        version = true;
    else if (id == 'j')
        c.opt.json = true;
    else
        return false;
    return true;
}

std::optional<Command> CommonOptions::answer(const Context& c) const {
    if (help)
        return c.help();
    if (version)
        return cmd::Version{};
    return std::nullopt;
}

std::string options_usage(const OptionSet& set) {
    std::string out;
    for (const auto& o : set.opts) {
        if (o.help.empty())
            continue;
        std::string left = "  -" + std::string(1, o.id) + ", --" + std::string(o.name);
        if (!o.metavar.empty())
            left += " " + std::string(o.metavar);
        left.resize(std::max(set.help_column, left.size() + 1), ' ');
        // A description of several lines continues at the same column.
        std::string_view help = o.help;
        for (auto nl = help.find('\n'); nl != std::string_view::npos; nl = help.find('\n')) {
            out += left + std::string(help.substr(0, nl + 1));
            left.assign(set.help_column, ' ');
            help.remove_prefix(nl + 1);
        }
        out += left + std::string(help) + "\n";
    }
    return out;
}

std::optional<std::string> word_option(std::string_view tok, std::span<const WordOption> names,
                                       std::string_view cluster) {
    if (tok.size() < 2 || tok[0] != '-')
        return std::nullopt;
    const bool dashdash = tok[1] == '-';
    const std::string_view w = tok.substr(dashdash ? 2 : 1);
    for (const auto& n : names)
        if (abbreviates(w, n.name))
            return std::string(1, n.id);
    if (!dashdash && !w.empty() && w.find_first_not_of(cluster) == std::string_view::npos)
        return std::string(w);
    return std::nullopt;
}

} // namespace smcctl::cli

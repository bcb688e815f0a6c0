// SPDX-License-Identifier: GPL-2.0
// smcr's and smcd's "linkgroup" and "device" objects (smcctl has smcr's).
#include "cli_parse.hpp"
#include "names.hpp"

namespace smcctl::cli {

namespace {

// -d, -dd, -j, --json, --details between the words.
constexpr WordOption object_options[] = {{"json", 'j'}, {"details", 'd'}, {"ddetails", 'D'}};

// True if `tok` was an option.
bool object_option(const Context& c, const std::string& tok) {
    if (tok.size() < 2 || tok[0] != '-')
        return false;
    const auto ids = word_option(tok, object_options, "dj");
    if (!ids)
        c.fail("unknown option '" + tok + "'");
    for (const char id : *ids) {
        if (id == 'j')
            c.opt.json = true;
        else
            add_detail(c.opt, id == 'D' ? 2 : 1);
    }
    return true;
}

// The device filters shared by linkgroup and device: "ibdev DEV", "netdev DEV".  True if
// `word` was one of them (its value is consumed).
bool device_filter(const Context& c, const std::string& word, std::optional<std::string>& ibdev,
                   std::optional<std::string>& netdev) {
    const auto k = match_word(word, {"ibdev", "netdev"});
    if (!k || word.size() < 2)
        return false;
    while (!c.args.empty() && object_option(c, c.args.peek()))
        c.args.take();
    if (c.args.empty())
        c.fail("'" + std::string(*k) + "' needs a device name");
    std::string value = c.args.take();
    if (*k == "ibdev") {
        c.checked([&] { check_ibname(value); });
        ibdev = std::move(value);
    } else {
        c.checked([&] { check_ifname(value); });
        netdev = std::move(value);
    }
    return true;
}

std::uint32_t parse_lgid(const Context& c, const std::string& s) {
    std::string_view v = s;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
        v.remove_prefix(2);
    if (v.empty() || v.size() > 8 || v.find_first_not_of("0123456789abcdefABCDEF") != v.npos)
        c.fail("invalid link group id '" + s + "' (up to 8 hex digits)");
    // A link id (link group id plus the link's number in the low byte) names its group.
    return static_cast<std::uint32_t>(std::stoul(std::string(v), nullptr, 16)) & 0xffffff00u;
}

// The words of a show-style object: options and "help" anywhere, one verb of `verbs` as the
// first word; every other word goes to `other`, which fails on what it does not take.
// Returns the verb given ("" if none), or nullopt when help was asked for.
template <typename F>
std::optional<std::string_view>
object_words(const Context& c, std::initializer_list<std::string_view> verbs, F&& other) {
    std::string_view verb;
    bool first = true;
    while (!c.args.empty()) {
        const std::string word = c.args.take();
        if (object_option(c, word))
            continue;
        if (word == "help")
            return std::nullopt;
        if (first) {
            first = false;
            if (auto v = match_word(word, verbs)) {
                if (*v == "help")
                    return std::nullopt;
                verb = *v;
                continue;
            }
        }
        other(word);
    }
    return verb;
}

// The command a show-style object's words asked for: `show`, or help (no verb).
template <typename T>
Command shown(const Context& c, std::optional<std::string_view> verb, T show) {
    if (!verb)
        return c.help();
    return show;
}

} // namespace

Command parse_lgr(const Context& c) {
    cmd::LgrShow show;
    bool have_sel = false;
    const auto verb = object_words(c, {"show", "link-show", "help"}, [&](const std::string& word) {
        if (device_filter(c, word, show.ibdev, show.netdev))
            return;
        if (have_sel || show.ibdev || show.netdev)
            c.fail("unexpected argument '" + word + "'");
        have_sel = true;
        if (word != "all")
            show.lgid = parse_lgid(c, word);
    });
    show.links = verb == "link-show";
    return shown(c, verb, show);
}

std::string lgr_usage(Personality p) {
    return object_prefix(p) +
           "linkgroup [show | link-show] [all | LG-ID] [ibdev DEV] [netdev DEV]\n"
           "  show       one line per SMC-R link group (default)\n"
           "  link-show  one line per link\n"
           "  LG-ID      a link group id (hex, as shown); a link id selects its group\n"
           "  -d         link-show: link UIDs, RDMA device and port; show: SMCv2 details\n"
           "  -dd        link-show: also the GIDs\n"
           "  -j, --json JSON output, link groups with their links\n";
}

Command parse_dev(const Context& c) {
    cmd::DevShow show;
    bool have_all = false;
    const auto verb = object_words(c, {"show", "help"}, [&](const std::string& word) {
        if (device_filter(c, word, show.ibdev, show.netdev))
            return;
        if (have_all || word != "all" || show.ibdev || show.netdev)
            c.fail("unexpected argument '" + word + "'");
        have_all = true;
    });
    return shown(c, verb, show);
}

std::string dev_usage(Personality p) {
    return object_prefix(p) + "device [show] [all] [ibdev DEV] [netdev DEV]\n"
                              "  one line per usable RDMA device port\n"
                              "  -d         also PCI function id, PCI id and PCHID\n"
                              "  -j, --json JSON output\n";
}

Command parse_smcd_lgr(const Context& c) {
    cmd::SmcdLgrShow show;
    bool have_sel = false;
    const auto verb = object_words(c, {"show", "help"}, [&](const std::string& word) {
        if (have_sel)
            c.fail("unexpected argument '" + word + "'");
        have_sel = true;
        if (word != "all")
            show.lgid = parse_lgid(c, word);
    });
    return shown(c, verb, show);
}

std::string smcd_lgr_usage(Personality p) {
    return object_prefix(p) + "linkgroup [show] [all | LG-ID]\n"
                              "  one line per SMC-D link group (none without an SMC-D device)\n"
                              "  LG-ID      a link group id (hex, as shown)\n"
                              "  -d         also the GIDs, the channel id and the SMCv2 details\n"
                              "  -j, --json JSON output\n";
}

Command parse_smcd_dev(const Context& c) {
    bool have_all = false;
    const auto verb = object_words(c, {"show", "help"}, [&](const std::string& word) {
        if (have_all || word != "all")
            c.fail("unexpected argument '" + word + "'");
        have_all = true;
    });
    return shown(c, verb, cmd::SmcdDevShow{});
}

std::string smcd_dev_usage(Personality p) {
    return object_prefix(p) + "device [show] [all]\n"
                              "  one line per SMC-D (ISM) device\n"
                              "  -j, --json JSON output\n";
}

} // namespace smcctl::cli

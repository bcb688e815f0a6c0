// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <initializer_list>
#include <span>

#include <arpa/inet.h>

#include "names.hpp"
#include "run.hpp"

namespace smcctl {

namespace {

// ---- small helpers ---------------------------------------------------------------------

std::string base_name(std::string_view path) {
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// `word` abbreviates `full` (non-empty prefix), as smc-tools and ip(8) accept.
bool abbreviates(std::string_view word, std::string_view full) {
    return !word.empty() && word.size() <= full.size() && full.substr(0, word.size()) == word;
}

// First candidate that `word` abbreviates.
std::optional<std::string_view> match_word(std::string_view word,
                                           std::initializer_list<std::string_view> candidates) {
    for (auto c : candidates)
        if (abbreviates(word, c))
            return c;
    return std::nullopt;
}

// Cursor over the arguments after argv[0].
class Args {
public:
    explicit Args(std::vector<std::string> v) : v_(std::move(v)) {}
    bool empty() const { return i_ >= v_.size(); }
    std::size_t left() const { return v_.size() - i_; }
    const std::string& peek() const { return v_[i_]; }
    std::string take() { return v_[i_++]; }
    std::vector<std::string> rest() {
        std::vector<std::string> r(v_.begin() + static_cast<std::ptrdiff_t>(i_), v_.end());
        i_ = v_.size();
        return r;
    }

private:
    std::vector<std::string> v_;
    std::size_t i_ = 0;
};

[[noreturn]] void fail(Personality p, std::string_view object, const std::string& msg) {
    throw usage_error(msg, usage_text(p, object));
}

// Runs a normalizer, turning its std::invalid_argument into a usage error.
template <typename F> auto checked(Personality p, std::string_view object, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        fail(p, object, e.what());
    }
}

std::uint8_t parse_port(Personality p, std::string_view object, const std::string& s) {
    if (s == "1")
        return 1;
    if (s == "2")
        return 2;
    fail(p, object, "invalid IB port '" + s + "' (must be 1 or 2)");
}

void expect_end(Personality p, std::string_view object, Args& a) {
    if (!a.empty())
        fail(p, object, "unexpected argument '" + a.peek() + "'");
}

void add_detail(Options& opt, unsigned n) {
    opt.detail_level += n;
    opt.details = true;
}

// ---- getopt-like option lists (smcss, smc_dbg) ------------------------------------------

struct flag_opt {
    std::string_view name; // long name
    char id;               // short letter
    bool takes_value = false;
};

// Parses options (short clusters, --long, --long=value, abbreviations) until the end of the
// arguments; `apply` gets each option's id and value.  Arguments that are no option are an
// error: these programs take none.
template <typename Apply>
void parse_flags(Personality p, std::string_view object, Args& a, std::span<const flag_opt> opts,
                 Apply&& apply) {
    while (!a.empty()) {
        const std::string tok = a.take();
        if (tok.size() < 2 || tok[0] != '-')
            fail(p, object, "unexpected argument '" + tok + "'");
        if (tok.rfind("--", 0) == 0) {
            std::string name = tok.substr(2);
            std::optional<std::string> value;
            if (auto eq = name.find('='); eq != std::string::npos) {
                value = name.substr(eq + 1);
                name.resize(eq);
            }
            const flag_opt* hit = nullptr;
            for (const auto& o : opts) {
                if (o.name == name) {
                    hit = &o;
                    break;
                }
                if (abbreviates(name, o.name)) {
                    if (hit && hit->name != o.name)
                        fail(p, object, "ambiguous option '" + tok + "'");
                    hit = &o;
                }
            }
            if (!hit)
                fail(p, object, "unknown option '" + tok + "'");
            if (hit->takes_value && !value) {
                if (a.empty())
                    fail(p, object, "option '--" + std::string(hit->name) + "' needs a value");
                value = a.take();
            }
            if (!hit->takes_value && value)
                fail(p, object, "option '--" + std::string(hit->name) + "' takes no value");
            apply(hit->id, std::move(value));
            continue;
        }
        for (std::size_t k = 1; k < tok.size(); ++k) {
            const char c = tok[k];
            const auto o = std::find_if(opts.begin(), opts.end(),
                                        [c](const flag_opt& x) { return x.id == c; });
            if (o == opts.end())
                fail(p, object, std::string("unknown option '-") + c + "'");
            if (!o->takes_value) {
                apply(c, std::nullopt);
                continue;
            }
            std::string value;
            if (k + 1 < tok.size()) {
                value = tok.substr(k + 1);
            } else {
                if (a.empty())
                    fail(p, object, std::string("option '-") + c + "' needs a value");
                value = a.take();
            }
            apply(c, std::move(value));
            break;
        }
    }
}

// ---- smcss ------------------------------------------------------------------------------

constexpr flag_opt ss_opts[] = {
    {"all", 'a'},     {"listening", 'l'}, {"debug", 'd'}, {"extended", 'e'},
    {"smcd", 'D'},    {"smcr", 'R'},      {"wide", 'W'},  {"wide", 'w'},
    {"version", 'v'}, {"version", 'V'},   {"help", 'h'},  {"json", 'j'},
};

Command parse_ss(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "ss";
    cmd::SsShow ss;
    if (!a.empty() && a.peek() == "help") // "smcctl ss help", like the other objects
        return cmd::Help{usage_text(p, obj)};
    bool all = false, listening = false, help = false, version = false;
    parse_flags(p, obj, a, ss_opts, [&](char id, const std::optional<std::string>&) {
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
        case 'v':
        case 'V':
            version = true;
            break;
        case 'h':
            help = true;
            break;
        case 'j':
            opt.json = true;
            break;
        }
    });
    if (help)
        return cmd::Help{usage_text(p, obj)};
    if (version)
        return cmd::Version{};
    if (ss.smcr && ss.smcd)
        fail(p, obj, "--smcd together with --smcr is not supported");
    if (listening) {
        if (all)
            fail(p, obj, "--listening together with --all is not supported");
        if (ss.debug)
            fail(p, obj, "--listening together with --debug is not supported");
        if (ss.smcr || ss.smcd)
            fail(p, obj, "--listening together with --smcr or --smcd is not supported");
        ss.which = cmd::SsShow::Which::listening;
    } else if (all) {
        ss.which = cmd::SsShow::Which::all;
    }
    return ss;
}

// ---- smc_dbg ----------------------------------------------------------------------------

constexpr flag_opt dbg_opts[] = {
    {"output", 'o', true},
    {"tgz", 't'},
    {"version", 'v'},
    {"help", 'h'},
};

Command parse_dbg(Personality p, Args& a) {
    constexpr std::string_view obj = "dbg";
    cmd::DbgCollect dbg;
    bool help = false, version = false;
    parse_flags(p, obj, a, dbg_opts, [&](char id, std::optional<std::string> value) {
        if (id == 'o')
            dbg.output = std::move(value);
        else if (id == 'h')
            help = true;
        else if (id == 'v')
            version = true;
        // -t: smc-tools' "make a .tgz"; the bundle always is one.
    });
    if (help)
        return cmd::Help{usage_text(p, obj)};
    if (version)
        return cmd::Version{};
    if (dbg.output && dbg.output->empty())
        fail(p, obj, "empty output path");
    return dbg;
}

// ---- linkgroup / device -----------------------------------------------------------------

// -d, -dd, -j, --json, --details between the words of linkgroup/device; true if `tok` was one.
bool object_option(Personality p, std::string_view obj, const std::string& tok, Options& opt) {
    if (tok.size() < 2 || tok[0] != '-')
        return false;
    const std::string_view w = std::string_view(tok).substr(tok[1] == '-' ? 2 : 1);
    if (tok[1] != '-' && !w.empty() && w.find_first_not_of("dj") == std::string_view::npos) {
        for (char c : w) {
            if (c == 'j')
                opt.json = true;
            else
                add_detail(opt, 1);
        }
        return true;
    }
    if (auto o = match_word(w, {"json", "details", "ddetails"})) {
        if (*o == "json")
            opt.json = true;
        else
            add_detail(opt, *o == "ddetails" ? 2 : 1);
        return true;
    }
    fail(p, obj, "unknown option '" + tok + "'");
}

// The device filters shared by linkgroup and device: "ibdev DEV", "netdev DEV".  True if
// `word` was one of them (its value is consumed).
bool device_filter(Personality p, std::string_view obj, const std::string& word, Args& a,
                   Options& opt, std::optional<std::string>& ibdev,
                   std::optional<std::string>& netdev) {
    const auto k = match_word(word, {"ibdev", "netdev"});
    if (!k || word.size() < 2)
        return false;
    while (!a.empty() && object_option(p, obj, a.peek(), opt))
        a.take();
    if (a.empty())
        fail(p, obj, "'" + std::string(*k) + "' needs a device name");
    std::string value = a.take();
    if (*k == "ibdev") {
        checked(p, obj, [&] { check_ibname(value); });
        ibdev = std::move(value);
    } else {
        checked(p, obj, [&] { check_ifname(value); });
        netdev = std::move(value);
    }
    return true;
}

std::uint32_t parse_lgid(Personality p, std::string_view obj, const std::string& s) {
    std::string_view v = s;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
        v.remove_prefix(2);
    if (v.empty() || v.size() > 8 || v.find_first_not_of("0123456789abcdefABCDEF") != v.npos)
        fail(p, obj, "invalid link group id '" + s + "' (up to 8 hex digits)");
    // A link id (link group id plus the link's number in the low byte) names its group.
    return static_cast<std::uint32_t>(std::stoul(std::string(v), nullptr, 16)) & 0xffffff00u;
}

// The words of a show-style object (linkgroup, device): options and "help" anywhere, one verb
// of `verbs` as the first word; every other word goes to `other`, which fails on what it does
// not take.  Returns the verb given ("" if none), or nullopt when help was asked for.
template <typename F>
std::optional<std::string_view>
object_words(Personality p, std::string_view obj, Args& a, Options& opt,
             std::initializer_list<std::string_view> verbs, F&& other) {
    std::string_view verb;
    bool first = true;
    while (!a.empty()) {
        const std::string word = a.take();
        if (object_option(p, obj, word, opt))
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

Command parse_linkgroup(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "linkgroup";
    cmd::LgrShow show;
    bool have_sel = false;
    const auto verb =
        object_words(p, obj, a, opt, {"show", "link-show", "help"}, [&](const std::string& word) {
            if (device_filter(p, obj, word, a, opt, show.ibdev, show.netdev))
                return;
            if (have_sel || show.ibdev || show.netdev)
                fail(p, obj, "unexpected argument '" + word + "'");
            have_sel = true;
            if (word != "all")
                show.lgid = parse_lgid(p, obj, word);
        });
    if (!verb)
        return cmd::Help{usage_text(p, obj)};
    show.links = *verb == "link-show";
    return show;
}

Command parse_device(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "device";
    cmd::DevShow show;
    bool have_all = false;
    const auto verb = object_words(p, obj, a, opt, {"show", "help"}, [&](const std::string& word) {
        if (device_filter(p, obj, word, a, opt, show.ibdev, show.netdev))
            return;
        if (have_all || word != "all" || show.ibdev || show.netdev)
            fail(p, obj, "unexpected argument '" + word + "'");
        have_all = true;
    });
    if (!verb)
        return cmd::Help{usage_text(p, obj)};
    return show;
}

// ---- smcd linkgroup / device -------------------------------------------------------------

Command parse_smcd_linkgroup(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "linkgroup";
    cmd::SmcdLgrShow show;
    bool have_sel = false;
    const auto verb = object_words(p, obj, a, opt, {"show", "help"}, [&](const std::string& word) {
        if (have_sel)
            fail(p, obj, "unexpected argument '" + word + "'");
        have_sel = true;
        if (word != "all")
            show.lgid = parse_lgid(p, obj, word);
    });
    if (!verb)
        return cmd::Help{usage_text(p, obj)};
    return show;
}

Command parse_smcd_device(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "device";
    bool have_all = false;
    const auto verb = object_words(p, obj, a, opt, {"show", "help"}, [&](const std::string& word) {
        if (have_all || word != "all")
            fail(p, obj, "unexpected argument '" + word + "'");
        have_all = true;
    });
    if (!verb)
        return cmd::Help{usage_text(p, obj)};
    return cmd::SmcdDevShow{};
}

// ---- seid ---------------------------------------------------------------------------------

Command parse_seid(Personality p, Args& a) {
    constexpr std::string_view obj = "seid";
    if (a.empty())
        return cmd::SeidShow{};
    const std::string word = a.take();
    const auto verb = match_word(word, {"show", "enable", "disable", "help"});
    if (!verb)
        fail(p, obj, "unknown seid command '" + word + "'");
    if (*verb == "help")
        return cmd::Help{usage_text(p, obj)};
    expect_end(p, obj, a);
    if (*verb == "show")
        return cmd::SeidShow{};
    return cmd::SeidSet{*verb == "enable"};
}

// ---- smc_chk ------------------------------------------------------------------------------

constexpr flag_opt chk_opts[] = {
    {"connect", 'C', true}, {"server", 'S'},  {"port", 'p', true},    {"pnetid", 'i', true},
    {"ipv6", '6'},          {"debug", 'd'},   {"timeout", 't', true}, {"count", 'n', true},
    {"json", 'j'},          {"version", 'v'}, {"help", 'h'},
};

// A decimal number in [lo, hi], else a usage error naming `what`.
unsigned parse_number(Personality p, std::string_view obj, const std::string& s,
                      std::string_view what, unsigned lo, unsigned hi) {
    unsigned v = 0;
    const char* end = s.data() + s.size();
    const auto r = std::from_chars(s.data(), end, v);
    if (s.empty() || r.ec != std::errc() || r.ptr != end || v < lo || v > hi)
        fail(p, obj,
             "invalid " + std::string(what) + " '" + s + "' (" + std::to_string(lo) + " to " +
                 std::to_string(hi) + ")");
    return v;
}

Command parse_chk(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "chk";
    std::optional<std::string> connect, port, pnetid_if, timeout, count;
    bool server = false, ipv6 = false, help = false, version = false;
    parse_flags(p, obj, a, chk_opts, [&](char id, std::optional<std::string> value) {
        switch (id) {
        case 'C':
            connect = std::move(value);
            break;
        case 'S':
            server = true;
            break;
        case 'p':
            port = std::move(value);
            break;
        case 'i':
            pnetid_if = std::move(value);
            break;
        case '6':
            ipv6 = true;
            break;
        case 'd':
            add_detail(opt, 1);
            break;
        case 't':
            timeout = std::move(value);
            break;
        case 'n':
            count = std::move(value);
            break;
        case 'j':
            opt.json = true;
            break;
        case 'v':
            version = true;
            break;
        case 'h':
            help = true;
            break;
        }
    });
    if (help)
        return cmd::Help{usage_text(p, obj)};
    if (version)
        return cmd::Version{};
    const int modes = (connect ? 1 : 0) + (server ? 1 : 0) + (pnetid_if ? 1 : 0);
    if (modes == 0)
        fail(p, obj, "one of -C ADDRESS, -S or -i INTERFACE is needed");
    if (modes > 1)
        fail(p, obj, "only one of -C, -S and -i may be given");
    if (timeout && !connect)
        fail(p, obj, "-t applies to -C only");
    if (count && !server)
        fail(p, obj, "-n applies to -S only");
    if (pnetid_if) {
        if (port || ipv6)
            fail(p, obj, "-i takes neither -p nor -6");
        checked(p, obj, [&] { check_ifname(*pnetid_if); });
        return cmd::ChkPnetid{*pnetid_if};
    }
    const std::uint16_t port_no =
        port ? static_cast<std::uint16_t>(parse_number(p, obj, *port, "port", 1, 65535))
             : chk_default_port;
    if (server) {
        cmd::ChkServe s;
        s.port = port_no;
        s.ipv6 = ipv6;
        if (count)
            s.count = parse_number(p, obj, *count, "connection count", 1, 1000000);
        return s;
    }
    cmd::ChkConnect c;
    c.address = *connect;
    c.port = port_no;
    if (c.address.empty())
        fail(p, obj, "empty address");
    // An address literal settles the family; a name is resolved in the family -6 selects.
    std::array<unsigned char, 16> buf{};
    const bool is_v4 = inet_pton(AF_INET, c.address.c_str(), buf.data()) == 1;
    const bool is_v6 = inet_pton(AF_INET6, c.address.c_str(), buf.data()) == 1;
    if (ipv6 && is_v4)
        fail(p, obj, "-6 given, but " + c.address + " is an IPv4 address");
    c.ipv6 = ipv6 || is_v6;
    if (timeout)
        c.timeout = parse_number(p, obj, *timeout, "timeout", 1, 3600);
    return c;
}

// ---- smc_rnics ----------------------------------------------------------------------------

constexpr flag_opt rnics_opts[] = {
    {"all", 'a'},  {"rawids", 'r'},  {"enable", 'e', true}, {"disable", 'd', true},
    {"json", 'j'}, {"version", 'v'}, {"help", 'h'},
};

Command parse_rnics(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "rnics";
    cmd::RnicsShow show;
    bool help = false, version = false, switching = false;
    parse_flags(p, obj, a, rnics_opts, [&](char id, const std::optional<std::string>&) {
        switch (id) {
        case 'a':
            show.all = true;
            break;
        case 'r':
            show.rawids = true;
            break;
        case 'e':
        case 'd':
            switching = true;
            break;
        case 'j':
            opt.json = true;
            break;
        case 'v':
            version = true;
            break;
        case 'h':
            help = true;
            break;
        }
    });
    if (help)
        return cmd::Help{usage_text(p, obj)};
    if (version)
        return cmd::Version{};
    if (switching)
        fail(p, obj,
             "-e/--enable and -d/--disable switch s390 PCI functions on and off; "
             "there are none on this platform");
    return show;
}

// ---- smc_pnet style options (also `smcctl pnet -a ...`) -------------------------------

struct long_opt {
    std::string_view name;
    char id;
    bool takes_value;
};

constexpr long_opt pnet_long_opts[] = {
    {"add", 'a', false},      {"delete", 'd', false},  {"show", 's', false},  {"flush", 'f', false},
    {"interface", 'I', true}, {"ibdevice", 'D', true}, {"ibport", 'P', true}, {"json", 'j', false},
    {"version", 'v', false},  {"help", 'h', false},
};

Command parse_pnet_options(Personality p, std::string_view object, Args& a, Options& opt,
                           std::vector<std::string>& warnings) {
    char mode = 0; // 'a', 'd', 's', 'f'
    std::optional<std::string> eth, ib, port_arg;
    std::vector<std::string> positional;

    auto set_mode = [&](char m) {
        if (mode && mode != m)
            fail(p, object, "only one of -a, -d, -s and -f may be given");
        mode = m;
    };
    // Applies one option; `value` is the attached value, if any.
    auto apply = [&](char id, std::optional<std::string> value) -> std::optional<std::string> {
        switch (id) {
        case 'a':
        case 'd':
        case 's':
        case 'f':
            set_mode(id);
            return value; // an attached "=NAME" of --add/--delete/--show is the PNET ID
        case 'I':
            eth = std::move(value);
            return std::nullopt;
        case 'D':
            ib = std::move(value);
            return std::nullopt;
        case 'P':
            port_arg = std::move(value);
            return std::nullopt;
        }
        return std::nullopt;
    };

    bool only_positional = false;
    bool help = false, version = false;
    while (!a.empty()) {
        std::string tok = a.take();
        if (only_positional || tok.size() < 2 || tok[0] != '-') {
            positional.push_back(std::move(tok));
            continue;
        }
        if (tok == "--") {
            only_positional = true;
            continue;
        }
        if (tok.rfind("--", 0) == 0) {
            std::string name = tok.substr(2);
            std::optional<std::string> value;
            if (auto eq = name.find('='); eq != std::string::npos) {
                value = name.substr(eq + 1);
                name.resize(eq);
            }
            const long_opt* hit = nullptr;
            for (const auto& o : pnet_long_opts) {
                if (o.name == name) {
                    hit = &o;
                    break;
                }
                if (abbreviates(name, o.name)) {
                    if (hit)
                        fail(p, object, "ambiguous option '" + tok + "'");
                    hit = &o;
                }
            }
            if (!hit)
                fail(p, object, "unknown option '" + tok + "'");
            if (hit->id == 'h') {
                help = true;
                continue;
            }
            if (hit->id == 'j') {
                opt.json = true;
                continue;
            }
            if (hit->id == 'v') {
                version = true;
                continue;
            }
            if (hit->takes_value && !value) {
                if (a.empty())
                    fail(p, object, "option '--" + std::string(hit->name) + "' needs a value");
                value = a.take();
            }
            if (auto pos = apply(hit->id, std::move(value)))
                positional.push_back(std::move(*pos));
            continue;
        }
        // A cluster of short options; a value-taking one consumes the rest of the token or
        // the next argument.
        for (std::size_t k = 1; k < tok.size(); ++k) {
            const char c = tok[k];
            const auto* o = std::find_if(std::begin(pnet_long_opts), std::end(pnet_long_opts),
                                         [c](const long_opt& x) { return x.id == c; });
            if (o == std::end(pnet_long_opts))
                fail(p, object, std::string("unknown option '-") + c + "'");
            if (c == 'h') {
                help = true;
                continue;
            }
            if (c == 'j') {
                opt.json = true;
                continue;
            }
            if (c == 'v') {
                version = true;
                continue;
            }
            if (!o->takes_value) {
                apply(c, std::nullopt);
                continue;
            }
            std::string value;
            if (k + 1 < tok.size()) {
                value = tok.substr(k + 1);
            } else {
                if (a.empty())
                    fail(p, object, std::string("option '-") + c + "' needs a value");
                value = a.take();
            }
            apply(c, std::move(value));
            break;
        }
    }

    if (help)
        return cmd::Help{usage_text(p, object)};
    if (version)
        return cmd::Version{};
    if (positional.size() > 1)
        fail(p, object, "too many parameters");
    std::optional<std::string> name;
    if (!positional.empty())
        name = positional.front();
    if (!mode) {
        if (name)
            fail(p, object, "PNET ID given without -a, -d or -s");
        mode = 's';
    }

    auto pnetid = [&] { return checked(p, object, [&] { return normalize_pnetid(*name); }); };

    if (mode == 'f') {
        if (name)
            fail(p, object, "-f takes no parameters");
        if (eth || ib || port_arg)
            warnings.push_back("interface, device and port are ignored with -f");
        return cmd::PnetFlush{};
    }
    if (mode == 's' || mode == 'd') {
        if (eth)
            warnings.push_back("interface " + *eth + " ignored");
        if (ib)
            warnings.push_back("device " + *ib + " ignored");
        if (port_arg)
            warnings.push_back("ibport " + *port_arg + " ignored");
        if (mode == 's')
            return cmd::PnetShow{name ? std::optional(pnetid()) : std::nullopt};
        if (!name)
            fail(p, object, "-d needs a PNET ID");
        return cmd::PnetDel{pnetid()};
    }
    // add
    if (!name)
        fail(p, object, "-a needs a PNET ID");
    if (!eth && !ib)
        fail(p, object, "interface (-I) or device (-D) missing");
    cmd::PnetAdd add;
    add.pnetid = pnetid();
    if (eth) {
        checked(p, object, [&] { check_ifname(*eth); });
        add.eth = eth;
    }
    if (ib) {
        checked(p, object, [&] { check_ibname(*ib); });
        add.ib = ib;
    }
    if (port_arg) {
        if (!ib)
            warnings.push_back("ibport " + *port_arg + " ignored without a device");
        else
            add.port = parse_port(p, object, *port_arg);
    }
    return add;
}

// ---- object parsers ---------------------------------------------------------------------

// `pnet` with words: show [NAME] | add NAME [eth IF] [ib DEV [port N]] | delete NAME | flush
Command parse_pnet_words(Personality p, Args& a, Options& opt, std::vector<std::string>& warnings) {
    constexpr std::string_view obj = "pnet";
    if (!a.empty() && a.peek().size() > 1 && a.peek()[0] == '-')
        return parse_pnet_options(p, obj, a, opt, warnings);
    if (a.empty())
        return cmd::PnetShow{};
    const std::string word = a.take();
    const auto verb =
        match_word(word, {"show", "list", "add", "delete", "remove", "flush", "help"});
    if (!verb)
        fail(p, obj, "unknown pnet command '" + word + "'");
    auto pnetid = [&](const std::string& s) {
        return checked(p, obj, [&] { return normalize_pnetid(s); });
    };
    if (*verb == "help")
        return cmd::Help{usage_text(p, obj)};
    if (*verb == "show" || *verb == "list") {
        cmd::PnetShow show;
        if (!a.empty())
            show.pnetid = pnetid(a.take());
        expect_end(p, obj, a);
        return show;
    }
    if (*verb == "flush") {
        expect_end(p, obj, a);
        return cmd::PnetFlush{};
    }
    if (a.empty())
        fail(p, obj, "pnet " + std::string(*verb) + " needs a PNET ID");
    const std::string name = pnetid(a.take());
    if (*verb == "delete" || *verb == "remove") {
        expect_end(p, obj, a);
        return cmd::PnetDel{name};
    }
    cmd::PnetAdd add;
    add.pnetid = name;
    std::optional<std::string> port_arg;
    while (!a.empty()) {
        const std::string key = a.take();
        const auto k = match_word(key, {"eth", "interface", "ib", "ibdevice", "port", "ibport"});
        if (!k)
            fail(p, obj, "unexpected argument '" + key + "'");
        if (a.empty())
            fail(p, obj, "'" + key + "' needs a value");
        std::string value = a.take();
        if (*k == "eth" || *k == "interface") {
            checked(p, obj, [&] { check_ifname(value); });
            add.eth = std::move(value);
        } else if (*k == "ib" || *k == "ibdevice") {
            checked(p, obj, [&] { check_ibname(value); });
            add.ib = std::move(value);
        } else {
            port_arg = std::move(value);
        }
    }
    if (!add.eth && !add.ib)
        fail(p, obj, "pnet add needs an interface (eth IF) or a device (ib DEV)");
    if (port_arg) {
        if (!add.ib)
            fail(p, obj, "port needs a device (ib DEV)");
        add.port = parse_port(p, obj, *port_arg);
    }
    return add;
}

Command parse_ueid(Personality p, Args& a) {
    constexpr std::string_view obj = "ueid";
    if (a.empty())
        return cmd::UeidShow{};
    const std::string word = a.take();
    const auto verb = match_word(word, {"show", "add", "delete", "remove", "flush", "help"});
    if (!verb)
        fail(p, obj, "unknown ueid command '" + word + "'");
    if (*verb == "help")
        return cmd::Help{usage_text(p, obj)};
    if (*verb == "show" || *verb == "flush") {
        expect_end(p, obj, a);
        if (*verb == "show")
            return cmd::UeidShow{};
        return cmd::UeidFlush{};
    }
    if (a.empty())
        fail(p, obj, "ueid " + std::string(*verb) + " needs an EID");
    const std::string eid = checked(p, obj, [&] { return normalize_ueid(a.take()); });
    expect_end(p, obj, a);
    if (*verb == "add")
        return cmd::UeidAdd{eid};
    return cmd::UeidDel{eid};
}

Command parse_info(Personality p, Args& a) {
    constexpr std::string_view obj = "info";
    if (!a.empty()) {
        const std::string word = a.take();
        const auto verb = match_word(word, {"show", "help"});
        if (!verb)
            fail(p, obj, "unknown info command '" + word + "'");
        if (*verb == "help")
            return cmd::Help{usage_text(p, obj)};
    }
    expect_end(p, obj, a);
    return cmd::InfoShow{};
}

Command parse_stats(Personality p, Args& a, Options& opt) {
    constexpr std::string_view obj = "stats";
    cmd::StatsShow show;
    bool have_verb = false;
    while (!a.empty()) {
        const std::string word = a.take();
        if (word.size() > 1 && word[0] == '-') {
            const std::string_view w = std::string_view(word).substr(word[1] == '-' ? 2 : 1);
            if (w == "ad" || w == "da") {
                opt.absolute = true;
                add_detail(opt, 1);
            } else if (auto o = match_word(w, {"details", "ddetails", "absolute", "json"})) {
                if (*o == "absolute")
                    opt.absolute = true;
                else if (*o == "json")
                    opt.json = true;
                else
                    add_detail(opt, *o == "ddetails" ? 2 : 1);
            } else {
                fail(p, obj, "unknown option '" + word + "'");
            }
            continue;
        }
        if (have_verb)
            fail(p, obj, "unexpected argument '" + word + "'");
        const auto verb = match_word(word, {"show", "json", "reset", "help"});
        if (!verb)
            fail(p, obj, "unknown stats command '" + word + "'");
        have_verb = true;
        if (*verb == "help")
            return cmd::Help{usage_text(p, obj)};
        if (*verb == "json")
            opt.json = true;
        else if (*verb == "reset")
            show.reset = true;
    }
    return show;
}

// Leading options of smcctl / smcr: -j -d -dd -a -ad -v -h (one or two dashes, abbreviable).
// Returns a Help or Version command when one of those was asked for.
std::optional<Command> parse_global_options(Personality p, Args& a, Options& opt) {
    while (!a.empty()) {
        const std::string& tok = a.peek();
        if (tok.size() < 2 || tok[0] != '-')
            break;
        a.take();
        if (tok == "--")
            break;
        const std::string_view w = std::string_view(tok).substr(tok[1] == '-' ? 2 : 1);
        if (auto o =
                match_word(w, {"json", "details", "ddetails", "absolute", "version", "help"})) {
            if (*o == "json")
                opt.json = true;
            else if (*o == "absolute")
                opt.absolute = true;
            else if (*o == "version")
                return cmd::Version{};
            else if (*o == "help")
                return cmd::Help{usage_text(p)};
            else
                add_detail(opt, *o == "ddetails" ? 2 : 1);
            continue;
        }
        if (tok[1] != '-' && w.find_first_not_of("jdav") == std::string_view::npos) {
            for (char c : w) {
                if (c == 'j')
                    opt.json = true;
                else if (c == 'd')
                    add_detail(opt, 1);
                else if (c == 'a')
                    opt.absolute = true;
                else
                    return cmd::Version{};
            }
            continue;
        }
        fail(p, {}, "unknown option '" + tok + "'");
    }
    return std::nullopt;
}

Command parse_objects(Personality p, Args& a, Options& opt, std::vector<std::string>& warnings) {
    if (auto c = parse_global_options(p, a, opt))
        return *c;
    if (a.empty())
        fail(p, {}, "missing object");
    const std::string word = a.take();
    std::optional<std::string_view> obj;
    if (p == Personality::smcctl)
        obj = match_word(word, {"pnet", "ueid", "info", "stats", "ss", "seid", "linkgroup",
                                "device", "help", "version"});
    else
        obj = match_word(word, {"info", "linkgroup", "device", "stats", "ueid", "seid", "help"});
    if (!obj)
        fail(p, {}, "unknown object '" + word + "'");
    if (*obj == "help")
        return cmd::Help{usage_text(p)};
    if (*obj == "version")
        return cmd::Version{};
    if (*obj == "pnet")
        return parse_pnet_words(p, a, opt, warnings);
    if (*obj == "ueid")
        return parse_ueid(p, a);
    if (*obj == "seid")
        return parse_seid(p, a);
    if (p == Personality::smcd && *obj == "linkgroup")
        return parse_smcd_linkgroup(p, a, opt);
    if (p == Personality::smcd && *obj == "device")
        return parse_smcd_device(p, a, opt);
    if (*obj == "info")
        return parse_info(p, a);
    if (*obj == "stats")
        return parse_stats(p, a, opt);
    if (*obj == "ss")
        return parse_ss(p, a, opt);
    if (*obj == "linkgroup")
        return parse_linkgroup(p, a, opt);
    if (*obj == "device")
        return parse_device(p, a, opt);
    return cmd::Unsupported{std::string(*obj)};
}

} // namespace

std::span<const Personality> all_personalities() {
    static constexpr std::array all{
        Personality::smcctl,   Personality::smcr,    Personality::smcd,
        Personality::smc_pnet, Personality::smcss,   Personality::smc_dbg,
        Personality::smc_run,  Personality::smc_chk, Personality::smc_rnics,
    };
    return all;
}

Personality personality_from_argv0(std::string_view argv0) {
    const std::string name = base_name(argv0);
    for (const Personality p : all_personalities())
        if (personality_name(p) == name)
            return p;
    return Personality::smcctl;
}

std::string_view personality_name(Personality p) {
    switch (p) {
    case Personality::smcctl:
        return "smcctl";
    case Personality::smcr:
        return "smcr";
    case Personality::smcd:
        return "smcd";
    case Personality::smc_pnet:
        return "smc_pnet";
    case Personality::smcss:
        return "smcss";
    case Personality::smc_dbg:
        return "smc_dbg";
    case Personality::smc_run:
        return "smc_run";
    case Personality::smc_chk:
        return "smc_chk";
    case Personality::smc_rnics:
        return "smc_rnics";
    }
    return "smcctl";
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

    switch (inv.who) {
    case Personality::smcctl:
    case Personality::smcr:
    case Personality::smcd:
        inv.command = parse_objects(inv.who, a, inv.opt, inv.warnings);
        break;
    case Personality::smc_chk:
        inv.command = parse_chk(inv.who, a, inv.opt);
        break;
    case Personality::smc_rnics:
        inv.command = parse_rnics(inv.who, a, inv.opt);
        break;
    case Personality::smc_pnet:
        inv.command = parse_pnet_options(inv.who, {}, a, inv.opt, inv.warnings);
        break;
    case Personality::smcss:
        inv.command = parse_ss(inv.who, a, inv.opt);
        break;
    case Personality::smc_dbg:
        inv.command = parse_dbg(inv.who, a);
        break;
    case Personality::smc_run: {
        inv.command = cmd::Unsupported{inv.prog};
        if (!a.empty()) {
            const std::string& t = a.peek();
            if (t == "-v" || t == "--version")
                inv.command = cmd::Version{};
            else if (t == "-h" || t == "--help")
                inv.command = cmd::Help{usage_text(inv.who)};
        }
        break;
    }
    }
    return inv;
}

std::string usage_text(Personality p, std::string_view object) {
    const std::string prog(personality_name(p));
    const std::string pnet_opts = "  -a, --add PNETID       add an entry; needs -I and/or -D\n"
                                  "  -d, --delete PNETID    delete all entries of PNETID\n"
                                  "  -s, --show [PNETID]    show the table, or one PNET ID\n"
                                  "  -f, --flush            delete all entries\n"
                                  "  -I, --interface ETH    Ethernet interface of the entry\n"
                                  "  -D, --ibdevice DEV     RDMA (or ISM) device of the entry\n"
                                  "  -P, --ibport PORT      RDMA device port, 1 or 2 (default 1)\n"
                                  "  -j, --json             JSON output\n"
                                  "  -v, --version          show the version\n"
                                  "  -h, --help             this text\n"
                                  "Without options the whole table is shown.\n";
    if (p == Personality::smc_pnet)
        return "Usage: smc_pnet [OPTIONS] [PNETID]\n" + pnet_opts;

    const std::string ss_opts =
        "  -a, --all         all sockets, listening and initializing ones too\n"
        "  -l, --listening   listening sockets only\n"
        "  -d, --debug       shutdown state, buffers and cursors (also -e)\n"
        "  -R, --smcr        SMC-R sockets only, with their link\n"
        "  -D, --smcd        SMC-D sockets only, with their DMB\n"
        "  -W, --wide        do not truncate addresses\n"
        "  -j, --json        JSON output, every field\n"
        "  -v, --version     show the version\n"
        "  -h, --help        this text\n"
        "Without options: connected and closing sockets.\n";
    const std::string dbg_text =
        "  -o, --output PATH  archive to write (default /tmp/smc_dbg-HOST-TIME.tar.gz)\n"
        "  -t, --tgz          accepted for smc-tools compatibility (always a .tar.gz)\n"
        "  -v, --version      show the version\n"
        "  -h, --help         this text\n"
        "Collects socket, link group, device, PNET, statistics, sysctl, RDMA, interface,\n"
        "module and kernel log information into one archive and prints its path.\n";
    if (p == Personality::smcss)
        return "Usage: smcss [OPTIONS]\n" + ss_opts;
    if (p == Personality::smc_dbg)
        return "Usage: smc_dbg [OPTIONS]\n" + dbg_text;
    if (p == Personality::smc_run)
        return smc_run::usage();
    if (p == Personality::smc_chk)
        return "Usage: smc_chk -C ADDRESS [-p PORT] [-6] [-t SECONDS] [-d] [-j]\n"
               "       smc_chk -S [-p PORT] [-6] [-n COUNT] [-d] [-j]\n"
               "       smc_chk -i INTERFACE [-j]\n"
               "  -C, --connect ADDRESS  connect to a server over AF_SMC and report whether\n"
               "                         the connection uses SMC-R/SMC-D or fell back to TCP\n"
               "  -S, --server           run an AF_SMC server that reports each connection\n"
               "  -i, --pnetid IFACE     show the PNET ID of an interface\n"
               "  -p, --port PORT        port to connect to or listen on (default " +
               std::to_string(chk_default_port) +
               ";\n"
               "                         -S takes the next free port if it is in use)\n"
               "  -6, --ipv6             use IPv6\n"
               "  -t, --timeout SECONDS  -C: give up after this long (default " +
               std::to_string(chk_default_timeout) +
               ")\n"
               "  -n, --count N          -S: stop after N connections\n"
               "  -d, --debug            also the addresses, the link and the link group\n"
               "  -j, --json             JSON output\n"
               "  -v, --version          show the version\n"
               "  -h, --help             this text\n"
               "Exit status: 0 SMC used, 1 TCP fallback, 2 bad command line, 3 no test possible.\n";
    if (p == Personality::smc_rnics)
        return "Usage: smc_rnics [OPTIONS]\n"
               "  -a, --all      also RDMA ports that are not RoCE (InfiniBand, iWARP)\n"
               "  -r, --rawids   PCI vendor and device ids instead of the type name\n"
               "  -j, --json     JSON output\n"
               "  -v, --version  show the version\n"
               "  -h, --help     this text\n"
               "One line per RDMA device port: device, port, netdev, link and port state,\n"
               "type, PCI slot, PNET ID and whether SMC can use it.\n";
    if (object == "ss")
        return "Usage: " + prog + " ss [OPTIONS]\n" + ss_opts;

    const std::string pfx = "Usage: " + prog + " [OPTIONS] ";
    if (p == Personality::smcd && object == "linkgroup")
        return pfx + "linkgroup [show] [all | LG-ID]\n" +
               "  one line per SMC-D link group (none without an SMC-D device)\n"
               "  LG-ID      a link group id (hex, as shown)\n"
               "  -d         also the GIDs, the channel id and the SMCv2 details\n"
               "  -j, --json JSON output\n";
    if (p == Personality::smcd && object == "device")
        return pfx + "device [show] [all]\n" +
               "  one line per SMC-D (ISM) device\n"
               "  -j, --json JSON output\n";
    if (object == "seid")
        return pfx + "seid [show]\n" + "       " + prog + " seid enable\n" + "       " + prog +
               " seid disable\n" +
               "The system EID exists only with ISMv2 devices (s390); disabling it needs a\n"
               "user EID.  enable and disable need CAP_NET_ADMIN.\n";
    if (object == "linkgroup")
        return pfx + "linkgroup [show | link-show] [all | LG-ID] [ibdev DEV] [netdev DEV]\n" +
               "  show       one line per SMC-R link group (default)\n"
               "  link-show  one line per link\n"
               "  LG-ID      a link group id (hex, as shown); a link id selects its group\n"
               "  -d         link-show: link UIDs, RDMA device and port; show: SMCv2 details\n"
               "  -dd        link-show: also the GIDs\n"
               "  -j, --json JSON output, link groups with their links\n";
    if (object == "device")
        return pfx + "device [show] [all] [ibdev DEV] [netdev DEV]\n" +
               "  one line per usable RDMA device port\n"
               "  -d         also PCI function id, PCI id and PCHID\n"
               "  -j, --json JSON output\n";
    if (object == "pnet")
        return pfx + "pnet [show [PNETID]]\n" + "       " + prog +
               " pnet add PNETID [eth ETH] [ib DEV [port 1|2]]\n" + "       " + prog +
               " pnet delete PNETID\n" + "       " + prog + " pnet flush\n" + "       " + prog +
               " pnet [smc_pnet options]\n" + pnet_opts;
    if (object == "ueid")
        return pfx + "ueid [show]\n" + "       " + prog + " ueid add EID\n" + "       " + prog +
               " ueid delete EID\n" + "       " + prog + " ueid flush\n" +
               "An EID has up to 32 characters A-Z, 0-9, '.', '-' (first A-Z or 0-9);\n"
               "lower case is converted, the kernel stores it blank padded.\n";
    if (object == "info")
        return pfx + "info [show]\n";
    if (object == "stats")
        return pfx + "stats [show | json | reset]\n" +
               "  -d, --details    per-reason fallbacks and more counters\n"
               "  -a, --absolute   ignore the baseline stored by 'stats reset'\n"
               "  -j, --json       JSON output (same as 'stats json')\n"
               "'reset' shows the counters, then stores them as the baseline that later\n"
               "'show' subtracts; the kernel's counters are not changed.\n";

    switch (p) {
    case Personality::smcctl:
        return "Usage: smcctl [OPTIONS] OBJECT [COMMAND [ARGS]]\n"
               "  OBJECT := { pnet | ueid | seid | info | stats | ss | linkgroup | device |\n"
               "              help }\n"
               "  OPTIONS := { -j[son] | -d[etails] | -a[bsolute] | -v[ersion] | -h[elp] }\n"
               "Run 'smcctl OBJECT help' for the commands of an object.\n"
               "Also runs as smc_pnet, smcr, smcd, smcss, smc_dbg, smc_run, smc_chk and\n"
               "smc_rnics (by program name).\n";
    case Personality::smcr:
    case Personality::smcd:
        return "Usage: " + prog +
               " [OPTIONS] OBJECT [COMMAND [ARGS]]\n"
               "  OBJECT := { info | stats | ueid | seid | linkgroup | device | help }\n"
               "  OPTIONS := { -j[son] | -d[etails] | -dd | -a[bsolute] | -v[ersion] | -h[elp] }\n"
               "Run '" +
               prog + " OBJECT help' for the commands of an object.\n";
    default: // the option-driven personalities returned above
        return usage_text(Personality::smcctl);
    }
}

} // namespace smcctl

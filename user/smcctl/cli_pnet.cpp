// SPDX-License-Identifier: GPL-2.0
// smc_pnet, and smcctl's "pnet" object: the PNET table.
#include "cli_parse.hpp"
#include "names.hpp"

namespace smcctl::cli {

namespace {

constexpr OptSpec pnet_opts[] = {
    {"add", 'a', false, "PNETID", "add an entry; needs -I and/or -D"},
    {"delete", 'd', false, "PNETID", "delete all entries of PNETID"},
    {"show", 's', false, "[PNETID]", "show the table, or one PNET ID"},
    {"flush", 'f', false, {}, "delete all entries"},
    {"interface", 'I', true, "ETH", "Ethernet interface of the entry"},
    {"ibdevice", 'D', true, "DEV", "RDMA (or ISM) device of the entry"},
    {"ibport", 'P', true, "PORT", "RDMA device port, 1 or 2 (default 1)"},
    {"json", 'j', false, {}, "JSON output"},
    {"version", 'v', false, {}, "show the version"},
    {"help", 'h', false, {}, "this text"},
};
constexpr OptionSet pnet_set{pnet_opts, 25};

std::string pnet_options_usage() {
    return options_usage(pnet_set) + "Without options the whole table is shown.\n";
}

std::uint8_t parse_port(const Context& c, const std::string& s) {
    if (s == "1")
        return 1;
    if (s == "2")
        return 2;
    c.fail("invalid IB port '" + s + "' (must be 1 or 2)");
}

// smc_pnet's options as given.
struct PnetArgs {
    char mode = 0; // 'a', 'd', 's', 'f'
    std::optional<std::string> eth, ib, port;
    std::optional<std::string> name; // the PNET ID operand
    CommonOptions common;
};

PnetArgs read_pnet_options(const Context& c) {
    PnetArgs k;
    std::vector<std::string> operands;
    parse_options(
        c, pnet_set,
        [&](char id, std::optional<std::string> value) {
            if (k.common.apply(c, id))
                return;
            switch (id) {
            case 'a':
            case 'd':
            case 's':
            case 'f':
                if (k.mode && k.mode != id)
                    c.fail("only one of -a, -d, -s and -f may be given");
                k.mode = id;
                if (value) // an attached "=NAME" of --add/--delete/--show is the PNET ID
                    operands.push_back(std::move(*value));
                break;
            case 'I':
                k.eth = std::move(value);
                break;
            case 'D':
                k.ib = std::move(value);
                break;
            case 'P':
                k.port = std::move(value);
                break;
            }
        },
        &operands);
    if (k.common.help || k.common.version)
        return k;
    if (operands.size() > 1)
        c.fail("too many parameters");
    if (!operands.empty())
        k.name = operands.front();
    return k;
}

std::string pnetid_of(const Context& c, const std::string& s) {
    return c.checked([&] { return normalize_pnetid(s); });
}

Command pnet_add(const Context& c, const PnetArgs& k) {
    if (!k.name)
        c.fail("-a needs a PNET ID");
    if (!k.eth && !k.ib)
        c.fail("interface (-I) or device (-D) missing");
    cmd::PnetAdd add;
    add.pnetid = pnetid_of(c, *k.name);
    if (k.eth) {
        c.checked([&] { check_ifname(*k.eth); });
        add.eth = k.eth;
    }
    if (k.ib) {
        c.checked([&] { check_ibname(*k.ib); });
        add.ib = k.ib;
    }
    if (k.port) {
        if (!k.ib)
            c.warnings.push_back("ibport " + *k.port + " ignored without a device");
        else
            add.port = parse_port(c, *k.port);
    }
    return add;
}

// smc_pnet [OPTIONS] [PNETID], also "smcctl pnet -a ...".
Command pnet_options(const Context& c) {
    PnetArgs k = read_pnet_options(c);
    if (auto answer = k.common.answer(c))
        return *answer;
    if (!k.mode) {
        if (k.name)
            c.fail("PNET ID given without -a, -d or -s");
        k.mode = 's';
    }
    if (k.mode == 'a')
        return pnet_add(c, k);
    if (k.mode == 'f') {
        if (k.name)
            c.fail("-f takes no parameters");
        if (k.eth || k.ib || k.port)
            c.warnings.push_back("interface, device and port are ignored with -f");
        return cmd::PnetFlush{};
    }
    if (k.eth)
        c.warnings.push_back("interface " + *k.eth + " ignored");
    if (k.ib)
        c.warnings.push_back("device " + *k.ib + " ignored");
    if (k.port)
        c.warnings.push_back("ibport " + *k.port + " ignored");
    if (k.mode == 's')
        return cmd::PnetShow{k.name ? std::optional(pnetid_of(c, *k.name)) : std::nullopt};
    if (!k.name)
        c.fail("-d needs a PNET ID");
    return cmd::PnetDel{pnetid_of(c, *k.name)};
}

// The words after "pnet add NAME": [eth IF] [ib DEV [port N]].
Command pnet_add_words(const Context& c, const std::string& name) {
    cmd::PnetAdd add;
    add.pnetid = name;
    std::optional<std::string> port;
    while (!c.args.empty()) {
        const std::string key = c.args.take();
        const auto k = match_word(key, {"eth", "interface", "ib", "ibdevice", "port", "ibport"});
        if (!k)
            c.fail("unexpected argument '" + key + "'");
        if (c.args.empty())
            c.fail("'" + key + "' needs a value");
        std::string value = c.args.take();
        if (*k == "eth" || *k == "interface") {
            c.checked([&] { check_ifname(value); });
            add.eth = std::move(value);
        } else if (*k == "ib" || *k == "ibdevice") {
            c.checked([&] { check_ibname(value); });
            add.ib = std::move(value);
        } else {
            port = std::move(value);
        }
    }
    if (!add.eth && !add.ib)
        c.fail("pnet add needs an interface (eth IF) or a device (ib DEV)");
    if (port) {
        if (!add.ib)
            c.fail("port needs a device (ib DEV)");
        add.port = parse_port(c, *port);
    }
    return add;
}

} // namespace

Command parse_smc_pnet(const Context& c) {
    return pnet_options(c);
}

std::string smc_pnet_usage(Personality) {
    return "Usage: smc_pnet [OPTIONS] [PNETID]\n" + pnet_options_usage();
}

// pnet [show [NAME] | add NAME [eth IF] [ib DEV [port N]] | delete NAME | flush], or the
// options of smc_pnet.
Command parse_pnet_object(const Context& c) {
    if (!c.args.empty() && c.args.peek().size() > 1 && c.args.peek()[0] == '-')
        return pnet_options(c);
    if (c.args.empty())
        return cmd::PnetShow{};
    const std::string word = c.args.take();
    const auto verb =
        match_word(word, {"show", "list", "add", "delete", "remove", "flush", "help"});
    if (!verb)
        c.fail("unknown pnet command '" + word + "'");
    if (*verb == "help")
        return c.help();
    if (*verb == "show" || *verb == "list") {
        cmd::PnetShow show;
        if (!c.args.empty())
            show.pnetid = pnetid_of(c, c.args.take());
        c.expect_end();
        return show;
    }
    if (*verb == "flush") {
        c.expect_end();
        return cmd::PnetFlush{};
    }
    if (c.args.empty())
        c.fail("pnet " + std::string(*verb) + " needs a PNET ID");
    const std::string name = pnetid_of(c, c.args.take());
    if (*verb == "add")
        return pnet_add_words(c, name);
    c.expect_end();
    return cmd::PnetDel{name};
}

std::string pnet_object_usage(Personality p) {
    const std::string also = "       " + std::string(personality_name(p)) + " pnet ";
    return object_prefix(p) + "pnet [show [PNETID]]\n" + also +
           "add PNETID [eth ETH] [ib DEV [port 1|2]]\n" + also + "delete PNETID\n" + also +
           "flush\n" + also + "[smc_pnet options]\n" + pnet_options_usage();
}

} // namespace smcctl::cli

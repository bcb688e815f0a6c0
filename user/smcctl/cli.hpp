// SPDX-License-Identifier: GPL-2.0
// Command line: which personality runs (argv[0]) and what it was asked to do.  Parsing is
// pure (no I/O), so every option form is unit-testable.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "policy.hpp"

namespace smcctl {

// The tool answers to several names, like the smc-tools programs it stands in for.
enum class Personality {
    smcctl,
    smcr,
    smcd,
    smc_pnet,
    smcss,
    smc_dbg,
    smc_run,
    smc_chk,
    smc_rnics
};

// Every personality, smcctl first.
std::span<const Personality> all_personalities();

// Personality from argv[0] (its base name); anything unknown is smcctl.
Personality personality_from_argv0(std::string_view argv0);
std::string_view personality_name(Personality p);

// smc_chk's port when none is given.
constexpr std::uint16_t chk_default_port = 37373;
// smc_chk -C: seconds to wait for the connection when -t is not given.
constexpr unsigned chk_default_timeout = 10;

// Bad command line.  what() names the problem; usage() is the help text to show with it.
class usage_error : public std::runtime_error {
public:
    usage_error(const std::string& what, std::string usage)
        : std::runtime_error(what), usage_(std::move(usage)) {}
    const std::string& usage() const noexcept { return usage_; }

private:
    std::string usage_;
};

namespace cmd {

struct Help {
    std::string text;
};
struct Version {};
// A personality or object this build does not implement yet.
struct Unsupported {
    std::string what;
};

struct PnetShow {
    std::optional<std::string> pnetid; // normalized; all entries when absent
};
struct PnetAdd {
    std::string pnetid; // normalized
    std::optional<std::string> eth;
    std::optional<std::string> ib;
    std::uint8_t port = 1;

    bool operator==(const PnetAdd&) const = default;
};
struct PnetDel {
    std::string pnetid;
};
struct PnetFlush {};

struct UeidShow {};
struct UeidAdd {
    std::string eid; // normalized: 32 characters, blank padded
};
struct UeidDel {
    std::string eid;
};
struct UeidFlush {};

struct InfoShow {};

struct StatsShow {
    bool reset = false; // store the current counters as the new baseline afterwards
};

// smcss: which sockets, which extra columns.
struct SsShow {
    enum class Which { connected, all, listening };
    Which which = Which::connected; // default: neither listening nor INIT sockets
    bool debug = false;             // -d: shutdown state and connection cursors
    bool smcr = false;              // -R: SMC-R sockets only, with their link
    bool smcd = false;              // -D: SMC-D sockets only, with their DMB
    bool wide = false;              // -W: addresses not truncated
    bool why = false;               // --why: each socket's handshake explained

    bool operator==(const SsShow&) const = default;
};

// smcr linkgroup [show | link-show] [all | LG-ID] [ibdev DEV] [netdev DEV]
struct LgrShow {
    bool links = false;                // link-show: one line per link
    std::optional<std::uint32_t> lgid; // link group id (a link id's low byte masked off)
    std::optional<std::string> ibdev;  // only link groups/links on this RDMA device
    std::optional<std::string> netdev; // only link groups/links on this interface

    bool operator==(const LgrShow&) const = default;
};

// smcr device [show] [all] [ibdev DEV] [netdev DEV]
struct DevShow {
    std::optional<std::string> ibdev;
    std::optional<std::string> netdev;

    bool operator==(const DevShow&) const = default;
};

// seid [show]: the system EID and whether it is in use.
struct SeidShow {};
// seid enable | disable
struct SeidSet {
    bool enable = true;
};

// smcd linkgroup [show] [all | LG-ID]
struct SmcdLgrShow {
    std::optional<std::uint32_t> lgid;

    bool operator==(const SmcdLgrShow&) const = default;
};

// smcd device [show] [all]
struct SmcdDevShow {};

// smc_chk -C ADDRESS: connect over AF_SMC and report how the connection runs.
struct ChkConnect {
    std::string address; // as given: an IPv4/IPv6 address or a host name
    std::uint16_t port = chk_default_port;
    bool ipv6 = false; // -6: the address is (or resolves to) IPv6
    unsigned timeout = chk_default_timeout;

    bool operator==(const ChkConnect&) const = default;
};

// smc_chk -S: an AF_SMC server that reports how each accepted connection runs.
struct ChkServe {
    std::uint16_t port = chk_default_port; // first port tried; the next free one is taken
    bool ipv6 = false;                     // listen on the IPv6 wildcard address
    std::optional<unsigned> count;         // -n: stop after this many connections

    bool operator==(const ChkServe&) const = default;
};

// smc_chk -i IFACE: the PNET ID of an interface.
struct ChkPnetid {
    std::string interface;
};

// smcctl doctor [PEER[:PORT]]: check the host end to end, and a connection to PEER.
struct Doctor {
    std::optional<ChkConnect> peer;

    bool operator==(const Doctor&) const = default;
};

// smc_rnics: RDMA devices, their ports, netdevs, link state and PNET IDs.
struct RnicsShow {
    bool all = false;    // -a: also ports that are not RoCE (InfiniBand, iWARP)
    bool rawids = false; // -r: PCI vendor and device ids instead of the type name

    bool operator==(const RnicsShow&) const = default;
};

// smcctl why: explain the recorded handshakes (why.hpp).
struct WhyShow {
    std::optional<std::string> filter; // ADDR[:PORT], either end
    unsigned last = 20;                // the newest N that match; 0: all
    bool verbose = false;              // the messages too

    bool operator==(const WhyShow&) const = default;
};
struct WhyFlush {};
// smcctl peers: the peer cache.
struct PeersShow {};
struct PeersDel {
    std::string peer; // ADDR:PORT
};
struct PeersFlush {};

// smc_dbg: collect a diagnostic bundle.
struct DbgCollect {
    std::optional<std::string> output; // archive path; default /tmp/smc_dbg-HOST-TIME.tar.gz
};

} // namespace cmd

using Command =
    std::variant<cmd::Help, cmd::Version, cmd::Unsupported, cmd::PnetShow, cmd::PnetAdd,
                 cmd::PnetDel, cmd::PnetFlush, cmd::UeidShow, cmd::UeidAdd, cmd::UeidDel,
                 cmd::UeidFlush, cmd::InfoShow, cmd::StatsShow, cmd::SsShow, cmd::LgrShow,
                 cmd::DevShow, cmd::DbgCollect, cmd::SeidShow, cmd::SeidSet, cmd::SmcdLgrShow,
                 cmd::SmcdDevShow, cmd::ChkConnect, cmd::ChkServe, cmd::ChkPnetid, cmd::RnicsShow,
                 cmd::WhyShow, cmd::WhyFlush, cmd::PeersShow, cmd::PeersDel, cmd::PeersFlush,
                 cmd::Doctor, cmd::Policy>;

struct Options {
    bool json = false;         // --json / -j, or "stats json"
    bool details = false;      // -d / --details (detail_level > 0)
    bool absolute = false;     // -a / --absolute: stats without the reset baseline
    unsigned detail_level = 0; // -d 1, -dd 2 (linkgroup and device columns; smc_chk details)
};

struct Invocation {
    Personality who = Personality::smcctl;
    std::string prog; // base name used in messages
    Options opt;
    Command command;
    std::vector<std::string> warnings; // accepted but ignored input, to print on stderr
};

// Parses argv (argv[0] included).  Throws usage_error.
Invocation parse_command_line(const std::vector<std::string>& argv);

// Usage text of a personality, or of one object of it ("pnet", "ueid", "seid", "info",
// "stats", "linkgroup", "device", "ss").
std::string usage_text(Personality p, std::string_view object = {});

} // namespace smcctl

// SPDX-License-Identifier: GPL-2.0
// smcctl doctor: checks the host end to end (SMC module and its autoload, RDMA ports and
// GIDs, MTU, PNET and user EID tables, sysctls, buffer sizes, optionally a live connection)
// and says how to fix what it finds.
//
// Collecting and judging are apart: the readers fill a HostState from a root directory (so
// the tests can hand them a fake /sys and /proc), the checks are pure functions of it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "model.hpp"

namespace smcctl::doctor {

// Exit codes: 0 nothing failed (warnings do not fail), 1 a check failed, 2 bad command line.
constexpr int exit_failed = 1;

enum class Level { ok, warn, fail };
std::string_view level_name(Level l);

// One statement of fact; a warning or failure says what to run about it.
struct Finding {
    Level level = Level::ok;
    std::string text;
    std::string fix; // a command line (or, where none exists, one instruction); empty for ok

    bool operator==(const Finding&) const = default;
};

// ---- what the readers collect --------------------------------------------------------------

struct ModuleState {
    bool readable = false;        // /proc/modules could be read
    std::set<std::string> loaded; // names from /proc/modules
    // The module behind the AF_SMC protocol rows of /proc/net/protocols ("SMC"/"SMCX"),
    // empty when none is registered.
    std::string af_smc_owner;
    // What modprobe loads for net-pf-43 (AF_SMC's autoload): first match of the modprobe.d
    // aliases, else of modules.alias, blacklisted modules left out.  Empty: nothing.
    std::string autoload;
    std::string autoload_source;             // the file the alias came from
    std::map<std::string, std::string> smcx; // smcx's module parameters (name -> value)
};

struct Gid {
    unsigned index = 0;
    std::string gid;    // as sysfs prints it: eight groups of four hex digits
    std::string type;   // "RoCE v2", "IB/RoCE v1"
    std::string netdev; // the GID's netdev, empty when sysfs names none
};

struct RdmaPort {
    std::string device;
    unsigned port = 0;
    std::string state;      // "ACTIVE", ...
    std::string link_layer; // "Ethernet", "InfiniBand"
    std::string parent;     // a software device's netdev (rxe, siw); empty for hardware
    std::vector<Gid> gids;  // set entries only
};

struct Netdev {
    std::string name;
    bool up = false;
    bool loopback = false;
    unsigned mtu = 0;
    bool egress = false;                    // a route leaves through it
    std::vector<std::string> addrs;         // IPv4 and global IPv6 addresses, text form
    std::map<std::string, unsigned> prefix; // address -> prefix length, when known
};

struct HostState {
    ModuleState modules;
    bool rdma_readable = false; // /sys/class/infiniband exists
    std::vector<RdmaPort> ports;
    std::vector<Netdev> netdevs;
    bool sysctl_readable = false; // /proc/sys/net/smc exists
    std::map<std::string, std::string> sysctls;
    std::optional<PnetTable> pnet;  // nullopt: could not be read (see smc_error)
    std::optional<UeidTable> ueids; // nullopt: could not be read
    std::string smc_error;          // why the netlink tables could not be read
};

// Readers, each rooted at `root` ("/" on a live system).  Missing or garbled files leave
// the fields at their defaults; nothing throws.
ModuleState read_modules(const std::filesystem::path& root, std::string_view kernel_release);
std::vector<RdmaPort> read_rdma(const std::filesystem::path& root, bool& readable);
// Netdevs from /sys/class/net with their MTU and state, egress from /proc/net/route and
// /proc/net/ipv6_route, IPv6 addresses from /proc/net/if_inet6 (IPv4 addresses come from
// the live system: add_ipv4_addresses).
std::vector<Netdev> read_netdevs(const std::filesystem::path& root);
void add_ipv4_addresses(std::vector<Netdev>& netdevs);
std::map<std::string, std::string> read_sysctls(const std::filesystem::path& root, bool& readable);

// The whole host, live (files under "/", the tables over netlink).
HostState collect();

// ---- the checks ----------------------------------------------------------------------------

struct CheckResult {
    std::string name;
    std::vector<Finding> findings;
    Level level() const; // the worst finding's
};

using CheckFn = std::vector<Finding> (*)(const HostState&);
struct CheckSpec {
    std::string_view name;
    CheckFn check;
};

// The checks in the order they run and print.
std::span<const CheckSpec> checks();

std::vector<Finding> check_module(const HostState& h);
std::vector<Finding> check_rdma(const HostState& h);
std::vector<Finding> check_gid(const HostState& h);
std::vector<Finding> check_mtu(const HostState& h);
std::vector<Finding> check_pnet(const HostState& h);
std::vector<Finding> check_ueid(const HostState& h);
std::vector<Finding> check_sysctl(const HostState& h);
std::vector<Finding> check_memory(const HostState& h);

std::vector<CheckResult> run_checks(const HostState& h);

// The RoCE MTU (256 ... 4096) a netdev MTU allows: what fits after the RoCE v2 headers.
unsigned roce_mtu(unsigned netdev_mtu);
// The RoCE v2 GID of an address: IPv6 as is, IPv4 v4-mapped; nullopt when it is no address.
std::optional<std::string> gid_of(std::string_view addr);
// The same GID in a canonical form, for comparing sysfs text with gid_of(); "" if garbage.
std::string canonical_gid(std::string_view gid);

// ---- the live probe ------------------------------------------------------------------------

// "HOST", "HOST:PORT", "[V6]:PORT" or a bare IPv6 address; the port defaults to smc_chk's.
// Throws std::invalid_argument for a bad port or empty host.
cmd::ChkConnect parse_peer(std::string_view peer);

// A real connection over AF_SMC to the peer: how it ran, as findings.
CheckResult probe(const cmd::ChkConnect& peer);
// The findings of a probed connection's sock_diag entry (pure; the probe's second half).
std::vector<Finding> judge_probe(const SmcSocket& s);

// ---- output --------------------------------------------------------------------------------

std::string to_text(const std::vector<CheckResult>& r);
std::string to_json(const std::vector<CheckResult>& r);
std::size_t failed(const std::vector<CheckResult>& r);

// The command: collect, check, probe when asked, print.  Returns the exit code.
int run(const cmd::Doctor& d, const Options& opt, std::ostream& out);

} // namespace smcctl::doctor

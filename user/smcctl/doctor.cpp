// SPDX-License-Identifier: GPL-2.0
// smcctl doctor: the checks (pure functions of a HostState) and the output.
#include "doctor.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

#include "addr.hpp"
#include "json.hpp"
#include "names.hpp"

namespace smcctl::doctor {

namespace {

Finding ok(std::string text) {
    return {Level::ok, std::move(text), {}};
}
Finding warn(std::string text, std::string fix) {
    return {Level::warn, std::move(text), std::move(fix)};
}
Finding fail(std::string text, std::string fix) {
    return {Level::fail, std::move(text), std::move(fix)};
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : std::string(sep)) + s;
    return out;
}

bool is_roce(const RdmaPort& p) {
    return p.link_layer == "Ethernet";
}

// The netdevs a port carries: its GIDs' netdevs, and a software device's parent.
std::set<std::string> port_netdevs(const RdmaPort& p) {
    std::set<std::string> n;
    for (const auto& g : p.gids)
        if (!g.netdev.empty())
            n.insert(g.netdev);
    if (!p.parent.empty())
        n.insert(p.parent);
    return n;
}

std::string port_name(const RdmaPort& p) {
    return p.device + " port " + std::to_string(p.port);
}

const RdmaPort* port_on(const HostState& h, const std::string& netdev) {
    for (const auto& p : h.ports)
        if (is_roce(p) && port_netdevs(p).count(netdev))
            return &p;
    return nullptr;
}

// The netdevs that matter: up, not loopback, a route leaves through them, with an address.
std::vector<const Netdev*> egress_netdevs(const HostState& h) {
    std::vector<const Netdev*> out;
    for (const auto& n : h.netdevs)
        if (n.up && !n.loopback && n.egress && !n.addrs.empty())
            out.push_back(&n);
    return out;
}

bool in_pnet_table(const HostState& h, const std::string& netdev) {
    if (!h.pnet)
        return false;
    return std::any_of(h.pnet->entries.begin(), h.pnet->entries.end(),
                       [&](const PnetEntry& e) { return e.eth == netdev; });
}

// Soft-RoCE device names not taken yet: rxe0, rxe1, ...
class RxeNames {
public:
    explicit RxeNames(const HostState& h) {
        for (const auto& p : h.ports)
            taken_.insert(p.device);
    }
    std::string next() {
        for (unsigned i = 0;; ++i)
            if (const std::string n = "rxe" + std::to_string(i); taken_.insert(n).second)
                return n;
    }

private:
    std::set<std::string> taken_;
};

std::string rxe_add(const std::string& dev, const std::string& netdev) {
    return "rdma link add " + dev + " type rxe netdev " + netdev;
}

std::string modprobe_remove(const ModuleState& m, std::initializer_list<const char*> mods) {
    std::vector<std::string> loaded;
    for (const char* n : mods)
        if (m.loaded.count(n))
            loaded.push_back(n);
    return "modprobe -r " + join(loaded, " ");
}

// ---- module --------------------------------------------------------------------------------

constexpr const char* install_conf =
    "install -m 0644 conf/smcx-modprobe.conf /etc/modprobe.d/smcx.conf  (make install does)";

Finding autoload_finding(const ModuleState& m) {
    const std::string from = m.autoload_source.empty() ? "" : " (" + m.autoload_source + ")";
    if (m.autoload == "smcx")
        return ok("AF_SMC autoload (net-pf-43) loads smcx" + from);
    if (m.autoload.empty())
        return warn("nothing is set up to load for AF_SMC (alias net-pf-43): the first AF_SMC "
                    "socket fails while no SMC module is loaded",
                    install_conf);
    return warn("AF_SMC autoload (net-pf-43) loads " + m.autoload + ", not smcx" + from +
                    ": without smcx loaded, the next AF_SMC socket brings " + m.autoload,
                install_conf);
}

} // namespace

std::string_view level_name(Level l) {
    switch (l) {
    case Level::ok:
        return "ok";
    case Level::warn:
        return "warn";
    case Level::fail:
        return "fail";
    }
    return "?";
}

Level CheckResult::level() const {
    Level worst = Level::ok;
    for (const auto& f : findings)
        worst = std::max(worst, f.level);
    return worst;
}

std::vector<Finding> check_module(const HostState& h) {
    const ModuleState& m = h.modules;
    std::vector<Finding> out;
    if (!m.readable)
        return {warn("cannot read /proc/modules: which SMC module is loaded is unknown",
                     "run smcctl doctor on the host, with /proc mounted")};
    const bool smcx = m.loaded.count("smcx") > 0, smc = m.loaded.count("smc") > 0;
    const std::string owner = m.af_smc_owner;
    if (smcx && smc) {
        out.push_back(fail("smcx and the stock smc are both loaded (AF_SMC belongs to " +
                               (owner.empty() ? std::string("one of them") : owner) +
                               "); only one SMC stack can serve AF_SMC",
                           modprobe_remove(m, {"smc_diag", "smc"})));
    } else if (smc) {
        out.push_back(fail("the stock smc is loaded and owns AF_SMC: SMC sockets use smc.ko, "
                           "not smcx",
                           modprobe_remove(m, {"smc_diag", "smc"}) + " && modprobe smcx"));
    } else if (smcx) {
        if (!owner.empty() && owner != "smcx")
            out.push_back(fail("smcx is loaded but AF_SMC belongs to " + owner,
                               "modprobe -r " + owner + " smcx && modprobe smcx"));
        else
            out.push_back(ok("smcx is loaded and owns AF_SMC"));
        if (const auto it = m.smcx.find("smcr"); it != m.smcx.end() && it->second == "0")
            out.push_back(fail("smcx runs with smcr=0: it declines every SMC-R proposal",
                               "echo 1 > /sys/module/smcx/parameters/smcr"));
        if (const auto it = m.smcx.find("ueid"); it != m.smcx.end())
            out.push_back(ok("smcx was loaded with ueid=" +
                             (it->second.empty() ? std::string("(none)") : it->second)));
    } else if (m.autoload == "smcx") {
        out.push_back(
            warn("no SMC module is loaded; the first AF_SMC socket loads smcx", "modprobe smcx"));
    } else {
        out.push_back(
            fail("no SMC module is loaded" +
                     (m.autoload.empty() ? std::string(" and none is set up to load for AF_SMC")
                                         : ", and AF_SMC would load " + m.autoload),
                 "modprobe smcx"));
    }
    out.push_back(autoload_finding(m));
    return out;
}

std::vector<Finding> check_rdma(const HostState& h) {
    std::vector<Finding> out;
    if (h.ports.empty()) {
        const auto eg = egress_netdevs(h);
        out.push_back(fail("no RDMA device (/sys/class/infiniband " +
                               std::string(h.rdma_readable ? "is empty" : "is missing") +
                               "): SMC-R has nothing to run on",
                           rxe_add(RxeNames(h).next(), eg.empty() ? "ETH" : eg.front()->name)));
        return out;
    }
    bool active = false;
    for (const auto& p : h.ports) {
        const auto nd = port_netdevs(p);
        std::vector<std::string> names(nd.begin(), nd.end());
        const std::string on = names.empty() ? "no netdev" : "netdev " + join(names, ",");
        if (!is_roce(p)) {
            out.push_back(ok(port_name(p) + ": link layer " +
                             (p.link_layer.empty() ? std::string("unknown") : p.link_layer) +
                             ", not RoCE: SMC-R does not use it"));
            continue;
        }
        std::size_t v2 = std::count_if(p.gids.begin(), p.gids.end(),
                                       [](const Gid& g) { return g.type == "RoCE v2"; });
        const std::string what = port_name(p) + ": " +
                                 (p.state.empty() ? "state unknown" : p.state) + ", RoCE on " + on +
                                 ", " + std::to_string(v2) + " RoCE v2 GID" + (v2 == 1 ? "" : "s");
        if (p.state == "ACTIVE") {
            active = true;
            out.push_back(ok(what));
        } else {
            out.push_back(warn(what + ": SMC-R uses ACTIVE ports only",
                               names.empty() ? "rdma link show  (find the port's netdev)"
                                             : "ip link set " + names.front() + " up"));
        }
    }
    if (!active)
        out.push_back(fail("no RoCE port is ACTIVE: SMC-R has nothing to run on",
                           "rdma link show; bring the netdev of a RoCE port up"));
    return out;
}

std::vector<Finding> check_gid(const HostState& h) {
    std::vector<Finding> out;
    const auto eg = egress_netdevs(h);
    if (eg.empty())
        return {warn("no netdev that is up has an address and a route",
                     "ip addr add ADDRESS/PREFIX dev ETH && ip link set ETH up")};
    RxeNames rxe(h);
    bool any = false;
    std::string first_fix;
    for (const Netdev* n : eg) {
        const RdmaPort* carrier = port_on(h, n->name);
        if (!carrier) {
            const bool wanted = in_pnet_table(h, n->name);
            const std::string fix = rxe_add(rxe.next(), n->name);
            if (first_fix.empty())
                first_fix = fix;
            const std::string text = n->name + " (" + join(n->addrs, ", ") +
                                     "): no RDMA device on it, so connections that leave "
                                     "through it stay on TCP" +
                                     (wanted ? " (the PNET table names it)" : "");
            out.push_back(wanted ? fail(text, fix) : warn(text, fix));
            continue;
        }
        for (const auto& a : n->addrs) {
            const auto want = gid_of(a);
            const Gid* found = nullptr;
            const RdmaPort* on = nullptr;
            for (const auto& p : h.ports)
                for (const auto& g : p.gids)
                    if (!found && want && g.type == "RoCE v2" && g.netdev == n->name &&
                        canonical_gid(g.gid) == *want) {
                        found = &g;
                        on = &p;
                    }
            if (found) {
                any = true;
                out.push_back(ok(n->name + " " + a + ": RoCE v2 GID " + found->gid + " on " +
                                 port_name(*on) + " (index " + std::to_string(found->index) + ")"));
                continue;
            }
            const auto plen = n->prefix.find(a);
            const std::string cidr =
                a + "/" + (plen == n->prefix.end() ? "PREFIX" : std::to_string(plen->second));
            const std::string fix = carrier->parent.empty()
                                        ? "ip addr del " + cidr + " dev " + n->name +
                                              " && ip addr add " + cidr + " dev " + n->name +
                                              "  (the RDMA driver adds a GID per address)"
                                        : "rdma link del " + carrier->device + " && " +
                                              rxe_add(carrier->device, n->name);
            out.push_back(fail(n->name + " " + a + ": " + port_name(*carrier) + " is on " +
                                   n->name + " but has no RoCE v2 GID for this address",
                               fix));
        }
    }
    if (!any)
        out.push_back(fail("no egress netdev has a RoCE v2 GID: SMC-R cannot reach any peer",
                           first_fix.empty() ? "see the fixes above" : first_fix));
    return out;
}

namespace {

// ib_core's allowance for the RoCE v2 headers (iboe_get_mtu): GRH, UDP, BTH, XRC, AtomicETH,
// ICRC.
constexpr unsigned roce_headers = 40 + 8 + 12 + 4 + 28 + 4;

} // namespace

unsigned roce_mtu(unsigned netdev_mtu) {
    unsigned best = 0;
    for (unsigned m = 256; m <= 4096; m *= 2)
        if (m + roce_headers <= netdev_mtu)
            best = m;
    return best;
}

std::vector<Finding> check_mtu(const HostState& h) {
    std::vector<Finding> out;
    for (const Netdev* n : egress_netdevs(h)) {
        if (!port_on(h, n->name))
            continue;
        const unsigned r = roce_mtu(n->mtu);
        std::string text = n->name + " MTU " + std::to_string(n->mtu) + ": RoCE MTU " +
                           (r ? std::to_string(r) : std::string("none (too small)"));
        if (r && r < 4096)
            text += " (" + std::to_string(r * 2) + " needs MTU " +
                    std::to_string(r * 2 + roce_headers) + ")";
        if (n->mtu < 1500)
            out.push_back(warn(text + ": below Ethernet's 1500, RDMA messages are cut small",
                               "ip link set " + n->name + " mtu 1500"));
        else
            out.push_back(ok(text));
    }
    if (out.empty())
        out.push_back(ok("no egress netdev with an RDMA device to check"));
    return out;
}

std::vector<Finding> check_pnet(const HostState& h) {
    if (!h.pnet)
        return {warn("cannot read the PNET table: " + h.smc_error, "modprobe smcx")};
    if (h.pnet->entries.empty())
        return {ok("PNET table is empty: each connection uses the RoCE v2 GID of its egress "
                   "netdev")};
    std::vector<Finding> out;
    std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> ids;
    for (const auto& e : h.pnet->entries) {
        auto& [eths, ibs] = ids[e.pnetid];
        if (!e.eth.empty()) {
            eths.push_back(e.eth);
            const bool exists = std::any_of(h.netdevs.begin(), h.netdevs.end(),
                                            [&](const Netdev& n) { return n.name == e.eth; });
            if (!exists)
                out.push_back(warn("PNET ID " + e.pnetid + " names interface " + e.eth +
                                       ", which does not exist",
                                   "smc_pnet -d " + e.pnetid + "  (then add what is there)"));
        }
        if (!e.ib.empty()) {
            const unsigned port = e.port.value_or(1);
            ibs.push_back(e.ib + " port " + std::to_string(port));
            const bool exists = std::any_of(h.ports.begin(), h.ports.end(), [&](const RdmaPort& p) {
                return p.device == e.ib && p.port == port;
            });
            if (!exists)
                out.push_back(warn("PNET ID " + e.pnetid + " names " + e.ib + " port " +
                                       std::to_string(port) + ", which does not exist",
                                   "smc_pnet -d " + e.pnetid + "  (then add what is there)"));
        }
    }
    for (const auto& [id, both] : ids) {
        const auto& [eths, ibs] = both;
        if (!eths.empty() && ibs.empty()) {
            const RdmaPort* p = port_on(h, eths.front());
            out.push_back(warn("PNET ID " + id + " groups " + join(eths, ", ") +
                                   " but no RDMA device: SMC-R finds no device for them",
                               "smc_pnet -a " + id + " -D " + (p ? p->device : "DEV") + " -P " +
                                   (p ? std::to_string(p->port) : "1")));
        } else {
            out.push_back(
                ok("PNET ID " + id + ": " +
                   join(eths.empty() ? std::vector<std::string>{"no interface"} : eths, ", ") +
                   " with " + join(ibs, ", ")));
        }
    }
    return out;
}

std::vector<Finding> check_ueid(const HostState& h) {
    if (!h.ueids)
        return {warn("cannot read the user EID table: " + h.smc_error, "modprobe smcx")};
    if (!h.ueids->eids.empty())
        return {ok("user EIDs: " + join(h.ueids->eids, ", ") +
                   " (SMC-Rv2 needs one in common with the peer)")};
    const bool v1 = std::any_of(h.ports.begin(), h.ports.end(), [](const RdmaPort& p) {
        return is_roce(p) && std::any_of(p.gids.begin(), p.gids.end(), [](const Gid& g) {
                   return g.type.find("v1") != std::string::npos;
               });
    });
    std::string eid = "SMCX-DEFAULT-UEID";
    if (const auto it = h.modules.smcx.find("ueid");
        it != h.modules.smcx.end() && !it->second.empty())
        eid = it->second;
    const std::string fix = "smcr ueid add " + eid + "  (an EID your peers have too)";
    if (v1)
        return {warn("the user EID table is empty: SMC-Rv2 cannot be agreed with any peer "
                     "(SMC-Rv1 over RoCE v1 GIDs still can)",
                     fix)};
    return {fail("the user EID table is empty: SMC-Rv2 cannot be agreed with any peer, and "
                 "without RoCE v1 GIDs there is no SMC-Rv1 either",
                 fix)};
}

namespace {

// A sysctl whose value `bad` is a reason for a connection not to use SMC.
struct SysctlRule {
    std::string_view name;
    std::string_view bad;
    std::string_view why; // what the bad value means
    std::string_view good;
};

constexpr std::array<SysctlRule, 4> sysctl_rules{{
    {"tcp2smc", "0",
     "TCP sockets stay TCP: only programs that ask for SMC (AF_SMC, IPPROTO_SMC, smc_run) "
     "use it",
     "1"},
    {"limit_smc_hs", "1", "new listeners answer without SMC while their handshakes are congested",
     "0"},
    {"smcx_loopback", "0",
     "connections between sockets of this host do not use SMC-D over the loopback device", "1"},
    {"smcr_testlink_time", "0", "links never test a silent peer: a dead peer goes unnoticed", "30"},
}};

} // namespace

std::vector<Finding> check_sysctl(const HostState& h) {
    if (!h.sysctl_readable)
        return {warn("no /proc/sys/net/smc: no SMC module is loaded", "modprobe smcx")};
    std::vector<Finding> out;
    std::vector<std::string> rest;
    for (const auto& [name, value] : h.sysctls) {
        const auto rule = std::find_if(sysctl_rules.begin(), sysctl_rules.end(),
                                       [&](const SysctlRule& r) { return r.name == name; });
        const std::string key = "net.smc." + name;
        if (rule == sysctl_rules.end()) {
            if (name != "wmem" && name != "rmem")
                rest.push_back(name + "=" + value);
        } else if (value == rule->bad) {
            out.push_back(warn(key + " = " + value + ": " + std::string(rule->why),
                               "sysctl -w " + key + "=" + std::string(rule->good)));
        } else {
            out.push_back(ok(key + " = " + value));
        }
    }
    if (!rest.empty())
        out.push_back(ok("net.smc: " + join(rest, " ")));
    if (out.empty())
        out.push_back(ok("/proc/sys/net/smc has no settings"));
    return out;
}

std::vector<Finding> check_memory(const HostState& h) {
    constexpr unsigned long long smallest = 16 * 1024, largest = 512 * 1024;
    std::vector<Finding> out;
    for (const char* name : {"wmem", "rmem"}) {
        const auto it = h.sysctls.find(name);
        if (it == h.sysctls.end())
            continue;
        const std::string key = std::string("net.smc.") + name;
        const std::string what = std::string(name) == "wmem" ? "send buffer" : "receive buffer";
        unsigned long long v = 0;
        try {
            v = std::stoull(it->second);
        } catch (const std::exception&) {
            out.push_back(warn(key + " reads '" + it->second + "', not a number",
                               "sysctl -w " + key + "=65536"));
            continue;
        }
        unsigned long long size = smallest;
        while (size < v && size < largest)
            size *= 2;
        std::string text = key + " = " + it->second + ": a new connection's " + what + " is " +
                           std::to_string(size / 1024) + " KiB";
        if (v > largest)
            out.push_back(warn(text + "; more than 512 KiB is not used (SMC-R's largest buffer)",
                               "sysctl -w " + key + "=" + std::to_string(largest)));
        else
            out.push_back(ok(text));
    }
    if (const auto it = h.modules.smcx.find("buf_idle_ms"); it != h.modules.smcx.end())
        out.push_back(ok("smcx frees pooled buffers unused for " + it->second + " ms"));
    if (out.empty())
        out.push_back(ok("no buffer settings to check (net.smc.wmem/rmem missing)"));
    return out;
}

namespace {

constexpr CheckSpec check_table[] = {
    {"module", check_module}, {"rdma", check_rdma},     {"gid", check_gid},
    {"mtu", check_mtu},       {"pnet", check_pnet},     {"ueid", check_ueid},
    {"sysctl", check_sysctl}, {"memory", check_memory},
};

} // namespace

std::span<const CheckSpec> checks() {
    return check_table;
}

std::vector<CheckResult> run_checks(const HostState& h) {
    std::vector<CheckResult> out;
    for (const auto& c : check_table)
        out.push_back({std::string(c.name), c.check(h)});
    return out;
}

namespace {

// 16 bytes as sysfs writes a GID: eight groups of four hex digits.
std::string gid_text(const Addr16& b) {
    char buf[8];
    std::string out;
    for (std::size_t i = 0; i < b.size(); i += 2) {
        std::snprintf(buf, sizeof(buf), "%02x%02x", b[i], b[i + 1]);
        out += (i ? ":" : "") + std::string(buf);
    }
    return out;
}

} // namespace

std::optional<std::string> gid_of(std::string_view addr) {
    const auto a = parse_addr(addr);
    return a ? std::optional(gid_text(a->bytes)) : std::nullopt;
}

std::string canonical_gid(std::string_view gid) {
    const auto a = parse_addr(trim_blanks(gid));
    return a && a->family == AF_INET6 ? gid_text(a->bytes) : std::string();
}

// ---- output --------------------------------------------------------------------------------

std::size_t failed(const std::vector<CheckResult>& r) {
    return std::count_if(r.begin(), r.end(),
                         [](const CheckResult& c) { return c.level() == Level::fail; });
}

namespace {

std::size_t warned(const std::vector<CheckResult>& r) {
    return std::count_if(r.begin(), r.end(),
                         [](const CheckResult& c) { return c.level() == Level::warn; });
}

} // namespace

std::string to_text(const std::vector<CheckResult>& r) {
    std::ostringstream o;
    for (const auto& c : r) {
        for (const auto& f : c.findings) {
            std::string head(level_name(f.level));
            head.resize(6, ' ');
            std::string name = c.name;
            name.resize(std::max<std::size_t>(name.size() + 1, 8), ' ');
            o << head << name << f.text << '\n';
            if (!f.fix.empty())
                o << std::string(6 + name.size(), ' ') << "Fix: " << f.fix << '\n';
        }
    }
    const std::size_t nf = failed(r), nw = warned(r);
    o << "doctor: " << r.size() << " checks, " << nf << " failed, " << nw << " with warnings\n";
    return o.str();
}

std::string to_json(const std::vector<CheckResult>& r) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    j.key("checks").begin_array();
    for (const auto& c : r) {
        j.begin_object();
        j.field("name", c.name);
        j.field("level", level_name(c.level()));
        j.key("facts").begin_array();
        for (const auto& f : c.findings) {
            j.begin_object();
            j.field("level", level_name(f.level));
            j.field("text", f.text);
            j.key("fix");
            f.fix.empty() ? j.null() : j.value(f.fix);
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();
    j.field("failed", static_cast<std::uint64_t>(failed(r)));
    j.field("warnings", static_cast<std::uint64_t>(warned(r)));
    j.end_object().finish();
    return o.str();
}

int run(const cmd::Doctor& d, const Options& opt, std::ostream& out) {
    std::vector<CheckResult> r = run_checks(collect());
    if (d.peer)
        r.push_back(probe(*d.peer));
    out << (opt.json ? to_json(r) : to_text(r));
    out.flush();
    return failed(r) ? exit_failed : 0;
}

} // namespace smcctl::doctor

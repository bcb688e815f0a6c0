// SPDX-License-Identifier: GPL-2.0
// smcctl doctor: the command line, the readers on a fake root, each check's decisions, the
// probe's judgement and the output.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "doctor.hpp"
#include "json.hpp"

using namespace smcctl;
using namespace smcctl::test;
using namespace smcctl::doctor;
namespace fs = std::filesystem;

namespace {

// A temporary root directory, removed with the object.
class FakeRoot {
public:
    FakeRoot() {
        std::string tmpl = (fs::temp_directory_path() / "smcctl-doctor-XXXXXX").string();
        if (!mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp failed");
        root_ = tmpl;
    }
    ~FakeRoot() {
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    FakeRoot(const FakeRoot&) = delete;
    FakeRoot& operator=(const FakeRoot&) = delete;

    const fs::path& root() const { return root_; }
    void file(const fs::path& rel, const std::string& content) const {
        fs::create_directories((root_ / rel).parent_path());
        std::ofstream(root_ / rel) << content;
    }

private:
    fs::path root_;
};

constexpr const char* alpha_gid = "0000:0000:0000:0000:0000:ffff:c612:0001";

// The lab's alpha: smcx, rxe0 on eth0 with 198.18.0.1, mgmt0 without RDMA.
HostState lab_host() {
    HostState h;
    h.modules.readable = true;
    h.modules.loaded = {"smcx", "rdma_rxe", "ib_core"};
    h.modules.af_smc_owner = "smcx";
    h.modules.autoload = "smcx";
    h.modules.autoload_source = "/etc/modprobe.d/smcx.conf";
    h.modules.smcx = {{"smcr", "1"}, {"ueid", "SMCX-DEFAULT-UEID"}, {"buf_idle_ms", "30000"}};
    h.rdma_readable = true;
    RdmaPort p;
    p.device = "rxe0";
    p.port = 1;
    p.state = "ACTIVE";
    p.link_layer = "Ethernet";
    p.parent = "eth0";
    p.gids = {{0, "fe80:0000:0000:0000:5054:00ff:fe5c:0001", "RoCE v2", "eth0"},
              {1, alpha_gid, "RoCE v2", "eth0"}};
    h.ports = {p};
    Netdev eth0{"eth0", true, false, 1500, true, {"198.18.0.1"}, {{"198.18.0.1", 24}}};
    Netdev lo{"lo", true, true, 65536, true, {"127.0.0.1"}, {}};
    Netdev mgmt{"mgmt0", true, false, 1500, true, {"198.19.0.15"}, {}};
    h.netdevs = {eth0, lo, mgmt};
    h.sysctl_readable = true;
    h.sysctls = {{"tcp2smc", "1"},
                 {"limit_smc_hs", "0"},
                 {"smcx_loopback", "1"},
                 {"smcr_testlink_time", "30"},
                 {"wmem", "65536"},
                 {"rmem", "65536"},
                 {"autocorking_size", "65536"}};
    h.pnet = PnetTable{};
    h.ueids = UeidTable{{"SMCX-DEFAULT-UEID"}};
    return h;
}

Level worst(const std::vector<Finding>& f) {
    return CheckResult{"x", f}.level();
}

// The finding whose text contains `needle`, or a failed expectation.
Finding with(const std::vector<Finding>& fs, const std::string& needle) {
    for (const auto& f : fs)
        if (contains(f.text, needle))
            return f;
    ADD_FAILURE() << "no finding mentions '" << needle << "'";
    return {};
}

} // namespace

// ---- command line --------------------------------------------------------------------------

TEST(DoctorCli, HostOnly) {
    const auto inv = parse({"smcctl", "doctor"});
    EXPECT_EQ(as<cmd::Doctor>(inv), cmd::Doctor{});
    EXPECT_FALSE(inv.opt.json);
    EXPECT_TRUE(parse({"smcctl", "doctor", "--json"}).opt.json);
    EXPECT_TRUE(parse({"smcctl", "-j", "doc"}).opt.json);
    // "d" stays device
    EXPECT_TRUE(std::holds_alternative<cmd::DevShow>(parse({"smcctl", "d"}).command));
}

TEST(DoctorCli, Peer) {
    auto d = as<cmd::Doctor>(parse({"smcctl", "doctor", "198.18.0.2"}));
    ASSERT_TRUE(d.peer);
    EXPECT_EQ(d.peer->address, "198.18.0.2");
    EXPECT_EQ(d.peer->port, chk_default_port);
    EXPECT_FALSE(d.peer->ipv6);
    d = as<cmd::Doctor>(parse({"smcctl", "doctor", "beta:5000", "-t", "3"}));
    ASSERT_TRUE(d.peer);
    EXPECT_EQ(d.peer->address, "beta");
    EXPECT_EQ(d.peer->port, 5000);
    EXPECT_EQ(d.peer->timeout, 3u);
    d = as<cmd::Doctor>(parse({"smcctl", "doctor", "[fd00::2]:22"}));
    ASSERT_TRUE(d.peer);
    EXPECT_EQ(d.peer->address, "fd00::2");
    EXPECT_EQ(d.peer->port, 22);
    EXPECT_TRUE(d.peer->ipv6);
    d = as<cmd::Doctor>(parse({"smcctl", "doctor", "fd00::2"}));
    ASSERT_TRUE(d.peer);
    EXPECT_EQ(d.peer->address, "fd00::2");
    EXPECT_EQ(d.peer->port, chk_default_port);
    EXPECT_TRUE(d.peer->ipv6);
    d = as<cmd::Doctor>(parse({"smcctl", "doctor", "[198.18.0.2]"}));
    ASSERT_TRUE(d.peer);
    EXPECT_EQ(d.peer->address, "198.18.0.2");
    EXPECT_FALSE(d.peer->ipv6);
}

TEST(DoctorCli, PeerMessages) {
    const auto error_of = [](const std::string& s) {
        return invalid_argument_of([&] { parse_peer(s); });
    };
    EXPECT_EQ(error_of(""), "empty PEER");
    EXPECT_EQ(error_of("[fd00::2"), "PEER '[fd00::2' lacks its ']'");
    EXPECT_EQ(error_of("[fd00::2]22"), "PEER '[fd00::2]22': ':PORT' expected after ']'");
    EXPECT_EQ(error_of("[fd00::2]:"), "invalid port '' (1 to 65535)");
    EXPECT_EQ(error_of("beta:"), "invalid port '' (1 to 65535)");
    EXPECT_EQ(error_of("[]:22"), "PEER '[]:22' has no host");
}

TEST(DoctorCli, Errors) {
    EXPECT_NE(usage_error_of({"smcctl", "doctor", "a", "b"}), "");
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", "beta:0"}), "invalid port"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", "beta:99999"}), "invalid port"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", "[fd00::2"}), "]"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", ":5000"}), "no host"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", "-t", "3"}), "PEER"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", "x", "-t", "0"}), "timeout"));
    EXPECT_TRUE(contains(usage_error_of({"smcctl", "doctor", "-x"}), "-x"));
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smcctl", "doctor", "help"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smcctl", "doctor", "-h"}).command));
    EXPECT_NE(usage_error_of({"smcr", "doctor"}), "");
}

// ---- the clean host ------------------------------------------------------------------------

TEST(Doctor, CleanLabHostHasNoFailure) {
    const auto r = run_checks(lab_host());
    ASSERT_EQ(r.size(), checks().size());
    EXPECT_EQ(failed(r), 0u) << to_text(r);
    // mgmt0 has no RDMA device: a warning, with the soft-RoCE fix
    const auto gid = r[2].findings;
    const Finding m = with(gid, "mgmt0");
    EXPECT_EQ(m.level, Level::warn);
    EXPECT_EQ(m.fix, "rdma link add rxe1 type rxe netdev mgmt0");
    EXPECT_EQ(with(gid, "eth0 198.18.0.1").level, Level::ok);
}

// ---- module --------------------------------------------------------------------------------

TEST(Doctor, StockSmcOwningAfSmcFails) {
    HostState h = lab_host();
    h.modules.loaded = {"smc", "smc_diag"};
    h.modules.af_smc_owner = "smc";
    h.modules.smcx.clear();
    const auto f = check_module(h);
    EXPECT_EQ(worst(f), Level::fail);
    const Finding s = with(f, "stock smc");
    EXPECT_EQ(s.fix, "modprobe -r smc_diag smc && modprobe smcx");
    h.modules.loaded = {"smc"};
    EXPECT_EQ(with(check_module(h), "stock smc").fix, "modprobe -r smc && modprobe smcx");
}

TEST(Doctor, ModuleStates) {
    HostState h = lab_host();
    h.modules.loaded = {"smcx", "smc"};
    EXPECT_EQ(worst(check_module(h)), Level::fail);

    h = lab_host();
    h.modules.smcx["smcr"] = "0";
    EXPECT_EQ(with(check_module(h), "smcr=0").fix, "echo 1 > /sys/module/smcx/parameters/smcr");

    h = lab_host();
    h.modules.autoload = "smc";
    h.modules.autoload_source = "/lib/modules/6.12/modules.alias";
    const Finding a = with(check_module(h), "autoload");
    EXPECT_EQ(a.level, Level::warn);
    EXPECT_TRUE(contains(a.fix, "/etc/modprobe.d/smcx.conf"));

    h.modules.loaded.clear();
    h.modules.af_smc_owner.clear();
    EXPECT_EQ(with(check_module(h), "no SMC module").level, Level::fail);
    h.modules.autoload = "smcx";
    EXPECT_EQ(with(check_module(h), "no SMC module").level, Level::warn);

    h.modules.readable = false;
    EXPECT_EQ(worst(check_module(h)), Level::warn);
}

TEST(DoctorRead, Modules) {
    FakeRoot t;
    t.file("proc/modules", "smcx 1228800 0 - Live 0x0 (OE)\nrdma_rxe 1 0 - Live 0x0\n");
    t.file("proc/net/protocols",
           "protocol  size sockets  memory press maxhdr  slab module     cl co di\n"
           "SMCX6     1234      0       -1   NI       0   yes  smcx       y  n  y\n"
           "SMCX      1234      0       -1   NI       0   yes  smcx       y  n  y\n"
           "TCP       2432      3        1   no     320   yes  kernel     y  y  y\n");
    t.file("sys/module/smcx/parameters/smcr", "1\n");
    t.file("sys/module/smcx/parameters/ueid", "SMCX-DEFAULT-UEID\n");
    t.file("lib/modules/6.12.0/modules.alias",
           "alias net-pf-43 smc\nalias net-pf-16-proto-4-type-43 smc_diag\n");
    auto m = read_modules(t.root(), "6.12.0");
    EXPECT_TRUE(m.readable);
    EXPECT_EQ(m.loaded, (std::set<std::string>{"smcx", "rdma_rxe"}));
    EXPECT_EQ(m.af_smc_owner, "smcx");
    EXPECT_EQ(m.smcx.at("ueid"), "SMCX-DEFAULT-UEID");
    EXPECT_EQ(m.autoload, "smc");
    EXPECT_EQ(m.autoload_source, "/lib/modules/6.12.0/modules.alias");

    // the blacklist hides a module's own alias; a configured alias wins
    t.file("lib/modprobe.d/x.conf", "blacklist smc\n");
    EXPECT_EQ(read_modules(t.root(), "6.12.0").autoload, "");
    t.file("etc/modprobe.d/smcx.conf", "# comment\nalias net-pf-43 smcx\nblacklist smc\n");
    m = read_modules(t.root(), "6.12.0");
    EXPECT_EQ(m.autoload, "smcx");
    EXPECT_EQ(m.autoload_source, "/etc/modprobe.d/smcx.conf");
}

TEST(DoctorRead, GarbageAndMissingFiles) {
    FakeRoot t;
    t.file("proc/net/protocols", "garbage\nSMC\n\x01\x02\n");
    t.file("proc/net/route", "nonsense\nnot a route line\n");
    t.file("proc/net/ipv6_route", "zz\n");
    t.file("proc/net/if_inet6", "short line\n");
    t.file("sys/class/net/eth0/flags", "zzz\n");
    t.file("sys/class/net/eth0/mtu", "-5\n");
    t.file("sys/class/infiniband/rxe0/ports/x/state", "4: ACTIVE\n");
    t.file("sys/class/infiniband/rxe0/ports/1/gids/0", "not a gid\n");
    t.file("sys/class/infiniband/rxe0/ports/1/gids/abc", "::1\n");
    const auto m = read_modules(t.root(), "none");
    EXPECT_FALSE(m.readable);
    EXPECT_EQ(m.af_smc_owner, "");
    bool readable = false;
    const auto ports = read_rdma(t.root(), readable);
    EXPECT_TRUE(readable);
    ASSERT_EQ(ports.size(), 1u);
    EXPECT_TRUE(ports[0].gids.empty());
    const auto n = read_netdevs(t.root());
    ASSERT_EQ(n.size(), 1u);
    EXPECT_FALSE(n[0].up);
    EXPECT_EQ(n[0].mtu, 0u);
    const auto s = read_sysctls(t.root(), readable);
    EXPECT_FALSE(readable);
    EXPECT_TRUE(s.empty());
    // nothing at all: findings, not a crash
    HostState empty;
    const auto r = run_checks(empty);
    EXPECT_GT(failed(r), 0u);
    EXPECT_FALSE(to_text(r).empty());
}

// ---- RDMA and GIDs -------------------------------------------------------------------------

TEST(DoctorRead, RdmaAndNetdevs) {
    FakeRoot t;
    const fs::path p = "sys/class/infiniband/rxe0/ports/1";
    t.file("sys/class/infiniband/rxe0/parent", "eth0\n");
    t.file(p / "state", "4: ACTIVE\n");
    t.file(p / "link_layer", "Ethernet\n");
    t.file(p / "gids/0", "fe80:0000:0000:0000:5054:00ff:fe5c:0001\n");
    t.file(p / "gids/1", std::string(alpha_gid) + "\n");
    t.file(p / "gids/2", "0000:0000:0000:0000:0000:0000:0000:0000\n");
    t.file(p / "gid_attrs/types/1", "RoCE v2\n");
    t.file(p / "gid_attrs/ndevs/1", "eth0\n");
    t.file("sys/class/net/eth0/flags", "0x1003\n");
    t.file("sys/class/net/eth0/operstate", "up\n");
    t.file("sys/class/net/eth0/mtu", "1500\n");
    t.file("sys/class/net/lo/flags", "0x9\n");
    t.file("sys/class/net/lo/operstate", "unknown\n");
    t.file("sys/class/net/eth1/flags", "0x1002\n");
    t.file("proc/net/route", "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\n"
                             "eth0\t001212C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\n");
    t.file("proc/net/ipv6_route",
           "fe800000000000000000000000000000 40 00000000000000000000000000000000 00 "
           "00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth1\n"
           "fd000000000000000000000000000000 40 00000000000000000000000000000000 00 "
           "00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n");
    t.file("proc/net/if_inet6", "fd000000000000000000000000000001 02 40 00 80     eth0\n"
                                "fe80000000000000505400fffe5c0001 02 40 20 80     eth0\n");
    bool readable = false;
    const auto ports = read_rdma(t.root(), readable);
    ASSERT_EQ(ports.size(), 1u);
    EXPECT_EQ(ports[0].state, "ACTIVE");
    EXPECT_EQ(ports[0].parent, "eth0");
    ASSERT_EQ(ports[0].gids.size(), 2u);
    EXPECT_EQ(ports[0].gids[1].netdev, "eth0");
    EXPECT_EQ(ports[0].gids[1].type, "RoCE v2");
    EXPECT_EQ(ports[0].gids[0].netdev, "");
    const auto n = read_netdevs(t.root());
    ASSERT_EQ(n.size(), 3u); // eth0, eth1, lo
    EXPECT_TRUE(n[0].up && n[0].egress && !n[0].loopback);
    EXPECT_EQ(n[0].addrs, std::vector<std::string>{"fd00::1"});
    EXPECT_EQ(n[0].prefix.at("fd00::1"), 64u);
    EXPECT_FALSE(n[1].up);
    EXPECT_FALSE(n[1].egress); // a link-local route only
    EXPECT_TRUE(n[2].loopback);
}

TEST(Doctor, GidOf) {
    EXPECT_EQ(gid_of("198.18.0.1"), alpha_gid);
    EXPECT_EQ(gid_of("fd00::1"), "fd00:0000:0000:0000:0000:0000:0000:0001");
    EXPECT_EQ(gid_of("nonsense"), std::nullopt);
    EXPECT_EQ(canonical_gid(alpha_gid), alpha_gid);
    EXPECT_EQ(canonical_gid("::ffff:198.18.0.1"), alpha_gid);
    EXPECT_EQ(canonical_gid("x"), "");
}

TEST(Doctor, MissingRxeDeviceFails) {
    HostState h = lab_host();
    h.ports.clear(); // rdma link del rxe0
    const auto rdma = check_rdma(h);
    EXPECT_EQ(worst(rdma), Level::fail);
    EXPECT_EQ(rdma.front().fix, "rdma link add rxe0 type rxe netdev eth0");
    const auto gid = check_gid(h);
    EXPECT_EQ(worst(gid), Level::fail);
    EXPECT_EQ(with(gid, "eth0").fix, "rdma link add rxe0 type rxe netdev eth0");
    EXPECT_EQ(with(gid, "no egress netdev").fix, "rdma link add rxe0 type rxe netdev eth0");
}

TEST(Doctor, AddressWithoutGidFails) {
    HostState h = lab_host();
    h.netdevs[0].addrs.push_back("198.18.5.1");
    h.netdevs[0].prefix["198.18.5.1"] = 24;
    const auto gid = check_gid(h);
    const Finding f = with(gid, "198.18.5.1");
    EXPECT_EQ(f.level, Level::fail);
    EXPECT_EQ(f.fix, "rdma link del rxe0 && rdma link add rxe0 type rxe netdev eth0");
    // a hardware device: the address is added again
    h.ports[0].parent.clear();
    EXPECT_TRUE(contains(with(check_gid(h), "198.18.5.1").fix,
                         "ip addr del 198.18.5.1/24 dev eth0 && ip addr add 198.18.5.1/24"));
    // a GID of the wrong type does not count
    h = lab_host();
    h.ports[0].gids[1].type = "IB/RoCE v1";
    EXPECT_EQ(with(check_gid(h), "198.18.0.1").level, Level::fail);
}

TEST(Doctor, PnetNamedNetdevWithoutDeviceFails) {
    HostState h = lab_host();
    h.pnet->entries.push_back({"NET1", "mgmt0", "", std::nullopt});
    EXPECT_EQ(with(check_gid(h), "mgmt0").level, Level::fail);
}

TEST(Doctor, PortStates) {
    HostState h = lab_host();
    h.ports[0].state = "DOWN";
    const auto f = check_rdma(h);
    EXPECT_EQ(with(f, "rxe0 port 1").fix, "ip link set eth0 up");
    EXPECT_EQ(with(f, "no RoCE port is ACTIVE").level, Level::fail);
    h = lab_host();
    RdmaPort ib;
    ib.device = "mlx5_0";
    ib.port = 1;
    ib.state = "ACTIVE";
    ib.link_layer = "InfiniBand";
    h.ports.push_back(ib);
    EXPECT_EQ(with(check_rdma(h), "not RoCE").level, Level::ok);
}

// ---- MTU -----------------------------------------------------------------------------------

TEST(Doctor, Mtu) {
    EXPECT_EQ(roce_mtu(1500), 1024u);
    EXPECT_EQ(roce_mtu(2143), 1024u);
    EXPECT_EQ(roce_mtu(2144), 2048u);
    EXPECT_EQ(roce_mtu(9000), 4096u);
    EXPECT_EQ(roce_mtu(300), 0u);
    HostState h = lab_host();
    EXPECT_EQ(with(check_mtu(h), "eth0 MTU 1500").text,
              "eth0 MTU 1500: RoCE MTU 1024 (2048 needs MTU 2144)");
    h.netdevs[0].mtu = 1280;
    EXPECT_EQ(with(check_mtu(h), "eth0 MTU 1280").fix, "ip link set eth0 mtu 1500");
}

// ---- PNET and user EIDs --------------------------------------------------------------------

TEST(Doctor, Pnet) {
    HostState h = lab_host();
    EXPECT_EQ(worst(check_pnet(h)), Level::ok);
    h.pnet->entries = {{"SMCXLAB", "eth0", "", std::nullopt},
                       {"SMCXLAB", "", "rxe0", std::uint8_t{1}}};
    EXPECT_EQ(with(check_pnet(h), "SMCXLAB").text, "PNET ID SMCXLAB: eth0 with rxe0 port 1");
    h.pnet->entries = {{"NET1", "eth9", "", std::nullopt}, {"NET1", "", "rxe7", std::uint8_t{2}}};
    const auto f = check_pnet(h);
    EXPECT_EQ(with(f, "eth9").level, Level::warn);
    EXPECT_EQ(with(f, "rxe7 port 2").level, Level::warn);
    h.pnet->entries = {{"NET2", "eth0", "", std::nullopt}};
    EXPECT_EQ(with(check_pnet(h), "no RDMA device").fix, "smc_pnet -a NET2 -D rxe0 -P 1");
    h.pnet.reset();
    h.smc_error = "SMC module not loaded";
    EXPECT_TRUE(contains(with(check_pnet(h), "cannot read").text, "SMC module not loaded"));
}

TEST(Doctor, EmptyUeidTable) {
    HostState h = lab_host();
    EXPECT_EQ(worst(check_ueid(h)), Level::ok);
    h.ueids->eids.clear();
    const auto f = check_ueid(h);
    // rxe has RoCE v2 GIDs only: no SMC-R at all
    EXPECT_EQ(worst(f), Level::fail);
    EXPECT_TRUE(contains(f.front().fix, "smcr ueid add SMCX-DEFAULT-UEID"));
    h.ports[0].gids.push_back({2, "fe80::1", "IB/RoCE v1", "eth0"});
    EXPECT_EQ(worst(check_ueid(h)), Level::warn);
}

// ---- sysctls and memory --------------------------------------------------------------------

TEST(Doctor, SysctlOff) {
    HostState h = lab_host();
    EXPECT_EQ(worst(check_sysctl(h)), Level::ok);
    h.sysctls["tcp2smc"] = "0";
    EXPECT_EQ(with(check_sysctl(h), "tcp2smc").fix, "sysctl -w net.smc.tcp2smc=1");
    h.sysctls["limit_smc_hs"] = "1";
    EXPECT_EQ(with(check_sysctl(h), "limit_smc_hs").fix, "sysctl -w net.smc.limit_smc_hs=0");
    h.sysctls["smcx_loopback"] = "0";
    EXPECT_EQ(with(check_sysctl(h), "smcx_loopback").level, Level::warn);
    EXPECT_EQ(with(check_sysctl(h), "net.smc: ").text, "net.smc: autocorking_size=65536");
    h.sysctl_readable = false;
    h.sysctls.clear();
    EXPECT_EQ(check_sysctl(h).front().fix, "modprobe smcx");
}

TEST(Doctor, Memory) {
    HostState h = lab_host();
    EXPECT_EQ(with(check_memory(h), "wmem").text,
              "net.smc.wmem = 65536: a new connection's send buffer is 64 KiB");
    h.sysctls["rmem"] = "100000";
    EXPECT_TRUE(contains(with(check_memory(h), "rmem").text, "128 KiB"));
    h.sysctls["rmem"] = "4194304";
    EXPECT_EQ(with(check_memory(h), "rmem").fix, "sysctl -w net.smc.rmem=524288");
    h.sysctls["wmem"] = "lots";
    EXPECT_EQ(with(check_memory(h), "wmem").level, Level::warn);
}

// ---- the probe -----------------------------------------------------------------------------

TEST(Doctor, ProbeJudgement) {
    SmcSocket s;
    s.peer_addr = "198.18.0.2";
    s.peer_port = 5000;
    s.mode = static_cast<std::uint8_t>(SocketMode::smcr);
    s.link = LinkInfo{};
    s.link->ibdev = "rxe0";
    s.link->ibport = 1;
    auto f = judge_probe(s);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].level, Level::ok);
    EXPECT_TRUE(contains(f[0].text, "connection to 198.18.0.2:5000: SMC-R over rxe0 port 1"));

    s.mode = static_cast<std::uint8_t>(SocketMode::tcp);
    s.link.reset();
    s.fallback = FallbackInfo{0x03010000, 0};
    f = judge_probe(s);
    EXPECT_EQ(f[0].level, Level::fail);
    EXPECT_TRUE(contains(f[0].text, "TCP fallback, reason PEER_NO_SMC (0x03010000)"));
    EXPECT_TRUE(contains(f[0].fix, "smc_run"));

    // the peer declined: its reason is the one to act on, on the peer
    s.fallback = FallbackInfo{0x05000000, 0x03030000};
    f = judge_probe(s);
    EXPECT_TRUE(contains(f[0].text, "the peer's reason"));
    EXPECT_TRUE(contains(f[0].fix, "on the peer: "));
}

// ---- output --------------------------------------------------------------------------------

TEST(Doctor, TextAndJson) {
    HostState h = lab_host();
    h.sysctls["tcp2smc"] = "0";
    h.ueids->eids.clear();
    const auto r = run_checks(h);
    const std::string text = to_text(r);
    EXPECT_TRUE(contains(text, "warn  sysctl  net.smc.tcp2smc = 0: "));
    EXPECT_TRUE(contains(text, "              Fix: sysctl -w net.smc.tcp2smc=1\n"));
    EXPECT_TRUE(contains(text, "fail  ueid    the user EID table is empty"));
    EXPECT_TRUE(contains(text, "doctor: 8 checks, 1 failed, 2 with warnings\n"));
    const std::string json = to_json(r);
    EXPECT_TRUE(contains(json, "\"failed\": 1"));
    EXPECT_TRUE(contains(json, "\"fix\": \"sysctl -w net.smc.tcp2smc=1\""));
    EXPECT_TRUE(contains(json, "\"name\": \"ueid\",\n      \"level\": \"fail\""));
    EXPECT_TRUE(contains(json, "\"fix\": null"));
}

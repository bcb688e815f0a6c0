// SPDX-License-Identifier: GPL-2.0
// smcr linkgroup / smcr device: command line, reply decoding, selection and formatting.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cli_util.hpp"
#include "client.hpp"
#include "format.hpp"
#include "genl_reply.hpp"
#include "nl.hpp"
#include "uapi/linux/smc.h"

using namespace smcctl;
using namespace smcctl::test;

namespace {

// A link group message of SMC_NETLINK_GET_LINK_SMCR, SMC-Rv2 with its nests.
Reply lgr_reply(std::uint32_t id) {
    Reply r(SMC_NETLINK_GET_LINK_SMCR);
    r.begin(SMC_GEN_LGR_SMCR);
    r.u32(SMC_NLA_LGR_R_ID, id).u8(SMC_NLA_LGR_R_ROLE, 1).u8(SMC_NLA_LGR_R_TYPE, 1);
    r.u8(SMC_NLA_LGR_R_BUF_TYPE, 0).u8(SMC_NLA_LGR_R_VLAN_ID, 0);
    r.u64(SMC_NLA_LGR_R_NET_COOKIE, 1).u32(SMC_NLA_LGR_R_CONNS_NUM, 2);
    r.str(SMC_NLA_LGR_R_PNETID, "SMCXLAB         ");
    r.u64(SMC_NLA_LGR_R_SNDBUF_ALLOC, 131072).u64(SMC_NLA_LGR_R_RMB_ALLOC, 65536);
    r.begin(SMC_NLA_LGR_R_V2_COMMON);
    r.u8(SMC_NLA_LGR_V2_VER, 2).u8(SMC_NLA_LGR_V2_REL, 1).u8(SMC_NLA_LGR_V2_OS, 2);
    r.str(SMC_NLA_LGR_V2_PEER_HOST, "alpha                           ");
    r.str(SMC_NLA_LGR_V2_NEG_EID, "SMCX-LAB-UEID                   ");
    r.end();
    r.begin(SMC_NLA_LGR_R_V2);
    r.u8(SMC_NLA_LGR_R_V2_DIRECT, 1).u8(SMC_NLA_LGR_R_V2_MAX_CONNS, 255);
    r.u8(SMC_NLA_LGR_R_V2_MAX_LINKS, 2);
    r.end();
    r.end();
    return r;
}

Reply link_reply(std::uint8_t id, std::uint32_t ifindex, const char* ibdev) {
    Reply r(SMC_NETLINK_GET_LINK_SMCR);
    const std::uint8_t uid_bytes[4] = {0x00, 0x00, 0x01, id};
    std::uint32_t uid;
    std::memcpy(&uid, uid_bytes, 4);
    r.begin(SMC_GEN_LINK_SMCR);
    r.u8(SMC_NLA_LINK_ID, id).str(SMC_NLA_LINK_IB_DEV, ibdev).u8(SMC_NLA_LINK_IB_PORT, 1);
    r.str(SMC_NLA_LINK_GID, "0000:0000:0000:0000:0000:ffff:c612:0002");
    r.str(SMC_NLA_LINK_PEER_GID, "0000:0000:0000:0000:0000:ffff:c612:0001");
    r.u32(SMC_NLA_LINK_CONN_CNT, 2).u32(SMC_NLA_LINK_NET_DEV, ifindex);
    r.u32(SMC_NLA_LINK_UID, uid).u32(SMC_NLA_LINK_PEER_UID, uid).u32(SMC_NLA_LINK_STATE, 3);
    r.end();
    return r;
}

LinkGroupTable sample_lgrs() {
    LinkGroupTable t;
    t.with_links = true;
    LinkGroup g;
    g.id = 0x100;
    g.role = 1;
    g.type = 1;
    g.pnetid = "SMCXLAB";
    g.conns = 2;
    g.net_cookie = 1;
    g.buf_type = 0;
    LgrV2 v2;
    v2.version = 2;
    v2.release = 1;
    v2.peer_os = 2;
    v2.peer_host = "alpha";
    v2.negotiated_eid = "SMCX-LAB-UEID";
    v2.direct = true;
    v2.max_conns = 255;
    v2.max_links = 2;
    g.v2 = v2;
    Link l;
    l.id = 1;
    l.ibdev = "rxe0";
    l.ibport = 1;
    l.gid = "0000:0000:0000:0000:0000:ffff:c612:0002";
    l.peer_gid = "0000:0000:0000:0000:0000:ffff:c612:0001";
    l.conns = 2;
    l.netdev_ifindex = 2;
    l.netdev = "eth0";
    const std::uint8_t uid[4] = {0, 0, 1, 1};
    std::memcpy(&l.uid, uid, 4);
    l.peer_uid = l.uid;
    l.state = 3;
    g.links.push_back(l);
    t.groups.push_back(g);

    LinkGroup g2;
    g2.id = 0x200;
    g2.type = 2;
    g2.conns = 0;
    g2.vlan = 5;
    Link l2 = l;
    l2.ibdev = "rxe1";
    l2.netdev = "eth1";
    l2.conns = 0;
    g2.links.push_back(l2);
    Link l3 = l2; // a SYMMETRIC group: a second link, on another device
    l3.id = 2;
    l3.ibdev = "rxe2";
    l3.netdev = "eth2";
    g2.links.push_back(l3);
    t.groups.push_back(g2);
    return t;
}

DeviceTable sample_devices() {
    DeviceTable t;
    Device d;
    d.ibdev = "rxe0";
    d.critical = true;
    DevicePort p;
    p.number = 1;
    p.pnetid = "SMCXLAB";
    p.pnetid_by_user = true;
    p.netdev_ifindex = 2;
    p.netdev = "eth0";
    p.active = true;
    p.valid = true;
    p.links = 1;
    d.ports.push_back(p);
    t.devices.push_back(d);

    Device m;
    m.ibdev = "mlx5_0";
    m.pci = PciInfo{0x12, 0x3a, 0x15b3, 0x1016, "0000:00:04.0"};
    DevicePort q = p;
    q.netdev = "ens4";
    q.pnetid = "NET2";
    q.pnetid_by_user = false;
    q.active = false;
    q.links = 0;
    m.ports.push_back(q);
    DevicePort invalid = q;
    invalid.number = 2;
    invalid.valid = false;
    m.ports.push_back(invalid);
    t.devices.push_back(m);
    return t;
}

} // namespace

// ---- command line ----------------------------------------------------------------------------

TEST(LgrCli, ShowIsTheDefault) {
    const auto s = as<cmd::LgrShow>(parse({"smcr", "linkgroup"}));
    EXPECT_FALSE(s.links);
    EXPECT_EQ(s, as<cmd::LgrShow>(parse({"smcr", "linkgroup", "show"})));
    EXPECT_EQ(s, as<cmd::LgrShow>(parse({"smcr", "l", "sh", "all"})));
    EXPECT_EQ(s, as<cmd::LgrShow>(parse({"smcctl", "linkgroup", "all"})));
}

TEST(LgrCli, LinkShowWithDetails) {
    auto inv = parse({"smcr", "linkgroup", "link-show", "-d"});
    EXPECT_TRUE(as<cmd::LgrShow>(inv).links);
    EXPECT_EQ(inv.opt.detail_level, 1u);
    inv = parse({"smcr", "-dd", "linkgroup", "link-show"});
    EXPECT_EQ(inv.opt.detail_level, 2u);
    inv = parse({"smcr", "-d", "linkgroup", "link-show", "-d"});
    EXPECT_EQ(inv.opt.detail_level, 2u);
    inv = parse({"smcr", "linkgroup", "link", "--json"});
    EXPECT_TRUE(inv.opt.json);
    EXPECT_TRUE(as<cmd::LgrShow>(inv).links);
    inv = parse({"smcr", "linkgroup", "-j"});
    EXPECT_TRUE(inv.opt.json);
}

TEST(LgrCli, Filters) {
    auto s = as<cmd::LgrShow>(parse({"smcr", "linkgroup", "show", "00000100"}));
    EXPECT_EQ(s.lgid, 0x100u);
    // A link id names its link group.
    s = as<cmd::LgrShow>(parse({"smcr", "linkgroup", "link-show", "0x00000101"}));
    EXPECT_EQ(s.lgid, 0x100u);
    s = as<cmd::LgrShow>(parse({"smcr", "linkgroup", "link-show", "ibdev", "rxe0"}));
    EXPECT_EQ(s.ibdev, "rxe0");
    s = as<cmd::LgrShow>(parse({"smcr", "linkgroup", "all", "netdev", "eth0"}));
    EXPECT_EQ(s.netdev, "eth0");
    EXPECT_FALSE(s.lgid);
}

TEST(LgrCli, Errors) {
    EXPECT_TRUE(contains(usage_error_of({"smcr", "linkgroup", "show", "xyz"}), "invalid link"));
    EXPECT_TRUE(contains(usage_error_of({"smcr", "linkgroup", "123456789"}), "invalid link"));
    EXPECT_TRUE(contains(usage_error_of({"smcr", "linkgroup", "ibdev"}), "needs a device"));
    EXPECT_TRUE(contains(usage_error_of({"smcr", "linkgroup", "100", "200"}), "unexpected"));
    EXPECT_TRUE(contains(usage_error_of({"smcr", "linkgroup", "-x"}), "unknown option"));
    const auto help = as<cmd::Help>(parse({"smcr", "linkgroup", "help"}));
    EXPECT_TRUE(contains(help.text, "link-show"));
}

TEST(DevCli, ShowAndFilters) {
    EXPECT_EQ(as<cmd::DevShow>(parse({"smcr", "device"})), cmd::DevShow{});
    EXPECT_EQ(as<cmd::DevShow>(parse({"smcr", "device", "show", "all"})), cmd::DevShow{});
    auto inv = parse({"smcr", "dev", "-d", "netdev", "eth0"});
    EXPECT_EQ(as<cmd::DevShow>(inv).netdev, "eth0");
    EXPECT_EQ(inv.opt.detail_level, 1u);
    EXPECT_EQ(as<cmd::DevShow>(parse({"smcctl", "device", "ibdev", "rxe0"})).ibdev, "rxe0");
    EXPECT_TRUE(contains(usage_error_of({"smcr", "device", "show", "rxe0"}), "unexpected"));
    EXPECT_TRUE(contains(usage_error_of({"smcr", "device", "netdev", "a/b"}), "interface name"));
}

// ---- reply decoding ------------------------------------------------------------------------

TEST(LgrWire, LinkDumpNestsLinksUnderTheirGroup) {
    LinkGroupTable t;
    auto g1 = lgr_reply(0x100);
    auto l1 = link_reply(1, 2, "rxe0");
    auto g2 = lgr_reply(0x200);
    auto l2 = link_reply(1, 3, "rxe1");
    auto l3 = link_reply(2, 3, "rxe1");
    for (nlmsghdr* h : {g1.hdr(), l1.hdr(), g2.hdr(), l2.hdr(), l3.hdr()})
        wire::decode_lgr_smcr(h, t);
    ASSERT_EQ(t.groups.size(), 2u);
    const LinkGroup& g = t.groups[0];
    EXPECT_EQ(g.id, 0x100u);
    EXPECT_EQ(g.role, 1);
    EXPECT_EQ(g.type, 1);
    EXPECT_EQ(g.pnetid, "SMCXLAB");
    EXPECT_EQ(g.conns, 2u);
    EXPECT_EQ(g.net_cookie, 1u);
    EXPECT_EQ(g.sndbuf_alloc, 131072u);
    ASSERT_TRUE(g.v2);
    EXPECT_EQ(g.v2->version, 2); // attribute type 0 of the nest
    EXPECT_EQ(g.v2->release, 1);
    EXPECT_EQ(g.v2->peer_os, 2);
    EXPECT_EQ(g.v2->peer_host, "alpha");
    EXPECT_EQ(g.v2->negotiated_eid, "SMCX-LAB-UEID");
    EXPECT_EQ(g.v2->direct, true);
    EXPECT_EQ(g.v2->max_links, 2);
    ASSERT_EQ(g.links.size(), 1u);
    EXPECT_EQ(g.links[0].ibdev, "rxe0");
    EXPECT_EQ(g.links[0].netdev_ifindex, 2u);
    EXPECT_EQ(g.links[0].state, 3u);
    ASSERT_EQ(t.groups[1].links.size(), 2u);
    EXPECT_EQ(t.groups[1].links[1].id, 2);
}

TEST(LgrWire, LinkBeforeAnyGroupIsMalformed) {
    LinkGroupTable t;
    auto l = link_reply(1, 2, "rxe0");
    EXPECT_THROW(wire::decode_lgr_smcr(l.hdr(), t), nl::malformed_reply);
}

TEST(LgrWire, V1GroupHasNoV2Part) {
    Reply r(SMC_NETLINK_GET_LGR_SMCR);
    r.begin(SMC_GEN_LGR_SMCR).u32(SMC_NLA_LGR_R_ID, 0x300).end();
    LinkGroupTable t;
    wire::decode_lgr_smcr(r.hdr(), t);
    ASSERT_EQ(t.groups.size(), 1u);
    EXPECT_FALSE(t.groups[0].v2);
    EXPECT_FALSE(t.groups[0].net_cookie);
}

TEST(DevWire, RdmaDeviceWithPorts) {
    Reply r(SMC_NETLINK_GET_DEV_SMCR);
    r.begin(SMC_GEN_DEV_SMCR);
    r.u8(SMC_NLA_DEV_IS_CRIT, 1).str(SMC_NLA_DEV_IB_NAME, "mlx5_0");
    r.u32(SMC_NLA_DEV_PCI_FID, 0x12).u16(SMC_NLA_DEV_PCI_CHID, 0x3a);
    r.u16(SMC_NLA_DEV_PCI_VENDOR, 0x15b3).u16(SMC_NLA_DEV_PCI_DEVICE, 0x1016);
    r.str(SMC_NLA_DEV_PCI_ID, "0000:00:04.0");
    r.begin(SMC_NLA_DEV_PORT);
    r.u8(SMC_NLA_DEV_PORT_PNET_USR, 1).str(SMC_NLA_DEV_PORT_PNETID, "NET1            ");
    r.u32(SMC_NLA_DEV_PORT_NETDEV, 4).u8(SMC_NLA_DEV_PORT_VALID, 1);
    r.u8(SMC_NLA_DEV_PORT_STATE, 1).u32(SMC_NLA_DEV_PORT_LNK_CNT, 3);
    r.end();
    r.begin(SMC_NLA_DEV_PORT2);
    r.u8(SMC_NLA_DEV_PORT_PNET_USR, 0).str(SMC_NLA_DEV_PORT_PNETID, "");
    r.u32(SMC_NLA_DEV_PORT_NETDEV, 0).u8(SMC_NLA_DEV_PORT_VALID, 1);
    r.u8(SMC_NLA_DEV_PORT_STATE, 0).u32(SMC_NLA_DEV_PORT_LNK_CNT, 0);
    r.end();
    r.end();
    const auto d = wire::decode_dev_smcr(r.hdr());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->ibdev, "mlx5_0");
    EXPECT_TRUE(d->critical);
    ASSERT_TRUE(d->pci);
    EXPECT_EQ(d->pci->fid, 0x12u);
    EXPECT_EQ(d->pci->device, 0x1016);
    EXPECT_EQ(d->pci->id, "0000:00:04.0");
    ASSERT_EQ(d->ports.size(), 2u);
    EXPECT_EQ(d->ports[0].number, 1);
    EXPECT_EQ(d->ports[0].pnetid, "NET1");
    EXPECT_TRUE(d->ports[0].pnetid_by_user && d->ports[0].active && d->ports[0].valid);
    EXPECT_EQ(d->ports[0].netdev_ifindex, 4u);
    EXPECT_EQ(d->ports[0].links, 3u);
    EXPECT_EQ(d->ports[1].number, 2);
    EXPECT_FALSE(d->ports[1].active);
}

TEST(DevWire, SoftRoceHasNoPci) {
    Reply r(SMC_NETLINK_GET_DEV_SMCR);
    r.begin(SMC_GEN_DEV_SMCR).u8(SMC_NLA_DEV_IS_CRIT, 0).str(SMC_NLA_DEV_IB_NAME, "rxe0").end();
    const auto d = wire::decode_dev_smcr(r.hdr());
    ASSERT_TRUE(d);
    EXPECT_FALSE(d->pci);
    EXPECT_TRUE(d->ports.empty());
    Reply empty(SMC_NETLINK_GET_DEV_SMCR);
    EXPECT_FALSE(wire::decode_dev_smcr(empty.hdr()));
}

// ---- selection ------------------------------------------------------------------------------

TEST(LgrSelect, ByIdAndDevice) {
    const LinkGroupTable t = sample_lgrs();
    LgrView v;
    EXPECT_EQ(select_linkgroups(t, v).groups.size(), 2u);
    v.lgid = 0x200;
    ASSERT_EQ(select_linkgroups(t, v).groups.size(), 1u);
    EXPECT_EQ(select_linkgroups(t, v).groups[0].id, 0x200u);
    v = LgrView{};
    v.ibdev = "rxe0";
    ASSERT_EQ(select_linkgroups(t, v).groups.size(), 1u);
    v.ibdev.reset();
    v.netdev = "eth1";
    ASSERT_EQ(select_linkgroups(t, v).groups.size(), 1u);
    EXPECT_EQ(select_linkgroups(t, v).groups[0].id, 0x200u);
    v.netdev = "eth9";
    EXPECT_TRUE(select_linkgroups(t, v).groups.empty());
}

TEST(DevSelect, ByDevice) {
    const DeviceTable t = sample_devices();
    DevView v;
    v.ibdev = "mlx5_0";
    ASSERT_EQ(select_devices(t, v).devices.size(), 1u);
    v = DevView{};
    v.netdev = "eth0";
    ASSERT_EQ(select_devices(t, v).devices.size(), 1u);
    EXPECT_EQ(select_devices(t, v).devices[0].ibdev, "rxe0");
}

// ---- text ------------------------------------------------------------------------------------

TEST(LgrText, Show) {
    LgrView v;
    EXPECT_EQ(to_text(sample_lgrs(), v),
              "LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID  #Links\n"
              "00000100  SERV     SINGLE      0       2  SMCXLAB       1\n"
              "00000200  CLNT     SYM         5       0  -             2\n");
    v.detail = 1;
    const std::string d = to_text(sample_lgrs(), v);
    EXPECT_TRUE(contains(d, "#Links  SMC-Ver  Peer-OS  Peer-Host  Neg-EID\n")) << d;
    EXPECT_TRUE(contains(d, "SMCXLAB       1  2.1      Linux    alpha      SMCX-LAB-UEID\n")) << d;
    EXPECT_TRUE(contains(d, "-             2  1        -        -          -\n")) << d;
}

TEST(LgrText, ShowCountsLinksOfEveryState) {
    LinkGroupTable t = sample_lgrs();
    t.groups[0].links.push_back(t.groups[0].links[0]);
    t.groups[0].links[1].id = 2;
    t.groups[0].links[1].state = 2; // ACTIVATING counts too: the dump lists it
    t.groups[1].links.clear();
    LgrView v;
    const std::string s = to_text(t, v);
    EXPECT_TRUE(contains(s, "SMCXLAB       2\n")) << s;
    EXPECT_TRUE(contains(s, "-             0\n")) << s;
    t.with_links = false; // not fetched: unknown, not 0
    EXPECT_TRUE(contains(to_text(t, v), "SMCXLAB       -\n")) << to_text(t, v);
}

TEST(LgrText, LinkShowLevels) {
    LgrView v;
    v.links = true;
    EXPECT_EQ(to_text(sample_lgrs(), v),
              "LG-ID     LG-Role  LG-Type  Net-Dev  Link-State   #Conns\n"
              "00000100  SERV     SINGLE   eth0     LINK_ACTIVE       2\n"
              "00000200  CLNT     SYM      eth1     LINK_ACTIVE       0\n"
              "00000200  CLNT     SYM      eth2     LINK_ACTIVE       0\n");
    v.detail = 1;
    std::string t = to_text(sample_lgrs(), v);
    EXPECT_TRUE(contains(t, "#Conns  Link-UID  Peer-UID  IB-Dev  IB-P\n")) << t;
    EXPECT_TRUE(contains(t, "2  00000101  00000101  rxe0       1\n")) << t;
    EXPECT_FALSE(contains(t, "Local-GID"));
    v.detail = 2;
    t = to_text(sample_lgrs(), v);
    EXPECT_TRUE(contains(t, "IB-P  Local-GID                                Peer-GID\n")) << t;
    EXPECT_TRUE(contains(t, "1  0000:0000:0000:0000:0000:ffff:c612:0002  "
                            "0000:0000:0000:0000:0000:ffff:c612:0001\n"))
        << t;
}

TEST(DevText, OneLinePerValidPort) {
    DevView v;
    EXPECT_EQ(to_text(sample_devices(), v),
              "Net-Dev  IB-Dev  IB-P  IB-State  Type           Crit  #Links  PNET-ID\n"
              "eth0     rxe0       1  ACTIVE    -              Yes        1  *SMCXLAB\n"
              "ens4     mlx5_0     1  INACTIVE  RoCE_Express2  No         0  NET2\n");
    v.detail = 1;
    const std::string t = to_text(sample_devices(), v);
    EXPECT_TRUE(contains(t, "Crit  FID   PCI-ID        PCHID  #Links")) << t;
    EXPECT_TRUE(contains(t, "No    0012  0000:00:04.0  003a        0  NET2\n")) << t;
    EXPECT_TRUE(contains(t, "Yes   -     -             -           1  *SMCXLAB\n")) << t;
}

// ---- JSON ------------------------------------------------------------------------------------

TEST(LgrJson, GroupsWithLinks) {
    const std::string j = to_json(sample_lgrs());
    for (const char* s : {"\"linkgroups\": [",        "\"id\": 256",
                          "\"id_hex\": \"00000100\"", "\"role\": \"SERV\"",
                          "\"type\": \"SINGLE\"",     "\"pnetid\": \"SMCXLAB\"",
                          "\"net_cookie\": 1",        "\"buf_type\": \"physical\"",
                          "\"version\": 2",           "\"peer_os\": \"Linux\"",
                          "\"peer_host\": \"alpha\"", "\"negotiated_eid\": \"SMCX-LAB-UEID\"",
                          "\"direct\": true",         "\"links\": [",
                          "\"ib_device\": \"rxe0\"",  "\"netdev\": \"eth0\"",
                          "\"uid\": \"00000101\"",    "\"state\": \"LINK_ACTIVE\"",
                          "\"pnetid\": null",         "\"v2\": null",
                          "\"sndbuf_alloc\": null"})
        EXPECT_TRUE(contains(j, s)) << s << "\n" << j;
}

TEST(LgrJson, LinksNullWhenNotFetched) {
    LinkGroupTable t = sample_lgrs();
    t.with_links = false;
    EXPECT_TRUE(contains(to_json(t), "\"links\": null"));
    EXPECT_EQ(to_json(LinkGroupTable{}), "{\n  \"linkgroups\": []\n}\n");
}

TEST(DevJson, Devices) {
    const std::string j = to_json(sample_devices());
    for (const char* s :
         {"\"devices\": [", "\"ib_device\": \"rxe0\"", "\"critical\": true", "\"pci\": null",
          "\"port\": 1", "\"pnetid_by_user\": true", "\"netdev\": \"eth0\"",
          "\"netdev_ifindex\": 2", "\"active\": true", "\"links\": 1", "\"device\": \"0x1016\"",
          "\"id\": \"0000:00:04.0\"", "\"type\": \"RoCE_Express2\"", "\"valid\": false"})
        EXPECT_TRUE(contains(j, s)) << s << "\n" << j;
}

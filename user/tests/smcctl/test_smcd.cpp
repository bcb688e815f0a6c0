// SPDX-License-Identifier: GPL-2.0
// smcd and the seid object: command line, reply decoding, formatting (text and JSON), and the
// "no SMC-D device" answers.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "app.hpp"
#include "cli_util.hpp"
#include "client.hpp"
#include "format.hpp"
#include "genl_reply.hpp"
#include "uapi/linux/smc.h"

using namespace smcctl;
using namespace smcctl::test;

namespace {

SmcdLinkGroupTable sample_smcd_lgrs() {
    SmcdLinkGroupTable t;
    SmcdLinkGroup g;
    g.id = 0x1200;
    g.gid = 0x1122334455667788ull;
    g.peer_gid = 0x8877665544332211ull;
    g.peer_gid_ext = 0x99;
    g.vlan = 7;
    g.conns = 3;
    g.pnetid = "NETD";
    g.chid = 0x3f;
    LgrV2 v2;
    v2.version = 2;
    v2.release = 1;
    v2.peer_os = 1;
    v2.peer_host = "zos1";
    v2.negotiated_eid = "EID-X";
    g.v2 = v2;
    t.groups.push_back(g);
    SmcdLinkGroup v1;
    v1.id = 0x1300;
    t.groups.push_back(v1);
    return t;
}

} // namespace

// ---- command line ---------------------------------------------------------------------------

TEST(SmcdCli, Personality) {
    EXPECT_EQ(personality_from_argv0("/usr/sbin/smcd"), Personality::smcd);
    EXPECT_EQ(personality_name(Personality::smcd), "smcd");
    EXPECT_EQ(parse({"smcd", "info"}).prog, "smcd");
}

TEST(SmcdCli, Objects) {
    EXPECT_TRUE(std::holds_alternative<cmd::InfoShow>(parse({"smcd", "info"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::StatsShow>(parse({"smcd", "stats"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::UeidShow>(parse({"smcd", "ueid"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::SeidShow>(parse({"smcd", "seid"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::SmcdLgrShow>(parse({"smcd", "linkgroup"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::SmcdDevShow>(parse({"smcd", "device"}).command));
    // smcd has no pnet and no SMC-R filters
    EXPECT_TRUE(contains(usage_error_of({"smcd", "pnet"}), "unknown object"));
    EXPECT_TRUE(contains(usage_error_of({"smcd", "device", "ibdev", "rxe0"}), "unexpected"));
    EXPECT_TRUE(contains(usage_error_of({"smcd", "linkgroup", "link-show"}), "invalid link group"));
}

TEST(SmcdCli, LinkgroupForms) {
    EXPECT_FALSE(as<cmd::SmcdLgrShow>(parse({"smcd", "linkgroup", "show", "all"})).lgid);
    EXPECT_EQ(as<cmd::SmcdLgrShow>(parse({"smcd", "lin", "show", "1234"})).lgid, 0x1200u);
    auto inv = parse({"smcd", "-d", "linkgroup", "-j"});
    EXPECT_EQ(inv.opt.detail_level, 1u);
    EXPECT_TRUE(inv.opt.json);
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse({"smcd", "linkgroup", "help"}).command));
    EXPECT_TRUE(
        contains(as<cmd::Help>(parse({"smcd", "linkgroup", "help"})).text, "SMC-D link group"));
    EXPECT_TRUE(contains(usage_error_of({"smcd", "linkgroup", "1", "2"}), "unexpected"));
    EXPECT_TRUE(contains(usage_error_of({"smcd", "linkgroup", "xyz"}), "invalid link group"));
}

TEST(SmcdCli, DeviceForms) {
    EXPECT_TRUE(
        std::holds_alternative<cmd::SmcdDevShow>(parse({"smcd", "device", "show"}).command));
    EXPECT_TRUE(
        std::holds_alternative<cmd::SmcdDevShow>(parse({"smcd", "dev", "show", "all"}).command));
    EXPECT_TRUE(parse({"smcd", "device", "--json"}).opt.json);
    EXPECT_TRUE(contains(as<cmd::Help>(parse({"smcd", "device", "help"})).text, "ISM"));
    EXPECT_TRUE(contains(usage_error_of({"smcd", "device", "all", "all"}), "unexpected"));
}

TEST(SmcdCli, UsageNamesTheObjects) {
    const auto h = as<cmd::Help>(parse({"smcd", "help"}));
    EXPECT_TRUE(contains(h.text, "Usage: smcd"));
    EXPECT_TRUE(contains(h.text, "seid"));
    EXPECT_TRUE(contains(h.text, "linkgroup"));
}

TEST(SeidCli, EveryPersonalityWithObjects) {
    for (const char* prog : {"smcctl", "smcr", "smcd"}) {
        EXPECT_TRUE(std::holds_alternative<cmd::SeidShow>(parse({prog, "seid"}).command)) << prog;
        EXPECT_TRUE(std::holds_alternative<cmd::SeidShow>(parse({prog, "seid", "show"}).command));
        EXPECT_TRUE(as<cmd::SeidSet>(parse({prog, "seid", "enable"})).enable);
        EXPECT_FALSE(as<cmd::SeidSet>(parse({prog, "seid", "dis"})).enable);
        EXPECT_TRUE(parse({prog, "-j", "seid"}).opt.json);
        EXPECT_TRUE(contains(as<cmd::Help>(parse({prog, "seid", "help"})).text, "seid enable"));
    }
    // "s" still means stats, "se" seid
    EXPECT_TRUE(std::holds_alternative<cmd::StatsShow>(parse({"smcd", "s"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::SeidShow>(parse({"smcr", "se"}).command));
}

TEST(SeidCli, Errors) {
    EXPECT_TRUE(contains(usage_error_of({"smcd", "seid", "toggle"}), "unknown seid command"));
    EXPECT_TRUE(contains(usage_error_of({"smcd", "seid", "enable", "x"}), "unexpected"));
}

// ---- replies --------------------------------------------------------------------------------

TEST(SmcdWire, IsmDevice) {
    Reply r(SMC_NETLINK_GET_DEV_SMCD);
    r.begin(SMC_GEN_DEV_SMCD);
    r.u32(SMC_NLA_DEV_USE_CNT, 2).u8(SMC_NLA_DEV_IS_CRIT, 1);
    r.u32(SMC_NLA_DEV_PCI_FID, 0x201).u16(SMC_NLA_DEV_PCI_CHID, 0xff00);
    r.u16(SMC_NLA_DEV_PCI_VENDOR, 0x1014).u16(SMC_NLA_DEV_PCI_DEVICE, 0x04ed);
    r.str(SMC_NLA_DEV_PCI_ID, "0000:00:00.0");
    r.begin(SMC_NLA_DEV_PORT).u8(SMC_NLA_DEV_PORT_PNET_USR, 0);
    r.str(SMC_NLA_DEV_PORT_PNETID, "NETD            ").end();
    r.end();
    const auto d = wire::decode_dev_smcd(r.hdr());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->use_cnt, 2u);
    EXPECT_TRUE(d->critical);
    ASSERT_TRUE(d->pci);
    EXPECT_EQ(d->pci->fid, 0x201u);
    EXPECT_EQ(d->pci->device, 0x04ed);
    ASSERT_EQ(d->ports.size(), 1u);
    EXPECT_EQ(d->ports[0].pnetid, "NETD");
    // an SMC-R device nest is not an SMC-D device
    Reply other(SMC_NETLINK_GET_DEV_SMCR);
    other.begin(SMC_GEN_DEV_SMCR).str(SMC_NLA_DEV_IB_NAME, "rxe0").end();
    EXPECT_FALSE(wire::decode_dev_smcd(other.hdr()));
}

TEST(SmcdWire, LinkGroup) {
    Reply r(SMC_NETLINK_GET_LGR_SMCD);
    r.begin(SMC_GEN_LGR_SMCD);
    r.u32(SMC_NLA_LGR_D_ID, 0x1200).u64(SMC_NLA_LGR_D_GID, 0x1122334455667788ull);
    r.u64(SMC_NLA_LGR_D_PEER_GID, 0x8877665544332211ull).u8(SMC_NLA_LGR_D_VLAN_ID, 7);
    r.u32(SMC_NLA_LGR_D_CONNS_NUM, 3).str(SMC_NLA_LGR_D_PNETID, "NETD            ");
    r.u16(SMC_NLA_LGR_D_CHID, 0x3f).u64(SMC_NLA_LGR_D_PEER_EXT_GID, 0x99);
    r.u64(SMC_NLA_LGR_D_DMB_ALLOC, 1 << 20);
    r.begin(SMC_NLA_LGR_D_V2_COMMON).u8(SMC_NLA_LGR_V2_VER, 2).u8(SMC_NLA_LGR_V2_REL, 1);
    r.str(SMC_NLA_LGR_V2_PEER_HOST, "zos1                            ").end();
    r.end();
    SmcdLinkGroupTable t;
    wire::decode_lgr_smcd(r.hdr(), t);
    ASSERT_EQ(t.groups.size(), 1u);
    const SmcdLinkGroup& g = t.groups[0];
    EXPECT_EQ(g.id, 0x1200u);
    EXPECT_EQ(g.gid, 0x1122334455667788ull);
    EXPECT_EQ(g.peer_gid, 0x8877665544332211ull);
    EXPECT_FALSE(g.gid_ext);
    EXPECT_EQ(g.peer_gid_ext, 0x99u);
    EXPECT_EQ(g.vlan, 7);
    EXPECT_EQ(g.conns, 3u);
    EXPECT_EQ(g.pnetid, "NETD");
    EXPECT_EQ(g.chid, 0x3f);
    EXPECT_EQ(g.dmb_alloc, 1u << 20);
    EXPECT_FALSE(g.sndbuf_alloc);
    ASSERT_TRUE(g.v2);
    EXPECT_EQ(g.v2->version, 2);
    EXPECT_EQ(g.v2->peer_host, "zos1");
}

// Mainline (smc_nl_fill_smcd_lgr) and smcx put the CHID as a u32, the uapi says u16: the
// loopback device's 0xFFFF reads back either way.
TEST(SmcdWire, LinkGroupChidAsU32) {
    Reply r(SMC_NETLINK_GET_LGR_SMCD);
    r.begin(SMC_GEN_LGR_SMCD).u32(SMC_NLA_LGR_D_ID, 1).u32(SMC_NLA_LGR_D_CHID, 0xffff).end();
    SmcdLinkGroupTable t;
    wire::decode_lgr_smcd(r.hdr(), t);
    ASSERT_EQ(t.groups.size(), 1u);
    EXPECT_EQ(t.groups[0].chid, 0xffff);
}

TEST(SeidWire, EmptyMessageMeansNone) {
    Reply r(SMC_NETLINK_DUMP_SEID);
    SeidInfo s;
    s.seid = "stale";
    s.enabled = true;
    wire::decode_seid(r.hdr(), s);
    EXPECT_TRUE(s.seid.empty());
    EXPECT_FALSE(s.enabled);
}

TEST(SeidWire, EntryAndState) {
    Reply r(SMC_NETLINK_DUMP_SEID);
    r.str(SMC_NLA_SEID_ENTRY, "IBM-SYSZ-ISMSEID00000000ABCD    ").u8(SMC_NLA_SEID_ENABLED, 0);
    SeidInfo s;
    wire::decode_seid(r.hdr(), s);
    EXPECT_EQ(s.seid, "IBM-SYSZ-ISMSEID00000000ABCD");
    EXPECT_EQ(s.enabled, false);
}

// ---- formatting -----------------------------------------------------------------------------

TEST(SmcdFormat, NoDeviceIsSaidInWords) {
    const std::string none = no_smcd_device_text();
    EXPECT_TRUE(contains(none, "No SMC-D device"));
    EXPECT_EQ(to_text(SmcdDeviceTable{}), none);
    SmcdLgrView v;
    v.devices = 0;
    EXPECT_EQ(to_text(SmcdLinkGroupTable{}, v), none);
    // with a device (or not asked) an empty list is the bare header, as for SMC-R
    v.devices = 1;
    EXPECT_EQ(to_text(SmcdLinkGroupTable{}, v), "LG-ID  VLAN  #Conns  PNET-ID\n");
    EXPECT_EQ(to_json(SmcdDeviceTable{}), "{\n  \"devices\": []\n}\n");
    EXPECT_EQ(to_json(SmcdLinkGroupTable{}), "{\n  \"linkgroups\": []\n}\n");
}

TEST(SmcdFormat, LinkGroupText) {
    SmcdLgrView v;
    const std::string t = to_text(sample_smcd_lgrs(), v);
    EXPECT_EQ(t, "LG-ID     VLAN  #Conns  PNET-ID\n"
                 "00001200     7       3  NETD\n"
                 "00001300     0       0  -\n");
    v.detail = 1;
    const std::string d = to_text(sample_smcd_lgrs(), v);
    EXPECT_TRUE(contains(d, "GID  ")) << d;
    EXPECT_TRUE(contains(d, "1122334455667788  88776655443322110000000000000099  003f  2.1")) << d;
    EXPECT_TRUE(contains(d, "z/OS     zos1       EID-X")) << d;
    EXPECT_TRUE(contains(d, "00001300     0       0  -        0000000000000000")) << d;
    v.lgid = 0x1300;
    ASSERT_EQ(select_smcd_linkgroups(sample_smcd_lgrs(), v).groups.size(), 1u);
    EXPECT_EQ(select_smcd_linkgroups(sample_smcd_lgrs(), v).groups[0].id, 0x1300u);
}

TEST(SmcdFormat, LinkGroupJson) {
    const std::string j = to_json(sample_smcd_lgrs());
    for (const char* key :
         {"\"id\": 4608", "\"id_hex\": \"00001200\"", "\"vlan\": 7", "\"conns\": 3",
          "\"pnetid\": \"NETD\"", "\"gid\": \"1122334455667788\"", "\"gid_ext\": null",
          "\"peer_gid_ext\": \"0000000000000099\"", "\"chid\": 63", "\"dmb_alloc\": null",
          "\"peer_os\": \"z/OS\"", "\"negotiated_eid\": \"EID-X\"", "\"v2\": null"})
        EXPECT_TRUE(contains(j, key)) << key << "\n" << j;
    // SMC-R's v2 fields do not appear for SMC-D
    EXPECT_FALSE(contains(j, "max_conns")) << j;
}

TEST(SmcdFormat, DeviceText) {
    SmcdDeviceTable t;
    Device d;
    d.critical = true;
    d.use_cnt = 2;
    d.pci = PciInfo{0x201, 0xff00, 0x1014, 0x04ed, "0000:00:00.0"};
    DevicePort p;
    p.pnetid = "NETD";
    p.pnetid_by_user = true;
    d.ports.push_back(p);
    t.devices.push_back(d);
    EXPECT_EQ(to_text(t), "FID   Type  PCI-ID        PCHID  InUse  #LGs  PNET-ID\n"
                          "0201  ISM   0000:00:00.0  ff00   Yes       2  *NETD\n");
    EXPECT_TRUE(contains(to_json(t), "\"type\": \"ISM\""));
}

// What smcx (and a PCI-less emulated device) reports for loopback-ism: CHID 0xFFFF, no PCI
// function, one port without a PNET ID.
TEST(SmcdFormat, LoopbackDeviceText) {
    SmcdDeviceTable t;
    Device d;
    d.critical = true;
    d.use_cnt = 2;
    d.pci = PciInfo{0, 0xffff, 0, 0, ""};
    d.ports.push_back(DevicePort{});
    t.devices.push_back(d);
    EXPECT_EQ(to_text(t), "FID  Type          PCI-ID  PCHID  InUse  #LGs  PNET-ID\n"
                          "-    loopback-ism  -       ffff   Yes       2  -\n");
    const std::string j = to_json(t);
    EXPECT_TRUE(contains(j, "\"type\": \"loopback-ism\"")) << j;
    EXPECT_TRUE(contains(j, "\"chid\": 65535")) << j;
    // a real ISM function with CHID 0xFFFF's neighbours is not taken for it
    t.devices.front().pci = PciInfo{0x201, 0xffff, 0x1014, 0x04ed, "0000:00:00.0"};
    EXPECT_TRUE(contains(to_text(t), "0201  ISM")) << to_text(t);
}

TEST(SmcdFormat, StatsNoteOnlyWithoutDevice) {
    StatsView v;
    v.smcr = false;
    v.smcd_devices = 0;
    const std::string none = to_text(Stats{}, v);
    EXPECT_TRUE(contains(none, "SMC-D\n  (no SMC-D device")) << none;
    EXPECT_FALSE(contains(none, "SMC-R\n")) << none;
    v.smcd_devices = 1;
    EXPECT_FALSE(contains(to_text(Stats{}, v), "no SMC-D device"));
    v.smcd_devices.reset();
    EXPECT_FALSE(contains(to_text(Stats{}, v), "no SMC-D device"));
}

TEST(SmcdFormat, InfoSaysNoSmcdFeaturesWithoutDevice) {
    SysInfo s;
    s.version = 2;
    s.smcd_devices = 0;
    EXPECT_TRUE(contains(to_text(s), "SMC-D features:   none (no ISM device)\n"));
    s.smcd_devices = 1;
    EXPECT_TRUE(contains(to_text(s), "SMC-D features:   v1 v2\n"));
}

TEST(SeidFormat, TextAndJson) {
    SeidInfo none;
    EXPECT_TRUE(contains(to_text(none), "No system EID"));
    EXPECT_EQ(to_json(none), "{\n  \"seid\": null,\n  \"enabled\": null\n}\n");
    SeidInfo s{"SEID-1", true};
    EXPECT_EQ(to_text(s), "SEID-1 (enabled)\n");
    EXPECT_EQ(to_json(s), "{\n  \"seid\": \"SEID-1\",\n  \"enabled\": true\n}\n");
    s.enabled = false;
    EXPECT_EQ(to_text(s), "SEID-1 (disabled)\n");
}

// ---- errors ---------------------------------------------------------------------------------

TEST(SeidErrors, KernelAnswersAreExplained) {
    const auto enable = describe_failure(cmd::SeidSet{true}, nl::error("x", EOPNOTSUPP));
    EXPECT_TRUE(contains(enable, "seid enable: not supported by the running kernel")) << enable;
    EXPECT_TRUE(contains(enable, "ISMv2")) << enable;
    const auto disable = describe_failure(cmd::SeidSet{false}, nl::error("x", ENOENT));
    EXPECT_TRUE(contains(disable, "seid disable:")) << disable;
    EXPECT_TRUE(contains(disable, "no user EID")) << disable;
    EXPECT_EQ(describe_failure(cmd::SeidSet{true}, nl::error("x", EPERM)),
              "seid enable: permission denied (needs CAP_NET_ADMIN in the initial user namespace; "
              "run as root on the host)");
    // other commands keep the generic wording
    EXPECT_EQ(describe_failure(cmd::SeidShow{}, nl::error("x", EOPNOTSUPP)),
              "seid show: not supported by the running kernel");
}

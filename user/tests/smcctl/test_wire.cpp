// SPDX-License-Identifier: GPL-2.0
// Reply decoding, fed with messages built the way the kernel builds them (libnl puts).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "client.hpp"
#include "genl_reply.hpp"
#include "nl.hpp"
#include "uapi/linux/smc.h"

using namespace smcctl;
using smcctl::test::Reply;

TEST(Wire, PnetInterfaceEntry) {
    Reply r(SMC_PNETID_GET);
    r.str(SMC_PNETID_NAME, "NET1")
        .str(SMC_PNETID_ETHNAME, "eth0")
        .str(SMC_PNETID_IBNAME, "n/a")
        .u8(SMC_PNETID_IBPORT, 0xff);
    const PnetEntry e = wire::decode_pnet_entry(r.hdr());
    EXPECT_EQ(e, (PnetEntry{"NET1", "eth0", "", std::nullopt}));
}

TEST(Wire, PnetDeviceEntry) {
    Reply r(SMC_PNETID_GET);
    r.str(SMC_PNETID_NAME, "NET1")
        .str(SMC_PNETID_ETHNAME, "n/a")
        .str(SMC_PNETID_IBNAME, "rxe0")
        .u8(SMC_PNETID_IBPORT, 1);
    EXPECT_EQ(wire::decode_pnet_entry(r.hdr()), (PnetEntry{"NET1", "", "rxe0", 1}));
}

TEST(Wire, PnetEntryWithoutNameIsMalformed) {
    Reply r(SMC_PNETID_GET);
    r.str(SMC_PNETID_ETHNAME, "eth0");
    EXPECT_THROW(wire::decode_pnet_entry(r.hdr()), nl::malformed_reply);
}

TEST(Wire, PnetWrongTypeIsMalformed) {
    Reply r(SMC_PNETID_GET);
    r.str(SMC_PNETID_NAME, "NET1").u32(SMC_PNETID_IBPORT, 1).u32(SMC_PNETID_ETHNAME, 0x41414141);
    EXPECT_THROW(wire::decode_pnet_entry(r.hdr()), nl::malformed_reply);
}

TEST(Wire, UeidStripsPadding) {
    Reply r(SMC_NETLINK_DUMP_UEID);
    r.str(SMC_NLA_EID_TABLE_ENTRY, "SMCX-LAB-UEID                   ");
    EXPECT_EQ(wire::decode_ueid(r.hdr()), "SMCX-LAB-UEID");
    Reply empty(SMC_NETLINK_DUMP_UEID);
    EXPECT_FALSE(wire::decode_ueid(empty.hdr()));
}

TEST(Wire, SysInfo) {
    Reply r(SMC_NETLINK_GET_SYS_INFO);
    r.begin(SMC_GEN_SYS_INFO)
        .u8(SMC_NLA_SYS_VER, 2)
        .u8(SMC_NLA_SYS_REL, 1)
        .u8(SMC_NLA_SYS_IS_ISM_V2, 0)
        .u8(SMC_NLA_SYS_IS_SMCR_V2, 1)
        .str(SMC_NLA_SYS_LOCAL_HOST, "alpha                           ")
        .end();
    SysInfo s;
    wire::decode_sys_info(r.hdr(), s);
    EXPECT_EQ(s.version, 2);
    EXPECT_EQ(s.release, 1);
    EXPECT_EQ(s.ism_v2, false);
    EXPECT_EQ(s.smcr_v2, true);
    EXPECT_EQ(s.hostname, "alpha");
    EXPECT_EQ(s.seid, "");
}

TEST(Wire, SysInfoFromAnOlderKernel) {
    Reply r(SMC_NETLINK_GET_SYS_INFO);
    r.begin(SMC_GEN_SYS_INFO).u8(SMC_NLA_SYS_VER, 2).u8(SMC_NLA_SYS_REL, 0).end();
    SysInfo s;
    wire::decode_sys_info(r.hdr(), s);
    EXPECT_EQ(s.version, 2);
    EXPECT_FALSE(s.smcr_v2);
}

TEST(Wire, Stats) {
    Reply r(SMC_NETLINK_GET_STATS);
    r.begin(SMC_GEN_STATS);
    r.begin(SMC_NLA_STATS_SMCD_TECH).u64(SMC_NLA_STATS_T_CLNT_V1_SUCC, 99).end();
    r.begin(SMC_NLA_STATS_SMCR_TECH);
    r.begin(SMC_NLA_STATS_T_TX_RMB_STATS)
        .u64(SMC_NLA_STATS_RMB_REUSE_CNT, 3)
        .u64(SMC_NLA_STATS_RMB_FULL_PEER_CNT, 4)
        .u64(SMC_NLA_STATS_RMB_DGRADE_CNT, 5)
        .end();
    r.begin(SMC_NLA_STATS_T_RX_RMB_STATS).u64(SMC_NLA_STATS_RMB_FULL_CNT, 6).end();
    r.begin(SMC_NLA_STATS_T_TXPLOAD_SIZE)
        .u64(SMC_NLA_STATS_PLOAD_8K, 10)
        .u64(SMC_NLA_STATS_PLOAD_G_1024K, 11)
        .end();
    r.begin(SMC_NLA_STATS_T_RX_RMB_SIZE).u64(SMC_NLA_STATS_PLOAD_64K, 12).end();
    r.u64(SMC_NLA_STATS_T_CLNT_V1_SUCC, 1)
        .u64(SMC_NLA_STATS_T_CLNT_V2_SUCC, 2)
        .u64(SMC_NLA_STATS_T_SRV_V1_SUCC, 3)
        .u64(SMC_NLA_STATS_T_SRV_V2_SUCC, 4)
        .u64(SMC_NLA_STATS_T_RX_BYTES, 1000)
        .u64(SMC_NLA_STATS_T_TX_BYTES, 2000)
        .u64(SMC_NLA_STATS_T_RX_CNT, 7)
        .u64(SMC_NLA_STATS_T_TX_CNT, 8)
        .u64(SMC_NLA_STATS_T_CORK_CNT, 9)
        .u64(SMC_NLA_STATS_T_RX_RMB_USAGE, 65536)
        .u32(SMC_NLA_STATS_T_TX_RMB_USAGE, 4096) // NLA_UINT may be 4 bytes
        .u64(SMC_NLA_STATS_T_MAX + 5, 1234);     // unknown newer attribute: ignored
    r.end();
    r.u64(SMC_NLA_STATS_CLNT_HS_ERR_CNT, 13).u64(SMC_NLA_STATS_SRV_HS_ERR_CNT, 14);
    r.end();

    Stats s;
    wire::decode_stats(r.hdr(), s);
    EXPECT_EQ(s.smcr.clnt_v1_succ, 1u);
    EXPECT_EQ(s.smcr.clnt_v2_succ, 2u);
    EXPECT_EQ(s.smcr.srv_v1_succ, 3u);
    EXPECT_EQ(s.smcr.srv_v2_succ, 4u);
    EXPECT_EQ(s.smcr.connections(), 10u);
    EXPECT_EQ(s.smcr.rx_bytes, 1000u);
    EXPECT_EQ(s.smcr.tx_bytes, 2000u);
    EXPECT_EQ(s.smcr.rx_cnt, 7u);
    EXPECT_EQ(s.smcr.tx_cnt, 8u);
    EXPECT_EQ(s.smcr.cork_cnt, 9u);
    EXPECT_EQ(s.smcr.tx_buf.reuse, 3u);
    EXPECT_EQ(s.smcr.tx_buf.full_peer, 4u);
    EXPECT_EQ(s.smcr.tx_buf.downgrade, 5u);
    EXPECT_EQ(s.smcr.rx_buf.full, 6u);
    EXPECT_EQ(s.smcr.tx_payload.count[0], 10u);
    EXPECT_EQ(s.smcr.tx_payload.count[8], 11u);
    EXPECT_EQ(s.smcr.rx_rmb_size.count[3], 12u);
    EXPECT_EQ(s.smcr.rx_rmb_usage, 65536u);
    EXPECT_EQ(s.smcr.tx_rmb_usage, 4096u);
    EXPECT_EQ(s.smcd.clnt_v1_succ, 99u);
    EXPECT_FALSE(s.smcd.rx_rmb_usage);
    EXPECT_EQ(s.clnt_hs_err, 13u);
    EXPECT_EQ(s.srv_hs_err, 14u);
}

TEST(Wire, StatsWithoutNestIsMalformed) {
    Reply r(SMC_NETLINK_GET_STATS);
    Stats s;
    EXPECT_THROW(wire::decode_stats(r.hdr(), s), nl::malformed_reply);
}

TEST(Wire, StatsShortCounterIsMalformed) {
    Reply r(SMC_NETLINK_GET_STATS);
    r.begin(SMC_GEN_STATS).u32(SMC_NLA_STATS_CLNT_HS_ERR_CNT, 1).end();
    Stats s;
    EXPECT_THROW(wire::decode_stats(r.hdr(), s), nl::malformed_reply);
}

TEST(Wire, FallbackDump) {
    // The kernel's sequence: totals in the first message only, server/client interleaved.
    Reply m1(SMC_NETLINK_GET_FBACK_STATS);
    m1.begin(SMC_GEN_FBACK_STATS)
        .u8(SMC_NLA_FBACK_STATS_TYPE, 1)
        .u64(SMC_NLA_FBACK_STATS_SRV_CNT, 5)
        .u64(SMC_NLA_FBACK_STATS_CLNT_CNT, 2)
        .u32(SMC_NLA_FBACK_STATS_RSN_CODE, 0x03010000)
        .u16(SMC_NLA_FBACK_STATS_RSN_CNT, 4)
        .end();
    Reply m2(SMC_NETLINK_GET_FBACK_STATS);
    m2.begin(SMC_GEN_FBACK_STATS)
        .u8(SMC_NLA_FBACK_STATS_TYPE, 0)
        .u32(SMC_NLA_FBACK_STATS_RSN_CODE, 0x03030008)
        .u16(SMC_NLA_FBACK_STATS_RSN_CNT, 2)
        .end();
    Reply m3(SMC_NETLINK_GET_FBACK_STATS);
    m3.begin(SMC_GEN_FBACK_STATS)
        .u8(SMC_NLA_FBACK_STATS_TYPE, 1)
        .u32(SMC_NLA_FBACK_STATS_RSN_CODE, 0x03070000)
        .u16(SMC_NLA_FBACK_STATS_RSN_CNT, 1)
        .end();
    Stats s;
    wire::decode_fback_stats(m1.hdr(), s);
    wire::decode_fback_stats(m2.hdr(), s);
    wire::decode_fback_stats(m3.hdr(), s);
    EXPECT_EQ(s.srv_fallback, 5u);
    EXPECT_EQ(s.clnt_fallback, 2u);
    EXPECT_EQ(s.srv_reasons, (std::vector<FallbackReason>{{0x03010000, 4}, {0x03070000, 1}}));
    EXPECT_EQ(s.clnt_reasons, (std::vector<FallbackReason>{{0x03030008, 2}}));
}

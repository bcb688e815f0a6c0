// SPDX-License-Identifier: GPL-2.0
// The uapi rendering must keep the mainline numbers and layouts; spot checks at compile time
// plus the guard behaviour.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "uapi/linux/smc.h"
#include "uapi/linux/smc_diag.h"
// A later include of the system copy is a no-op, not a redefinition.
#include <linux/smc.h>

static_assert(SMC_PNETID_GET == 1 && SMC_PNETID_FLUSH == 4);
static_assert(SMC_PNETID_IBPORT == 4 && SMC_PNETID_MAX == 4);
static_assert(SMC_NETLINK_GET_SYS_INFO == 1);
static_assert(SMC_NETLINK_GET_STATS == 7 && SMC_NETLINK_GET_FBACK_STATS == 8);
static_assert(SMC_NETLINK_DUMP_UEID == 9 && SMC_NETLINK_FLUSH_UEID == 12);
static_assert(SMC_NETLINK_DISABLE_HS_LIMITATION == 18);
static_assert(SMC_GEN_FBACK_STATS == 8 && SMC_GEN_MAX == 8);
static_assert(SMC_NLA_SYS_IS_SMCR_V2 == 6);
static_assert(SMC_NLA_LGR_V2_VER == 0 && SMC_NLA_LGR_V2_PEER_HOST == 4);
static_assert(SMC_NLA_LGR_R_V2_MAX_LINKS == 3);
static_assert(SMC_NLA_LGR_R_RMB_ALLOC == 13 && SMC_NLA_LGR_D_DMB_ALLOC == 13);
static_assert(SMC_NLA_LINK_STATE == 10 && SMC_NLA_DEV_IB_NAME == 10);
static_assert(SMC_NLA_STATS_PLOAD_G_1024K == 9 && SMC_NLA_STATS_RMB_DGRADE_CNT == 7);
static_assert(SMC_NLA_STATS_T_SRV_V2_SUCC == 10 && SMC_NLA_STATS_T_TX_CNT == 19);
static_assert(SMC_NLA_STATS_T_TX_RMB_USAGE == 21 && SMC_NLA_STATS_SRV_HS_ERR_CNT == 4);
static_assert(SMC_NLA_FBACK_STATS_RSN_CNT == 5 && SMC_NLA_EID_TABLE_ENTRY == 1);
static_assert(SMC_NLA_SEID_ENABLED == 2 && SMC_NLA_HS_LIMITATION_ENABLED == 1);
static_assert(SMC_MAX_EID_LEN == 32 && SMC_MAX_UEID == 4 && SMC_MAX_HOSTNAME_LEN == 32);
static_assert(SMC_LIMIT_HS == 1);

static_assert(SMC_DIAG_MODE_SMCD == 2 && SMC_DIAG_FALLBACK == 5 && SMC_DIAG_MAX == 5);
static_assert(sizeof(struct smc_diag_req) == 52);
static_assert(sizeof(struct smc_diag_msg) == 64);
static_assert(sizeof(struct smc_diag_cursor) == 8);
static_assert(sizeof(struct smc_diag_conninfo) == 76);
static_assert(sizeof(struct smc_diag_linkinfo) == 146);
static_assert(sizeof(struct smc_diag_lgrinfo) == 147);
static_assert(sizeof(struct smc_diag_fallback) == 8);
static_assert(sizeof(struct smcd_diag_dmbinfo) == 56);
static_assert(offsetof(struct smc_diag_msg, diag_inode) == 56);

TEST(Uapi, FamilyNames) {
    EXPECT_STREQ(SMCR_GENL_FAMILY_NAME, "SMC_PNETID");
    EXPECT_STREQ(SMC_GENL_FAMILY_NAME, "SMC_GEN_NETLINK");
    EXPECT_EQ(SMCR_GENL_FAMILY_VERSION, 1);
    EXPECT_EQ(SMC_GENL_FAMILY_VERSION, 1);
}

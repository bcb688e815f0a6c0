// SPDX-License-Identifier: GPL-2.0
// CLC byte-exact vectors.  Every vector is written field by field from the
// layouts in RFC 7609 and the SMC v2 specification, as mainline 6.12 sends
// them; the comment on each line gives the byte offsets and the field.
// Each vector is checked three ways: decode (strict) gives the expected
// fields, encoding the decoded struct gives the same bytes, and encoding a
// struct built by hand gives the same bytes.
#include "testutil.h"

#include <smcx/wwi.h>

#include <algorithm>
#include <utility>

namespace {

const Bytes PEER_A = {0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18};
const Bytes PEER_B = {0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28};
const Bytes GID_A = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55};
const Bytes MAC_A = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
// RoCEv2 GID: IPv4-mapped 192.168.1.10
const Bytes ROCE_A = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xc0, 0xa8, 0x01, 0x0a};
const Bytes ROCE_B = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xc0, 0xa8, 0x01, 0x0b};

template <size_t N> void set(uint8_t (&dst)[N], const Bytes &src)
{
    ASSERT_EQ(src.size(), N);
    std::memcpy(dst, src.data(), N);
}

Bytes enc_prop(const smcx_clc_proposal &m)
{
    Bytes out(SMCX_CLC_MAX_LEN);
    int rc = smcx_clc_encode_proposal(&m, out.data(), out.size());
    EXPECT_GT(rc, 0) << smcx_wire_errname(rc);
    out.resize(rc > 0 ? rc : 0);
    return out;
}

Bytes enc_acc(const smcx_clc_accept &m, uint8_t type)
{
    Bytes out(512);
    int rc = smcx_clc_encode_accept(&m, type, out.data(), out.size());
    EXPECT_GT(rc, 0) << smcx_wire_errname(rc);
    out.resize(rc > 0 ? rc : 0);
    return out;
}

Bytes enc_decl(const smcx_clc_decline &m)
{
    Bytes out(64);
    int rc = smcx_clc_encode_decline(&m, out.data(), out.size());
    EXPECT_GT(rc, 0) << smcx_wire_errname(rc);
    out.resize(rc > 0 ? rc : 0);
    return out;
}

// decode strictly, re-encode, compare; returns the decoded struct
smcx_clc_proposal check_prop(const Bytes &v)
{
    smcx_clc_proposal m;
    record_vector("clc", v);
    EXPECT_WIRE(smcx_clc_decode_proposal(v.data(), v.size(), &m, 0), 0);
    EXPECT_EQ(hex(enc_prop(m)), hex(v));
    return m;
}

smcx_clc_accept check_acc(const Bytes &v, uint8_t type)
{
    smcx_clc_accept m;
    record_vector("clc", v);
    EXPECT_WIRE(smcx_clc_decode_accept(v.data(), v.size(), type, &m, 0), 0);
    EXPECT_EQ(hex(enc_acc(m, type)), hex(v));
    return m;
}

smcx_clc_decline check_decl(const Bytes &v)
{
    smcx_clc_decline m;
    record_vector("clc", v);
    EXPECT_WIRE(smcx_clc_decode_decline(v.data(), v.size(), &m, 0), 0);
    EXPECT_EQ(hex(enc_decl(m)), hex(v));
    return m;
}

smcx_clc_proposal new_prop(uint8_t version, uint8_t t1, uint8_t t2)
{
    smcx_clc_proposal m;
    std::memset(&m, 0, sizeof(m));
    m.hdr.eyecatcher = SMCX_EYE_SMCR;
    m.hdr.version = version;
    m.hdr.typev1 = t1;
    m.hdr.typev2 = t2;
    return m;
}

} // namespace

// ---- Proposal --------------------------------------------------------------

// v1, SMC-R only, IPv4: what an RFC 7609-only client sends (52 bytes)
const Bytes PROP_V1_R = cat({
    SMCR(),                   // 0..3   eyecatcher "SMCR"
    {0x01},                   // 4      type: proposal
    {0x00, 0x34},             // 5..6   length 52
    {0x10},                   // 7      version 1 | typev2 0 | typev1 R
    PEER_A,                   // 8..15  sender peer id
    GID_A,                    // 16..31 client preferred GID
    MAC_A,                    // 32..37 client preferred MAC
    {0x00, 0x00},             // 38..39 ip area offset 0: ip area follows
    {0xc0, 0xa8, 0x01, 0x00}, // 40..43 IPv4 subnet 192.168.1.0
    {0x18},                   // 44     prefix length 24
    {0x00, 0x00},             // 45..46 reserved
    {0x00},                   // 47     IPv6 prefix count 0
    SMCR(),                   // 48..51 trailer
});

TEST(ClcProposal, V1SmcrIpv4)
{
    smcx_clc_proposal d = check_prop(PROP_V1_R);
    EXPECT_EQ(d.hdr.version, 1);
    EXPECT_EQ(d.hdr.typev1, SMCX_TYPE_R);
    EXPECT_EQ(d.hdr.length, 52);
    EXPECT_EQ(d.ipv4_subnet, 0xc0a80100u);
    EXPECT_EQ(d.ipv4_prefix_len, 24);
    EXPECT_EQ(d.has_smcd_area, 0);

    smcx_clc_proposal m = new_prop(1, SMCX_TYPE_R, 0);
    set(m.peer_id, PEER_A);
    set(m.gid, GID_A);
    set(m.mac, MAC_A);
    m.ipv4_subnet = 0xc0a80100;
    m.ipv4_prefix_len = 24;
    EXPECT_EQ(hex(enc_prop(m)), hex(PROP_V1_R));
}

// v1, SMC-R, two IPv6 prefixes (86 bytes)
// clang-format off
const Bytes PROP_V1_R6 = cat({
    SMCR(), {0x01}, {0x00, 0x56}, {0x10}, // 0..7   header, length 86
    PEER_A, GID_A, MAC_A,                 // 8..37
    {0x00, 0x00},                         // 38..39 ip area offset 0
    {0, 0, 0, 0},                         // 40..43 IPv4 subnet: none
    {0x00},                               // 44     prefix length
    {0x00, 0x00},                         // 45..46 reserved
    {0x02},                               // 47     two IPv6 prefixes
    {0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, // 48..63 2001:db8:1::
    {0x40},                               // 64     /64
    {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, // 65..80 fd00::
    {0x08},                               // 81     /8
    SMCR(),                               // 82..85 trailer
});
// clang-format on

TEST(ClcProposal, V1SmcrIpv6Prefixes)
{
    smcx_clc_proposal d = check_prop(PROP_V1_R6);
    ASSERT_EQ(d.ipv6_cnt, 2);
    EXPECT_EQ(d.ipv6[0].len, 64);
    EXPECT_EQ(d.ipv6[0].prefix[1], 0x01);
    EXPECT_EQ(d.ipv6[1].len, 8);
    EXPECT_EQ(d.ipv6[1].prefix[0], 0xfd);
}

// v1 offering SMC-R and SMC-D: the SMC-D area sits between the ip area
// offset and the ip area (92 bytes)
// clang-format off
const Bytes PROP_V1_B = cat({
    SMCR(), {0x01}, {0x00, 0x5c}, // 0..6   length 92
    {0x13},                       // 7      version 1 | typev1 B
    PEER_A, GID_A, MAC_A,         // 8..37
    {0x00, 0x28},                 // 38..39 ip area offset 40
    {0, 0, 0, 0, 0, 0, 0xab, 0xcd}, // 40..47 ISM GID
    zeros(32),                    // 48..79 reserved (v1)
    {0x0a, 0, 0, 0},              // 80..83 10.0.0.0
    {0x08}, {0, 0}, {0x00},       // 84..87 /8, reserved, no IPv6
    SMCR(),                       // 88..91 trailer
});
// clang-format on

TEST(ClcProposal, V1BothWithSmcdArea)
{
    smcx_clc_proposal d = check_prop(PROP_V1_B);
    EXPECT_EQ(d.hdr.typev1, SMCX_TYPE_B);
    EXPECT_EQ(d.has_smcd_area, 1);
    EXPECT_EQ(d.ism_gid, 0xabcdu);
    EXPECT_EQ(d.ipv4_subnet, 0x0a000000u);
}

// v2 as Linux 6.12 sends it when offering SMC-R v1 and SMC-Rv2, release 1,
// no user EIDs (132 bytes)
// clang-format off
const Bytes PROP_V2_RR = cat({
    SMCR(), {0x01}, {0x00, 0x84}, // 0..6   length 132
    {0x20},                       // 7      version 2 | typev2 R | typev1 R
    PEER_A, GID_A, MAC_A,         // 8..37
    {0x00, 0x28},                 // 38..39 ip area offset 40 (SMC-D area)
    zeros(8),                     // 40..47 ISM GID (none)
    {0x00, 0x00},                 // 48..49 ISM CHID
    {0x00, 0x24},                 // 50..51 v2 ext offset 36: 52 + 36 = 88
    zeros(3), zeros(5),           // 52..59 vendor OUI, options
    zeros(20),                    // 60..79 reserved
    {0xc0, 0xa8, 0x01, 0x00},     // 80..83 IPv4 subnet
    {0x18}, {0, 0}, {0x00},       // 84..87 /24, reserved, no IPv6
    {0x00},                       // 88     EID count 0
    {0x00},                       // 89     ISM GID count 0
    {0x00},                       // 90     reserved
    {0x10},                       // 91     release 1 | SEID off
    {0x00, 0x00},                 // 92..93 reserved
    {0x00, 0x00},                 // 94..95 SMC-Dv2 ext offset: none
    ROCE_A,                       // 96..111 RoCEv2 GID
    {0xff},                       // 112    max conns 255
    {0x02},                       // 113    max links 2
    {0x00, 0x01},                 // 114..115 feature mask
    zeros(12),                    // 116..127 reserved
    SMCR(),                       // 128..131 trailer
});
// clang-format on

TEST(ClcProposal, V2SmcrV1V2Mainline)
{
    smcx_clc_proposal d = check_prop(PROP_V2_RR);
    EXPECT_EQ(d.hdr.version, 2);
    EXPECT_EQ(d.release, 1);
    EXPECT_EQ(d.max_conns, 255);
    EXPECT_EQ(d.max_links, 2);
    EXPECT_EQ(d.feature_mask, 1);
    EXPECT_EQ(0, std::memcmp(d.roce_gid, ROCE_A.data(), 16));

    smcx_clc_proposal m = new_prop(2, SMCX_TYPE_R, SMCX_TYPE_R);
    set(m.peer_id, PEER_A);
    set(m.gid, GID_A);
    set(m.mac, MAC_A);
    m.has_smcd_area = 1;
    m.ipv4_subnet = 0xc0a80100;
    m.ipv4_prefix_len = 24;
    m.release = 1;
    set(m.roce_gid, ROCE_A);
    m.max_conns = 255;
    m.max_links = 2;
    m.feature_mask = 1;
    EXPECT_EQ(hex(enc_prop(m)), hex(PROP_V2_RR));
}

// v2 only (typev1 N: no ip area), SMC-Rv2 and SMC-Dv2 (typev2 B), one user
// EID, system EID offered, two ISM GID/CHID pairs (224 bytes)
// clang-format off
const Bytes PROP_V2_NB = cat({
    SMCR(), {0x01}, {0x00, 0xe0}, // 0..6   length 224
    {0x2e},                       // 7      version 2 | typev2 B (3<<2) | typev1 N
    PEER_A, GID_A, MAC_A,         // 8..37
    {0x00, 0x00},                 // 38..39 ip area offset 0: no ip area
    zeros(8), {0, 0},             // 40..49 ISM GID, CHID
    {0x00, 0x1c},                 // 50..51 v2 ext offset 28: 52 + 28 = 80
    zeros(28),                    // 52..79 vendor fields, reserved
    {0x01},                       // 80     one user EID
    {0x02},                       // 81     two ISM GIDs
    {0x00},                       // 82     reserved
    {0x11},                       // 83     release 1 | SEID
    {0x00, 0x00},                 // 84..85 reserved
    {0x00, 0x40},                 // 86..87 SMC-Dv2 ext offset 64: 88 + 64 = 152
    ROCE_A,                       // 88..103 RoCEv2 GID
    {0xff}, {0x02}, {0x00, 0x01}, // 104..107 max conns, max links, features
    zeros(12),                    // 108..119 reserved
    text_bytes("SMCX-LAB-EID", 32), // 120..151 user EID, blank padded
    text_bytes("IBM-SYSZ-ISMSEID00000000000000AB", 32), // 152..183 system EID
    zeros(16),                    // 184..199 reserved
    {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x01, 0x01}, // 200..209 GID, CHID
    {0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0xff, 0x00}, // 210..219 GID, CHID
    SMCR(),                       // 220..223 trailer
});
// clang-format on

TEST(ClcProposal, V2OnlyBothTypesWithEidsAndIsm)
{
    smcx_clc_proposal d = check_prop(PROP_V2_NB);
    EXPECT_EQ(d.hdr.typev1, SMCX_TYPE_N);
    EXPECT_EQ(d.hdr.typev2, SMCX_TYPE_B);
    EXPECT_EQ(d.eid_cnt, 1);
    EXPECT_EQ(d.seid, 1);
    EXPECT_EQ(d.ism_gid_cnt, 2);
    EXPECT_EQ(d.ism[0].gid, 0x1122334455667788ull);
    EXPECT_EQ(d.ism[0].chid, 0x0101);
    EXPECT_EQ(d.ism[1].chid, 0xff00);
    EXPECT_EQ(0, std::memcmp(d.user_eid[0], "SMCX-LAB-EID    ", 16));
    EXPECT_EQ(d.system_eid[31], 'B');

    smcx_clc_proposal m = new_prop(2, SMCX_TYPE_N, SMCX_TYPE_B);
    set(m.peer_id, PEER_A);
    set(m.gid, GID_A);
    set(m.mac, MAC_A);
    m.has_smcd_area = 1;
    m.eid_cnt = 1;
    m.ism_gid_cnt = 2;
    m.release = 1;
    m.seid = 1;
    set(m.roce_gid, ROCE_A);
    m.max_conns = 255;
    m.max_links = 2;
    m.feature_mask = 1;
    put_text(m.user_eid[0], "SMCX-LAB-EID");
    put_text(m.system_eid, "IBM-SYSZ-ISMSEID00000000000000AB");
    m.ism[0] = {0x1122334455667788ull, 0x0101};
    m.ism[1] = {0x99aabbccddeeff00ull, 0xff00};
    EXPECT_EQ(hex(enc_prop(m)), hex(PROP_V2_NB));
}

// ---- Accept / Confirm -------------------------------------------------------

// the SMC-R body shared by the accept/confirm vectors, offsets 8..63
// clang-format off
const Bytes ACC_BODY = cat({
    PEER_B,                   // 8..15  sender peer id
    GID_A,                    // 16..31 GID
    MAC_A,                    // 32..37 MAC
    {0x00, 0x01, 0x23},       // 38..40 QP number 0x123
    {0x00, 0x00, 0x56, 0x78}, // 41..44 RMB rkey
    {0x01},                   // 45     RMBE index 1
    {0x00, 0x00, 0x00, 0x05}, // 46..49 RMBE alert token 5
    {0x23},                   // 50     RMBE size 2 (64 KiB) | QP MTU 3 (1024)
    {0x00},                   // 51     reserved
    {0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x60, 0x00}, // 52..59 RMB address
    {0x00},                   // 60     reserved
    {0x00, 0xaa, 0xbb},       // 61..63 initial PSN
});
// clang-format on

void fill_acc_body(smcx_clc_accept &m)
{
    set(m.peer_id, PEER_B);
    set(m.gid, GID_A);
    set(m.mac, MAC_A);
    m.qpn = 0x123;
    m.rmb_rkey = 0x5678;
    m.rmbe_idx = 1;
    m.rmbe_alert_token = 5;
    m.rmbe_size = 2;
    m.qp_mtu = 3;
    m.rmb_dma_addr = 0x123456000ull;
    m.psn = 0xaabb;
}

smcx_clc_accept new_acc(uint8_t version, uint8_t t2)
{
    smcx_clc_accept m;
    std::memset(&m, 0, sizeof(m));
    m.hdr.version = version;
    m.hdr.typev2 = t2;
    fill_acc_body(m);
    return m;
}

// v1 accept, first contact (68 bytes)
// clang-format off
const Bytes ACC_V1_FC = cat({
    SMCR(), {0x02}, {0x00, 0x44}, // 0..6   accept, length 68
    {0x18},                       // 7      version 1 | first contact (bit 3) | R
    ACC_BODY,                     // 8..63
    SMCR(),                       // 64..67 trailer
});
// clang-format on

// v1 confirm, no first contact (68 bytes)
// clang-format off
const Bytes CONF_V1 = cat({
    SMCR(), {0x03}, {0x00, 0x44}, // 0..6   confirm, length 68
    {0x10},                       // 7      version 1 | R
    ACC_BODY, SMCR(),
});
// clang-format on

TEST(ClcAccept, V1AcceptAndConfirm)
{
    smcx_clc_accept d = check_acc(ACC_V1_FC, SMCX_CLC_ACCEPT);
    EXPECT_TRUE(smcx_clc_first_contact(&d.hdr));
    EXPECT_EQ(d.qpn, 0x123u);
    EXPECT_EQ(d.rmbe_size, 2);
    EXPECT_EQ(d.qp_mtu, 3);
    EXPECT_EQ(d.rmb_dma_addr, 0x123456000ull);
    EXPECT_EQ(d.psn, 0xaabbu);
    EXPECT_EQ(hex(enc_acc(new_acc(1, SMCX_CLC_FIRST_CONTACT), SMCX_CLC_ACCEPT)), hex(ACC_V1_FC));

    d = check_acc(CONF_V1, SMCX_CLC_CONFIRM);
    EXPECT_FALSE(smcx_clc_first_contact(&d.hdr));
    EXPECT_EQ(hex(enc_acc(new_acc(1, 0), SMCX_CLC_CONFIRM)), hex(CONF_V1));
    // an accept is not a confirm
    smcx_clc_accept x;
    EXPECT_WIRE(smcx_clc_decode_accept(CONF_V1.data(), CONF_V1.size(), SMCX_CLC_ACCEPT, &x, 0),
                -SMCX_WIRE_ETYPE);
}

// v2 accept joining an existing link group: no first contact ext (108 bytes)
// clang-format off
const Bytes ACC_V2 = cat({
    SMCR(), {0x02}, {0x00, 0x6c}, // 0..6   length 108
    {0x20},                       // 7      version 2 | R
    ACC_BODY,                     // 8..63
    text_bytes("SMCX-LAB-EID", 32), // 64..95 negotiated EID
    zeros(8),                     // 96..103 reserved
    SMCR(),                       // 104..107 trailer
});
// clang-format on

TEST(ClcAccept, V2NoFirstContact)
{
    smcx_clc_accept d = check_acc(ACC_V2, SMCX_CLC_ACCEPT);
    EXPECT_EQ(d.eid[0], 'S');
    smcx_clc_accept m = new_acc(2, 0);
    put_text(m.eid, "SMCX-LAB-EID");
    EXPECT_EQ(hex(enc_acc(m, SMCX_CLC_ACCEPT)), hex(ACC_V2));
}

// the first contact extension as Linux >= 6.5 sends it (52 bytes at 104)
Bytes fce_v2x(const char *host)
{
    return cat({
        {0x80},                   // +0  v2_direct | reserved
        {0x21},                   // +1  OS type 2 (Linux) | release 1
        {0x00, 0x00},             // +2..3 reserved
        text_bytes(host, 32),     // +4..35 host name, blank padded
        {0xff},                   // +36 max conns 255
        {0x02},                   // +37 max links 2
        {0x00, 0x01},             // +38..39 feature mask
        {0x00, 0x00, 0x00, 0x00}, // +40..43 vendor options
        zeros(8),                 // +44..51 reserved
    });
}

// v2 accept, first contact (160 bytes)
// clang-format off
const Bytes ACC_V2_FC = cat({
    SMCR(), {0x02}, {0x00, 0xa0}, // 0..6   length 160
    {0x28},                       // 7      version 2 | first contact | R
    ACC_BODY,                     // 8..63
    text_bytes("SMCX-LAB-EID", 32), // 64..95 negotiated EID
    zeros(8),                     // 96..103 reserved
    fce_v2x("alpha"),             // 104..155 first contact extension
    SMCR(),                       // 156..159 trailer
});
// clang-format on

TEST(ClcAccept, V2FirstContactV2x)
{
    smcx_clc_accept d = check_acc(ACC_V2_FC, SMCX_CLC_ACCEPT);
    EXPECT_EQ(d.fce_v2x, 1);
    EXPECT_EQ(d.v2_direct, 1);
    EXPECT_EQ(d.os_type, SMCX_CLC_OS_LINUX);
    EXPECT_EQ(d.release, 1);
    EXPECT_EQ(d.max_conns, 255);
    EXPECT_EQ(d.max_links, 2);
    EXPECT_EQ(d.feature_mask, 1);
    EXPECT_EQ(0, std::memcmp(d.hostname, "alpha ", 6));

    smcx_clc_accept m = new_acc(2, SMCX_CLC_FIRST_CONTACT);
    put_text(m.eid, "SMCX-LAB-EID");
    m.fce_v2x = 1;
    m.v2_direct = 1;
    m.os_type = SMCX_CLC_OS_LINUX;
    m.release = 1;
    put_text(m.hostname, "alpha");
    m.max_conns = 255;
    m.max_links = 2;
    m.feature_mask = 1;
    EXPECT_EQ(hex(enc_acc(m, SMCX_CLC_ACCEPT)), hex(ACC_V2_FC));
}

// v2 accept, first contact, from a release-0 peer (Linux < 6.5): 36-byte
// extension without the v2.1 tail (144 bytes)
// clang-format off
const Bytes ACC_V2_FC_R0 = cat({
    SMCR(), {0x02}, {0x00, 0x90}, // 0..6   length 144
    {0x28},                       // 7
    ACC_BODY,                     // 8..63
    zeros(32),                    // 64..95 no EID
    zeros(8),                     // 96..103
    {0x00},                       // 104 not direct (gateway)
    {0x20},                       // 105 Linux, release 0
    {0x00, 0x00},                 // 106..107
    text_bytes("old", 32),        // 108..139 host name
    SMCR(),                       // 140..143 trailer
});
// clang-format on

TEST(ClcAccept, V2FirstContactRelease0)
{
    smcx_clc_accept d = check_acc(ACC_V2_FC_R0, SMCX_CLC_ACCEPT);
    EXPECT_EQ(d.fce_v2x, 0);
    EXPECT_EQ(d.v2_direct, 0);
    EXPECT_EQ(d.release, 0);
    // the same length is not valid for a confirm, whose GID list is fixed at 156
    smcx_clc_accept x;
    Bytes c = ACC_V2_FC_R0;
    c[4] = SMCX_CLC_CONFIRM;
    EXPECT_WIRE(smcx_clc_decode_accept(c.data(), c.size(), SMCX_CLC_CONFIRM, &x, 0),
                -SMCX_WIRE_ELEN);
}

// v2 confirm, first contact, with the client's two RoCE GIDs (196 bytes)
// clang-format off
const Bytes CONF_V2_FC = cat({
    SMCR(), {0x03}, {0x00, 0xc4}, // 0..6   confirm, length 196
    {0x28},                       // 7      version 2 | first contact | R
    ACC_BODY,                     // 8..63
    text_bytes("SMCX-LAB-EID", 32), // 64..95
    zeros(8),                     // 96..103
    fce_v2x("beta"),              // 104..155
    {0x02},                       // 156    GID count 2
    {0x00, 0x00, 0x00},           // 157..159 reserved
    ROCE_A,                       // 160..175
    ROCE_B,                       // 176..191
    SMCR(),                       // 192..195 trailer
});
// clang-format on

TEST(ClcConfirm, V2FirstContactGidList)
{
    smcx_clc_accept d = check_acc(CONF_V2_FC, SMCX_CLC_CONFIRM);
    ASSERT_EQ(d.gid_cnt, 2);
    EXPECT_EQ(0, std::memcmp(d.gids[1], ROCE_B.data(), 16));
    EXPECT_EQ(0, std::memcmp(d.hostname, "beta ", 5));
}

// ---- Decline ----------------------------------------------------------------

// v1 decline: no SMC-R device (28 bytes)
// clang-format off
const Bytes DECL_V1 = cat({
    SMCR(), {0x04}, {0x00, 0x1c}, // 0..6   decline, length 28
    {0x10},                       // 7      version 1 | R
    PEER_B,                       // 8..15  sender peer id
    {0x03, 0x03, 0x00, 0x02},     // 16..19 diagnosis NOSMCRDEV
    {0x00},                       // 20     OS type 0 (v1) | reserved
    {0x00, 0x00, 0x00},           // 21..23 reserved
    SMCR(),                       // 24..27 trailer
});
// clang-format on

// v2 decline, out of sync (first contact bit), four extra diagnoses (44 bytes)
// clang-format off
const Bytes DECL_V2 = cat({
    SMCR(), {0x04}, {0x00, 0x2c}, // 0..6   length 44
    {0x28},                       // 7      version 2 | out of sync | R
    PEER_B,                       // 8..15
    {0x04, 0x00, 0x00, 0x00},     // 16..19 SYNCERR
    {0x20},                       // 20     OS type Linux
    {0x00, 0x00, 0x00},           // 21..23 reserved
    {0x03, 0x03, 0x00, 0x02},     // 24..27 diag v2 [0]
    {0x03, 0x07, 0x00, 0x00},     // 28..31 diag v2 [1] DIFFPREFIX
    zeros(8),                     // 32..39 diag v2 [2..3]
    SMCR(),                       // 40..43 trailer
});
// clang-format on

TEST(ClcDecline, V1AndV2)
{
    smcx_clc_decline d = check_decl(DECL_V1);
    EXPECT_EQ(d.diag, SMCX_DECL_NOSMCRDEV);
    EXPECT_STREQ(smcx_decl_name(d.diag), "NOSMCRDEV");

    d = check_decl(DECL_V2);
    EXPECT_TRUE(smcx_clc_first_contact(&d.hdr));
    EXPECT_EQ(d.diag, SMCX_DECL_SYNCERR);
    EXPECT_EQ(d.os_type, SMCX_CLC_OS_LINUX);
    EXPECT_EQ(d.diag_v2[1], SMCX_DECL_DIFFPREFIX);

    smcx_clc_decline m;
    std::memset(&m, 0, sizeof(m));
    m.hdr.version = 2;
    m.hdr.typev2 = SMCX_CLC_FIRST_CONTACT;
    set(m.peer_id, PEER_B);
    m.diag = SMCX_DECL_SYNCERR;
    m.os_type = SMCX_CLC_OS_LINUX;
    m.diag_v2[0] = SMCX_DECL_NOSMCRDEV;
    m.diag_v2[1] = SMCX_DECL_DIFFPREFIX;
    EXPECT_EQ(hex(enc_decl(m)), hex(DECL_V2));
}

// an SMC-D decline (eyecatcher SMCD, typev1 D) decodes too
TEST(ClcDecline, SmcdEyecatcher)
{
    Bytes v = DECL_V1;
    std::copy_n(SMCD().begin(), 4, v.begin());
    std::copy_n(SMCD().begin(), 4, v.end() - 4);
    v[7] = 0x11;
    smcx_clc_decline d = check_decl(v);
    EXPECT_EQ(d.hdr.eyecatcher, SMCX_EYE_SMCD);
    EXPECT_EQ(d.hdr.typev1, SMCX_TYPE_D);
}

TEST(ClcPeek, StreamHeader)
{
    smcx_clc_hdr h;
    // 8 bytes are enough to learn the length of the whole message
    EXPECT_WIRE(smcx_clc_peek(PROP_V2_NB.data(), 8, &h), 0);
    EXPECT_EQ(h.length, 224);
    EXPECT_EQ(h.type, SMCX_CLC_PROPOSAL);
    EXPECT_WIRE(smcx_clc_peek(PROP_V2_NB.data(), 7, &h), -SMCX_WIRE_ESHORT);
}

// ---- Rejections ---------------------------------------------------------------

namespace {

int dprop(const Bytes &v, unsigned flags = 0)
{
    smcx_clc_proposal m;
    return smcx_clc_decode_proposal(v.data(), v.size(), &m, flags);
}

int dacc(const Bytes &v, uint8_t type, unsigned flags = 0)
{
    smcx_clc_accept m;
    return smcx_clc_decode_accept(v.data(), v.size(), type, &m, flags);
}

int ddecl(const Bytes &v, unsigned flags = 0)
{
    smcx_clc_decline m;
    return smcx_clc_decode_decline(v.data(), v.size(), &m, flags);
}

Bytes with(Bytes v, size_t at, uint8_t val)
{
    v.at(at) = val;
    return v;
}

Bytes head(const Bytes &v, size_t n) { return Bytes(v.begin(), v.begin() + n); }

} // namespace

TEST(ClcReject, ShortBuffer)
{
    EXPECT_WIRE(dprop(head(PROP_V1_R, 7)), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dprop({}), -SMCX_WIRE_ESHORT);
    // length field and buffer agree, but both are below the fixed part
    EXPECT_WIRE(dprop(with(head(PROP_V1_R, 20), 6, 20)), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dprop(with(head(PROP_V2_RR, 60), 6, 60)), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dacc(with(head(ACC_V1_FC, 60), 6, 60), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dacc(with(head(ACC_V2, 100), 6, 100), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(ddecl(with(head(DECL_V1, 24), 6, 24)), -SMCX_WIRE_ESHORT);
}

TEST(ClcReject, LengthDisagrees)
{
    Bytes v = PROP_V1_R;
    v.push_back(0); // buffer longer than the length field
    EXPECT_WIRE(dprop(v), -SMCX_WIRE_ELEN);
    EXPECT_WIRE(dprop(with(PROP_V1_R, 6, 0x35)), -SMCX_WIRE_ELEN); // field longer than buffer
    // consistent length field, but 4 bytes nobody accounts for
    v = PROP_V1_R;
    v.insert(v.end() - 4, {0, 0, 0, 0});
    v[6] = 56;
    EXPECT_WIRE(dprop(v), -SMCX_WIRE_ELEN);
    v = ACC_V2;
    v.insert(v.end() - 4, {0, 0, 0, 0});
    v[6] = 112;
    EXPECT_WIRE(dacc(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    v = ACC_V1_FC; // v1 is always 68
    v.insert(v.end() - 4, {0, 0, 0, 0});
    v[6] = 72;
    EXPECT_WIRE(dacc(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    // first contact announced but no extension
    EXPECT_WIRE(dacc(with(ACC_V2, 7, 0x28), SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    // a v2 decline must be 44 bytes
    EXPECT_WIRE(ddecl(with(DECL_V1, 7, 0x20)), -SMCX_WIRE_ELEN);
}

TEST(ClcReject, Eyecatcher)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 0, 0xe3)), -SMCX_WIRE_EEYECATCHER);
    Bytes ascii = PROP_V1_R;
    std::memcpy(ascii.data(), "SMCR", 4);
    EXPECT_WIRE(dprop(ascii), -SMCX_WIRE_EEYECATCHER);
    EXPECT_WIRE(ddecl(with(DECL_V1, 3, 0xc5)), -SMCX_WIRE_EEYECATCHER);
}

TEST(ClcReject, Trailer)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 51, 0xd8)), -SMCX_WIRE_ETRAILER);
    // SMCD trailer behind an SMCR header
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 131, 0xc4)), -SMCX_WIRE_ETRAILER);
    EXPECT_WIRE(dacc(with(ACC_V2_FC, 159, 0), SMCX_CLC_ACCEPT), -SMCX_WIRE_ETRAILER);
    EXPECT_WIRE(dacc(with(CONF_V2_FC, 192, 0), SMCX_CLC_CONFIRM), -SMCX_WIRE_ETRAILER);
    EXPECT_WIRE(ddecl(with(DECL_V2, 40, 0x40)), -SMCX_WIRE_ETRAILER);
}

TEST(ClcReject, Type)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 4, 5)), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dprop(with(PROP_V1_R, 4, 0)), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dprop(DECL_V1), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc(PROP_V1_R, SMCX_CLC_ACCEPT), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc(DECL_V1, SMCX_CLC_DECLINE), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(ddecl(ACC_V1_FC), -SMCX_WIRE_ETYPE);
}

TEST(ClcReject, Version)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 7, 0x00)), -SMCX_WIRE_EVERSION);
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 7, 0x30)), -SMCX_WIRE_EVERSION);
    EXPECT_WIRE(dacc(with(ACC_V1_FC, 7, 0xf8), SMCX_CLC_ACCEPT), -SMCX_WIRE_EVERSION);
    EXPECT_WIRE(ddecl(with(DECL_V1, 7, 0x30)), -SMCX_WIRE_EVERSION);
}

TEST(ClcReject, PathType)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 7, 0x12)), -SMCX_WIRE_EPATH);  // v1 offers nothing
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 7, 0x2a)), -SMCX_WIRE_EPATH); // v2 offers nothing
    EXPECT_WIRE(dacc(with(ACC_V1_FC, 7, 0x19), SMCX_CLC_ACCEPT), -SMCX_WIRE_EPATH); // SMC-D
    EXPECT_WIRE(dacc(with(ACC_V1_FC, 7, 0x1b), SMCX_CLC_ACCEPT), -SMCX_WIRE_EPATH); // both
    EXPECT_WIRE(ddecl(with(DECL_V1, 7, 0x12)), -SMCX_WIRE_EPATH);
}

TEST(ClcReject, CountOverMaximum)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R6, 47, 9)), -SMCX_WIRE_ECOUNT); // > 8 IPv6 prefixes
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 80, 9)), -SMCX_WIRE_ECOUNT); // > 8 user EIDs
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 81, 9)), -SMCX_WIRE_ECOUNT); // > 8 ISM GIDs
    // ISM GIDs counted without an SMC-Dv2 extension to hold them
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 89, 1)), -SMCX_WIRE_ECOUNT);
    EXPECT_WIRE(dacc(with(CONF_V2_FC, 156, 9), SMCX_CLC_CONFIRM), -SMCX_WIRE_ECOUNT);
}

TEST(ClcReject, CountBeyondMessage)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R6, 47, 3)), -SMCX_WIRE_ETRUNC);
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 81, 5)), -SMCX_WIRE_ETRUNC);
    EXPECT_WIRE(dacc(with(CONF_V2_FC, 156, 3), SMCX_CLC_CONFIRM), -SMCX_WIRE_ETRUNC);
    // an offset that is right but whose area does not fit
    Bytes v = with(PROP_V2_RR, 6, 100);
    v.resize(100);
    EXPECT_WIRE(dprop(v), -SMCX_WIRE_ETRUNC);
}

TEST(ClcReject, Offsets)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 39, 8)), -SMCX_WIRE_EOFFSET);     // neither 0 nor 40
    EXPECT_WIRE(dprop(with(PROP_V1_B, 39, 0)), -SMCX_WIRE_EOFFSET);     // SMC-D needs 40
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 39, 0)), -SMCX_WIRE_EOFFSET);    // ip area needs 40
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 39, 40)), -SMCX_WIRE_EOFFSET);   // no ip area: 0
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 51, 0x25)), -SMCX_WIRE_EOFFSET); // v2 ext offset
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 87, 0x41)), -SMCX_WIRE_EOFFSET); // SMC-Dv2 offset
    EXPECT_WIRE(dprop(with(PROP_V2_RR, 95, 0x20)), -SMCX_WIRE_EOFFSET); // no SMC-Dv2
    // typev2 N: the v2 extension offset must be 0
    Bytes v = with(PROP_V2_RR, 7, 0x28); // typev2 N... (2 << 2) | R
    EXPECT_WIRE(dprop(v), -SMCX_WIRE_EOFFSET);
}

TEST(ClcReject, Strings)
{
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 120, 0x07)), -SMCX_WIRE_ESTRING); // control char
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 124, 0x00)), -SMCX_WIRE_ESTRING); // text after NUL
    EXPECT_WIRE(dprop(with(PROP_V2_NB, 160, 0x80)), -SMCX_WIRE_ESTRING); // system EID
    EXPECT_WIRE(dacc(with(ACC_V2, 64, 0x7f), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
    EXPECT_WIRE(dacc(with(ACC_V2_FC, 113, 0x0a), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
    // NUL padding is fine as long as nothing follows it
    Bytes v = ACC_V2_FC;
    std::fill(v.begin() + 113, v.begin() + 140, 0);
    EXPECT_WIRE(dacc(v, SMCX_CLC_ACCEPT), 0);
    v[139] = 'x';
    EXPECT_WIRE(dacc(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
}

// the byte-by-byte rule smcx_check_text() implements a word at a time
static int checkTextRef(const uint8_t *p, size_t n)
{
    bool ended = false;
    for (size_t i = 0; i < n; i++) {
        if (ended ? p[i] != 0 : p[i] != 0 && (p[i] < 0x20 || p[i] > 0x7e))
            return -SMCX_WIRE_ESTRING;
        ended = ended || p[i] == 0;
    }
    return 0;
}

TEST(ClcText, EveryByteAtEveryPlace)
{
    // full text, text with NUL padding, all padding; each byte value at
    // each place, and around it a neighbour that carries or borrows
    for (size_t fill : {size_t{32}, size_t{13}, size_t{0}}) {
        for (size_t at = 0; at < 32; at++) {
            for (int b = 0; b < 256; b++) {
                for (int nb : {-1, 0x00, 0x1f, 0x7f, 0xff}) {
                    uint8_t t[32] = {};
                    for (size_t i = 0; i < fill; i++)
                        t[i] = static_cast<uint8_t>('A' + i % 26);
                    t[at] = static_cast<uint8_t>(b);
                    if (nb >= 0 && at + 1 < 32)
                        t[at + 1] = static_cast<uint8_t>(nb);
                    ASSERT_EQ(checkTextRef(t, sizeof(t)), smcx_check_text(t, sizeof(t)))
                        << "fill " << fill << " at " << at << " byte " << b << " next " << nb;
                    // lengths that leave a tail after the whole words
                    ASSERT_EQ(checkTextRef(t, 29), smcx_check_text(t, 29));
                }
            }
        }
    }
}

TEST(ClcLaxText, HostnameAnyBytes)
{
    // mainline sends its node name as it is: a UTF-8 byte, a control char
    Bytes v = with(with(ACC_V2_FC, 114, 0xc3), 115, 0x0a);
    EXPECT_WIRE(dacc(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
    EXPECT_WIRE(dacc(v, SMCX_CLC_ACCEPT, SMCX_WIRE_LAX_TEXT), 0);
    smcx_clc_accept d{};
    ASSERT_EQ(0,
              smcx_clc_decode_accept(v.data(), v.size(), SMCX_CLC_ACCEPT, &d, SMCX_WIRE_LAX_TEXT));
    EXPECT_EQ('?', d.hostname[114 - 108]);
    EXPECT_EQ('?', d.hostname[115 - 108]);
    EXPECT_EQ(0, smcx_check_text(d.hostname, SMCX_HOSTNAME_LEN));
    // NUL padding stays; text after a NUL becomes '?'
    std::fill(v.begin() + 120, v.begin() + 140, 0);
    v[125] = 'x';
    ASSERT_EQ(0,
              smcx_clc_decode_accept(v.data(), v.size(), SMCX_CLC_ACCEPT, &d, SMCX_WIRE_LAX_TEXT));
    EXPECT_EQ('?', d.hostname[120 - 108]);
    EXPECT_EQ('x', d.hostname[125 - 108]);
    EXPECT_EQ(0, d.hostname[126 - 108]);
    // the EID stays strict
    EXPECT_WIRE(dacc(with(ACC_V2, 64, 0x7f), SMCX_CLC_ACCEPT, SMCX_WIRE_LAX_TEXT),
                -SMCX_WIRE_ESTRING);
}

TEST(ClcReject, ReservedNotZero)
{
    struct Case {
        const char *what;
        Bytes v;
        int kind; // 0 proposal, 1 accept, 2 confirm, 3 decline
    };
    const Case cases[] = {
        {"ip area reserved", with(PROP_V1_R, 45, 1), 0},
        {"v1 proposal typev2 bits", with(PROP_V1_R, 7, 0x14), 0},
        {"v1 SMC-D area reserved", with(PROP_V1_B, 50, 1), 0},
        {"v2 SMC-D area reserved", with(PROP_V2_RR, 60, 1), 0},
        {"v2 ext byte 2", with(PROP_V2_RR, 90, 1), 0},
        {"v2 ext flag bits", with(PROP_V2_RR, 91, 0x12), 0},
        {"v2 ext tail", with(PROP_V2_RR, 127, 1), 0},
        {"SMC-Dv2 ext reserved", with(PROP_V2_NB, 199, 1), 0},
        {"accept byte 51", with(ACC_V1_FC, 51, 1), 1},
        {"accept byte 60", with(ACC_V1_FC, 60, 1), 1},
        {"accept typev2 bit 0", with(ACC_V1_FC, 7, 0x1c), 1},
        {"accept v2 reserved", with(ACC_V2, 100, 1), 1},
        {"fce reserved bits", with(ACC_V2_FC, 104, 0x81), 1},
        {"fce reserved bytes", with(ACC_V2_FC, 106, 1), 1},
        {"fce v2x reserved", with(ACC_V2_FC, 150, 1), 1},
        {"gid list reserved", with(CONF_V2_FC, 157, 1), 2},
        {"decline os byte low nibble", with(DECL_V1, 20, 0x01), 3},
        {"decline reserved", with(DECL_V1, 22, 1), 3},
        {"decline typev2 bit 0", with(DECL_V2, 7, 0x2c), 3},
    };
    for (const Case &c : cases) {
        for (unsigned flags : {0u, unsigned(SMCX_WIRE_LAX_RSVD)}) {
            int want = flags ? 0 : -SMCX_WIRE_ERESERVED;
            Bytes out(SMCX_CLC_MAX_LEN);
            int rc = 0, n = 0;
            if (c.kind == 0) {
                smcx_clc_proposal m;
                rc = smcx_clc_decode_proposal(c.v.data(), c.v.size(), &m, flags);
                if (!rc)
                    n = smcx_clc_encode_proposal(&m, out.data(), out.size());
            } else if (c.kind == 3) {
                smcx_clc_decline m;
                rc = smcx_clc_decode_decline(c.v.data(), c.v.size(), &m, flags);
                if (!rc)
                    n = smcx_clc_encode_decline(&m, out.data(), out.size());
            } else {
                uint8_t t = c.kind == 1 ? SMCX_CLC_ACCEPT : SMCX_CLC_CONFIRM;
                smcx_clc_accept m;
                rc = smcx_clc_decode_accept(c.v.data(), c.v.size(), t, &m, flags);
                if (!rc)
                    n = smcx_clc_encode_accept(&m, t, out.data(), out.size());
            }
            EXPECT_EQ(rc, want) << c.what << " flags " << flags << ": " << smcx_wire_errname(rc);
            if (flags) {
                // lax decode re-encodes to the canonical, zero-reserved form,
                // which differs from the input in exactly one byte
                ASSERT_EQ(n, int(c.v.size())) << c.what;
                out.resize(n);
                int diff = 0;
                for (size_t i = 0; i < c.v.size(); i++)
                    diff += out[i] != c.v[i];
                EXPECT_EQ(diff, 1) << c.what;
            }
        }
    }
}

TEST(ClcReject, ValueRange)
{
    EXPECT_WIRE(dprop(with(PROP_V1_R, 44, 33)), -SMCX_WIRE_ERANGE);   // IPv4 /33
    EXPECT_WIRE(dprop(with(PROP_V1_R6, 64, 129)), -SMCX_WIRE_ERANGE); // IPv6 /129
}

// every strict prefix of every vector is rejected, and (under ASan) the
// decoder never reads beyond the bytes it was given
TEST(ClcReject, EveryTruncation)
{
    const Bytes *props[] = {&PROP_V1_R, &PROP_V1_R6, &PROP_V1_B, &PROP_V2_RR, &PROP_V2_NB};
    for (const Bytes *v : props)
        for (size_t n = 0; n < v->size(); n++) {
            Bytes t = head(*v, n);
            EXPECT_NE(dprop(t), 0);
            if (n >= 8) { // and with a length field that agrees
                t[6] = uint8_t(n);
                EXPECT_NE(dprop(t), 0);
            }
        }
    const Bytes *accs[] = {&ACC_V1_FC, &ACC_V2, &ACC_V2_FC, &ACC_V2_FC_R0};
    for (const Bytes *v : accs)
        for (size_t n = 8; n < v->size(); n++)
            EXPECT_NE(dacc(with(head(*v, n), 6, uint8_t(n)), SMCX_CLC_ACCEPT), 0);
    for (size_t n = 8; n < CONF_V2_FC.size(); n++)
        EXPECT_NE(dacc(with(head(CONF_V2_FC, n), 6, uint8_t(n)), SMCX_CLC_CONFIRM), 0);
    for (size_t n = 8; n < DECL_V2.size(); n++)
        EXPECT_NE(ddecl(with(head(DECL_V2, n), 6, uint8_t(n))), 0);
}

TEST(ClcEncode, Errors)
{
    Bytes out(8);
    smcx_clc_proposal p = new_prop(2, SMCX_TYPE_R, SMCX_TYPE_R);
    p.has_smcd_area = 1;
    EXPECT_WIRE(smcx_clc_encode_proposal(&p, out.data(), out.size()), -SMCX_WIRE_ENOSPC);
    out.resize(SMCX_CLC_MAX_LEN);
    smcx_clc_proposal q = p;
    q.has_smcd_area = 0; // v2 always carries the SMC-D area
    EXPECT_WIRE(smcx_clc_encode_proposal(&q, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    q = p;
    q.hdr.version = 3;
    EXPECT_WIRE(smcx_clc_encode_proposal(&q, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    q = p;
    q.ism_gid_cnt = 1; // no SMC-Dv2 extension to carry it
    EXPECT_WIRE(smcx_clc_encode_proposal(&q, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    q = p;
    q.eid_cnt = 1;
    q.user_eid[0][0] = 1;
    EXPECT_WIRE(smcx_clc_encode_proposal(&q, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    q = p;
    q.ipv4_prefix_len = 40;
    EXPECT_WIRE(smcx_clc_encode_proposal(&q, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    q = new_prop(1, SMCX_TYPE_N, 0);
    EXPECT_WIRE(smcx_clc_encode_proposal(&q, out.data(), out.size()), -SMCX_WIRE_EINVAL);

    smcx_clc_accept a = new_acc(2, SMCX_CLC_FIRST_CONTACT);
    a.fce_v2x = 1;
    EXPECT_GT(smcx_clc_encode_accept(&a, SMCX_CLC_CONFIRM, out.data(), out.size()), 0);
    EXPECT_WIRE(smcx_clc_encode_accept(&a, SMCX_CLC_CONFIRM, out.data(), 100), -SMCX_WIRE_ENOSPC);
    EXPECT_WIRE(smcx_clc_encode_accept(&a, SMCX_CLC_DECLINE, out.data(), out.size()),
                -SMCX_WIRE_EINVAL);
    smcx_clc_accept b = a;
    b.fce_v2x = 0; // a confirm always has the 52-byte extension
    EXPECT_WIRE(smcx_clc_encode_accept(&b, SMCX_CLC_CONFIRM, out.data(), out.size()),
                -SMCX_WIRE_EINVAL);
    b = a;
    b.qpn = 0x1000000;
    EXPECT_WIRE(smcx_clc_encode_accept(&b, SMCX_CLC_ACCEPT, out.data(), out.size()),
                -SMCX_WIRE_EINVAL);
    b = a;
    b.hdr.typev1 = SMCX_TYPE_D;
    EXPECT_WIRE(smcx_clc_encode_accept(&b, SMCX_CLC_ACCEPT, out.data(), out.size()),
                -SMCX_WIRE_EINVAL);
    b = a;
    b.gid_cnt = 9;
    EXPECT_WIRE(smcx_clc_encode_accept(&b, SMCX_CLC_CONFIRM, out.data(), out.size()),
                -SMCX_WIRE_EINVAL);

    smcx_clc_decline d;
    std::memset(&d, 0, sizeof(d));
    d.hdr.version = 1;
    EXPECT_WIRE(smcx_clc_encode_decline(&d, out.data(), 27), -SMCX_WIRE_ENOSPC);
    d.hdr.typev2 = 1;
    EXPECT_WIRE(smcx_clc_encode_decline(&d, out.data(), out.size()), -SMCX_WIRE_EINVAL);
}

// smcx's WRITE WITH IMMEDIATE extension (include/smcx/wwi.h, docs/wire.md):
// the exact bytes in the fields mainline zero-fills and ignores
TEST(ClcWwi, ProposalVendorAreaRoundTrip)
{
    // PROP_V2_RR with the smcx marker at 52..59: OUI 02 53 58, options
    // 01 00 00 00 01 (marker version 1, feature word bit 0)
    Bytes wire = PROP_V2_RR;
    const Bytes mark = {0x02, 0x53, 0x58, 0x01, 0x00, 0x00, 0x00, 0x01};
    std::copy(mark.begin(), mark.end(), wire.begin() + 52);
    smcx_clc_proposal d = check_prop(wire);
    EXPECT_TRUE(smcx_wwi_prop_offers(d.vendor_oui, d.vendor_exp));
    EXPECT_FALSE(
        smcx_wwi_prop_offers(check_prop(PROP_V2_RR).vendor_oui, check_prop(PROP_V2_RR).vendor_exp));

    smcx_clc_proposal m = check_prop(PROP_V2_RR);
    smcx_wwi_prop_mark(m.vendor_oui, m.vendor_exp, true);
    EXPECT_EQ(hex(enc_prop(m)), hex(wire));
    smcx_wwi_prop_mark(m.vendor_oui, m.vendor_exp, false);
    EXPECT_EQ(hex(enc_prop(m)), hex(PROP_V2_RR));
}

// feature bit 1 (native IPv6) in the same bytes: options 01 00 00 00 03
// with WRITE WITH IMMEDIATE, 53 58 00 03 in the Accept and the Confirm
TEST(ClcWwi, Ip6BitRoundTrip)
{
    Bytes wire = PROP_V2_RR;
    const Bytes mark = {0x02, 0x53, 0x58, 0x01, 0x00, 0x00, 0x00, 0x03};
    std::copy(mark.begin(), mark.end(), wire.begin() + 52);
    smcx_clc_proposal d = check_prop(wire);
    EXPECT_EQ(smcx_vx_prop_feats(d.vendor_oui, d.vendor_exp), SMCX_WWI_F_IMM | SMCX_WWI_F_IP6);
    smcx_clc_proposal m = check_prop(PROP_V2_RR);
    smcx_vx_prop_mark(m.vendor_oui, m.vendor_exp, SMCX_WWI_F_IMM | SMCX_WWI_F_IP6);
    EXPECT_EQ(hex(enc_prop(m)), hex(wire));

    const Bytes opts = {0x53, 0x58, 0x00, 0x03};
    for (const auto &[plain, type] : {std::pair{ACC_V2_FC, uint8_t(SMCX_CLC_ACCEPT)},
                                      std::pair{CONF_V2_FC, uint8_t(SMCX_CLC_CONFIRM)}}) {
        Bytes w = plain;
        std::copy(opts.begin(), opts.end(), w.begin() + 144);
        smcx_clc_accept a = check_acc(w, type);
        EXPECT_EQ(smcx_vx_opts_feats(a.vendor_exp_options), SMCX_WWI_F_IMM | SMCX_WWI_F_IP6);
        smcx_clc_accept e = check_acc(plain, type);
        e.vendor_exp_options = smcx_vx_opts(SMCX_WWI_F_IMM | SMCX_WWI_F_IP6);
        EXPECT_EQ(hex(enc_acc(e, type)), hex(w));
    }
}

TEST(ClcWwi, AcceptVendorOptionsRoundTrip)
{
    // the Accept's and the Confirm's first contact extension with
    // 53 58 00 01 at +40..43 (104 + 40 = 144)
    const Bytes opts = {0x53, 0x58, 0x00, 0x01};
    for (const auto &[plain, type] : {std::pair{ACC_V2_FC, uint8_t(SMCX_CLC_ACCEPT)},
                                      std::pair{CONF_V2_FC, uint8_t(SMCX_CLC_CONFIRM)}}) {
        Bytes wire = plain;
        std::copy(opts.begin(), opts.end(), wire.begin() + 144);
        smcx_clc_accept d = check_acc(wire, type);
        EXPECT_EQ(d.vendor_exp_options, 0x53580001u);
        EXPECT_TRUE(smcx_wwi_opts_say(d.vendor_exp_options));
        smcx_clc_accept m = check_acc(plain, type);
        EXPECT_FALSE(smcx_wwi_opts_say(m.vendor_exp_options));
        m.vendor_exp_options = smcx_wwi_opts(true);
        EXPECT_EQ(hex(enc_acc(m, type)), hex(wire));
        m.vendor_exp_options = smcx_wwi_opts(false);
        EXPECT_EQ(hex(enc_acc(m, type)), hex(plain));
    }
}

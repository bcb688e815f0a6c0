// SPDX-License-Identifier: GPL-2.0
// LLC byte-exact vectors: every message type in its RFC 7609 (v1, 44 bytes)
// form and, where SMC-Rv2 has one, its v2 form.  Offsets and fields are
// written next to each byte group; the v2 length is little-endian as
// mainline x86 sends it (see llc.h).
#include "testutil.h"

namespace {

const Bytes MAC_A = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
const Bytes GID_A = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55};
const Bytes GID_B = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xc0, 0xa8, 0x02, 0x0b};

Bytes enc(const smcx_llc_msg &m)
{
    Bytes out(SMCX_LLC_V2_MAX_LEN);
    int rc = smcx_llc_encode(&m, out.data(), out.size());
    EXPECT_GT(rc, 0) << smcx_wire_errname(rc);
    out.resize(rc > 0 ? rc : 0);
    return out;
}

smcx_llc_msg check(const Bytes &v)
{
    smcx_llc_msg m;
    record_vector("llc", v);
    EXPECT_WIRE(smcx_llc_decode(v.data(), v.size(), &m, 0), 0);
    EXPECT_EQ(m.length, v.size());
    EXPECT_EQ(hex(enc(m)), hex(v));
    return m;
}

smcx_llc_msg msg(uint8_t version, uint8_t type, uint8_t flags)
{
    smcx_llc_msg m;
    std::memset(&m, 0, sizeof(m));
    m.version = version;
    m.type = type;
    m.flags = flags;
    return m;
}

template <size_t N> void set(uint8_t (&dst)[N], const Bytes &src)
{
    ASSERT_EQ(src.size(), N);
    std::memcpy(dst, src.data(), N);
}

} // namespace

// CONFIRM_LINK request, v1
const Bytes CONFIRM_LINK_V1 = cat({
    {0x01},                   // 0      v1 | CONFIRM_LINK
    {0x2c},                   // 1      length 44
    {0x00},                   // 2      reserved
    {0x03},                   // 3      flags: no RMBE eyecatchers
    MAC_A,                    // 4..9   sender MAC
    GID_A,                    // 10..25 sender GID
    {0x00, 0x01, 0x23},       // 26..28 sender QPN
    {0x01},                   // 29     link number
    {0xde, 0xad, 0x00, 0x01}, // 30..33 link user id
    {0x02},                   // 34     max links
    {0x00},                   // 35     max conns (v1: 0)
    zeros(8),                 // 36..43 reserved
});

// CONFIRM_LINK response, v2 form, release 1 max conns
// clang-format off
const Bytes CONFIRM_LINK_V2 = cat({
    {0x21},                   // 0      v2 | CONFIRM_LINK
    {0x2c, 0x00},             // 1..2   length 44, little-endian
    {0x83},                   // 3      response | no RMBE eyecatchers
    MAC_A, GID_A,             // 4..25
    {0x00, 0x04, 0x56},       // 26..28 QPN
    {0x01},                   // 29
    {0xbe, 0xef, 0x00, 0x01}, // 30..33
    {0x02},                   // 34     max links 2
    {0xff},                   // 35     max conns 255
    zeros(8),                 // 36..43
});
// clang-format on

TEST(Llc, ConfirmLink)
{
    smcx_llc_msg d = check(CONFIRM_LINK_V1);
    EXPECT_EQ(d.version, 0);
    EXPECT_EQ(d.type, SMCX_LLC_CONFIRM_LINK);
    EXPECT_EQ(d.u.confirm_link.qpn, 0x123u);
    EXPECT_EQ(d.u.confirm_link.link_num, 1);
    EXPECT_EQ(d.u.confirm_link.max_links, 2);

    smcx_llc_msg m = msg(0, SMCX_LLC_CONFIRM_LINK, SMCX_LLC_FLAG_NO_RMBE_EYEC);
    set(m.u.confirm_link.mac, MAC_A);
    set(m.u.confirm_link.gid, GID_A);
    m.u.confirm_link.qpn = 0x123;
    m.u.confirm_link.link_num = 1;
    set(m.u.confirm_link.link_uid, Bytes{0xde, 0xad, 0x00, 0x01});
    m.u.confirm_link.max_links = 2;
    EXPECT_EQ(hex(enc(m)), hex(CONFIRM_LINK_V1));

    d = check(CONFIRM_LINK_V2);
    EXPECT_EQ(d.version, 2);
    EXPECT_EQ(d.flags, 0x83);
    EXPECT_EQ(d.u.confirm_link.max_conns, 255);
}

// ADD_LINK request, v1
// clang-format off
const Bytes ADD_LINK_V1 = cat({
    {0x02}, {0x2c}, {0x00}, {0x00}, // 0..3   v1 ADD_LINK, 44, -, request
    MAC_A,                          // 4..9   sender MAC
    {0x00, 0x00},                   // 10..11 reserved
    GID_A,                          // 12..27 sender GID
    {0x00, 0x07, 0x77},             // 28..30 QPN of the new link
    {0x02},                         // 31     link number
    {0x05},                         // 32     reserved | QP MTU 5 (4096)
    {0x12, 0x34, 0x56},             // 33..35 initial PSN
    zeros(8),                       // 36..43 reserved
});
// clang-format on

// ADD_LINK reject response, v1: reason "no alternate path" in byte 2
// clang-format off
const Bytes ADD_LINK_V1_REJ = cat({
    {0x02}, {0x2c},
    {0x01},                         // 2      reserved | reject reason 1
    {0xc0},                         // 3      response | rejected
    MAC_A, {0x00, 0x00}, GID_A, {0x00, 0x07, 0x77}, {0x02}, {0x05}, {0x12, 0x34, 0x56},
    zeros(8),
});
// clang-format on

// ADD_LINK, v2 form with extension and two rkey triples (104 bytes)
// clang-format off
const Bytes ADD_LINK_V2 = cat({
    {0x22},                   // 0      v2 | ADD_LINK
    {0x68, 0x00},             // 1..2   length 104, little-endian
    {0x00},                   // 3      request
    MAC_A, {0x00, 0x00}, GID_A, // 4..27
    {0x00, 0x08, 0x88},       // 28..30 QPN
    {0x02}, {0x05},           // 31..32 link number, MTU
    {0x00, 0x00, 0x01},       // 33..35 PSN
    zeros(8),                 // 36..43
    {0x80},                   // 44     v2_direct | reserved
    {0x00},                   // 45     reserved
    GID_B,                    // 46..61 client target GID
    zeros(8),                 // 62..69 reserved
    {0x02, 0x00},             // 70..71 number of rkeys 2, little-endian
    {0x00, 0x00, 0x10, 0x01}, // 72..75 rkey 1 on the existing link
    {0x00, 0x00, 0x20, 0x01}, // 76..79 rkey 1 on the new link
    {0, 0, 0, 0x7f, 0, 0x10, 0, 0}, // 80..87 address on the new link
    {0x00, 0x00, 0x10, 0x02}, // 88..91 rkey 2
    {0x00, 0x00, 0x20, 0x02}, // 92..95
    {0, 0, 0, 0x7f, 0, 0x20, 0, 0}, // 96..103
});
// clang-format on

TEST(Llc, AddLink)
{
    smcx_llc_msg d = check(ADD_LINK_V1);
    EXPECT_EQ(d.u.add_link.qpn, 0x777u);
    EXPECT_EQ(d.u.add_link.qp_mtu, 5);
    EXPECT_EQ(d.u.add_link.psn, 0x123456u);
    EXPECT_EQ(d.u.add_link.has_ext, 0);

    smcx_llc_msg m = msg(0, SMCX_LLC_ADD_LINK, 0);
    set(m.u.add_link.mac, MAC_A);
    set(m.u.add_link.gid, GID_A);
    m.u.add_link.qpn = 0x777;
    m.u.add_link.link_num = 2;
    m.u.add_link.qp_mtu = 5;
    m.u.add_link.psn = 0x123456;
    EXPECT_EQ(hex(enc(m)), hex(ADD_LINK_V1));

    d = check(ADD_LINK_V1_REJ);
    EXPECT_EQ(d.rej_rsn, SMCX_LLC_REJ_RSN_NO_ALT_PATH);
    EXPECT_EQ(d.flags, SMCX_LLC_FLAG_RESP | SMCX_LLC_FLAG_ADD_LNK_REJ);

    d = check(ADD_LINK_V2);
    ASSERT_EQ(d.u.add_link.has_ext, 1);
    EXPECT_EQ(d.u.add_link.v2_direct, 1);
    ASSERT_EQ(d.u.add_link.num_rkeys, 2);
    smcx_llc_rt rt;
    smcx_llc_rt_get(d.u.add_link.rkeys, 1, &rt);
    EXPECT_EQ(rt.rkey, 0x1002u);
    EXPECT_EQ(rt.rkey_new, 0x2002u);
    EXPECT_EQ(rt.vaddr_new, 0x7f00200000ull);

    // build it with a NULL list and fill the entries in place
    m = msg(2, SMCX_LLC_ADD_LINK, 0);
    set(m.u.add_link.mac, MAC_A);
    set(m.u.add_link.gid, GID_A);
    m.u.add_link.qpn = 0x888;
    m.u.add_link.link_num = 2;
    m.u.add_link.qp_mtu = 5;
    m.u.add_link.psn = 1;
    m.u.add_link.has_ext = 1;
    m.u.add_link.v2_direct = 1;
    set(m.u.add_link.target_gid, GID_B);
    m.u.add_link.num_rkeys = 2;
    Bytes out = enc(m);
    ASSERT_EQ(out.size(), 104u);
    smcx_llc_rt r1 = {0x1001, 0x2001, 0x7f00100000ull};
    smcx_llc_rt r2 = {0x1002, 0x2002, 0x7f00200000ull};
    smcx_llc_rt_put(out.data() + SMCX_LLC_ADD_LINK_RT_OFF, 0, &r1);
    smcx_llc_rt_put(out.data() + SMCX_LLC_ADD_LINK_RT_OFF, 1, &r2);
    EXPECT_EQ(hex(out), hex(ADD_LINK_V2));
}

// ADD_LINK_CONT, v1: 3 rkeys remaining, two carried here
// clang-format off
const Bytes ADD_LINK_CONT_V1 = cat({
    {0x03}, {0x2c}, {0x00}, {0x80}, // 0..3   ADD_LINK_CONT, response (client)
    {0x02},                         // 4      link number
    {0x03},                         // 5      rkeys remaining
    {0x00, 0x00},                   // 6..7   reserved
    {0, 0, 0, 1}, {0, 0, 0, 2}, {0, 0, 0, 0, 0, 0, 0x10, 0}, // 8..23  triple 1
    {0, 0, 0, 3}, {0, 0, 0, 4}, {0, 0, 0, 0, 0, 0, 0x20, 0}, // 24..39 triple 2
    zeros(4),                       // 40..43 reserved
});
// clang-format on

TEST(Llc, AddLinkCont)
{
    smcx_llc_msg d = check(ADD_LINK_CONT_V1);
    EXPECT_EQ(d.u.add_link_cont.num_rkeys, 3);
    EXPECT_EQ(d.u.add_link_cont.rt[1].rkey, 3u);
    EXPECT_EQ(d.u.add_link_cont.rt[1].vaddr_new, 0x2000u);
    // the last message of a sequence carries one triple, the other is zero
    Bytes v = ADD_LINK_CONT_V1;
    v[5] = 1;
    std::fill(v.begin() + 24, v.begin() + 40, 0);
    d = check(v);
    EXPECT_EQ(d.u.add_link_cont.rt[1].rkey, 0u);
}

// DELETE_LINK, v1: delete all links, orderly, operator initiated
// clang-format off
const Bytes DELETE_LINK_V1 = cat({
    {0x04}, {0x2c}, {0x00},
    {0x60},                   // 3      delete all | orderly
    {0x00},                   // 4      link number (0: all)
    {0x00, 0x02, 0x00, 0x00}, // 5..8   reason OP_INIT_TERM
    zeros(35),                // 9..43  reserved
});
// clang-format on

// DELETE_LINK response, v2 form: link 2, lost path
// clang-format off
const Bytes DELETE_LINK_V2 = cat({
    {0x24}, {0x2c, 0x00}, {0x80}, // 0..3 v2 DELETE_LINK, 44, response
    {0x02},                       // 4    link number
    {0x00, 0x01, 0x00, 0x00},     // 5..8 LOST_PATH
    zeros(35),
});
// clang-format on

TEST(Llc, DeleteLink)
{
    smcx_llc_msg d = check(DELETE_LINK_V1);
    EXPECT_EQ(d.u.delete_link.reason, SMCX_LLC_DEL_OP_INIT_TERM);
    EXPECT_STREQ(smcx_llc_del_name(d.u.delete_link.reason), "OP_INIT_TERM");
    d = check(DELETE_LINK_V2);
    EXPECT_EQ(d.u.delete_link.link_num, 2);
    EXPECT_EQ(d.u.delete_link.reason, SMCX_LLC_DEL_LOST_PATH);
}

// REQ_ADD_LINK (v2 only): the client offers two GIDs (60 bytes)
// clang-format off
const Bytes REQ_ADD_LINK_V2 = cat({
    {0x25}, {0x3c, 0x00}, {0x00}, // 0..3   v2 REQ_ADD_LINK, length 60
    zeros(20),                    // 4..23  reserved
    {0x02},                       // 24     GID count
    zeros(3),                     // 25..27 reserved
    GID_A,                        // 28..43
    GID_B,                        // 44..59
});
// clang-format on

// ... and the server's response: header only, padded to 44
// clang-format off
const Bytes REQ_ADD_LINK_V2_RESP = cat({
    {0x25}, {0x2c, 0x00}, {0x80}, zeros(40),
});
// clang-format on

TEST(Llc, ReqAddLink)
{
    smcx_llc_msg d = check(REQ_ADD_LINK_V2);
    ASSERT_EQ(d.u.req_add_link.gid_cnt, 2);
    EXPECT_EQ(0, std::memcmp(d.u.req_add_link.gids[1], GID_B.data(), 16));
    d = check(REQ_ADD_LINK_V2_RESP);
    EXPECT_EQ(d.u.req_add_link.gid_cnt, 0);
}

// CONFIRM_RKEY, v1: this link's key plus keys for links 2 and 3
// clang-format off
const Bytes CONFIRM_RKEY_V1 = cat({
    {0x06}, {0x2c}, {0x00}, {0x00}, // 0..3
    {0x02},                         // 4      two other rkeys
    {0x00, 0x00, 0xa0, 0x01},       // 5..8   rkey on this link
    {0, 0, 0, 0, 0x00, 0x10, 0, 0}, // 9..16  RMB address on this link
    {0x02},                         // 17     link 2
    {0x00, 0x00, 0xa0, 0x02},       // 18..21
    {0, 0, 0, 0, 0x00, 0x20, 0, 0}, // 22..29
    {0x03},                         // 30     link 3
    {0x00, 0x00, 0xa0, 0x03},       // 31..34
    {0, 0, 0, 0, 0x00, 0x30, 0, 0}, // 35..42
    {0x00},                         // 43     reserved
});
// clang-format on

// negative CONFIRM_RKEY response, v2 form: retry later
// clang-format off
const Bytes CONFIRM_RKEY_V2_NEG = cat({
    {0x26}, {0x2c, 0x00},
    {0xb0},                         // 3      response | negative | retry
    {0x00},                         // 4      no other rkeys
    {0x00, 0x00, 0xa0, 0x01}, {0, 0, 0, 0, 0x00, 0x10, 0, 0}, // 5..16
    zeros(27),                      // 17..43 unused entries, reserved
});
// clang-format on

// CONFIRM_RKEY_CONT, v1 (RFC 7609; mainline never sends it)
// clang-format off
const Bytes CONFIRM_RKEY_CONT_V1 = cat({
    {0x08}, {0x2c}, {0x00}, {0x00},
    {0x01},                         // 4      one rkey remaining
    {0x04},                         // 5      link 4
    {0x00, 0x00, 0xa0, 0x04},       // 6..9
    {0, 0, 0, 0, 0x00, 0x40, 0, 0}, // 10..17
    zeros(26),                      // 18..43 unused entries
});
// clang-format on

TEST(Llc, ConfirmRkey)
{
    smcx_llc_msg d = check(CONFIRM_RKEY_V1);
    EXPECT_EQ(d.u.confirm_rkey.num_rkeys, 2);
    EXPECT_EQ(d.u.confirm_rkey.rt[0].link_id, 0);
    EXPECT_EQ(d.u.confirm_rkey.rt[0].rkey, 0xa001u);
    EXPECT_EQ(d.u.confirm_rkey.rt[2].link_id, 3);
    EXPECT_EQ(d.u.confirm_rkey.rt[2].vaddr, 0x300000u);

    smcx_llc_msg m = msg(0, SMCX_LLC_CONFIRM_RKEY, 0);
    m.u.confirm_rkey.num_rkeys = 2;
    m.u.confirm_rkey.rt[0] = {0, 0xa001, 0x100000};
    m.u.confirm_rkey.rt[1] = {2, 0xa002, 0x200000};
    m.u.confirm_rkey.rt[2] = {3, 0xa003, 0x300000};
    EXPECT_EQ(hex(enc(m)), hex(CONFIRM_RKEY_V1));

    d = check(CONFIRM_RKEY_V2_NEG);
    EXPECT_EQ(d.flags & SMCX_LLC_FLAG_RKEY_NEG, SMCX_LLC_FLAG_RKEY_NEG);

    d = check(CONFIRM_RKEY_CONT_V1);
    EXPECT_EQ(d.type, SMCX_LLC_CONFIRM_RKEY_CONT);
    EXPECT_EQ(d.u.confirm_rkey.rt[0].link_id, 4);
    EXPECT_EQ(d.u.confirm_rkey.rt[0].vaddr, 0x400000u);
}

// TEST_LINK request v1 and response v2: user data is echoed
// clang-format off
const Bytes TEST_LINK_V1 = cat({
    {0x07}, {0x2c}, {0x00}, {0x00},
    {'p', 'i', 'n', 'g', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x2a}, // 4..19 user data
    zeros(24),                                                  // 20..43 reserved
});
// clang-format on
// clang-format off
const Bytes TEST_LINK_V2_RESP = cat({
    {0x27}, {0x2c, 0x00}, {0x80},
    {'p', 'i', 'n', 'g', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x2a},
    zeros(24),
});
// clang-format on

TEST(Llc, TestLink)
{
    smcx_llc_msg d = check(TEST_LINK_V1);
    EXPECT_EQ(d.u.test_link.user_data[15], 0x2a);
    d = check(TEST_LINK_V2_RESP);
    EXPECT_EQ(d.flags, SMCX_LLC_FLAG_RESP);
}

// DELETE_RKEY, v1: three rkeys
// clang-format off
const Bytes DELETE_RKEY_V1 = cat({
    {0x09}, {0x2c}, {0x00}, {0x00},
    {0x03},                   // 4      count
    {0x00},                   // 5      error mask
    {0x00, 0x00},             // 6..7   reserved
    {0, 0, 0xb0, 1}, {0, 0, 0xb0, 2}, {0, 0, 0xb0, 3}, // 8..19 rkeys
    zeros(20),                // 20..39 unused slots
    zeros(4),                 // 40..43 reserved
});
// clang-format on

// negative response: the second rkey was unknown (mask bit 7 - 1)
// clang-format off
const Bytes DELETE_RKEY_V1_NEG = cat({
    {0x09}, {0x2c}, {0x00}, {0xa0}, // 3 response | negative
    {0x03}, {0x40}, {0x00, 0x00},   // 4..7 count, error mask 0x40
    {0, 0, 0xb0, 1}, {0, 0, 0xb0, 2}, {0, 0, 0xb0, 3},
    zeros(24),
});
// clang-format on

// DELETE_RKEY, v2 form: ten rkeys do not fit in 44 bytes (48 bytes)
Bytes delete_rkey_v2()
{
    // clang-format off
    Bytes v = cat({
        {0x29}, {0x30, 0x00}, {0x00}, // 0..3 v2 DELETE_RKEY, length 48
        {0x0a}, {0x00}, {0x00, 0x00}, // 4..7 ten rkeys
    });
    // clang-format on
    for (uint8_t i = 1; i <= 10; i++) // 8..47
        v.insert(v.end(), {0x00, 0x00, 0xc0, i});
    return v;
}

TEST(Llc, DeleteRkey)
{
    smcx_llc_msg d = check(DELETE_RKEY_V1);
    ASSERT_EQ(d.u.delete_rkey.num_rkeys, 3);
    EXPECT_EQ(smcx_llc_rkey_get(d.u.delete_rkey.rkeys, 2), 0xb003u);
    d = check(DELETE_RKEY_V1_NEG);
    EXPECT_EQ(d.u.delete_rkey.err_mask, 0x40);
    Bytes v2 = delete_rkey_v2();
    d = check(v2);
    ASSERT_EQ(d.u.delete_rkey.num_rkeys, 10);
    EXPECT_EQ(smcx_llc_rkey_get(d.u.delete_rkey.rkeys, 9), 0xc00au);

    uint8_t keys[12];
    smcx_llc_msg m = msg(0, SMCX_LLC_DELETE_RKEY, 0);
    for (unsigned i = 0; i < 3; i++)
        smcx_llc_rkey_put(keys, i, 0xb001 + i);
    m.u.delete_rkey.num_rkeys = 3;
    m.u.delete_rkey.rkeys = keys;
    EXPECT_EQ(hex(enc(m)), hex(DELETE_RKEY_V1));
}

// unknown types: mainline has no receive handler for these bytes
TEST(Llc, UnknownTypes)
{
    for (uint8_t t : {0x00, 0x05, 0x0a, 0x0f, 0x20, 0x23, 0x28, 0x2a, 0x2f}) {
        Bytes v = TEST_LINK_V1;
        v[0] = t;
        if (t & 0x20) { // v2 header: length little-endian
            v[1] = 44;
            v[2] = 0;
        }
        smcx_llc_msg m;
        EXPECT_WIRE(smcx_llc_decode(v.data(), v.size(), &m, 0), -SMCX_WIRE_ETYPE)
            << "type byte " << int(t);
        // the header is still reported, for logging
        EXPECT_EQ(m.type, t & 0x0f);
        EXPECT_EQ(m.version, t >> 4);
    }
    for (uint8_t t : {0x11, 0x31, 0x87, 0xfe}) {
        Bytes v = TEST_LINK_V1;
        v[0] = t;
        smcx_llc_msg m;
        EXPECT_WIRE(smcx_llc_decode(v.data(), v.size(), &m, 0), -SMCX_WIRE_EVERSION);
    }
    EXPECT_STREQ(smcx_llc_type_name(SMCX_LLC_REQ_ADD_LINK), "REQ_ADD_LINK");
    EXPECT_STREQ(smcx_llc_type_name(12), "?");
}

TEST(Llc, WorkRequestKind)
{
    EXPECT_EQ(smcx_wr_kind(0xfe), SMCX_WR_KIND_CDC);
    EXPECT_EQ(smcx_wr_kind(0x01), SMCX_WR_KIND_LLC);
    EXPECT_EQ(smcx_wr_kind(0x29), SMCX_WR_KIND_LLC);
    EXPECT_EQ(smcx_wr_kind(0x80), SMCX_WR_KIND_UNKNOWN);
}

// ---- Rejections ---------------------------------------------------------------

namespace {

int dec(const Bytes &v, unsigned flags = 0)
{
    smcx_llc_msg m;
    return smcx_llc_decode(v.data(), v.size(), &m, flags);
}

Bytes with(Bytes v, size_t at, uint8_t val)
{
    v.at(at) = val;
    return v;
}

} // namespace

TEST(LlcReject, ShortBuffer)
{
    EXPECT_WIRE(dec(Bytes(CONFIRM_LINK_V1.begin(), CONFIRM_LINK_V1.end() - 1)), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dec({}), -SMCX_WIRE_ESHORT);
    smcx_llc_msg m;
    EXPECT_WIRE(smcx_llc_peek(CONFIRM_LINK_V1.data(), 3, &m), -SMCX_WIRE_ESHORT);
}

TEST(LlcReject, LengthDisagrees)
{
    EXPECT_WIRE(dec(with(CONFIRM_LINK_V1, 1, 45)), -SMCX_WIRE_ELEN); // v1 length byte
    Bytes v = CONFIRM_LINK_V1;
    v.resize(48); // v1 is exactly 44 bytes
    v[1] = 48;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    v = CONFIRM_LINK_V2;
    v.resize(48); // buffer 48, length field 44
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    v[1] = 48; // consistent, but CONFIRM_LINK has no long form
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    // the length is little-endian: a big-endian 44 reads as 11264
    EXPECT_WIRE(dec(with(with(CONFIRM_LINK_V2, 1, 0x00), 2, 0x2c)), -SMCX_WIRE_ELEN);
    // beyond the 8192-byte v2 buffer
    v = ADD_LINK_V2;
    v.resize(8208);
    v[1] = 0x10;
    v[2] = 0x20;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    // v2 ADD_LINK between 44 and 72 bytes has a cut extension
    v = ADD_LINK_V2;
    v.resize(60);
    v[1] = 60;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    // more room than the rkeys need
    v = ADD_LINK_V2;
    v.resize(120);
    v[1] = 120;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    // a REQ_ADD_LINK with 2 GIDs must be 60 bytes, not 76
    v = REQ_ADD_LINK_V2;
    v.resize(76);
    v[1] = 76;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    v = delete_rkey_v2();
    v.resize(52);
    v[1] = 52;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
}

TEST(LlcReject, CountOverMaximum)
{
    EXPECT_WIRE(dec(with(DELETE_RKEY_V1, 4, 9)), -SMCX_WIRE_ECOUNT);
    EXPECT_WIRE(dec(with(CONFIRM_RKEY_V1, 4, 8)), -SMCX_WIRE_ECOUNT);
    EXPECT_WIRE(dec(with(CONFIRM_RKEY_CONT_V1, 4, 8)), -SMCX_WIRE_ECOUNT);
    EXPECT_WIRE(dec(with(REQ_ADD_LINK_V2, 24, 9)), -SMCX_WIRE_ECOUNT);
    EXPECT_WIRE(dec(with(ADD_LINK_V2, 71, 0x01)), -SMCX_WIRE_ECOUNT); // 258 rkeys
}

TEST(LlcReject, CountBeyondMessage)
{
    EXPECT_WIRE(dec(with(ADD_LINK_V2, 70, 3)), -SMCX_WIRE_ETRUNC);
    EXPECT_WIRE(dec(with(REQ_ADD_LINK_V2, 24, 3)), -SMCX_WIRE_ETRUNC);
    EXPECT_WIRE(dec(with(delete_rkey_v2(), 4, 11)), -SMCX_WIRE_ETRUNC);
    // ten rkeys claimed in a 44-byte v2 message (room for nine)
    Bytes v = with(DELETE_RKEY_V1, 0, 0x29);
    v[1] = 44;
    v[2] = 0;
    v[4] = 10;
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ETRUNC);
    v[4] = 9; // nine fit exactly
    EXPECT_WIRE(dec(v), 0);
}

TEST(LlcReject, ReservedNotZero)
{
    struct Case {
        const char *what;
        Bytes v;
    };
    const Case cases[] = {
        {"v1 byte 2 high nibble", with(CONFIRM_LINK_V1, 2, 0x10)},
        {"reject reason outside ADD_LINK", with(CONFIRM_LINK_V1, 2, 0x01)},
        {"confirm link tail", with(CONFIRM_LINK_V2, 43, 1)},
        {"add link byte 10", with(ADD_LINK_V1, 10, 1)},
        {"add link mtu high nibble", with(ADD_LINK_V1, 32, 0x15)},
        {"add link tail", with(ADD_LINK_V1, 40, 1)},
        {"add link ext bits", with(ADD_LINK_V2, 44, 0x81)},
        {"add link ext byte 45", with(ADD_LINK_V2, 45, 1)},
        {"add link ext reserved", with(ADD_LINK_V2, 65, 1)},
        {"add link cont byte 6", with(ADD_LINK_CONT_V1, 6, 1)},
        {"add link cont tail", with(ADD_LINK_CONT_V1, 42, 1)},
        {"delete link tail", with(DELETE_LINK_V1, 20, 1)},
        {"req add link reserved", with(REQ_ADD_LINK_V2, 10, 1)},
        {"req add link padding", with(REQ_ADD_LINK_V2_RESP, 40, 1)},
        {"confirm rkey byte 43", with(CONFIRM_RKEY_V1, 43, 1)},
        {"confirm rkey unused entry", with(CONFIRM_RKEY_V2_NEG, 20, 1)},
        {"confirm rkey cont unused", with(CONFIRM_RKEY_CONT_V1, 30, 1)},
        {"test link tail", with(TEST_LINK_V1, 30, 1)},
        {"delete rkey byte 6", with(DELETE_RKEY_V1, 6, 1)},
        {"delete rkey unused slot", with(DELETE_RKEY_V1, 25, 1)},
    };
    for (const Case &c : cases) {
        EXPECT_WIRE(dec(c.v), -SMCX_WIRE_ERESERVED) << c.what;
        // lax: accepted, and re-encodes to the canonical form
        smcx_llc_msg m;
        EXPECT_WIRE(smcx_llc_decode(c.v.data(), c.v.size(), &m, SMCX_WIRE_LAX_RSVD), 0) << c.what;
        Bytes out(c.v.size());
        EXPECT_EQ(smcx_llc_encode(&m, out.data(), out.size()), int(c.v.size())) << c.what;
        smcx_llc_msg again;
        EXPECT_WIRE(smcx_llc_decode(out.data(), out.size(), &again, 0), 0) << c.what;
    }
}

TEST(LlcReject, EveryTruncation)
{
    const Bytes *vs[] = {&ADD_LINK_V2, &REQ_ADD_LINK_V2};
    for (const Bytes *v : vs)
        for (size_t n = 0; n < v->size(); n++) {
            Bytes t(v->begin(), v->begin() + n);
            EXPECT_NE(dec(t), 0);
            if (n >= 44) {
                t[1] = uint8_t(n);
                // the first 44 bytes of ADD_LINK alone are a valid message
                if (v == &ADD_LINK_V2 && n == 44)
                    EXPECT_WIRE(dec(t), 0);
                else
                    EXPECT_NE(dec(t), 0) << n;
            }
        }
}

TEST(LlcEncode, Errors)
{
    Bytes out(SMCX_LLC_V2_MAX_LEN);
    smcx_llc_msg m = msg(0, SMCX_LLC_REQ_ADD_LINK, 0); // no v1 form
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(1, SMCX_LLC_TEST_LINK, 0);
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(0, SMCX_LLC_TEST_LINK, 0);
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), 43), -SMCX_WIRE_ENOSPC);
    m.rej_rsn = 1; // only ADD_LINK has a reject reason
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(0, SMCX_LLC_ADD_LINK, 0);
    m.u.add_link.has_ext = 1; // the extension needs the v2 form
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(2, SMCX_LLC_ADD_LINK, 0);
    m.u.add_link.has_ext = 1;
    m.u.add_link.num_rkeys = 256;
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(0, SMCX_LLC_CONFIRM_LINK, 0);
    m.u.confirm_link.qpn = 1u << 24;
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(0, SMCX_LLC_DELETE_RKEY, 0);
    m.u.delete_rkey.num_rkeys = 9;
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m = msg(0, SMCX_LLC_CONFIRM_RKEY, 0);
    m.u.confirm_rkey.rt[0].link_id = 1; // that byte is the count
    EXPECT_WIRE(smcx_llc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
}

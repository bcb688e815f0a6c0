// SPDX-License-Identifier: GPL-2.0
// SMC-D Accept / Confirm byte-exact vectors (include/smcx/wire/clc_accept_d.h),
// written field by field from the layout mainline (Linux >= 6.10,
// net/smc/smc_clc.h) puts on the wire; the comment on each line gives the
// byte offsets and the field.  Each vector is decoded strictly, re-encoded
// to the same bytes, and built from a hand-filled struct.
#include "testutil.h"

#include <algorithm>

namespace {

// the SMC-D body shared by the vectors, offsets 8..31
// clang-format off
const Bytes ACC_D_BODY = cat({
    {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}, // 8..15  sender's ISM GID
    {0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x2a, 0x00}, // 16..23 DMB token
    {0x00},                   // 24     DMBE index 0
    {0x20},                   // 25     DMBE size 2 (64 KiB) | reserved
    {0x00, 0x00},             // 26..27 reserved
    {0x00, 0x01, 0x02, 0x03}, // 28..31 link id
});
// clang-format on

const Bytes LO_GID_EXT = {0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01};

smcx_clc_accept_d new_acc_d(uint8_t version, uint8_t t2)
{
    smcx_clc_accept_d m;
    std::memset(&m, 0, sizeof(m));
    m.hdr.eyecatcher = SMCX_EYE_SMCD;
    m.hdr.version = version;
    m.hdr.typev1 = SMCX_TYPE_D;
    m.hdr.typev2 = t2;
    m.gid = 0x1122334455667788ull;
    m.token = 0x0000000100002a00ull;
    m.dmbe_idx = 0;
    m.dmbe_size = 2;
    m.linkid = 0x00010203;
    if (version == SMCX_CLC_V2) {
        m.chid = SMCX_CLC_LO_CHID;
        put_text(m.eid, "SMCX-LAB-EID");
        m.gid_ext = 0x99aabbccddeeff01ull;
    }
    return m;
}

// the fields of a first contact extension as mainline fills it for SMC-D
void fill_fce_d(smcx_clc_accept_d &m, uint8_t v2x, const char *host)
{
    m.fce_v2x = v2x;
    m.os_type = SMCX_CLC_OS_LINUX;
    m.release = v2x ? SMCX_RELEASE_1 : SMCX_RELEASE_0;
    put_text(m.hostname, host);
    if (v2x)
        m.feature_mask = SMCX_CLC_FEAT_EMULATED_ISM;
}

Bytes enc_acc_d(const smcx_clc_accept_d &m, uint8_t type)
{
    Bytes out(SMCX_CLC_MAX_LEN);
    int rc = smcx_clc_encode_accept_d(&m, type, out.data(), out.size());
    EXPECT_GT(rc, 0) << smcx_wire_errname(rc);
    out.resize(rc > 0 ? rc : 0);
    return out;
}

smcx_clc_accept_d check_acc_d(const Bytes &v, uint8_t type)
{
    smcx_clc_accept_d m;
    record_vector("clc", v);
    EXPECT_WIRE(smcx_clc_decode_accept_d(v.data(), v.size(), type, &m, 0), 0);
    EXPECT_EQ(hex(enc_acc_d(m, type)), hex(v));
    EXPECT_EQ(m.hdr.length, v.size());
    return m;
}

int dacc_d(const Bytes &v, uint8_t type, unsigned flags = 0)
{
    smcx_clc_accept_d m;
    return smcx_clc_decode_accept_d(v.data(), v.size(), type, &m, flags);
}

Bytes with(Bytes v, size_t at, uint8_t val)
{
    v.at(at) = val;
    return v;
}

Bytes head(const Bytes &v, size_t n) { return Bytes(v.begin(), v.begin() + n); }

// the 52-byte first contact extension at 74, release 1
Bytes fce_d_v2x(const char *host)
{
    return cat({
        {0x00},                   // +0  v2_direct 0 | reserved
        {0x21},                   // +1  OS type 2 (Linux) | release 1
        {0x00, 0x00},             // +2..3 reserved
        text_bytes(host, 32),     // +4..35 host name, blank padded
        {0x00},                   // +36 max conns: reserved in SMC-D
        {0x00},                   // +37 max links: reserved in SMC-D
        {0x00, 0x01},             // +38..39 feature mask: emulated ISM
        {0x00, 0x00, 0x00, 0x00}, // +40..43 vendor options
        zeros(8),                 // +44..51 reserved
    });
}

// the 36-byte first contact extension at 74, release 0
Bytes fce_d(const char *host)
{
    return cat({
        {0x00},               // +0  v2_direct 0 | reserved
        {0x20},               // +1  OS type 2 (Linux) | release 0
        {0x00, 0x00},         // +2..3 reserved
        text_bytes(host, 32), // +4..35 host name
    });
}

} // namespace

// v2 accept over loopback-ism joining an existing link group (78 bytes)
// clang-format off
const Bytes ACC_D_V2 = cat({
    SMCD(), {0x02}, {0x00, 0x4e}, // 0..6   accept, length 78
    {0x21},                       // 7      version 2 | typev2 0 | D
    ACC_D_BODY,                   // 8..31
    {0xff, 0xff},                 // 32..33 CHID: loopback-ism
    text_bytes("SMCX-LAB-EID", 32), // 34..65 negotiated EID
    LO_GID_EXT,                   // 66..73 GID extension
    SMCD(),                       // 74..77 trailer
});
// clang-format on

// v2 accept, first contact, release 1: 52-byte extension (130 bytes)
// clang-format off
const Bytes ACC_D_V2_FC = cat({
    SMCD(), {0x02}, {0x00, 0x82}, // 0..6   accept, length 130
    {0x29},                       // 7      version 2 | first contact | D
    ACC_D_BODY,                   // 8..31
    {0xff, 0xff},                 // 32..33 CHID
    text_bytes("SMCX-LAB-EID", 32), // 34..65 negotiated EID
    LO_GID_EXT,                   // 66..73 GID extension
    fce_d_v2x("alpha"),           // 74..125 first contact extension
    SMCD(),                       // 126..129 trailer
});
// clang-format on

// v2 accept, first contact, release 0: 36-byte extension (114 bytes)
// clang-format off
const Bytes ACC_D_V2_FC_R0 = cat({
    SMCD(), {0x02}, {0x00, 0x72}, // 0..6   accept, length 114
    {0x29},                       // 7
    ACC_D_BODY,                   // 8..31
    {0xff, 0xff},                 // 32..33
    text_bytes("SMCX-LAB-EID", 32), // 34..65
    LO_GID_EXT,                   // 66..73
    fce_d("old"),                 // 74..109 first contact extension
    SMCD(),                       // 110..113 trailer
});
// clang-format on

// v2 confirm, first contact, release 1 (130 bytes): no GID list in SMC-D
// clang-format off
const Bytes CONF_D_V2_FC = cat({
    SMCD(), {0x03}, {0x00, 0x82}, // 0..6   confirm, length 130
    {0x29},                       // 7
    ACC_D_BODY,                   // 8..31
    {0xff, 0xff},                 // 32..33
    text_bytes("SMCX-LAB-EID", 32), // 34..65
    LO_GID_EXT,                   // 66..73
    fce_d_v2x("beta"),            // 74..125
    SMCD(),                       // 126..129 trailer
});
// clang-format on

// v2 confirm, first contact, release 0 (114 bytes): unlike SMC-R, the
// 36-byte form is a valid confirm
// clang-format off
const Bytes CONF_D_V2_FC_R0 = cat({
    SMCD(), {0x03}, {0x00, 0x72}, // 0..6   confirm, length 114
    {0x29},                       // 7
    ACC_D_BODY,                   // 8..31
    {0xff, 0xff},                 // 32..33
    text_bytes("SMCX-LAB-EID", 32), // 34..65
    LO_GID_EXT,                   // 66..73
    fce_d("beta"),                // 74..109
    SMCD(),                       // 110..113 trailer
});
// clang-format on

// v2 confirm over a native ISM device: GID extension 0 (78 bytes)
// clang-format off
const Bytes CONF_D_V2_NATIVE = cat({
    SMCD(), {0x03}, {0x00, 0x4e}, // 0..6   confirm, length 78
    {0x21},                       // 7      version 2 | D
    ACC_D_BODY,                   // 8..31
    {0x01, 0x01},                 // 32..33 CHID 0x0101
    zeros(32),                    // 34..65 no EID
    zeros(8),                     // 66..73 GID extension: none
    SMCD(),                       // 74..77 trailer
});
// clang-format on

// v1 accept, first contact (48 bytes)
// clang-format off
const Bytes ACC_D_V1_FC = cat({
    SMCD(), {0x02}, {0x00, 0x30}, // 0..6   accept, length 48
    {0x19},                       // 7      version 1 | first contact | D
    ACC_D_BODY,                   // 8..31
    zeros(12),                    // 32..43 reserved
    SMCD(),                       // 44..47 trailer
});
// clang-format on

TEST(ClcAcceptD, V2NoFirstContact)
{
    smcx_clc_accept_d d = check_acc_d(ACC_D_V2, SMCX_CLC_ACCEPT);
    EXPECT_EQ(d.hdr.eyecatcher, SMCX_EYE_SMCD);
    EXPECT_EQ(d.hdr.typev1, SMCX_TYPE_D);
    EXPECT_FALSE(smcx_clc_first_contact(&d.hdr));
    EXPECT_EQ(d.gid, 0x1122334455667788ull);
    EXPECT_EQ(d.token, 0x0000000100002a00ull);
    EXPECT_EQ(d.dmbe_idx, 0);
    EXPECT_EQ(d.dmbe_size, 2);
    EXPECT_EQ(d.linkid, 0x00010203u);
    EXPECT_EQ(d.chid, SMCX_CLC_LO_CHID);
    EXPECT_TRUE(smcx_clc_chid_emulated(d.chid));
    EXPECT_EQ(d.gid_ext, 0x99aabbccddeeff01ull);
    EXPECT_EQ(0, std::memcmp(d.eid, "SMCX-LAB-EID ", 13));
    EXPECT_EQ(hex(enc_acc_d(new_acc_d(2, 0), SMCX_CLC_ACCEPT)), hex(ACC_D_V2));
}

TEST(ClcAcceptD, V2FirstContactV2x)
{
    smcx_clc_accept_d d = check_acc_d(ACC_D_V2_FC, SMCX_CLC_ACCEPT);
    EXPECT_TRUE(smcx_clc_first_contact(&d.hdr));
    EXPECT_EQ(d.fce_v2x, 1);
    EXPECT_EQ(d.v2_direct, 0);
    EXPECT_EQ(d.os_type, SMCX_CLC_OS_LINUX);
    EXPECT_EQ(d.release, SMCX_RELEASE_1);
    EXPECT_EQ(d.max_conns, 0);
    EXPECT_EQ(d.max_links, 0);
    EXPECT_EQ(d.feature_mask, SMCX_CLC_FEAT_EMULATED_ISM);
    EXPECT_EQ(0, std::memcmp(d.hostname, "alpha ", 6));

    smcx_clc_accept_d m = new_acc_d(2, SMCX_CLC_FIRST_CONTACT);
    fill_fce_d(m, 1, "alpha");
    EXPECT_EQ(hex(enc_acc_d(m, SMCX_CLC_ACCEPT)), hex(ACC_D_V2_FC));
}

TEST(ClcAcceptD, V2FirstContactRelease0)
{
    smcx_clc_accept_d d = check_acc_d(ACC_D_V2_FC_R0, SMCX_CLC_ACCEPT);
    EXPECT_EQ(d.fce_v2x, 0);
    EXPECT_EQ(d.release, SMCX_RELEASE_0);
    EXPECT_EQ(d.feature_mask, 0);
    smcx_clc_accept_d m = new_acc_d(2, SMCX_CLC_FIRST_CONTACT);
    fill_fce_d(m, 0, "old");
    EXPECT_EQ(hex(enc_acc_d(m, SMCX_CLC_ACCEPT)), hex(ACC_D_V2_FC_R0));
}

TEST(ClcConfirmD, V2FirstContactBothForms)
{
    smcx_clc_accept_d d = check_acc_d(CONF_D_V2_FC, SMCX_CLC_CONFIRM);
    EXPECT_EQ(d.fce_v2x, 1);
    EXPECT_EQ(0, std::memcmp(d.hostname, "beta ", 5));
    smcx_clc_accept_d m = new_acc_d(2, SMCX_CLC_FIRST_CONTACT);
    fill_fce_d(m, 1, "beta");
    EXPECT_EQ(hex(enc_acc_d(m, SMCX_CLC_CONFIRM)), hex(CONF_D_V2_FC));

    d = check_acc_d(CONF_D_V2_FC_R0, SMCX_CLC_CONFIRM);
    EXPECT_EQ(d.fce_v2x, 0);
    m = new_acc_d(2, SMCX_CLC_FIRST_CONTACT);
    fill_fce_d(m, 0, "beta");
    EXPECT_EQ(hex(enc_acc_d(m, SMCX_CLC_CONFIRM)), hex(CONF_D_V2_FC_R0));
}

TEST(ClcConfirmD, V2NativeIsm)
{
    smcx_clc_accept_d d = check_acc_d(CONF_D_V2_NATIVE, SMCX_CLC_CONFIRM);
    EXPECT_EQ(d.chid, 0x0101);
    EXPECT_FALSE(smcx_clc_chid_emulated(d.chid));
    EXPECT_EQ(d.gid_ext, 0u);
    smcx_clc_accept_d m = new_acc_d(2, 0);
    m.chid = 0x0101;
    std::memset(m.eid, 0, sizeof(m.eid));
    m.gid_ext = 0;
    EXPECT_EQ(hex(enc_acc_d(m, SMCX_CLC_CONFIRM)), hex(CONF_D_V2_NATIVE));
}

TEST(ClcAcceptD, V1FirstContact)
{
    smcx_clc_accept_d d = check_acc_d(ACC_D_V1_FC, SMCX_CLC_ACCEPT);
    EXPECT_TRUE(smcx_clc_first_contact(&d.hdr));
    EXPECT_EQ(d.hdr.version, SMCX_CLC_V1);
    EXPECT_EQ(d.gid, 0x1122334455667788ull);
    EXPECT_EQ(d.chid, 0);
    EXPECT_EQ(hex(enc_acc_d(new_acc_d(1, SMCX_CLC_FIRST_CONTACT), SMCX_CLC_ACCEPT)),
              hex(ACC_D_V1_FC));
}

TEST(ClcAcceptD, ChidEmulated)
{
    EXPECT_TRUE(smcx_clc_chid_emulated(0xffff));
    EXPECT_TRUE(smcx_clc_chid_emulated(0xff00));
    EXPECT_TRUE(smcx_clc_chid_emulated(0xfffe));
    EXPECT_FALSE(smcx_clc_chid_emulated(0xfeff));
    EXPECT_FALSE(smcx_clc_chid_emulated(0x00ff));
    EXPECT_FALSE(smcx_clc_chid_emulated(0));
    static_assert(SMCX_CLC_ACC_D_V2_LEN + SMCX_CLC_FCE_V2X_LEN <= SMCX_CLC_MAX_LEN,
                  "SMCX_CLC_MAX_LEN covers SMC-D accept/confirm");
}

// the SMC-R decoder still refuses SMC-D, and this one SMC-R
TEST(ClcAcceptD, PathsKeptApart)
{
    smcx_clc_accept r;
    EXPECT_WIRE(smcx_clc_decode_accept(ACC_D_V2.data(), ACC_D_V2.size(), SMCX_CLC_ACCEPT, &r, 0),
                -SMCX_WIRE_EPATH);
    // SMCD eyecatcher but typev1 R, or B
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 7, 0x20), SMCX_CLC_ACCEPT), -SMCX_WIRE_EPATH);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 7, 0x23), SMCX_CLC_ACCEPT), -SMCX_WIRE_EPATH);
    EXPECT_WIRE(dacc_d(with(ACC_D_V1_FC, 7, 0x1a), SMCX_CLC_ACCEPT), -SMCX_WIRE_EPATH);
}

TEST(ClcRejectD, Eyecatcher)
{
    // SMCR in header and trailer: valid framing, wrong eyecatcher for SMC-D
    Bytes v = with(with(ACC_D_V2, 3, 0xd9), 77, 0xd9);
    EXPECT_WIRE(dacc_d(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_EEYECATCHER);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 0, 0xe3), SMCX_CLC_ACCEPT), -SMCX_WIRE_EEYECATCHER);
    Bytes ascii = ACC_D_V2;
    std::memcpy(ascii.data(), "SMCD", 4);
    EXPECT_WIRE(dacc_d(ascii, SMCX_CLC_ACCEPT), -SMCX_WIRE_EEYECATCHER);
    // SMCR trailer behind the SMCD header
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 77, 0xd9), SMCX_CLC_ACCEPT), -SMCX_WIRE_ETRAILER);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2_FC, 126, 0), SMCX_CLC_ACCEPT), -SMCX_WIRE_ETRAILER);
    EXPECT_WIRE(dacc_d(with(ACC_D_V1_FC, 47, 0), SMCX_CLC_ACCEPT), -SMCX_WIRE_ETRAILER);
}

TEST(ClcRejectD, TypeAndVersion)
{
    // an accept is not a confirm, and neither is anything else
    EXPECT_WIRE(dacc_d(ACC_D_V2, SMCX_CLC_CONFIRM), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc_d(CONF_D_V2_FC, SMCX_CLC_ACCEPT), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc_d(ACC_D_V2, SMCX_CLC_DECLINE), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc_d(ACC_D_V2, SMCX_CLC_PROPOSAL), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 4, SMCX_CLC_DECLINE), SMCX_CLC_ACCEPT), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 4, 5), SMCX_CLC_ACCEPT), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 7, 0x31), SMCX_CLC_ACCEPT), -SMCX_WIRE_EVERSION);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 7, 0x01), SMCX_CLC_ACCEPT), -SMCX_WIRE_EVERSION);
}

TEST(ClcRejectD, Lengths)
{
    // buffer and length field disagree
    Bytes v = ACC_D_V2;
    v.push_back(0);
    EXPECT_WIRE(dacc_d(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 6, 0x4f), SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    // below the fixed part, with a length field that agrees
    EXPECT_WIRE(dacc_d(with(head(ACC_D_V2, 70), 6, 70), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dacc_d(with(head(ACC_D_V1_FC, 40), 6, 40), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dacc_d(head(ACC_D_V2, 7), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESHORT);
    // first contact announced without an extension, or the reverse
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 7, 0x29), SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2_FC, 7, 0x21), SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2_FC_R0, 7, 0x21), SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    // 4 bytes nobody accounts for, with and without first contact
    for (const Bytes *b : {&ACC_D_V2, &ACC_D_V2_FC, &ACC_D_V2_FC_R0, &ACC_D_V1_FC}) {
        v = *b;
        v.insert(v.end() - 4, {0, 0, 0, 0});
        v[6] = uint8_t(v.size());
        EXPECT_WIRE(dacc_d(v, SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN) << b->size();
    }
    // a v1 header on a v2 body, and the reverse
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 7, 0x11), SMCX_CLC_ACCEPT), -SMCX_WIRE_ELEN);
    EXPECT_WIRE(dacc_d(with(ACC_D_V1_FC, 7, 0x29), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESHORT);
}

TEST(ClcRejectD, Strings)
{
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 34, 0x7f), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 40, 0x00), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
    EXPECT_WIRE(dacc_d(with(ACC_D_V2_FC, 80, 0x0a), SMCX_CLC_ACCEPT), -SMCX_WIRE_ESTRING);
    // host name: any byte under SMCX_WIRE_LAX_TEXT, as for SMC-R
    Bytes v = with(with(CONF_D_V2_FC, 79, 0xc3), 80, 0x0a);
    EXPECT_WIRE(dacc_d(v, SMCX_CLC_CONFIRM), -SMCX_WIRE_ESTRING);
    smcx_clc_accept_d d;
    ASSERT_EQ(
        0, smcx_clc_decode_accept_d(v.data(), v.size(), SMCX_CLC_CONFIRM, &d, SMCX_WIRE_LAX_TEXT));
    EXPECT_EQ('?', d.hostname[79 - 78]);
    EXPECT_EQ('?', d.hostname[80 - 78]);
    EXPECT_EQ(0, smcx_check_text(d.hostname, SMCX_HOSTNAME_LEN));
    // the EID stays strict
    EXPECT_WIRE(dacc_d(with(ACC_D_V2, 34, 0x7f), SMCX_CLC_ACCEPT, SMCX_WIRE_LAX_TEXT),
                -SMCX_WIRE_ESTRING);
}

TEST(ClcRejectD, ReservedNotZero)
{
    struct Case {
        const char *what;
        Bytes v;
        uint8_t type;
    };
    const Case cases[] = {
        {"typev2 bit 0", with(ACC_D_V2, 7, 0x25), SMCX_CLC_ACCEPT},
        {"v1 typev2 bit 0", with(ACC_D_V1_FC, 7, 0x1d), SMCX_CLC_ACCEPT},
        {"DMBE size low nibble", with(ACC_D_V2, 25, 0x21), SMCX_CLC_ACCEPT},
        {"byte 26", with(ACC_D_V2, 26, 1), SMCX_CLC_ACCEPT},
        {"byte 27", with(CONF_D_V2_NATIVE, 27, 0x80), SMCX_CLC_CONFIRM},
        {"v1 reserved 32..43", with(ACC_D_V1_FC, 43, 1), SMCX_CLC_ACCEPT},
        {"fce reserved bits", with(ACC_D_V2_FC, 74, 0x01), SMCX_CLC_ACCEPT},
        {"fce reserved bytes", with(ACC_D_V2_FC_R0, 77, 1), SMCX_CLC_ACCEPT},
        {"fce max conns", with(ACC_D_V2_FC, 110, 255), SMCX_CLC_ACCEPT},
        {"fce max links", with(CONF_D_V2_FC, 111, 2), SMCX_CLC_CONFIRM},
        {"fce v2x reserved", with(CONF_D_V2_FC, 125, 1), SMCX_CLC_CONFIRM},
    };
    for (const Case &c : cases) {
        for (unsigned flags : {0u, unsigned(SMCX_WIRE_LAX_RSVD)}) {
            smcx_clc_accept_d m;
            int rc = smcx_clc_decode_accept_d(c.v.data(), c.v.size(), c.type, &m, flags);
            EXPECT_EQ(rc, flags ? 0 : -SMCX_WIRE_ERESERVED)
                << c.what << " flags " << flags << ": " << smcx_wire_errname(rc);
            if (!flags || rc)
                continue;
            // lax decode re-encodes to the canonical, zero-reserved form,
            // which differs from the input in exactly one byte
            Bytes out = enc_acc_d(m, c.type);
            ASSERT_EQ(out.size(), c.v.size()) << c.what;
            int diff = 0;
            for (size_t i = 0; i < out.size(); i++)
                diff += out[i] != c.v[i];
            EXPECT_EQ(diff, 1) << c.what;
        }
    }
}

// every strict prefix is rejected, with the buffer's length or with a
// length field that agrees; under ASan no read goes past the buffer
TEST(ClcRejectD, EveryTruncation)
{
    struct V {
        const Bytes *v;
        uint8_t type;
    };
    const V vs[] = {{&ACC_D_V2, SMCX_CLC_ACCEPT},         {&ACC_D_V2_FC, SMCX_CLC_ACCEPT},
                    {&ACC_D_V2_FC_R0, SMCX_CLC_ACCEPT},   {&CONF_D_V2_FC, SMCX_CLC_CONFIRM},
                    {&CONF_D_V2_FC_R0, SMCX_CLC_CONFIRM}, {&CONF_D_V2_NATIVE, SMCX_CLC_CONFIRM},
                    {&ACC_D_V1_FC, SMCX_CLC_ACCEPT}};
    for (const V &x : vs)
        for (size_t n = 0; n < x.v->size(); n++) {
            Bytes t = head(*x.v, n);
            EXPECT_NE(dacc_d(t, x.type), 0) << n;
            if (n >= 8) {
                t[6] = uint8_t(n);
                EXPECT_NE(dacc_d(t, x.type), 0) << n;
            }
        }
}

TEST(ClcEncodeD, Errors)
{
    Bytes out(SMCX_CLC_MAX_LEN);
    smcx_clc_accept_d a = new_acc_d(2, SMCX_CLC_FIRST_CONTACT);
    fill_fce_d(a, 1, "alpha");
    EXPECT_EQ(smcx_clc_accept_d_len(&a, SMCX_CLC_ACCEPT), 130);
    EXPECT_EQ(smcx_clc_encode_accept_d(&a, SMCX_CLC_ACCEPT, out.data(), 130), 130);
    EXPECT_WIRE(smcx_clc_encode_accept_d(&a, SMCX_CLC_ACCEPT, out.data(), 129), -SMCX_WIRE_ENOSPC);
    smcx_clc_accept_d v1 = new_acc_d(1, 0);
    EXPECT_WIRE(smcx_clc_encode_accept_d(&v1, SMCX_CLC_CONFIRM, out.data(), 47), -SMCX_WIRE_ENOSPC);
    smcx_clc_accept_d r0 = new_acc_d(2, SMCX_CLC_FIRST_CONTACT);
    fill_fce_d(r0, 0, "old");
    EXPECT_WIRE(smcx_clc_encode_accept_d(&r0, SMCX_CLC_CONFIRM, out.data(), 113),
                -SMCX_WIRE_ENOSPC);
    EXPECT_WIRE(smcx_clc_encode_accept_d(&a, SMCX_CLC_DECLINE, out.data(), out.size()),
                -SMCX_WIRE_EINVAL);

    struct Bad {
        const char *what;
        void (*spoil)(smcx_clc_accept_d &);
    };
    const Bad bad[] = {
        {"SMCR eyecatcher", [](smcx_clc_accept_d &m) { m.hdr.eyecatcher = SMCX_EYE_SMCR; }},
        {"typev1 R", [](smcx_clc_accept_d &m) { m.hdr.typev1 = SMCX_TYPE_R; }},
        {"typev2 bit 0", [](smcx_clc_accept_d &m) { m.hdr.typev2 |= 1; }},
        {"version 3", [](smcx_clc_accept_d &m) { m.hdr.version = 3; }},
        {"DMBE size", [](smcx_clc_accept_d &m) { m.dmbe_size = 16; }},
        {"EID", [](smcx_clc_accept_d &m) { m.eid[0] = 1; }},
        {"host name", [](smcx_clc_accept_d &m) { m.hostname[3] = 0x7f; }},
        {"fce_v2x", [](smcx_clc_accept_d &m) { m.fce_v2x = 2; }},
        {"v2_direct", [](smcx_clc_accept_d &m) { m.v2_direct = 2; }},
        {"os type", [](smcx_clc_accept_d &m) { m.os_type = 16; }},
        {"release", [](smcx_clc_accept_d &m) { m.release = 16; }},
        {"max conns", [](smcx_clc_accept_d &m) { m.max_conns = 1; }},
        {"max links", [](smcx_clc_accept_d &m) { m.max_links = 1; }},
    };
    for (const Bad &b : bad) {
        smcx_clc_accept_d m = a;
        b.spoil(m);
        EXPECT_WIRE(smcx_clc_encode_accept_d(&m, SMCX_CLC_CONFIRM, out.data(), out.size()),
                    -SMCX_WIRE_EINVAL)
            << b.what;
    }
}

// SPDX-License-Identifier: GPL-2.0
// CDC byte-exact vectors (44-byte SMC-R connection data control message).
#include "testutil.h"

namespace {

Bytes enc(const smcx_cdc_msg &m)
{
    Bytes out(SMCX_CDC_LEN);
    int rc = smcx_cdc_encode(&m, out.data(), out.size());
    EXPECT_EQ(rc, SMCX_CDC_LEN) << smcx_wire_errname(rc);
    return out;
}

smcx_cdc_msg check(const Bytes &v)
{
    smcx_cdc_msg m;
    record_vector("cdc", v);
    EXPECT_WIRE(smcx_cdc_decode(v.data(), v.size(), &m, 0), 0);
    EXPECT_EQ(hex(enc(m)), hex(v));
    return m;
}

} // namespace

// data arrived: producer cursor moved, consumer cursor acknowledges
const Bytes CDC_DATA = cat({
    {0xfe},                   // 0      type
    {0x2c},                   // 1      length 44
    {0x01, 0x02},             // 2..3   sequence number 258
    {0x0a, 0x0b, 0x0c, 0x0d}, // 4..7   alert token
    {0x00, 0x00},             // 8..9   producer cursor: reserved
    {0x00, 0x03},             // 10..11 wrap 3
    {0x00, 0x00, 0x10, 0x00}, // 12..15 count 4096
    {0x00, 0x00},             // 16..17 consumer cursor: reserved
    {0x00, 0x02},             // 18..19 wrap 2
    {0x00, 0x00, 0x08, 0x00}, // 20..23 count 2048
    {0x90},                   // 24     write blocked | cursor update requested
    {0x80},                   // 25     peer done writing
    zeros(18),                // 26..43 reserved
});

// abnormal close at the wrap boundary: wrap 0xffff, urgent data present
// clang-format off
const Bytes CDC_ABORT = cat({
    {0xfe}, {0x2c},
    {0xff, 0xff},             // 2..3   sequence number wraps too
    {0x00, 0x00, 0x00, 0x01}, // 4..7
    {0x00, 0x00}, {0xff, 0xff}, {0x00, 0x0f, 0xff, 0xff}, // 8..15  prod
    {0x00, 0x00}, {0xff, 0xfe}, {0x00, 0x00, 0x00, 0x00}, // 16..23 cons
    {0x68},                   // 24     urgent pending | present | failover
    {0x60},                   // 25     closed | abort
    zeros(18),
});
// clang-format on

TEST(Cdc, DataMessage)
{
    smcx_cdc_msg d = check(CDC_DATA);
    EXPECT_EQ(d.seqno, 258);
    EXPECT_EQ(d.token, 0x0a0b0c0du);
    EXPECT_EQ(d.prod.wrap, 3);
    EXPECT_EQ(d.prod.count, 4096u);
    EXPECT_EQ(d.cons.wrap, 2);
    EXPECT_EQ(d.cons.count, 2048u);
    EXPECT_EQ(d.prod_flags, SMCX_CDC_PF_WRITE_BLOCKED | SMCX_CDC_PF_CONS_UPD_REQ);
    EXPECT_EQ(d.conn_flags, SMCX_CDC_CF_DONE_WRITING);
}

TEST(Cdc, AbortAtWrap)
{
    smcx_cdc_msg d = check(CDC_ABORT);
    EXPECT_EQ(d.prod.wrap, 0xffff);
    EXPECT_EQ(d.prod.count, 0xfffffu);
    EXPECT_EQ(d.prod_flags,
              SMCX_CDC_PF_URG_PENDING | SMCX_CDC_PF_URG_PRESENT | SMCX_CDC_PF_FAILOVER_VALID);
    EXPECT_EQ(d.conn_flags, SMCX_CDC_CF_CONN_CLOSED | SMCX_CDC_CF_CONN_ABORT);

    smcx_cdc_msg m;
    std::memset(&m, 0, sizeof(m));
    m.seqno = 0xffff;
    m.token = 1;
    m.prod = {0xffff, 0xfffff};
    m.cons = {0xfffe, 0};
    m.prod_flags = 0x68;
    m.conn_flags = 0x60;
    EXPECT_EQ(hex(enc(m)), hex(CDC_ABORT));
}

namespace {

int dec(const Bytes &v, unsigned flags = 0)
{
    smcx_cdc_msg m;
    return smcx_cdc_decode(v.data(), v.size(), &m, flags);
}

Bytes with(Bytes v, size_t at, uint8_t val)
{
    v.at(at) = val;
    return v;
}

} // namespace

TEST(CdcReject, Causes)
{
    for (size_t n = 0; n < SMCX_CDC_LEN; n++)
        EXPECT_WIRE(dec(Bytes(CDC_DATA.begin(), CDC_DATA.begin() + n)), -SMCX_WIRE_ESHORT);
    EXPECT_WIRE(dec(with(CDC_DATA, 0, 0xfd)), -SMCX_WIRE_ETYPE);
    EXPECT_WIRE(dec(with(CDC_DATA, 1, 43)), -SMCX_WIRE_ELEN);
    Bytes v = CDC_DATA;
    v.push_back(0);
    EXPECT_WIRE(dec(v), -SMCX_WIRE_ELEN);
    for (size_t at : {8, 9, 16, 17, 26, 43})
        EXPECT_WIRE(dec(with(CDC_DATA, at, 1)), -SMCX_WIRE_ERESERVED) << at;
    EXPECT_WIRE(dec(with(CDC_DATA, 24, 0x91)), -SMCX_WIRE_ERESERVED);
    EXPECT_WIRE(dec(with(CDC_DATA, 25, 0x81)), -SMCX_WIRE_ERESERVED);
    // lax: reserved content ignored and not carried into the struct
    smcx_cdc_msg m;
    EXPECT_WIRE(smcx_cdc_decode(with(CDC_DATA, 25, 0x9f).data(), 44, &m, SMCX_WIRE_LAX_RSVD), 0);
    EXPECT_EQ(m.conn_flags, 0x80);

    Bytes out(44);
    std::memset(&m, 0, sizeof(m));
    m.prod_flags = 0x01;
    EXPECT_WIRE(smcx_cdc_encode(&m, out.data(), out.size()), -SMCX_WIRE_EINVAL);
    m.prod_flags = 0;
    EXPECT_WIRE(smcx_cdc_encode(&m, out.data(), 43), -SMCX_WIRE_ENOSPC);
}

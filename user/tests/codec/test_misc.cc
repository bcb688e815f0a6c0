// SPDX-License-Identifier: GPL-2.0
// Error names, reason-code names, the kernel self-test, and the vector
// count summary.
#include "testutil.h"

#include <smcx/wire/selftest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

int &vector_count()
{
    static int n;
    return n;
}

void record_vector(const char *corpus, const Bytes &v)
{
    vector_count()++;
    const char *dir = std::getenv("SMCX_DUMP_SEEDS");
    if (!dir || !*dir)
        return;
    // name by content (FNV-1a) so repeated runs do not duplicate seeds
    uint64_t h = 1469598103934665603ull;
    for (uint8_t b : v)
        h = (h ^ b) * 1099511628211ull;
    char name[32];
    std::snprintf(name, sizeof(name), "%016llx", (unsigned long long)h);
    std::ofstream(std::string(dir) + "/" + corpus + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char *>(v.data()), std::streamsize(v.size()));
}

TEST(Errors, EveryCodeHasADistinctName)
{
    std::set<std::string> names, texts;
    for (int e = 0; e < SMCX_WIRE_ERR_MAX; e++) {
        names.insert(smcx_wire_errname(-e));
        texts.insert(smcx_wire_strerror(-e));
        EXPECT_STREQ(smcx_wire_errname(e), smcx_wire_errname(-e));
    }
    EXPECT_EQ(names.size(), size_t(SMCX_WIRE_ERR_MAX));
    EXPECT_EQ(texts.size(), size_t(SMCX_WIRE_ERR_MAX));
    EXPECT_STREQ(smcx_wire_errname(-SMCX_WIRE_ETRAILER), "ETRAILER");
    EXPECT_STREQ(smcx_wire_errname(999), "E?");
    EXPECT_STREQ(smcx_wire_strerror(-999), "unknown smcx wire error");
}

TEST(Reasons, DeclineCodes)
{
    std::set<uint32_t> codes;
    for (unsigned i = 0; i < smcx_decl_count(); i++) {
        const smcx_reason *r = smcx_decl_at(i);
        ASSERT_NE(r, nullptr);
        EXPECT_TRUE(codes.insert(r->code).second) << std::hex << r->code;
        EXPECT_STREQ(smcx_decl_name(r->code), r->name);
        EXPECT_STRNE(smcx_decl_class(r->code), "unknown");
    }
    EXPECT_EQ(smcx_decl_at(smcx_decl_count()), nullptr);
    EXPECT_STREQ(smcx_decl_name(0x03070000), "DIFFPREFIX");
    EXPECT_STREQ(smcx_decl_text(0x03070000), "IP prefix / subnet mismatch");
    // unknown code: no name, text falls back to the class
    EXPECT_EQ(smcx_decl_name(0x03ff0000), nullptr);
    EXPECT_STREQ(smcx_decl_text(0x03ff0000), "configuration");
    EXPECT_STREQ(smcx_decl_text(0x77000000), "unknown");
    EXPECT_STREQ(smcx_llc_del_name(SMCX_LLC_DEL_PROT_VIOL), "PROT_VIOL");
    EXPECT_EQ(smcx_llc_del_name(7), nullptr);
    EXPECT_STREQ(smcx_llc_del_text(7), "unknown delete-link reason");
}

TEST(Selftest, PassesInUserSpace) { EXPECT_WIRE(smcx_wire_selftest(), 0); }

// runs last (gtest runs files in link order, this file is linked last)
TEST(ZSummary, VectorCount)
{
    // ctest runs every test in its own process (gtest_discover_tests), so
    // the counter is only meaningful when the whole binary runs at once.
    if (vector_count())
        RecordProperty("vectors", vector_count());
    std::printf("byte-exact vectors checked in this process: %d\n", vector_count());
}

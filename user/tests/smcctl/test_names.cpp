// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "names.hpp"

using namespace smcctl;

namespace {

std::string padded(std::string s) {
    s.resize(32, ' ');
    return s;
}

std::string ueid_error(const std::string& in) {
    try {
        normalize_ueid(in);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST(Ueid, PadsToThirtyTwoBlanks) {
    const std::string e = normalize_ueid("SMCX-LAB-UEID");
    EXPECT_EQ(e.size(), 32u);
    EXPECT_EQ(e, padded("SMCX-LAB-UEID"));
}

TEST(Ueid, UpperCasesLetters) {
    EXPECT_EQ(normalize_ueid("lab.eid-1"), padded("LAB.EID-1"));
}

TEST(Ueid, StripsSurroundingBlanks) {
    EXPECT_EQ(normalize_ueid("  ABC  "), padded("ABC"));
}

TEST(Ueid, AcceptsExactlyThirtyTwo) {
    const std::string s(32, 'A');
    EXPECT_EQ(normalize_ueid(s), s);
}

TEST(Ueid, RejectsTooLong) {
    EXPECT_NE(ueid_error(std::string(33, 'A')).find("longer than 32"), std::string::npos);
}

TEST(Ueid, RejectsEmpty) {
    EXPECT_NE(ueid_error("").find("empty"), std::string::npos);
    EXPECT_NE(ueid_error("   ").find("empty"), std::string::npos);
}

TEST(Ueid, FirstCharacterMustBeAlphanumeric) {
    EXPECT_NE(ueid_error(".ABC").find("first character"), std::string::npos);
    EXPECT_NE(ueid_error("-ABC").find("first character"), std::string::npos);
    EXPECT_NO_THROW(normalize_ueid("9ABC"));
}

TEST(Ueid, RejectsInteriorBlank) {
    EXPECT_NE(ueid_error("AB CD").find("blanks"), std::string::npos);
}

TEST(Ueid, RejectsUnsupportedCharacters) {
    const std::string e = ueid_error("AB_CD");
    EXPECT_NE(e.find("'_'"), std::string::npos) << e;
    EXPECT_NE(ueid_error("AB/CD").find("unsupported"), std::string::npos);
    EXPECT_NE(ueid_error(std::string("AB\x01") + "C").find("0x01"), std::string::npos);
}

TEST(Ueid, DotsAndDashesAreFine) {
    EXPECT_NO_THROW(normalize_ueid("A..B--C."));
}

TEST(Pnetid, UpperCasesAndTrims) {
    EXPECT_EQ(normalize_pnetid(" net1 "), "NET1");
}

TEST(Pnetid, SixteenIsTheLimit) {
    EXPECT_EQ(normalize_pnetid(std::string(16, 'x')), std::string(16, 'X'));
    EXPECT_THROW(normalize_pnetid(std::string(17, 'x')), std::invalid_argument);
}

TEST(Pnetid, OnlyLettersAndDigits) {
    EXPECT_THROW(normalize_pnetid("NET-1"), std::invalid_argument);
    EXPECT_THROW(normalize_pnetid("NET 1"), std::invalid_argument);
    EXPECT_THROW(normalize_pnetid(""), std::invalid_argument);
}

TEST(DeviceNames, Limits) {
    EXPECT_NO_THROW(check_ifname("eth0"));
    EXPECT_NO_THROW(check_ifname(std::string(15, 'e')));
    EXPECT_THROW(check_ifname(std::string(16, 'e')), std::invalid_argument);
    EXPECT_THROW(check_ifname("a/b"), std::invalid_argument);
    EXPECT_NO_THROW(check_ibname("rxe0"));
    EXPECT_THROW(check_ibname(std::string(64, 'r')), std::invalid_argument);
}

TEST(Decline, KnownAndUnknownCodes) {
    EXPECT_EQ(decline_name(0x03010000), "PEER_NO_SMC");
    EXPECT_EQ(decline_name(0x03030008), "NOUEID");
    EXPECT_TRUE(decline_name(0x12345678).empty());
    EXPECT_EQ(hex_code(0x03010000), "0x03010000");
}

// SPDX-License-Identifier: GPL-2.0
// include/smcx/names.h: user EIDs (32 bytes, blank padded) and PNET IDs
// (1..16 letters or digits), as the kernel and smcctl both apply them.
#include <gtest/gtest.h>

#include <smcx/names.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

struct EidResult {
    int rc;
    std::size_t bad;
    std::string out; // 32 bytes
};

EidResult eid(std::string_view in) {
    std::array<std::uint8_t, SMCX_NAME_EID_LEN> out;
    out.fill('x');
    std::size_t bad = 999;
    const int rc = smcx_ueid_normalize(in.data(), in.size(), out.data(), &bad);
    return {rc, bad, std::string(out.begin(), out.end())};
}

struct PnetResult {
    int rc;
    std::size_t bad;
    std::string out; // up to the NUL, or the untouched fill
};

PnetResult pnet(std::string_view in) {
    std::array<char, SMCX_NAME_PNETID_MAX + 1> out;
    out.fill('x');
    out.back() = '\0';
    std::size_t bad = 999;
    const int rc = smcx_pnetid_normalize(in.data(), in.size(), out.data(), &bad);
    return {rc, bad, std::string(out.data())};
}

std::string padded(std::string s) {
    s.resize(SMCX_NAME_EID_LEN, ' ');
    return s;
}

bool valid(const std::string& wire) {
    EXPECT_EQ(wire.size(), std::size_t{SMCX_NAME_EID_LEN});
    return smcx_ueid_valid(reinterpret_cast<const std::uint8_t*>(wire.data()));
}

const std::string untouched(SMCX_NAME_EID_LEN, 'x');

} // namespace

TEST(UeidNormalize, UpperCasesAndPadsToThirtyTwo) {
    const auto r = eid("smcx-lab.eid1");
    EXPECT_EQ(r.rc, 0);
    EXPECT_EQ(r.out, padded("SMCX-LAB.EID1"));
    EXPECT_EQ(r.out.size(), 32u);
    EXPECT_EQ(r.out[13], ' ');
    EXPECT_EQ(r.out[31], ' ');
}

TEST(UeidNormalize, OneAndThirtyTwoCharacters) {
    EXPECT_EQ(eid("9").out, padded("9"));
    EXPECT_EQ(eid(std::string(32, 'z')).out, std::string(32, 'Z'));
    EXPECT_EQ(eid(std::string(32, 'z')).rc, 0);
}

TEST(UeidNormalize, Empty) {
    const auto r = eid("");
    EXPECT_EQ(r.rc, -SMCX_NAME_EEMPTY);
    EXPECT_EQ(r.out, untouched);
}

TEST(UeidNormalize, TooLong) {
    const auto r = eid(std::string(33, 'A'));
    EXPECT_EQ(r.rc, -SMCX_NAME_ELONG);
    EXPECT_EQ(r.out, untouched);
    EXPECT_EQ(eid(std::string(33, '!')).rc, -SMCX_NAME_ELONG); // length is checked first
}

TEST(UeidNormalize, FirstCharacterMustBeAlphanumeric) {
    for (std::string_view in : {".ABC", "-ABC", " ABC", "_", "\xe9"}) {
        const auto r = eid(in);
        EXPECT_EQ(r.rc, -SMCX_NAME_EFIRST) << in;
        EXPECT_EQ(r.bad, 0u) << in;
        EXPECT_EQ(r.out, untouched) << in;
    }
}

TEST(UeidNormalize, BlankBeforeThePadding) {
    auto r = eid("AB CD");
    EXPECT_EQ(r.rc, -SMCX_NAME_EBLANK);
    EXPECT_EQ(r.bad, 2u);
    r = eid("A\tB");
    EXPECT_EQ(r.rc, -SMCX_NAME_EBLANK);
    EXPECT_EQ(r.bad, 1u);
    r = eid("AB "); // trailing blanks are the caller's to strip
    EXPECT_EQ(r.rc, -SMCX_NAME_EBLANK);
    EXPECT_EQ(r.bad, 2u);
}

TEST(UeidNormalize, BadCharacters) {
    auto r = eid("AB_CD");
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 2u);
    r = eid("ABC/");
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 3u);
    r = eid("A\xc9"); // Latin-1 letters are not letters here
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 1u);
    EXPECT_EQ(r.out, untouched);
}

TEST(UeidNormalize, EmbeddedNulIsABadCharacterNotTheEnd) {
    const auto r = eid(std::string_view("AB\0CD", 5));
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 2u);
    EXPECT_EQ(r.out, untouched);
}

TEST(UeidNormalize, BadIndexPointerMayBeNull) {
    std::uint8_t out[SMCX_NAME_EID_LEN];
    EXPECT_EQ(smcx_ueid_normalize("A B", 3, out, nullptr), -SMCX_NAME_EBLANK);
    EXPECT_EQ(smcx_ueid_normalize("ab", 2, out, nullptr), 0);
}

TEST(UeidNormalize, OutputIsValidOnTheWire) {
    for (std::string_view in : {"a", "a.b-c", "0123456789abcdefghijklmnopqrstuv"}) {
        const auto r = eid(in);
        ASSERT_EQ(r.rc, 0) << in;
        EXPECT_TRUE(valid(r.out)) << in;
    }
}

TEST(UeidValid, WireForm) {
    EXPECT_TRUE(valid(padded("SMCX-DEFAULT-UEID")));
    EXPECT_TRUE(valid(std::string(32, '7')));
    EXPECT_TRUE(valid(padded("A.-")));
    EXPECT_FALSE(valid(std::string(32, ' '))); // all blank
    EXPECT_FALSE(valid(padded("AB C")));       // interior blank
    EXPECT_FALSE(valid(padded("abc")));        // the wire form is upper case
    EXPECT_FALSE(valid(padded("-ABC")));       // first character
    EXPECT_FALSE(valid(padded(".")));
    EXPECT_FALSE(valid(std::string("ABC\0", 4) + std::string(28, ' '))); // NUL
    EXPECT_FALSE(valid(std::string("ABC") + std::string(29, '\0')));     // NUL padded
    EXPECT_FALSE(valid(std::string(31, 'A') + '\t'));
}

TEST(UeidChar, DotAndDashNotFirst) {
    EXPECT_TRUE(smcx_ueid_char('A', true));
    EXPECT_TRUE(smcx_ueid_char('0', true));
    EXPECT_FALSE(smcx_ueid_char('.', true));
    EXPECT_FALSE(smcx_ueid_char('-', true));
    EXPECT_TRUE(smcx_ueid_char('.', false));
    EXPECT_TRUE(smcx_ueid_char('-', false));
    EXPECT_FALSE(smcx_ueid_char('a', false));
    EXPECT_FALSE(smcx_ueid_char(' ', false));
    EXPECT_FALSE(smcx_ueid_char(0, false));
    EXPECT_FALSE(smcx_ueid_char(0xc1, false));
}

TEST(PnetidNormalize, UpperCaseNulTerminated) {
    const auto r = pnet("net1");
    EXPECT_EQ(r.rc, 0);
    EXPECT_EQ(r.out, "NET1");
    EXPECT_EQ(pnet("Z").out, "Z");
}

TEST(PnetidNormalize, SixteenIsTheLimit) {
    const auto r = pnet(std::string(16, 'p'));
    EXPECT_EQ(r.rc, 0);
    EXPECT_EQ(r.out, std::string(16, 'P'));
    const auto l = pnet(std::string(17, 'p'));
    EXPECT_EQ(l.rc, -SMCX_NAME_ELONG);
    EXPECT_EQ(l.out, std::string(16, 'x'));
}

TEST(PnetidNormalize, Empty) {
    EXPECT_EQ(pnet("").rc, -SMCX_NAME_EEMPTY);
}

TEST(PnetidNormalize, OnlyLettersAndDigits) {
    auto r = pnet("NET-1");
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 3u);
    r = pnet("NET 1"); // a blank inside is just another bad character
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 3u);
    r = pnet(".");
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 0u);
    r = pnet("NE\xd6");
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 2u);
    EXPECT_EQ(r.out, std::string(16, 'x'));
}

TEST(PnetidNormalize, EmbeddedNul) {
    const auto r = pnet(std::string_view("NE\0T", 4));
    EXPECT_EQ(r.rc, -SMCX_NAME_ECHAR);
    EXPECT_EQ(r.bad, 2u);
}

TEST(PnetidMatch, EqualUpToNulOrBlank) {
    EXPECT_TRUE(smcx_pnetid_match("NET1", "NET1"));
    EXPECT_TRUE(smcx_pnetid_match("NET1", "NET1   "));
    EXPECT_TRUE(smcx_pnetid_match("NET1 ", "NET1"));
    EXPECT_TRUE(smcx_pnetid_match("", ""));
    EXPECT_TRUE(smcx_pnetid_match("", " "));
    EXPECT_FALSE(smcx_pnetid_match("NET1", "NET"));
    EXPECT_FALSE(smcx_pnetid_match("NET", "NET1"));
    EXPECT_FALSE(smcx_pnetid_match("NET1", "net1")); // compared as given
    EXPECT_FALSE(smcx_pnetid_match("NET1", " NET1"));
    EXPECT_FALSE(smcx_pnetid_match("", "A"));
}

TEST(PnetidMatch, AtMostSixteenCompared) {
    const char stored[17] = "ABCDEFGHIJKLMNOP";
    EXPECT_TRUE(smcx_pnetid_match(stored, "ABCDEFGHIJKLMNOPQ"));
    EXPECT_FALSE(smcx_pnetid_match(stored, "ABCDEFGHIJKLMNOQ"));
}

TEST(NameChars, AsciiOnly) {
    EXPECT_EQ(smcx_name_upper('a'), 'A');
    EXPECT_EQ(smcx_name_upper('z'), 'Z');
    EXPECT_EQ(smcx_name_upper('A'), 'A');
    EXPECT_EQ(smcx_name_upper('0'), '0');
    EXPECT_EQ(smcx_name_upper('\xe9'), '\xe9');
    for (char c : {' ', '\t', '\n', '\r', '\v', '\f'})
        EXPECT_TRUE(smcx_name_blank(c)) << int(c);
    EXPECT_FALSE(smcx_name_blank('\0'));
    EXPECT_FALSE(smcx_name_blank('\xa0'));
    EXPECT_FALSE(smcx_name_alnum('_'));
    EXPECT_FALSE(smcx_name_alnum('\xc0'));
    EXPECT_TRUE(smcx_name_alnum('q'));
}

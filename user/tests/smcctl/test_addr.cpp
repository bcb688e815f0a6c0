// SPDX-License-Identifier: GPL-2.0
// The address helpers: text to the 16-byte form and back, and the split of HOST[:PORT].
#include <gtest/gtest.h>

#include <arpa/inet.h>

#include <string>
#include <utility>
#include <vector>

#include "addr.hpp"

using namespace smcctl;

namespace {

constexpr Addr16 mapped_10_1_2_3 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 1, 2, 3};
constexpr Addr16 fd00_1 = {0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
constexpr Addr16 loopback6 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

HostPort parts_of(std::string_view s) {
    const auto r = split_host_port(s);
    EXPECT_TRUE(std::holds_alternative<HostPort>(r)) << s;
    return std::holds_alternative<HostPort>(r) ? std::get<HostPort>(r) : HostPort{};
}

std::optional<SplitError> error_of(std::string_view s) {
    const auto r = split_host_port(s);
    return std::holds_alternative<SplitError>(r) ? std::optional(std::get<SplitError>(r))
                                                 : std::nullopt;
}

} // namespace

TEST(AddrParse, FamilyAndBytes) {
    struct Case {
        const char* text;
        int family;
        Addr16 bytes;
    };
    static const Case cases[] = {
        {"10.1.2.3", AF_INET, mapped_10_1_2_3},
        {"fd00::1", AF_INET6, fd00_1},
        {"FD00:0:0::1", AF_INET6, fd00_1},
        {"::1", AF_INET6, loopback6},
        {"0::1", AF_INET6, loopback6},
        // v4-mapped text is IPv6 text: the bytes are the same, the family is not
        {"::ffff:10.1.2.3", AF_INET6, mapped_10_1_2_3},
        {"::ffff:a01:203", AF_INET6, mapped_10_1_2_3},
        {"0:0:0:0:0:ffff:10.1.2.3", AF_INET6, mapped_10_1_2_3},
    };
    for (const auto& c : cases) {
        const auto a = parse_addr(c.text);
        ASSERT_TRUE(a) << c.text;
        EXPECT_EQ(a->family, c.family) << c.text;
        EXPECT_EQ(a->bytes, c.bytes) << c.text;
        EXPECT_EQ(is_v4_mapped(a->bytes), c.bytes == mapped_10_1_2_3) << c.text;
    }
}

TEST(AddrParse, BadText) {
    for (const char* bad :
         {"", "nonsense", "1.2.3", "1.2.3.4.5", "256.1.1.1", " 1.2.3.4", "1.2.3.4 ", "1.2.3.4/24",
          "[::1]", ":::", "1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "fd00::g"})
        EXPECT_EQ(parse_addr(bad), std::nullopt) << bad;
}

TEST(AddrText, IPv4WhenV4Mapped) {
    EXPECT_EQ(addr_text(mapped_10_1_2_3), "10.1.2.3");
    EXPECT_EQ(addr_text(fd00_1), "fd00::1");
    EXPECT_EQ(addr_text(loopback6), "::1");
    EXPECT_EQ(addr_text(Addr16{}), "::");
    // ::a.b.c.d (IPv4-compatible) and ::ffff:0:a.b.c.d are not v4-mapped
    Addr16 compat = mapped_10_1_2_3;
    compat[10] = compat[11] = 0;
    EXPECT_FALSE(is_v4_mapped(compat));
    EXPECT_EQ(addr_text(compat), "::10.1.2.3");
    Addr16 almost = mapped_10_1_2_3;
    almost[0] = 0xfe;
    EXPECT_FALSE(is_v4_mapped(almost));
    EXPECT_NE(addr_text(almost), "10.1.2.3");
}

TEST(AddrText, WrongSizeIsQuestionMark) {
    const std::vector<std::uint8_t> four = {10, 1, 2, 3};
    EXPECT_EQ(addr_text(four), "?");
    EXPECT_FALSE(is_v4_mapped(four));
    EXPECT_EQ(addr_text(std::span<const std::uint8_t>()), "?");
}

TEST(AddrText, InAFamily) {
    EXPECT_EQ(addr_text(mapped_10_1_2_3, AF_INET), "10.1.2.3");
    EXPECT_EQ(addr_text(mapped_10_1_2_3, AF_INET6), "::ffff:10.1.2.3");
    EXPECT_EQ(addr_text(fd00_1, AF_INET6), "fd00::1");
    EXPECT_EQ(addr_text(fd00_1, 0), "fd00::1");
}

TEST(AddrText, RoundTrip) {
    for (const char* text : {"10.1.2.3", "0.0.0.0", "255.255.255.255", "fd00::1", "::1",
                             "::", "2001:db8::ff", "::ffff:10.1.2.3"}) {
        const auto a = parse_addr(text);
        ASSERT_TRUE(a) << text;
        EXPECT_EQ(addr_text(a->bytes, a->family), text);
    }
    // the canonical spelling
    EXPECT_EQ(addr_text(parse_addr("0::1")->bytes, AF_INET6), "::1");
    EXPECT_EQ(addr_text(parse_addr("FD00:0::2")->bytes, AF_INET6), "fd00::2");
}

TEST(AddrSplit, Parts) {
    constexpr auto none = std::nullopt;
    static const std::pair<const char*, HostPort> cases[] = {
        {"10.1.2.3", {"10.1.2.3", none}},
        {"10.1.2.3:80", {"10.1.2.3", "80"}},
        {"host", {"host", none}},
        {"host:22", {"host", "22"}},
        {"", {"", none}},
        // the parts are not checked: an empty host or port, a bad port, stay as given
        {":80", {"", "80"}},
        {"host:", {"host", ""}},
        {":", {"", ""}},
        {"host:x", {"host", "x"}},
        {"a]:80", {"a]", "80"}},
        // without brackets, two colons or more are a bare IPv6 address: all host
        {"fd00::2", {"fd00::2", none}},
        {"::1", {"::1", none}},
        {"::", {"::", none}},
        {"fd00::2:80", {"fd00::2:80", none}},
        {"::ffff:10.1.2.3", {"::ffff:10.1.2.3", none}},
        // brackets
        {"[fd00::2]", {"fd00::2", none}},
        {"[fd00::2]:6379", {"fd00::2", "6379"}},
        {"[fd00::2]:", {"fd00::2", ""}},
        {"[10.1.2.3]:80", {"10.1.2.3", "80"}},
        {"[]", {"", none}},
        {"[]:80", {"", "80"}},
    };
    for (const auto& [text, parts] : cases)
        EXPECT_EQ(parts_of(text), parts) << text;
}

TEST(AddrSplit, BracketErrors) {
    static const std::pair<const char*, SplitError> cases[] = {
        {"[::1", SplitError::no_close},           {"[", SplitError::no_close},
        {"[::1]x", SplitError::junk_after_close}, {"[::1]80", SplitError::junk_after_close},
        {"[a]b]", SplitError::junk_after_close},  {"[[::1]]", SplitError::junk_after_close},
    };
    for (const auto& [text, error] : cases)
        EXPECT_EQ(error_of(text), error) << text;
    EXPECT_EQ(error_of("[::1]:80"), std::nullopt);
}

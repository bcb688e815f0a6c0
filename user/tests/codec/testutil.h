// SPDX-License-Identifier: GPL-2.0
// Helpers shared by the codec unit tests.
#pragma once

#include <smcx/wire.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using Bytes = std::vector<uint8_t>;

inline std::string hex(const Bytes &b)
{
    static const char d[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < b.size(); i++) {
        if (i && i % 16 == 0)
            s += '\n';
        else if (i)
            s += ' ';
        s += d[b[i] >> 4];
        s += d[b[i] & 15];
    }
    return s;
}

// gtest-friendly wire error comparison: prints names, not numbers
inline ::testing::AssertionResult wire_eq(const char *expr, const char *, int got, int want)
{
    if (got == want)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << expr << " returned " << smcx_wire_errname(got)
                                         << ", expected " << smcx_wire_errname(want);
}

#define EXPECT_WIRE(expr, err) EXPECT_PRED_FORMAT2(wire_eq, (expr), (err))

// fixed-width text field as the wire carries it: text, then blank padding
template <size_t N> inline void put_text(uint8_t (&f)[N], const char *s)
{
    size_t n = std::strlen(s);
    std::memset(f, ' ', N);
    std::memcpy(f, s, n < N ? n : N);
}

inline Bytes text_bytes(const char *s, size_t n)
{
    Bytes b(n, ' ');
    std::memcpy(b.data(), s, std::strlen(s));
    return b;
}

// concatenate byte pieces; lets vectors be written field by field
inline Bytes cat(std::initializer_list<Bytes> parts)
{
    Bytes out;
    for (const auto &p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

inline Bytes zeros(size_t n) { return Bytes(n, 0); }

// every byte-exact vector passes through here: it is counted, and when
// SMCX_DUMP_SEEDS names a directory it is written to <dir>/<corpus>/ (that
// is how user/fuzz/corpus was seeded)
int &vector_count();
void record_vector(const char *corpus, const Bytes &v);

// EBCDIC eyecatchers
inline Bytes SMCR() { return {0xe2, 0xd4, 0xc3, 0xd9}; }
inline Bytes SMCD() { return {0xe2, 0xd4, 0xc3, 0xc4}; }

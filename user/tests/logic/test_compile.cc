// SPDX-License-Identifier: GPL-2.0
// Compile test, C++20 side: the pure-logic headers in a C++20 TU (this
// file and the other tests), and the C11 TU built with kernel-style flags
// is linked in and run, and agrees with the C++ build.
#include <gtest/gtest.h>

#include "compile_c11.h"

#include <smcx/cursor.h>

TEST(Compile, C11TranslationUnitRuns) {
    EXPECT_EQ(smcx_logic_c11_check(), 0);
}

TEST(Compile, C11AndCxx20Agree) {
    const std::uint64_t lasts[] = {0, 100, (std::uint64_t{16384} << 16) - 1, 1ull << 40};
    for (std::uint64_t last : lasts)
        for (std::uint32_t count : {0u, 1u, 16383u, 16384u, 0xffffffffu}) {
            smcx_cdc_cursor c{};
            c.wrap = 0xffff;
            c.count = count;
            EXPECT_EQ(smcx_logic_c11_to_count(last, 16384, 0xffff, count),
                      smcx_curs_to_count(last, 16384, &c));
        }
}

// SPDX-License-Identifier: GPL-2.0
// Compile test, C++20 side: the same headers in a C++20 TU (this file), and
// the C11 TU built with kernel-style flags is linked in and run.
#include "compile_c11.h"
#include "testutil.h"

#include <smcx/wire/selftest.h>

#include <type_traits>

static_assert(std::is_trivially_copyable_v<smcx_clc_proposal>);
static_assert(std::is_standard_layout_v<smcx_llc_msg>);
static_assert(SMCX_CLC_MAX_LEN == 652);

TEST(Compile, C11TranslationUnitRuns)
{
    EXPECT_WIRE(smcx_c11_selftest(), 0);
    // both languages agree on the struct layout
    EXPECT_EQ(smcx_c11_sizeof_proposal(), sizeof(smcx_clc_proposal));
}

TEST(Compile, Cxx20TranslationUnitRuns) { EXPECT_WIRE(smcx_wire_selftest(), 0); }

// SPDX-License-Identifier: GPL-2.0
// Shared helpers for the codec fuzz targets (built by scripts/fuzz with
// clang -fsanitize=fuzzer,address,undefined).
#pragma once

#include <smcx/wire.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

// a violated property is a crash, so libFuzzer saves the input
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "property violated: %s (%s:%d)\n", #cond, __FILE__, __LINE__);    \
            std::abort();                                                                          \
        }                                                                                          \
    } while (0)

// decoded structs are memset before filling, so whole-struct comparison
// (padding included) is exact
template <typename T> bool same(const T &a, const T &b) { return !std::memcmp(&a, &b, sizeof(T)); }

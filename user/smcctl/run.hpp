// SPDX-License-Identifier: GPL-2.0
// smc_run: run a program with libsmc-preload.so, so that its TCP sockets are SMC
// sockets (docs/transparent.md).
#pragma once

#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace smcctl::smc_run {

struct Options {
    std::optional<std::string> sndbuf; // -t SIZE, as given (validated)
    std::optional<std::string> rcvbuf; // -r SIZE
    std::string mode = "afsmc";        // -m afsmc|ipproto
    bool debug = false;                // -d
    bool version = false;              // -v
    bool help = false;                 // -h
    std::vector<std::string> program;  // PROGRAM ARGS...
};

struct bad_usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// smc_run's own options up to the first non-option (or "--"); throws bad_usage.
Options parse(const std::vector<std::string>& argv);

std::string usage();

// Where libsmc-preload.so is: $SMC_PRELOAD_LIB if set (must exist), else next to
// @self_dir, else @self_dir/../preload (build tree), else @self_dir/../lib/smcx
// (install tree), else the compiled-in install path.  Empty if none exists.
std::string find_library(const char* env_value, const std::string& self_dir);

// LD_PRELOAD value with @lib first and @existing (if any) kept after it.
std::string ld_preload_value(const std::string& lib, const char* existing);

// The whole personality: parse, set the environment, exec.  Returns only on error.
int main(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

} // namespace smcctl::smc_run

// SPDX-License-Identifier: GPL-2.0
// smcctl: SMC configuration and monitoring.  Also smc_pnet, smcr, smcss, smc_dbg and
// smc_run, depending on the name it is started under.
#include <iostream>
#include <string>
#include <vector>

#include "app.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    return smcctl::main_entry(args, std::cout, std::cerr);
}

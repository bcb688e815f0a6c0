// SPDX-License-Identifier: GPL-2.0
// smcctl: SMC configuration and monitoring.  Also smc_pnet, smcr, smcd, smcss, smc_dbg,
// smc_run, smc_chk and smc_rnics, depending on the name it is started under.
#include <iostream>
#include <string>
#include <vector>

#include "app.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    return smcctl::main_entry(args, std::cout, std::cerr);
}

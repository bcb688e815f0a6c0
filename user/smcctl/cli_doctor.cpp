// SPDX-License-Identifier: GPL-2.0
// smcctl doctor [PEER[:PORT]] [-j] [-t SECONDS]
#include <stdexcept>

#include "cli_parse.hpp"
#include "doctor.hpp"

namespace smcctl::cli {

namespace {

constexpr OptSpec doctor_opts[] = {
    {"timeout", 't', true, "SECONDS", "how long the probe waits for the connection (default 10)"},
    {"json", 'j', false, {}, "JSON output"},
    {"help", 'h', false, {}, "this text"},
};
constexpr OptionSet doctor_set{doctor_opts, 22};

} // namespace

Command parse_doctor(const Context& c) {
    cmd::Doctor d;
    CommonOptions common;
    std::optional<unsigned> timeout;
    std::vector<std::string> operands;
    parse_options(
        c, doctor_set,
        [&](char id, std::optional<std::string> value) {
            if (common.apply(c, id) || id != 't')
                return;
            const std::string v = value.value_or("");
            if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos ||
                v.size() > 4 || std::stoul(v) == 0)
                c.fail("invalid timeout '" + v + "' (seconds, 1 to 9999)");
            timeout = static_cast<unsigned>(std::stoul(v));
        },
        &operands);
    if (auto answer = common.answer(c))
        return *answer;
    if (operands.size() == 1 && operands[0] == "help")
        return c.help();
    if (operands.size() > 1)
        c.fail("unexpected argument '" + operands[1] + "'");
    if (!operands.empty())
        d.peer = c.checked([&] { return doctor::parse_peer(operands[0]); });
    if (timeout && !d.peer)
        c.fail("-t needs a PEER to probe");
    if (timeout)
        d.peer->timeout = *timeout;
    return d;
}

std::string doctor_usage(Personality p) {
    return object_prefix(p) + "doctor [PEER[:PORT]] [OPTIONS]\n" + options_usage(doctor_set) +
           "Checks this host for SMC-R: the SMC module and its autoload, RDMA ports and\n"
           "their RoCE v2 GIDs, MTU, PNET and user EID tables, sysctls and buffer sizes,\n"
           "and prints a fix for each problem.  With PEER, also connects to PEER over\n"
           "AF_SMC (port " +
           std::to_string(chk_default_port) +
           ", smc_chk's, unless given: run 'smc_chk -S' there) and\n"
           "reports SMC-R, SMC-D, or why the connection fell back to TCP.\n"
           "Exit status: 0 nothing failed, 1 a check failed, 2 bad command line.\n";
}

} // namespace smcctl::cli

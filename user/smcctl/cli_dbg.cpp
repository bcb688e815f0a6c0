// SPDX-License-Identifier: GPL-2.0
// smc_dbg: collect a diagnostic bundle.
#include "cli_parse.hpp"

namespace smcctl::cli {

namespace {

constexpr OptSpec dbg_opts[] = {
    {"output", 'o', true, "PATH", "archive to write (default /tmp/smc_dbg-HOST-TIME.tar.gz)"},
    {"tgz", 't', false, {}, "accepted for smc-tools compatibility (always a .tar.gz)"},
    {"version", 'v', false, {}, "show the version"},
    {"help", 'h', false, {}, "this text"},
};
constexpr OptionSet dbg_set{dbg_opts, 21};

} // namespace

Command parse_dbg(const Context& c) {
    cmd::DbgCollect dbg;
    CommonOptions common;
    parse_options(c, dbg_set, [&](char id, std::optional<std::string> value) {
        if (!common.apply(c, id) && id == 'o')
            dbg.output = std::move(value);
        // -t: smc-tools' "make a .tgz"; the bundle always is one.
    });
    if (auto answer = common.answer(c))
        return *answer;
    if (dbg.output && dbg.output->empty())
        c.fail("empty output path");
    return dbg;
}

std::string dbg_usage(Personality) {
    return "Usage: smc_dbg [OPTIONS]\n" + options_usage(dbg_set) +
           "Collects socket, link group, device, PNET, statistics, sysctl, RDMA, interface,\n"
           "module and kernel log information into one archive and prints its path.\n";
}

} // namespace smcctl::cli

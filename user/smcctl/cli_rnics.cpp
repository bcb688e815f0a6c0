// SPDX-License-Identifier: GPL-2.0
// smc_rnics: RDMA devices, their ports, netdevs, link state and PNET IDs.
#include "cli_parse.hpp"

namespace smcctl::cli {

namespace {

constexpr OptSpec rnics_opts[] = {
    {"all", 'a', false, {}, "also RDMA ports that are not RoCE (InfiniBand, iWARP)"},
    {"rawids", 'r', false, {}, "PCI vendor and device ids instead of the type name"},
    {"enable", 'e', true},
    {"disable", 'd', true},
    {"json", 'j', false, {}, "JSON output"},
    {"version", 'v', false, {}, "show the version"},
    {"help", 'h', false, {}, "this text"},
};
constexpr OptionSet rnics_set{rnics_opts, 17};

} // namespace

Command parse_rnics(const Context& c) {
    cmd::RnicsShow show;
    CommonOptions common;
    bool switching = false;
    parse_options(c, rnics_set, [&](char id, const std::optional<std::string>&) {
        if (common.apply(c, id))
            return;
        switch (id) {
        case 'a':
            show.all = true;
            break;
        case 'r':
            show.rawids = true;
            break;
        case 'e':
        case 'd':
            switching = true;
            break;
        }
    });
    if (auto answer = common.answer(c))
        return *answer;
    if (switching)
        c.fail("-e/--enable and -d/--disable switch s390 PCI functions on and off; "
               "there are none on this platform");
    return show;
}

std::string rnics_usage(Personality) {
    return "Usage: smc_rnics [OPTIONS]\n" + options_usage(rnics_set) +
           "One line per RDMA device port: device, port, netdev, link and port state,\n"
           "type, PCI slot, PNET ID and whether SMC can use it.\n";
}

} // namespace smcctl::cli

// SPDX-License-Identifier: GPL-2.0
#include "app.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>

#include "baseline.hpp"
#include "chk.hpp"
#include "client.hpp"
#include "dbg.hpp"
#include "doctor.hpp"
#include "format.hpp"
#include "names.hpp"
#include "rnics.hpp"
#include "run.hpp"
#include "smcx/version.h"
#include "uapi/linux/smc_diag.h"
#include "why.hpp"

namespace smcctl {

namespace {

template <class... Ts> struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

// smcss --why: the explanation of each connected socket's handshake, where recorded.
std::string why_of_sockets(const SocketTable& t) {
    std::vector<HsRecord> recs;
    try {
        recs = XClient().records();
    } catch (const nl::error& e) {
        return std::string("\nWhy: no flight recorder (") + e.what() + ")\n";
    }
    std::string s = "\nWhy:\n";
    for (const auto& sk : t.sockets) {
        if (!sk.peer_port)
            continue;
        const HsRecord* r =
            record_of(recs, sk.local_addr, sk.local_port, sk.peer_addr, sk.peer_port);
        const Explanation x = r ? explain(*r) : Explanation{};
        s += "  " + sk.local_addr + ":" + std::to_string(sk.local_port) + " " + sk.peer_addr + ":" +
             std::to_string(sk.peer_port) + "  " +
             (r ? x.verdict + ", decided at: " + x.step + ". " + x.text
                : std::string("no record (older than the recorder's last "
                              "net.smc.smcx_hs_records handshakes, or not yours)")) +
             "\n";
    }
    return s;
}

std::string action_of(const Command& c) {
    return std::visit(
        overloaded{
            [](const cmd::PnetShow&) { return std::string("pnet show"); },
            [](const cmd::PnetAdd&) { return std::string("pnet add"); },
            [](const cmd::PnetDel&) { return std::string("pnet delete"); },
            [](const cmd::PnetFlush&) { return std::string("pnet flush"); },
            [](const cmd::UeidShow&) { return std::string("ueid show"); },
            [](const cmd::UeidAdd&) { return std::string("ueid add"); },
            [](const cmd::UeidDel&) { return std::string("ueid delete"); },
            [](const cmd::UeidFlush&) { return std::string("ueid flush"); },
            [](const cmd::InfoShow&) { return std::string("info"); },
            [](const cmd::StatsShow& s) { return std::string(s.reset ? "stats reset" : "stats"); },
            [](const cmd::SsShow&) { return std::string("sockets"); },
            [](const cmd::LgrShow&) { return std::string("linkgroup"); },
            [](const cmd::DevShow&) { return std::string("device"); },
            [](const cmd::SeidShow&) { return std::string("seid show"); },
            [](const cmd::SeidSet& c) {
                return std::string(c.enable ? "seid enable" : "seid disable");
            },
            [](const cmd::SmcdLgrShow&) { return std::string("linkgroup"); },
            [](const cmd::SmcdDevShow&) { return std::string("device"); },
            [](const cmd::WhyShow&) { return std::string("why"); },
            [](const cmd::WhyFlush&) { return std::string("why flush"); },
            [](const cmd::PeersShow&) { return std::string("peers"); },
            [](const cmd::PeersDel&) { return std::string("peers delete"); },
            [](const cmd::PeersFlush&) { return std::string("peers flush"); },
            [](const auto&) { return std::string(); },
        },
        c);
}

// Command-specific meaning of an errno, empty when there is none.
std::string specific_reason(const Command& c, int err) {
    if (std::holds_alternative<cmd::PnetAdd>(c)) {
        const auto& a = std::get<cmd::PnetAdd>(c);
        if (err == EEXIST)
            return "nothing added: the interface/device already has an entry for a PNET ID, "
                   "or a PNET ID set by hardware";
        if (err == EINVAL)
            return "kernel rejected the entry (PNET ID " + a.pnetid +
                   ", names or port invalid; RDMA devices only in the initial namespace)";
        if (err == ENOSPC)
            return "PNET table is full (smcx keeps at most 256 entries per network namespace)";
    }
    if (std::holds_alternative<cmd::PnetDel>(c) && err == ENOENT)
        return "PNET ID " + std::get<cmd::PnetDel>(c).pnetid + " not found";
    if (std::holds_alternative<cmd::UeidAdd>(c)) {
        if (err == EEXIST)
            return "user EID is already defined";
        if (err == ERANGE)
            return "user EID table is full (at most 4 entries)";
        if (err == EINVAL)
            return "kernel rejected the user EID";
    }
    if (std::holds_alternative<cmd::PeersDel>(c) && err == ENOENT)
        return "no entry for " + std::get<cmd::PeersDel>(c).peer + " in the peer cache";
    if (std::holds_alternative<cmd::UeidDel>(c) && err == ENOENT)
        return "user EID is not defined";
    if (std::holds_alternative<cmd::SeidSet>(c)) {
        if (err == EOPNOTSUPP)
            return "not supported by the running kernel: there is no system EID to switch (it "
                   "exists only with ISMv2 devices, on s390)";
        if (err == ENOENT && !std::get<cmd::SeidSet>(c).enable)
            return "the system EID stays enabled while no user EID is defined (add one first: "
                   "ueid add EID)";
    }
    return {};
}

void print(std::ostream& out, const std::string& s) {
    out << s;
}

} // namespace

std::string describe_failure(const Command& command, const nl::error& e) {
    if (const auto* nf = dynamic_cast<const nl::family_not_found*>(&e))
        return "SMC module not loaded (generic netlink family " + nf->family() + " not found)";
    // sock_diag answers ENOENT when no handler for AF_SMC is registered.
    if (std::holds_alternative<cmd::SsShow>(command) && e.errno_value() == ENOENT)
        return "SMC socket monitoring not available (module smc_diag not loaded)";

    const std::string action = action_of(command);
    const std::string prefix = action.empty() ? std::string() : action + ": ";
    const int err = e.errno_value();
    const bool own_ns = std::holds_alternative<cmd::WhyFlush>(command) ||
                        std::holds_alternative<cmd::PeersDel>(command) ||
                        std::holds_alternative<cmd::PeersFlush>(command);
    if ((err == EPERM || err == EACCES) && own_ns)
        return prefix + "permission denied (needs CAP_NET_ADMIN over this network namespace)";
    if (err == EPERM || err == EACCES)
        return prefix + "permission denied (needs CAP_NET_ADMIN in the initial user namespace; "
                        "run as root on the host)";
    if (auto r = specific_reason(command, err); !r.empty())
        return prefix + r;
    if (err == EOPNOTSUPP)
        return prefix + "not supported by the running kernel";
    return prefix + e.what();
}

int run(const Invocation& inv, std::ostream& out, std::ostream& err) {
    const bool json = inv.opt.json;
    try {
        return std::visit(
            overloaded{
                [&](const cmd::Help& h) {
                    out << h.text;
                    return exit_ok;
                },
                [&](const cmd::Version&) {
                    out << inv.prog << " (smcx) " << SMCX_VERSION << '\n';
                    return exit_ok;
                },
                [&](const cmd::Unsupported& u) {
                    err << inv.prog << ": " << u.what << " is not implemented yet in smcctl "
                        << SMCX_VERSION << '\n';
                    return exit_failure;
                },
                [&](const cmd::PnetShow& c) {
                    Client cl;
                    const PnetTable t = cl.pnet_show(c.pnetid);
                    print(out, json ? to_json(t) : to_text(t));
                    return exit_ok;
                },
                [&](const cmd::PnetAdd& c) {
                    Client().pnet_add(c.pnetid, c.eth, c.ib, c.port);
                    return exit_ok;
                },
                [&](const cmd::PnetDel& c) {
                    Client().pnet_del(c.pnetid);
                    return exit_ok;
                },
                [&](const cmd::PnetFlush&) {
                    Client().pnet_flush();
                    return exit_ok;
                },
                [&](const cmd::UeidShow&) {
                    const UeidTable t = Client().ueid_show();
                    print(out, json ? to_json(t) : to_text(t));
                    return exit_ok;
                },
                [&](const cmd::UeidAdd& c) {
                    Client().ueid_add(c.eid);
                    return exit_ok;
                },
                [&](const cmd::UeidDel& c) {
                    if (Client().ueid_del(c.eid))
                        err << inv.prog
                            << ": the system EID was enabled again, as the last user EID "
                               "was removed\n";
                    return exit_ok;
                },
                [&](const cmd::UeidFlush&) {
                    Client().ueid_flush();
                    return exit_ok;
                },
                [&](const cmd::InfoShow&) {
                    const SysInfo s = Client().info();
                    print(out, json ? to_json(s) : to_text(s));
                    return exit_ok;
                },
                [&](const cmd::StatsShow& c) {
                    const Stats now = Client().stats();
                    const auto path = baseline::default_path();
                    const auto scope = baseline::current_scope();
                    Stats shown = now;
                    if (!inv.opt.absolute) {
                        if (auto base = baseline::load(path, scope)) {
                            if (auto diff = baseline::subtract(now, *base))
                                shown = std::move(*diff);
                            else
                                baseline::discard(path); // counters restarted since
                        }
                    }
                    StatsView view;
                    view.details = inv.opt.details;
                    view.smcr = inv.who != Personality::smcd;
                    view.smcd = inv.who != Personality::smcr;
                    if (inv.who == Personality::smcd && !json)
                        view.smcd_devices = Client().smcd_devices().devices.size();
                    print(out, json ? to_json(shown) : to_text(shown, view));
                    if (c.reset)
                        baseline::save(path, now, scope);
                    return exit_ok;
                },
                [&](const cmd::SsShow& c) {
                    SsView v;
                    v.which = c.which == cmd::SsShow::Which::all         ? SsView::Which::all
                              : c.which == cmd::SsShow::Which::listening ? SsView::Which::listening
                                                                         : SsView::Which::connected;
                    v.debug = c.debug;
                    v.smcr = c.smcr;
                    v.smcd = c.smcd;
                    v.wide = c.wide;
                    std::uint8_t ext = wire::diag_ext_bit(SMC_DIAG_SHUTDOWN) |
                                       wire::diag_ext_bit(SMC_DIAG_FALLBACK);
                    if (json || c.debug)
                        ext |= wire::diag_ext_bit(SMC_DIAG_CONNINFO);
                    if (json || c.smcr)
                        ext |= wire::diag_ext_bit(SMC_DIAG_LGRINFO);
                    if (json || c.smcd)
                        ext |= wire::diag_ext_bit(SMC_DIAG_DMBINFO);
                    const SocketTable t = select_sockets(DiagClient().sockets(ext), v);
                    print(out, json ? to_json(t) : to_text(t, v));
                    if (c.why)
                        print(out, why_of_sockets(t));
                    return exit_ok;
                },
                [&](const cmd::LgrShow& c) {
                    LgrView v;
                    v.links = c.links;
                    v.detail = inv.opt.detail_level;
                    v.lgid = c.lgid;
                    v.ibdev = c.ibdev;
                    v.netdev = c.netdev;
                    // Every view needs the links: link-show lists them, show counts them
                    // (#Links), JSON nests them, device filters match them.
                    const LinkGroupTable t = select_linkgroups(Client().linkgroups(true), v);
                    print(out, json ? to_json(t) : to_text(t, v));
                    return exit_ok;
                },
                [&](const cmd::DevShow& c) {
                    DevView v;
                    v.detail = inv.opt.detail_level;
                    v.ibdev = c.ibdev;
                    v.netdev = c.netdev;
                    const DeviceTable t = select_devices(Client().smcr_devices(), v);
                    print(out, json ? to_json(t) : to_text(t, v));
                    return exit_ok;
                },
                [&](const cmd::SeidShow&) {
                    const SeidInfo si = Client().seid();
                    print(out, json ? to_json(si) : to_text(si));
                    return exit_ok;
                },
                [&](const cmd::SeidSet& c) {
                    Client().seid_set(c.enable);
                    return exit_ok;
                },
                [&](const cmd::SmcdLgrShow& c) {
                    Client cl;
                    SmcdLgrView v;
                    v.detail = inv.opt.detail_level;
                    v.lgid = c.lgid;
                    const SmcdLinkGroupTable t = select_smcd_linkgroups(cl.smcd_linkgroups(), v);
                    if (!json && t.groups.empty())
                        v.devices = cl.smcd_devices().devices.size();
                    print(out, json ? to_json(t) : to_text(t, v));
                    return exit_ok;
                },
                [&](const cmd::SmcdDevShow&) {
                    const SmcdDeviceTable t = Client().smcd_devices();
                    print(out, json ? to_json(t) : to_text(t));
                    return exit_ok;
                },
                [&](const cmd::ChkConnect& c) { return chk::connect(c, inv.opt, out, err); },
                [&](const cmd::ChkServe& c) { return chk::serve(c, inv.opt, out, err); },
                [&](const cmd::ChkPnetid& c) { return chk::pnetid(c, inv.opt, out, err); },
                [&](const cmd::Doctor& d) { return doctor::run(d, inv.opt, out); },
                [&](const cmd::RnicsShow& c) {
                    const RnicTable t = rnics::select(rnics::fetch(err), c.all);
                    print(out, json ? rnics::to_json(t) : rnics::to_text(t, c.rawids));
                    return exit_ok;
                },
                [&](const cmd::WhyShow& c) {
                    std::vector<HsRecord> all = XClient().records();
                    std::vector<HsRecord> shown;
                    const WhyFilter f = c.filter ? parse_why_filter(*c.filter) : WhyFilter{};
                    for (auto& r : all)
                        if (f.matches(r))
                            shown.push_back(std::move(r));
                    if (c.last && shown.size() > c.last)
                        shown.erase(shown.begin(), shown.end() - c.last);
                    // our user EIDs explain a Decline for want of a common one
                    std::vector<std::string> eids;
                    try {
                        for (const auto& e : Client().ueid_show().eids)
                            eids.push_back(trim_blanks(e));
                    } catch (const nl::error&) {
                    }
                    print(out, json ? why_json(shown, eids) : why_text(shown, c.verbose, eids));
                    return exit_ok;
                },
                [&](const cmd::WhyFlush&) {
                    XClient().records_flush();
                    return exit_ok;
                },
                [&](const cmd::PeersShow&) {
                    const auto peers = XClient().peers();
                    print(out, json ? peers_json(peers) : peers_text(peers));
                    return exit_ok;
                },
                [&](const cmd::PeersDel& c) {
                    XClient().peer_del(c.peer);
                    return exit_ok;
                },
                [&](const cmd::PeersFlush&) {
                    XClient().peers_flush();
                    return exit_ok;
                },
                [&](const cmd::Policy& c) { return run_policy(c, json, out); },
                [&](const cmd::DbgCollect& c) {
                    const std::string name = dbg::default_name();
                    const std::string archive = c.output.value_or("/tmp/" + name + ".tar.gz");
                    const auto res = dbg::make_bundle(
                        dbg::standard_collectors(std::chrono::seconds(20)), archive, name, err);
                    out << res.archive << '\n';
                    return exit_ok;
                },
            },
            inv.command);
    } catch (const nl::error& e) {
        err << inv.prog << ": " << describe_failure(inv.command, e) << '\n';
        return exit_failure;
    } catch (const std::exception& e) {
        err << inv.prog << ": " << e.what() << '\n';
        return exit_failure;
    }
}

int main_entry(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    // smc_run execs a program rather than running a command (run.cpp)
    if (!argv.empty() && personality_from_argv0(argv.front()) == Personality::smc_run)
        return smc_run::main(argv, out, err);
    Invocation inv;
    try {
        inv = parse_command_line(argv);
    } catch (const usage_error& e) {
        const auto who = personality_from_argv0(argv.empty() ? std::string() : argv.front());
        err << personality_name(who) << ": " << e.what() << '\n' << e.usage();
        return exit_usage;
    }
    for (const auto& w : inv.warnings)
        err << inv.prog << ": warning: " << w << '\n';
    return run(inv, out, err);
}

} // namespace smcctl

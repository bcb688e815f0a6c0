// SPDX-License-Identifier: GPL-2.0
// smc_chk: try a connection over AF_SMC (or serve them) and tell whether it runs over SMC-R
// or SMC-D, or why it fell back to TCP and what to do about it.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cli.hpp"
#include "model.hpp"

namespace smcctl::chk {

// Exit codes of smc_chk (2 is a bad command line, as everywhere).
constexpr int exit_smc = 0;        // the connection used SMC-R or SMC-D (-i: a PNET ID found)
constexpr int exit_fallback = 1;   // it fell back to TCP (-i: no PNET ID)
constexpr int exit_untestable = 3; // no test possible: no connection, no SMC module, ...

// A failure that makes the test impossible (no connection, no SMC module, no sock_diag);
// what() is the whole message.
struct untestable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// How one connection runs.
struct Report {
    enum class Role { client, server };
    Role role = Role::client;
    SmcSocket sock;                     // its sock_diag entry (addresses, mode, codes, link)
    std::optional<LinkGroup> linkgroup; // the SMC-R link group it runs in, when found

    bool smc() const;
};

// What to do about a fallback: the hint of the code that explains it (the peer's diagnosis
// when the peer declined), and whose the code is.
struct Advice {
    std::uint32_t code = 0; // 0: the fallback carries no reason code
    bool peer = false;      // the code is the peer's diagnosis
    std::string hint;
};

// nullopt when the socket did not fall back.
std::optional<Advice> advice(const SmcSocket& s);

// The link group of an SMC-R socket's link among those of `t` (a dump with links).
std::optional<LinkGroup> find_linkgroup(const LinkGroupTable& t, const LinkInfo& link);

// One line ("Connection to 198.18.0.2 port 5000: SMC-R"), then the reason and hint of a
// fallback; `details` adds the addresses, the link and the link group.
std::string to_text(const Report& r, bool details);
std::string to_json(const Report& r);

// -i: the PNET ID of an interface (empty: none).
struct PnetidReport {
    std::string interface;
    std::string pnetid;
    std::string source; // "pnet table" or "device"
};
std::string to_text(const PnetidReport& r);
std::string to_json(const PnetidReport& r);

// Connects to the peer of `c` over AF_SMC and reports how the connection runs (the report
// of -C, which `smcctl doctor PEER` shares).  Throws untestable.
Report try_connect(const cmd::ChkConnect& c);

// The live commands; each returns smc_chk's exit code.
int connect(const cmd::ChkConnect& c, const Options& opt, std::ostream& out, std::ostream& err);
int serve(const cmd::ChkServe& s, const Options& opt, std::ostream& out, std::ostream& err);
int pnetid(const cmd::ChkPnetid& p, const Options& opt, std::ostream& out, std::ostream& err);

} // namespace smcctl::chk

// SPDX-License-Identifier: GPL-2.0
// smc_chk.  The client connects with an AF_SMC socket and looks the socket up (by inode) in
// the AF_SMC sock_diag dump, which says whether it runs over SMC-R/SMC-D or fell back to TCP,
// and with which CLC decline codes; the server does the same for each accepted socket.
#include "chk.hpp"

#include <arpa/inet.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include "client.hpp"
#include "dbg.hpp"
#include "format.hpp"
#include "json.hpp"
#include "names.hpp"
#include "uapi/linux/smc_diag.h"

#ifndef AF_SMC
#define AF_SMC 43
#endif

namespace smcctl::chk {

namespace {

constexpr int smcproto_smc = 0;  // SMCPROTO_SMC: IPv4 CLC socket
constexpr int smcproto_smc6 = 1; // SMCPROTO_SMC6: IPv6 CLC socket
constexpr std::uint32_t decl_peerdecl = 0x05000000;
constexpr unsigned bind_attempts = 100; // -S: ports tried after the one asked for
constexpr int idle_seconds = 30;        // -S: a silent connection is closed after this

using dbg::unique_fd;

std::string errno_text(int e) {
    return std::strerror(e);
}

std::string hex8(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%08x", v);
    return buf;
}

std::string mode_word(const SmcSocket& s) {
    switch (static_cast<SocketMode>(s.mode)) {
    case SocketMode::smcr:
        return "SMC-R";
    case SocketMode::smcd:
        return "SMC-D";
    case SocketMode::tcp:
        return "TCP fallback (SMC not used)";
    }
    return "unknown mode " + std::to_string(s.mode);
}

std::string json_mode(const SmcSocket& s) {
    switch (static_cast<SocketMode>(s.mode)) {
    case SocketMode::smcr:
        return "SMCR";
    case SocketMode::smcd:
        return "SMCD";
    case SocketMode::tcp:
        return "TCP";
    }
    return "0x" + hex8(s.mode);
}

std::string code_line(std::uint32_t code) {
    std::string n(decline_name(code));
    std::string line = (n.empty() ? std::string("unknown") : n) + " (" + hex_code(code) + ")";
    if (auto t = decline_text(code); !t.empty())
        line += " " + std::string(t);
    return line;
}

std::string smc_version(const LinkGroup& g) {
    if (g.v2 && g.v2->version)
        return std::to_string(*g.v2->version) + "." + std::to_string(g.v2->release.value_or(0));
    return "1";
}

std::string endpoint(const std::string& addr, std::uint16_t port) {
    return endpoint_text(addr, port, true);
}

// The AF_SMC sock_diag entry of the socket with inode `ino`.
SmcSocket diag_entry(ino_t ino) {
    const std::uint8_t ext =
        wire::diag_ext_bit(SMC_DIAG_SHUTDOWN) | wire::diag_ext_bit(SMC_DIAG_FALLBACK) |
        wire::diag_ext_bit(SMC_DIAG_LGRINFO) | wire::diag_ext_bit(SMC_DIAG_DMBINFO);
    SocketTable t;
    try {
        t = DiagClient().sockets(ext);
    } catch (const nl::error& e) {
        if (e.errno_value() == ENOENT)
            throw untestable("SMC socket monitoring not available (module smc_diag not loaded)");
        throw untestable(std::string("sock_diag for AF_SMC failed: ") + e.what());
    }
    for (auto& s : t.sockets)
        if (s.inode == static_cast<std::uint64_t>(ino))
            return s;
    throw untestable("the socket is missing from the AF_SMC sock_diag dump (inode " +
                     std::to_string(ino) + ")");
}

ino_t inode_of(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw untestable("fstat: " + errno_text(errno));
    return st.st_ino;
}

// A report for a connected socket: its diag entry plus, for SMC-R, its link group.
Report report_of(int fd, Report::Role role) {
    Report r;
    r.role = role;
    r.sock = diag_entry(inode_of(fd));
    if (r.sock.mode == static_cast<std::uint8_t>(SocketMode::smcr) && r.sock.link) {
        try {
            r.linkgroup = find_linkgroup(Client().linkgroups(true), *r.sock.link);
        } catch (const nl::error&) {
            // the link group is a detail; the mode is known without it
        }
    }
    return r;
}

unique_fd smc_socket(bool ipv6, int flags) {
    unique_fd fd(
        ::socket(AF_SMC, SOCK_STREAM | SOCK_CLOEXEC | flags, ipv6 ? smcproto_smc6 : smcproto_smc));
    if (!fd) {
        const int e = errno;
        if (e == EAFNOSUPPORT)
            throw untestable("AF_SMC is not available: no SMC module is loaded "
                             "(modprobe smcx, or the stock smc)");
        throw untestable("cannot create an AF_SMC socket: " + errno_text(e));
    }
    return fd;
}

struct addrinfo_deleter {
    void operator()(addrinfo* a) const noexcept { freeaddrinfo(a); }
};

sockaddr_storage resolve(const cmd::ChkConnect& c, socklen_t& len) {
    addrinfo hints{};
    hints.ai_family = c.ipv6 ? AF_INET6 : AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const std::string port = std::to_string(c.port);
    if (const int rc = getaddrinfo(c.address.c_str(), port.c_str(), &hints, &res); rc != 0)
        throw untestable("cannot resolve " + c.address + (c.ipv6 ? " (IPv6)" : " (IPv4)") + ": " +
                         gai_strerror(rc));
    std::unique_ptr<addrinfo, addrinfo_deleter> hold(res);
    sockaddr_storage ss{};
    std::memcpy(&ss, res->ai_addr, res->ai_addrlen);
    len = res->ai_addrlen;
    return ss;
}

// Waits for `events` on `fd` until the deadline; false on timeout.
bool wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p{fd, events, 0};
        const int rc = ::poll(&p, 1, static_cast<int>(left.count()));
        if (rc > 0)
            return true;
        if (rc < 0 && errno != EINTR)
            throw untestable("poll: " + errno_text(errno));
    }
}

void print(std::ostream& out, const std::string& s) {
    out << s;
    out.flush();
}

} // namespace

bool Report::smc() const {
    return sock.mode == static_cast<std::uint8_t>(SocketMode::smcr) ||
           sock.mode == static_cast<std::uint8_t>(SocketMode::smcd);
}

std::optional<Advice> advice(const SmcSocket& s) {
    if (s.mode != static_cast<std::uint8_t>(SocketMode::tcp))
        return std::nullopt;
    const std::uint32_t reason = s.fallback ? s.fallback->reason : 0;
    const std::uint32_t peer = s.fallback ? s.fallback->peer_diagnosis : 0;
    Advice a;
    if (reason == decl_peerdecl && peer != 0 && !decline_hint(peer).empty()) {
        a.code = peer;
        a.peer = true;
        a.hint = decline_hint(peer);
        return a;
    }
    a.code = reason;
    if (reason == 0)
        a.hint = "the connection fell back without a reason code: look at both hosts' "
                 "fallback counters (smcr -d stats)";
    else if (auto h = decline_hint(reason); !h.empty())
        a.hint = h;
    else
        a.hint = "no hint for this code: collect smc_dbg on both hosts";
    return a;
}

std::optional<LinkGroup> find_linkgroup(const LinkGroupTable& t, const LinkInfo& link) {
    for (const auto& g : t.groups) {
        if (g.role != link.role)
            continue;
        for (const auto& l : g.links)
            if (l.id == link.link_id && l.ibdev == link.ibdev && l.ibport == link.ibport &&
                l.gid == link.gid && l.peer_gid == link.peer_gid)
                return g;
    }
    return std::nullopt;
}

std::string to_text(const Report& r, bool details) {
    const SmcSocket& s = r.sock;
    std::ostringstream o;
    if (r.role == Report::Role::client)
        o << "Connection to " << s.peer_addr << " port " << s.peer_port;
    else
        o << "Connection from " << s.peer_addr << " port " << s.peer_port;
    o << ": " << mode_word(s) << '\n';
    if (details) {
        o << "  Local: " << endpoint(s.local_addr, s.local_port)
          << "  Peer: " << endpoint(s.peer_addr, s.peer_port) << '\n';
        if (s.link)
            o << "  Link: " << s.link->ibdev << " port " << unsigned(s.link->ibport) << ", link id "
              << unsigned(s.link->link_id) << ", GID " << s.link->gid << ", peer GID "
              << s.link->peer_gid << '\n';
        if (r.linkgroup) {
            const LinkGroup& g = *r.linkgroup;
            o << "  Link group: " << hex8(g.id) << " (" << (g.role ? "SERV" : "CLNT") << "), SMC "
              << smc_version(g);
            if (g.v2 && !g.v2->peer_host.empty())
                o << ", peer host " << g.v2->peer_host;
            if (g.v2 && !g.v2->negotiated_eid.empty())
                o << ", EID " << g.v2->negotiated_eid;
            o << '\n';
        }
    }
    if (s.fallback && s.fallback->reason != 0 &&
        s.mode == static_cast<std::uint8_t>(SocketMode::tcp)) {
        o << "  Reason: " << code_line(s.fallback->reason) << '\n';
        if (s.fallback->peer_diagnosis != 0)
            o << "  Peer's reason: " << code_line(s.fallback->peer_diagnosis) << '\n';
    }
    if (const auto a = advice(s))
        o << (a->peer ? "  Hint (for the peer): " : "  Hint: ") << a->hint << '\n';
    return o.str();
}

std::string to_json(const Report& r) {
    const SmcSocket& s = r.sock;
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    j.field("role", r.role == Report::Role::client ? "client" : "server");
    j.field("family", s.ip_version == 6 ? "inet6" : "inet");
    json_endpoint(j, "local", s.local_addr, s.local_port);
    json_endpoint(j, "peer", s.peer_addr, s.peer_port);
    j.field("mode", json_mode(s));
    j.field("smc", r.smc());
    // a fallback always has the object, with null codes when the kernel gave none
    std::optional<FallbackInfo> fb;
    if (s.mode == static_cast<std::uint8_t>(SocketMode::tcp))
        fb = s.fallback.value_or(FallbackInfo{});
    json_fallback(j, "fallback", fb);
    j.key("hint");
    if (const auto a = advice(s)) {
        j.begin_object();
        j.field("for", a->peer ? "peer" : "local");
        j.key("code");
        a->code ? j.value(hex_code(a->code)) : j.null();
        j.field("text", a->hint);
        j.end_object();
    } else {
        j.null();
    }
    json_link(j, "link", s.link);
    j.key("linkgroup");
    if (r.linkgroup) {
        const LinkGroup& g = *r.linkgroup;
        j.begin_object();
        j.field("id", static_cast<std::uint64_t>(g.id));
        j.field("id_hex", hex8(g.id));
        j.field("role", g.role ? "SERV" : "CLNT");
        j.field("smc_version", smc_version(g));
        j.key("peer_host");
        g.v2 && !g.v2->peer_host.empty() ? j.value(g.v2->peer_host) : j.null();
        j.key("negotiated_eid");
        g.v2 && !g.v2->negotiated_eid.empty() ? j.value(g.v2->negotiated_eid) : j.null();
        j.end_object();
    } else {
        j.null();
    }
    j.end_object().finish();
    return o.str();
}

std::string to_text(const PnetidReport& r) {
    if (r.pnetid.empty())
        return r.interface + " has no PNET ID\n";
    return r.pnetid + "\n";
}

std::string to_json(const PnetidReport& r) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    j.field("interface", r.interface);
    j.key("pnetid");
    r.pnetid.empty() ? j.null() : j.value(r.pnetid);
    j.key("source");
    r.source.empty() ? j.null() : j.value(r.source);
    j.end_object().finish();
    return o.str();
}

// ---- the live commands ---------------------------------------------------------------------

Report try_connect(const cmd::ChkConnect& c) {
    socklen_t len = 0;
    const sockaddr_storage dst = resolve(c, len);
    unique_fd fd = smc_socket(c.ipv6, SOCK_NONBLOCK);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(c.timeout);
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&dst), len) != 0) {
        if (const int e = errno; e != EINPROGRESS)
            throw untestable("connect to " + c.address + " port " + std::to_string(c.port) + ": " +
                             errno_text(e));
        if (!wait_for(fd.get(), POLLOUT, deadline))
            throw untestable("no connection to " + c.address + " port " + std::to_string(c.port) +
                             " within " + std::to_string(c.timeout) + " s");
        int so_error = 0;
        socklen_t sl = sizeof(so_error);
        if (::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &so_error, &sl) != 0)
            so_error = errno;
        if (so_error != 0)
            throw untestable("connect to " + c.address + " port " + std::to_string(c.port) + ": " +
                             errno_text(so_error));
    }
    return report_of(fd.get(), Report::Role::client);
}

int connect(const cmd::ChkConnect& c, const Options& opt, std::ostream& out, std::ostream& err) {
    try {
        const Report r = try_connect(c);
        print(out, opt.json ? to_json(r) : to_text(r, opt.details));
        return r.smc() ? exit_smc : exit_fallback;
    } catch (const untestable& e) {
        err << "smc_chk: " << e.what() << '\n';
        return exit_untestable;
    }
}

int serve(const cmd::ChkServe& s, const Options& opt, std::ostream& out, std::ostream& err) {
    try {
        unique_fd lfd = smc_socket(s.ipv6, 0);
        const int one = 1;
        ::setsockopt(lfd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        unsigned port = s.port;
        for (unsigned i = 0;; ++i, ++port) {
            int rc;
            if (s.ipv6) {
                sockaddr_in6 a{};
                a.sin6_family = AF_INET6;
                a.sin6_addr = in6addr_any;
                a.sin6_port = htons(static_cast<std::uint16_t>(port));
                rc = ::bind(lfd.get(), reinterpret_cast<sockaddr*>(&a), sizeof(a));
            } else {
                sockaddr_in a{};
                a.sin_family = AF_INET;
                a.sin_addr.s_addr = htonl(INADDR_ANY);
                a.sin_port = htons(static_cast<std::uint16_t>(port));
                rc = ::bind(lfd.get(), reinterpret_cast<sockaddr*>(&a), sizeof(a));
            }
            if (rc == 0)
                break;
            if (const int e = errno; e != EADDRINUSE || i + 1 >= bind_attempts || port >= 65535)
                throw untestable("cannot listen on port " + std::to_string(port) + ": " +
                                 errno_text(e));
        }
        if (::listen(lfd.get(), 16) != 0) {
            const int e = errno;
            throw untestable("listen: " + errno_text(e));
        }
        (opt.json ? err : out) << "smc_chk: listening on port " << port << " (AF_SMC, "
                               << (s.ipv6 ? "IPv6" : "IPv4") << "); test with 'smc_chk -C "
                               << "ADDRESS -p " << port << "' from another host\n";
        (opt.json ? err : out).flush();

        struct conn {
            unique_fd fd;
            std::chrono::steady_clock::time_point last;
        };
        std::vector<conn> conns;
        unsigned done = 0, smc = 0;
        char buf[4096];
        while (!s.count || done < *s.count) {
            std::vector<pollfd> p{{lfd.get(), POLLIN, 0}};
            for (const auto& c : conns)
                p.push_back({c.fd.get(), POLLIN, 0});
            if (::poll(p.data(), p.size(), 1000) < 0) {
                if (errno == EINTR)
                    continue;
                throw untestable("poll: " + errno_text(errno));
            }
            const auto now = std::chrono::steady_clock::now();
            // Connections first (indexes shift once new ones are appended).
            for (std::size_t i = conns.size(); i-- > 0;) {
                bool close_it = now - conns[i].last > std::chrono::seconds(idle_seconds);
                if (p[i + 1].revents) {
                    const ssize_t n = ::read(conns[i].fd.get(), buf, sizeof(buf));
                    if (n > 0)
                        conns[i].last = now;
                    else if (n == 0 || (errno != EAGAIN && errno != EINTR))
                        close_it = true;
                }
                if (close_it) {
                    conns.erase(conns.begin() + static_cast<std::ptrdiff_t>(i));
                    ++done;
                }
            }
            if (p[0].revents & POLLIN) {
                unique_fd cfd(::accept4(lfd.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
                if (!cfd) {
                    const int e = errno;
                    err << "smc_chk: accept: " << errno_text(e) << '\n';
                    continue;
                }
                try {
                    const Report r = report_of(cfd.get(), Report::Role::server);
                    smc += r.smc() ? 1 : 0;
                    print(out, opt.json ? to_json(r) : to_text(r, opt.details));
                } catch (const untestable& e) {
                    err << "smc_chk: " << e.what() << '\n';
                }
                conns.push_back({std::move(cfd), now});
            }
        }
        return smc == done ? exit_smc : exit_fallback;
    } catch (const untestable& e) {
        err << "smc_chk: " << e.what() << '\n';
        return exit_untestable;
    }
}

int pnetid(const cmd::ChkPnetid& p, const Options& opt, std::ostream& out, std::ostream& err) {
    if (if_nametoindex(p.interface.c_str()) == 0) {
        err << "smc_chk: no interface " << p.interface << '\n';
        return exit_untestable;
    }
    PnetidReport r;
    r.interface = p.interface;
    try {
        Client cl;
        for (const auto& e : cl.pnet_show(std::nullopt).entries)
            if (e.eth == p.interface) {
                r.pnetid = e.pnetid;
                r.source = "pnet table";
                break;
            }
        if (r.pnetid.empty()) {
            // A PNET ID the hardware (or the user, on the device port) gave the port.
            for (const auto& d : cl.smcr_devices().devices)
                for (const auto& port : d.ports)
                    if (r.pnetid.empty() && port.netdev == p.interface && !port.pnetid.empty()) {
                        r.pnetid = port.pnetid;
                        r.source = "device";
                    }
        }
    } catch (const nl::family_not_found& e) {
        err << "smc_chk: SMC module not loaded (generic netlink family " << e.family()
            << " not found)\n";
        return exit_untestable;
    } catch (const nl::error& e) {
        err << "smc_chk: " << e.what() << '\n';
        return exit_untestable;
    }
    print(out, opt.json ? to_json(r) : to_text(r));
    return r.pnetid.empty() ? exit_fallback : exit_smc;
}

} // namespace smcctl::chk

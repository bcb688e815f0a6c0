// SPDX-License-Identifier: GPL-2.0
// Formatting of AF_SMC sockets (smcss): selection, aligned text columns and JSON.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include <smcx/state.h>

#include "format.hpp"
#include "json.hpp"
#include "names.hpp"

namespace smcctl {

namespace {

// Socket states: Linux's enum smc_state numbers, which smcx reports too (smcx/state.h).
constexpr std::uint8_t st_active = SMCX_ACTIVE;
constexpr std::uint8_t st_init = SMCX_INIT;
constexpr std::uint8_t st_listen = SMCX_LISTEN;

// smc-tools' width of an "address:port" cell before it is truncated.
constexpr std::size_t endpoint_short = 23;

std::string hex(std::uint64_t v, int digits) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

std::string cursor_text(const Cursor& c) {
    return std::to_string(c.wrap) + ":" + std::to_string(c.count);
}

std::string flags_text(std::uint8_t a, std::uint8_t b) {
    return hex(a, 2) + ":" + hex(b, 2);
}

// "<->", "R->", "<-W", "R-W": receive side shut down, send side shut down.
std::string shutdown_text(std::uint8_t mask) {
    std::string s = "<->";
    if (mask & 1)
        s[0] = 'R';
    if (mask & 2)
        s[2] = 'W';
    return s;
}

std::string mode_name(std::uint8_t mode) {
    switch (static_cast<SocketMode>(mode)) {
    case SocketMode::smcr:
        return "SMCR";
    case SocketMode::smcd:
        return "SMCD";
    case SocketMode::tcp:
        return "TCP";
    }
    return "0x" + hex(mode, 2) + "?";
}

void json_cursor(JsonWriter& j, std::string_view key, const Cursor& c) {
    j.key(key).begin_object();
    j.field("wrap", static_cast<unsigned>(c.wrap))
        .field("count", static_cast<std::uint64_t>(c.count));
    j.end_object();
}

} // namespace

void json_endpoint(JsonWriter& j, std::string_view key, const std::string& addr,
                   std::uint16_t port) {
    j.key(key).begin_object();
    j.field("address", addr).field("port", static_cast<unsigned>(port));
    j.end_object();
}

void json_decline(JsonWriter& j, std::string_view key, std::uint32_t code) {
    j.key(key);
    if (code == 0) {
        j.null();
        return;
    }
    j.begin_object();
    j.field("code", static_cast<std::uint64_t>(code));
    j.field("hex", hex_code(code));
    j.key("name");
    if (auto n = decline_name(code); !n.empty())
        j.value(n);
    else
        j.null();
    j.key("text");
    if (auto t = decline_text(code); !t.empty())
        j.value(t);
    else
        j.null();
    j.end_object();
}

void json_fallback(JsonWriter& j, std::string_view key, const std::optional<FallbackInfo>& f) {
    j.key(key);
    if (!f) {
        j.null();
        return;
    }
    j.begin_object();
    json_decline(j, "reason", f->reason);
    json_decline(j, "peer_diagnosis", f->peer_diagnosis);
    j.end_object();
}

void json_link(JsonWriter& j, std::string_view key, const std::optional<LinkInfo>& l) {
    j.key(key);
    if (!l) {
        j.null();
        return;
    }
    j.begin_object();
    j.field("role", l->role ? "SERV" : "CLNT");
    j.field("ib_device", l->ibdev);
    j.field("ib_port", static_cast<unsigned>(l->ibport));
    j.field("link_id", static_cast<unsigned>(l->link_id));
    j.field("gid", l->gid);
    j.field("peer_gid", l->peer_gid);
    j.end_object();
}

std::string smc_state_name(std::uint8_t state) {
    switch (state) {
    case st_active:
        return "ACTIVE";
    case st_init:
        return "INIT";
    case SMCX_CLOSED:
        return "CLOSED";
    case st_listen:
        return "LISTEN";
    case SMCX_PEERCLOSEWAIT1:
        return "PEERCLW1";
    case SMCX_PEERCLOSEWAIT2:
        return "PEERCLW2";
    case SMCX_APPCLOSEWAIT1:
        return "APPLCLW1";
    case SMCX_APPCLOSEWAIT2:
        return "APPLCLW2";
    case SMCX_APPFINCLOSEWAIT:
        return "APPLFINCLW";
    case SMCX_PEERFINCLOSEWAIT:
        return "PEERFINCLW";
    case SMCX_PEERABORTWAIT:
        return "PEERABORTW";
    case SMCX_PROCESSABORT:
        return "PROCESSABORT";
    }
    return "0x" + hex(state, 2) + "?";
}

std::string mode_text(const SmcSocket& s) {
    std::string m = mode_name(s.mode);
    if (s.mode != static_cast<std::uint8_t>(SocketMode::tcp) || !s.fallback ||
        s.fallback->reason == 0)
        return m;
    m += " " + hex_code(s.fallback->reason);
    if (s.fallback->peer_diagnosis != 0)
        m += "/" + hex_code(s.fallback->peer_diagnosis);
    return m;
}

std::string fallback_names(const SmcSocket& s) {
    if (s.mode != static_cast<std::uint8_t>(SocketMode::tcp) || !s.fallback ||
        s.fallback->reason == 0)
        return {};
    auto name = [](std::uint32_t code) {
        const auto n = decline_name(code);
        return n.empty() ? std::string("?") : std::string(n);
    };
    std::string r = name(s.fallback->reason);
    if (s.fallback->peer_diagnosis != 0)
        r += "/" + name(s.fallback->peer_diagnosis);
    return r;
}

std::string endpoint_text(const std::string& addr, std::uint16_t port, bool wide) {
    // As smc-tools prints it: the address as inet_ntop() gives it, IPv6
    // ones too (no brackets: "::ffff:198.18.0.2:5000"), then ":port".
    const std::string p = std::to_string(port);
    std::string full = addr + ":" + p;
    if (wide || full.size() <= endpoint_short)
        return full;
    // Keep the port; cut the address and mark the cut with "..".
    const std::size_t frame = p.size() + 1 + 2;
    const std::size_t keep = endpoint_short > frame ? endpoint_short - frame : 0;
    return addr.substr(0, keep) + "..:" + p;
}

SocketTable select_sockets(const SocketTable& t, const SsView& v) {
    SocketTable r;
    for (const auto& s : t.sockets) {
        switch (v.which) {
        case SsView::Which::listening:
            if (s.state != st_listen)
                continue;
            break;
        case SsView::Which::connected:
            if (s.state == st_listen || s.state == st_init)
                continue;
            break;
        case SsView::Which::all:
            break;
        }
        if (v.smcr && s.mode != static_cast<std::uint8_t>(SocketMode::smcr))
            continue;
        if (v.smcd && s.mode != static_cast<std::uint8_t>(SocketMode::smcd))
            continue;
        r.sockets.push_back(s);
    }
    return r;
}

std::string to_text(const SocketTable& t, const SsView& v) {
    using A = TextTable::Align;
    TextTable tab;
    tab.column("State").column("UID", A::right).column("Inode", A::right);
    tab.column("Local Address").column("Peer Address").column("Intf").column("Mode");
    if (v.debug) {
        tab.column("ShutD").column("Token").column("Sndbuf", A::right).column("Rcvbuf", A::right);
        tab.column("Peerbuf", A::right).column("rxprod-Cursor", A::right);
        tab.column("rxcons-Cursor", A::right).column("rxFlags");
        tab.column("txprod-Cursor", A::right).column("txcons-Cursor", A::right);
        tab.column("txFlags").column("txprep-Cursor", A::right);
        tab.column("txsent-Cursor", A::right).column("txfin-Cursor", A::right);
    }
    if (v.smcr) {
        tab.column("Role").column("IB-Device").column("Port", A::right);
        tab.column("Linkid", A::right).column("GID").column("Peer-GID");
    }
    if (v.smcd) {
        tab.column("GID").column("Token").column("Peer-GID").column("Peer-Token");
        tab.column("Linkid");
    }

    for (const auto& s : t.sockets) {
        std::vector<std::string> row{smc_state_name(s.state), std::to_string(s.uid),
                                     std::to_string(s.inode)};
        // An initializing socket has no addresses yet; a listener has no peer.
        if (s.state != st_init) {
            row.push_back(endpoint_text(s.local_addr, s.local_port, v.wide));
            if (s.state == st_listen) {
                row.insert(row.end(), {"", s.ifname.empty() ? "-" : s.ifname, ""});
            } else {
                row.push_back(endpoint_text(s.peer_addr, s.peer_port, v.wide));
                row.push_back(s.ifname.empty() ? "-" : s.ifname);
                std::string mode = mode_text(s);
                if (const auto names = fallback_names(s); !names.empty())
                    mode += " (" + names + ")";
                row.push_back(mode);
            }
        }
        const bool connected = s.state != st_init && s.state != st_listen;
        if (v.debug) {
            if (connected) {
                row.resize(7);
                row.push_back(shutdown_text(s.shutdown));
                if (s.conn) {
                    const ConnInfo& c = *s.conn;
                    row.insert(
                        row.end(),
                        {hex(c.token, 8), std::to_string(c.sndbuf_size),
                         std::to_string(c.rmbe_size), std::to_string(c.peer_rmbe_size),
                         cursor_text(c.rx_prod), cursor_text(c.rx_cons),
                         flags_text(c.rx_prod_flags, c.rx_conn_state_flags), cursor_text(c.tx_prod),
                         cursor_text(c.tx_cons), flags_text(c.tx_prod_flags, c.tx_conn_state_flags),
                         cursor_text(c.tx_prep), cursor_text(c.tx_sent), cursor_text(c.tx_fin)});
                }
            }
        }
        const std::size_t extra_at = 7 + (v.debug ? 14 : 0);
        if (v.smcr && s.link) {
            row.resize(extra_at);
            const LinkInfo& l = *s.link;
            row.insert(row.end(), {l.role ? "SERV" : "CLNT", l.ibdev, std::to_string(l.ibport),
                                   std::to_string(l.link_id), l.gid, l.peer_gid});
        }
        if (v.smcd && s.dmb) {
            row.resize(extra_at);
            const DmbInfo& d = *s.dmb;
            row.insert(row.end(), {hex(d.my_gid, 16), hex(d.token, 16), hex(d.peer_gid, 16),
                                   hex(d.peer_token, 16), hex(d.linkid, 8)});
        }
        tab.row(std::move(row));
    }
    return tab.str();
}

std::string to_json(const SocketTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("sockets").begin_array();
    for (const auto& s : t.sockets) {
        j.begin_object();
        j.field("state", smc_state_name(s.state));
        j.field("state_code", static_cast<unsigned>(s.state));
        j.field("uid", static_cast<std::uint64_t>(s.uid));
        j.field("inode", s.inode);
        j.field("cookie", s.cookie);
        j.field("family", s.ip_version == 6 ? "inet6" : "inet");
        json_endpoint(j, "local", s.local_addr, s.local_port);
        json_endpoint(j, "peer", s.peer_addr, s.peer_port);
        j.key("interface");
        if (s.ifindex)
            j.value(s.ifname);
        else
            j.null();
        j.field("ifindex", static_cast<std::uint64_t>(s.ifindex));
        j.field("mode", mode_name(s.mode));
        j.field("mode_code", static_cast<unsigned>(s.mode));
        j.key("shutdown").begin_object();
        j.field("code", static_cast<unsigned>(s.shutdown));
        j.field("text", shutdown_text(s.shutdown));
        j.end_object();

        json_fallback(j, "fallback", s.fallback);

        j.key("conninfo");
        if (s.conn) {
            const ConnInfo& c = *s.conn;
            j.begin_object();
            j.field("token", static_cast<std::uint64_t>(c.token));
            j.field("sndbuf_size", static_cast<std::uint64_t>(c.sndbuf_size));
            j.field("rmbe_size", static_cast<std::uint64_t>(c.rmbe_size));
            j.field("peer_rmbe_size", static_cast<std::uint64_t>(c.peer_rmbe_size));
            json_cursor(j, "rx_prod", c.rx_prod);
            json_cursor(j, "rx_cons", c.rx_cons);
            j.field("rx_prod_flags", static_cast<unsigned>(c.rx_prod_flags));
            j.field("rx_conn_state_flags", static_cast<unsigned>(c.rx_conn_state_flags));
            json_cursor(j, "tx_prod", c.tx_prod);
            json_cursor(j, "tx_cons", c.tx_cons);
            j.field("tx_prod_flags", static_cast<unsigned>(c.tx_prod_flags));
            j.field("tx_conn_state_flags", static_cast<unsigned>(c.tx_conn_state_flags));
            json_cursor(j, "tx_prep", c.tx_prep);
            json_cursor(j, "tx_sent", c.tx_sent);
            json_cursor(j, "tx_fin", c.tx_fin);
            j.end_object();
        } else {
            j.null();
        }

        json_link(j, "link", s.link);

        j.key("dmb");
        if (s.dmb) {
            const DmbInfo& d = *s.dmb;
            j.begin_object();
            j.field("linkid", static_cast<std::uint64_t>(d.linkid));
            j.field("gid", hex(d.my_gid, 16));
            j.field("gid_ext", hex(d.my_gid_ext, 16));
            j.field("token", hex(d.token, 16));
            j.field("peer_gid", hex(d.peer_gid, 16));
            j.field("peer_gid_ext", hex(d.peer_gid_ext, 16));
            j.field("peer_token", hex(d.peer_token, 16));
            j.end_object();
        } else {
            j.null();
        }
        j.end_object();
    }
    j.end_array().end_object().finish();
    return o.str();
}

} // namespace smcctl

// SPDX-License-Identifier: GPL-2.0
// Formatting of SMC-R link groups, links and RDMA devices (smcr linkgroup / device).
#include <cstdio>
#include <cstring>
#include <sstream>

#include "format.hpp"
#include "json.hpp"

namespace smcctl {

namespace {

std::string hex(std::uint64_t v, int digits) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

std::string role_name(std::uint8_t role) {
    return role ? "SERV" : "CLNT";
}

std::string lgr_type_name(std::uint8_t type) {
    switch (type) {
    case 0:
        return "NONE";
    case 1:
        return "SINGLE";
    case 2:
        return "SYM";
    case 3:
        return "ASYMP";
    case 4:
        return "ASYML";
    }
    return "0x" + hex(type, 2) + "?";
}

std::string link_state_name(std::uint32_t state) {
    switch (state) {
    case 0:
        return "LINK_UNUSED";
    case 1:
        return "LINK_INACTIVE";
    case 2:
        return "LINK_ACTIVATING";
    case 3:
        return "LINK_ACTIVE";
    }
    return "0x" + hex(state, 2) + "?";
}

std::string os_name(std::uint8_t os) {
    switch (os) {
    case 1:
        return "z/OS";
    case 2:
        return "Linux";
    case 3:
        return "AIX";
    }
    return "unknown";
}

std::string buf_type_name(std::uint8_t t) {
    switch (t) {
    case 0:
        return "physical";
    case 1:
        return "virtual";
    case 2:
        return "mixed";
    }
    return "unknown";
}

// Link user ids are 4 raw bytes; shown in the order they are on the wire.
std::string uid_hex(std::uint32_t raw) {
    unsigned char b[4];
    static_assert(sizeof(b) == sizeof(raw));
    std::memcpy(b, &raw, sizeof(b));
    char buf[12];
    std::snprintf(buf, sizeof(buf), "%02x%02x%02x%02x", b[0], b[1], b[2], b[3]);
    return buf;
}

// RDMA adapter type from the PCI device id, as smc-tools names them.
// The emulated ISM device loopback-ism (CHID 0xFFFF, reserved for it) has no PCI function:
// vendor and device 0 and no slot name.
bool is_loopback_ism(const Device& d) {
    return d.pci && d.pci->chid == 0xffff && d.pci->vendor == 0 && d.pci->device == 0 &&
           d.pci->id.empty();
}

std::string device_type(const Device& d) {
    if (!d.pci)
        return "-";
    if (is_loopback_ism(d))
        return "loopback-ism";
    switch (d.pci->device) {
    case 0x1004:
        return "RoCE_Express";
    case 0x1016:
        return "RoCE_Express2";
    case 0x04ed:
        return "ISM";
    }
    return "0x" + hex(d.pci->device, 4);
}

bool link_matches(const Link& l, const LgrView& v) {
    if (v.ibdev && l.ibdev != *v.ibdev)
        return false;
    if (v.netdev && l.netdev != *v.netdev)
        return false;
    return true;
}

// SMC-Ver, Peer-OS, Peer-Host, Neg-EID of a link group ("1 - - -" for SMC v1).
void add_v2_cells(std::vector<std::string>& row, const std::optional<LgrV2>& v2) {
    if (!v2 || !v2->version) {
        row.insert(row.end(), {"1", "-", "-", "-"});
        return;
    }
    row.push_back(std::to_string(*v2->version) + "." + std::to_string(v2->release.value_or(0)));
    row.push_back(v2->peer_os ? os_name(*v2->peer_os) : "-");
    row.push_back(v2->peer_host.empty() ? "-" : v2->peer_host);
    row.push_back(v2->negotiated_eid.empty() ? "-" : v2->negotiated_eid);
}

template <typename T>
void json_opt(JsonWriter& j, std::string_view key, const std::optional<T>& v) {
    j.key(key);
    if (v)
        j.value(static_cast<std::uint64_t>(*v));
    else
        j.null();
}

// A 64-bit ISM GID, followed by its extended half when the kernel sent a non-zero one.
std::string smcd_gid(std::uint64_t gid, const std::optional<std::uint64_t>& ext) {
    std::string s = hex(gid, 16);
    if (ext && *ext)
        s += hex(*ext, 16);
    return s;
}

// The SMCv2 results of a link group under "v2" (null for SMC v1); SMC-R adds its own.
void json_v2(JsonWriter& j, const std::optional<LgrV2>& v2, bool smcr) {
    j.key("v2");
    if (!v2) {
        j.null();
        return;
    }
    j.begin_object();
    json_opt(j, "version", v2->version);
    json_opt(j, "release", v2->release);
    json_opt(j, "peer_os_code", v2->peer_os);
    j.key("peer_os");
    v2->peer_os ? j.value(os_name(*v2->peer_os)) : j.null();
    j.key("peer_host");
    v2->peer_host.empty() ? j.null() : j.value(v2->peer_host);
    j.key("negotiated_eid");
    v2->negotiated_eid.empty() ? j.null() : j.value(v2->negotiated_eid);
    if (smcr) {
        j.key("direct");
        v2->direct ? j.value(*v2->direct) : j.null();
        json_opt(j, "max_conns", v2->max_conns);
        json_opt(j, "max_links", v2->max_links);
    }
    j.end_object();
}

} // namespace

// ---- link groups ----------------------------------------------------------------------------

LinkGroupTable select_linkgroups(const LinkGroupTable& t, const LgrView& v) {
    LinkGroupTable r;
    r.with_links = t.with_links;
    const bool by_device = v.ibdev || v.netdev;
    for (const auto& g : t.groups) {
        if (v.lgid && g.id != *v.lgid)
            continue;
        LinkGroup kept = g;
        if (by_device) {
            kept.links.clear();
            for (const auto& l : g.links)
                if (link_matches(l, v))
                    kept.links.push_back(l);
            if (kept.links.empty())
                continue;
            // "show" lists the group; its links stay complete.
            if (!v.links)
                kept.links = g.links;
        }
        r.groups.push_back(std::move(kept));
    }
    return r;
}

std::string to_text(const LinkGroupTable& t, const LgrView& v) {
    using A = TextTable::Align;
    TextTable tab;
    tab.column("LG-ID").column("LG-Role").column("LG-Type");
    if (v.links) {
        tab.column("Net-Dev").column("Link-State").column("#Conns", A::right);
        if (v.detail >= 1)
            tab.column("Link-UID").column("Peer-UID").column("IB-Dev").column("IB-P", A::right);
        if (v.detail >= 2)
            tab.column("Local-GID").column("Peer-GID");
        for (const auto& g : t.groups) {
            for (const auto& l : g.links) {
                std::vector<std::string> row{hex(g.id, 8),
                                             role_name(g.role),
                                             lgr_type_name(g.type),
                                             l.netdev.empty() ? "-" : l.netdev,
                                             link_state_name(l.state),
                                             std::to_string(l.conns)};
                if (v.detail >= 1)
                    row.insert(row.end(), {uid_hex(l.uid), uid_hex(l.peer_uid), l.ibdev,
                                           std::to_string(l.ibport)});
                if (v.detail >= 2)
                    row.insert(row.end(), {l.gid, l.peer_gid});
                tab.row(std::move(row));
            }
        }
        return tab.str();
    }
    // smc-tools' columns, then #Links (not in smc-tools; after PNET-ID so that their positions
    // stay), then the -d columns.
    tab.column("VLAN", A::right).column("#Conns", A::right).column("PNET-ID");
    tab.column("#Links", A::right);
    if (v.detail >= 1)
        tab.column("SMC-Ver").column("Peer-OS").column("Peer-Host").column("Neg-EID");
    for (const auto& g : t.groups) {
        std::vector<std::string> row{
            hex(g.id, 8),           role_name(g.role),       lgr_type_name(g.type),
            std::to_string(g.vlan), std::to_string(g.conns), g.pnetid.empty() ? "-" : g.pnetid};
        row.push_back(t.with_links ? std::to_string(g.links.size()) : "-");
        if (v.detail >= 1)
            add_v2_cells(row, g.v2);
        tab.row(std::move(row));
    }
    return tab.str();
}

std::string to_json(const LinkGroupTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("linkgroups").begin_array();
    for (const auto& g : t.groups) {
        j.begin_object();
        j.field("id", static_cast<std::uint64_t>(g.id));
        j.field("id_hex", hex(g.id, 8));
        j.field("role", role_name(g.role));
        j.field("type", lgr_type_name(g.type));
        j.field("type_code", static_cast<unsigned>(g.type));
        j.field("vlan", static_cast<unsigned>(g.vlan));
        j.field("conns", static_cast<std::uint64_t>(g.conns));
        j.key("pnetid");
        g.pnetid.empty() ? j.null() : j.value(g.pnetid);
        json_opt(j, "net_cookie", g.net_cookie);
        j.key("buf_type");
        g.buf_type ? j.value(buf_type_name(*g.buf_type)) : j.null();
        json_opt(j, "sndbuf_alloc", g.sndbuf_alloc);
        json_opt(j, "rmb_alloc", g.rmb_alloc);
        json_v2(j, g.v2, true);
        j.key("links");
        if (t.with_links) {
            j.begin_array();
            for (const auto& l : g.links) {
                j.begin_object();
                j.field("id", static_cast<unsigned>(l.id));
                j.field("ib_device", l.ibdev);
                j.field("ib_port", static_cast<unsigned>(l.ibport));
                j.field("gid", l.gid);
                j.field("peer_gid", l.peer_gid);
                j.field("conns", static_cast<std::uint64_t>(l.conns));
                j.key("netdev");
                l.netdev.empty() ? j.null() : j.value(l.netdev);
                j.field("netdev_ifindex", static_cast<std::uint64_t>(l.netdev_ifindex));
                j.field("uid", uid_hex(l.uid));
                j.field("peer_uid", uid_hex(l.peer_uid));
                j.field("state", link_state_name(l.state));
                j.field("state_code", static_cast<std::uint64_t>(l.state));
                j.end_object();
            }
            j.end_array();
        } else {
            j.null();
        }
        j.end_object();
    }
    j.end_array().end_object().finish();
    return o.str();
}

// ---- devices --------------------------------------------------------------------------------

DeviceTable select_devices(const DeviceTable& t, const DevView& v) {
    DeviceTable r;
    for (const auto& d : t.devices) {
        if (v.ibdev && d.ibdev != *v.ibdev)
            continue;
        Device kept = d;
        if (v.netdev) {
            kept.ports.clear();
            for (const auto& p : d.ports)
                if (p.netdev == *v.netdev)
                    kept.ports.push_back(p);
            if (kept.ports.empty())
                continue;
        }
        r.devices.push_back(std::move(kept));
    }
    return r;
}

std::string to_text(const DeviceTable& t, const DevView& v) {
    using A = TextTable::Align;
    TextTable tab;
    tab.column("Net-Dev").column("IB-Dev").column("IB-P", A::right).column("IB-State");
    tab.column("Type").column("Crit");
    if (v.detail >= 1)
        tab.column("FID").column("PCI-ID").column("PCHID");
    tab.column("#Links", A::right).column("PNET-ID");
    for (const auto& d : t.devices) {
        for (const auto& p : d.ports) {
            if (!p.valid)
                continue;
            std::vector<std::string> row{
                p.netdev.empty() ? "-" : p.netdev, d.ibdev,        std::to_string(p.number),
                p.active ? "ACTIVE" : "INACTIVE",  device_type(d), d.critical ? "Yes" : "No"};
            if (v.detail >= 1) {
                if (d.pci)
                    row.insert(row.end(), {hex(d.pci->fid, 4), d.pci->id.empty() ? "-" : d.pci->id,
                                           hex(d.pci->chid, 4)});
                else
                    row.insert(row.end(), {"-", "-", "-"});
            }
            row.push_back(std::to_string(p.links));
            row.push_back(p.pnetid.empty() ? "-" : (p.pnetid_by_user ? "*" : "") + p.pnetid);
            tab.row(std::move(row));
        }
    }
    return tab.str();
}

std::string to_json(const DeviceTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("devices").begin_array();
    for (const auto& d : t.devices) {
        j.begin_object();
        j.field("ib_device", d.ibdev);
        j.field("type", device_type(d));
        j.field("critical", d.critical);
        json_opt(j, "use_cnt", d.use_cnt);
        j.key("pci");
        if (d.pci) {
            j.begin_object();
            j.field("fid", static_cast<std::uint64_t>(d.pci->fid));
            j.field("chid", static_cast<unsigned>(d.pci->chid));
            j.field("vendor", "0x" + hex(d.pci->vendor, 4));
            j.field("device", "0x" + hex(d.pci->device, 4));
            j.field("id", d.pci->id);
            j.end_object();
        } else {
            j.null();
        }
        j.key("ports").begin_array();
        for (const auto& p : d.ports) {
            j.begin_object();
            j.field("port", static_cast<unsigned>(p.number));
            j.key("pnetid");
            p.pnetid.empty() ? j.null() : j.value(p.pnetid);
            j.field("pnetid_by_user", p.pnetid_by_user);
            j.key("netdev");
            p.netdev.empty() ? j.null() : j.value(p.netdev);
            j.field("netdev_ifindex", static_cast<std::uint64_t>(p.netdev_ifindex));
            j.field("active", p.active);
            j.field("valid", p.valid);
            j.field("links", static_cast<std::uint64_t>(p.links));
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array().end_object().finish();
    return o.str();
}

// ---- SMC-D link groups and devices (smcd) ---------------------------------------------------

std::string no_smcd_device_text() {
    return "No SMC-D device: the kernel reports no ISM device, so SMC-D is not available.\n";
}

SmcdLinkGroupTable select_smcd_linkgroups(const SmcdLinkGroupTable& t, const SmcdLgrView& v) {
    SmcdLinkGroupTable r;
    for (const auto& g : t.groups)
        if (!v.lgid || g.id == *v.lgid)
            r.groups.push_back(g);
    return r;
}

std::string to_text(const SmcdLinkGroupTable& t, const SmcdLgrView& v) {
    if (t.groups.empty() && v.devices && *v.devices == 0)
        return no_smcd_device_text();
    using A = TextTable::Align;
    TextTable tab;
    tab.column("LG-ID").column("VLAN", A::right).column("#Conns", A::right).column("PNET-ID");
    if (v.detail >= 1) {
        tab.column("GID").column("Peer-GID").column("CHID");
        tab.column("SMC-Ver").column("Peer-OS").column("Peer-Host").column("Neg-EID");
    }
    for (const auto& g : t.groups) {
        std::vector<std::string> row{hex(g.id, 8), std::to_string(g.vlan), std::to_string(g.conns),
                                     g.pnetid.empty() ? "-" : g.pnetid};
        if (v.detail >= 1) {
            row.insert(row.end(), {smcd_gid(g.gid, g.gid_ext), smcd_gid(g.peer_gid, g.peer_gid_ext),
                                   g.chid ? hex(*g.chid, 4) : "-"});
            add_v2_cells(row, g.v2);
        }
        tab.row(std::move(row));
    }
    return tab.str();
}

std::string to_json(const SmcdLinkGroupTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("linkgroups").begin_array();
    for (const auto& g : t.groups) {
        j.begin_object();
        j.field("id", static_cast<std::uint64_t>(g.id));
        j.field("id_hex", hex(g.id, 8));
        j.field("vlan", static_cast<unsigned>(g.vlan));
        j.field("conns", static_cast<std::uint64_t>(g.conns));
        j.key("pnetid");
        g.pnetid.empty() ? j.null() : j.value(g.pnetid);
        j.field("gid", hex(g.gid, 16));
        j.field("peer_gid", hex(g.peer_gid, 16));
        j.key("gid_ext");
        g.gid_ext ? j.value(hex(*g.gid_ext, 16)) : j.null();
        j.key("peer_gid_ext");
        g.peer_gid_ext ? j.value(hex(*g.peer_gid_ext, 16)) : j.null();
        json_opt(j, "chid", g.chid);
        json_opt(j, "sndbuf_alloc", g.sndbuf_alloc);
        json_opt(j, "dmb_alloc", g.dmb_alloc);
        json_v2(j, g.v2, false);
        j.end_object();
    }
    j.end_array().end_object().finish();
    return o.str();
}

std::string to_text(const SmcdDeviceTable& t) {
    if (t.devices.empty())
        return no_smcd_device_text();
    using A = TextTable::Align;
    TextTable tab;
    tab.column("FID").column("Type").column("PCI-ID").column("PCHID").column("InUse");
    tab.column("#LGs", A::right).column("PNET-ID");
    for (const auto& d : t.devices) {
        std::string pnetid = "-";
        if (!d.ports.empty() && !d.ports.front().pnetid.empty())
            pnetid = (d.ports.front().pnetid_by_user ? "*" : "") + d.ports.front().pnetid;
        // loopback-ism has no PCI function, hence no FID
        tab.row({d.pci && !is_loopback_ism(d) ? hex(d.pci->fid, 4) : "-", device_type(d),
                 d.pci && !d.pci->id.empty() ? d.pci->id : "-", d.pci ? hex(d.pci->chid, 4) : "-",
                 d.critical ? "Yes" : "No", d.use_cnt ? std::to_string(*d.use_cnt) : "-", pnetid});
    }
    return tab.str();
}

std::string to_json(const SmcdDeviceTable& t) {
    return to_json(DeviceTable{t.devices});
}

std::string to_text(const SeidInfo& s) {
    if (s.seid.empty())
        return "No system EID: the kernel reports none (only ISMv2 devices, on s390, have one).\n";
    std::string state;
    if (s.enabled)
        state = *s.enabled ? " (enabled)" : " (disabled)";
    return s.seid + state + "\n";
}

std::string to_json(const SeidInfo& s) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    j.key("seid");
    s.seid.empty() ? j.null() : j.value(s.seid);
    j.key("enabled");
    s.enabled ? j.value(*s.enabled) : j.null();
    j.end_object().finish();
    return o.str();
}

} // namespace smcctl

// SPDX-License-Identifier: GPL-2.0
#include "rnics.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "client.hpp"
#include "format.hpp"
#include "json.hpp"
#include "names.hpp"

namespace smcctl::rnics {

namespace fs = std::filesystem;

namespace {

// The first line of a sysfs file, "" when it cannot be read.
std::string read_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    if (!in || !std::getline(in, line))
        return {};
    return trim_blanks(line);
}

// "4: ACTIVE" -> "ACTIVE" (sysfs's numbered enum values).
std::string enum_name(const std::string& s) {
    const auto colon = s.find(':');
    return colon == std::string::npos ? s : trim_blanks(std::string_view(s).substr(colon + 1));
}

// "0x15b3" -> 0x15b3; 0 when it is no hex number.
std::uint16_t hex_id(const std::string& s) {
    unsigned v = 0;
    if (std::sscanf(s.c_str(), "%x", &v) != 1 || v > 0xffff)
        return 0;
    return static_cast<std::uint16_t>(v);
}

std::string hex4(std::uint16_t v) {
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%04x", v);
    return buf;
}

struct pci_name {
    std::uint16_t vendor;
    std::uint16_t device;
    std::string_view name;
};

// RDMA adapters SMC documentation names (the s390 RoCE Express generations).
constexpr std::array<pci_name, 2> pci_names{{
    {0x15b3, 0x1004, "RoCE_Express"},
    {0x15b3, 0x1016, "RoCE_Express2"},
}};

RnicPort read_port(const fs::path& dir, std::uint8_t number) {
    RnicPort p;
    p.number = number;
    p.link_layer = read_line(dir / "link_layer");
    p.state = enum_name(read_line(dir / "state"));
    p.phys_state = enum_name(read_line(dir / "phys_state"));
    // The netdev of GID 0 (RoCE); reading it fails when the GID is not set.
    p.netdev = read_line(dir / "gid_attrs" / "ndevs" / "0");
    return p;
}

Rnic read_device(const fs::path& dir) {
    Rnic d;
    d.name = dir.filename().string();
    d.node_type = enum_name(read_line(dir / "node_type"));
    d.parent = read_line(dir / "parent");
    std::error_code ec;
    const fs::path dev = dir / "device";
    if (fs::exists(dev / "vendor", ec)) {
        PciInfo pci;
        pci.id = fs::canonical(dev, ec).filename().string();
        pci.vendor = hex_id(read_line(dev / "vendor"));
        pci.device = hex_id(read_line(dev / "device"));
        d.pci = std::move(pci);
        d.driver = fs::read_symlink(dev / "driver", ec).filename().string();
    }
    std::vector<std::pair<unsigned, fs::path>> ports;
    for (const auto& e : fs::directory_iterator(dir / "ports", ec)) {
        unsigned n = 0;
        const std::string name = e.path().filename().string();
        if (std::sscanf(name.c_str(), "%u", &n) == 1 && n > 0 && n < 256 &&
            std::to_string(n) == name)
            ports.emplace_back(n, e.path());
    }
    std::sort(ports.begin(), ports.end());
    for (const auto& [n, path] : ports) {
        RnicPort p = read_port(path, static_cast<std::uint8_t>(n));
        if (p.netdev.empty())
            p.netdev = d.parent;
        d.ports.push_back(std::move(p));
    }
    return d;
}

} // namespace

RnicTable read_sysfs(const fs::path& root) {
    RnicTable t;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root, ec))
        t.devices.push_back(read_device(e.path()));
    std::sort(t.devices.begin(), t.devices.end(),
              [](const Rnic& a, const Rnic& b) { return a.name < b.name; });
    return t;
}

void merge_smc(RnicTable& t, const DeviceTable& smc) {
    t.smc_loaded = true;
    for (auto& d : t.devices) {
        const auto sd = std::find_if(smc.devices.begin(), smc.devices.end(),
                                     [&](const Device& x) { return x.ibdev == d.name; });
        if (sd == smc.devices.end())
            continue;
        d.critical = sd->critical;
        for (auto& p : d.ports) {
            const auto sp = std::find_if(sd->ports.begin(), sd->ports.end(),
                                         [&](const DevicePort& x) { return x.number == p.number; });
            if (sp == sd->ports.end())
                continue;
            p.smc = *sp;
            if (!sp->netdev.empty())
                p.netdev = sp->netdev;
        }
    }
}

bool is_roce(const Rnic& d, const RnicPort& p) {
    return p.link_layer == "Ethernet" && d.node_type != "RNIC";
}

RnicTable select(const RnicTable& t, bool all) {
    RnicTable r;
    r.smc_loaded = t.smc_loaded;
    for (const auto& d : t.devices) {
        Rnic kept = d;
        if (!all)
            std::erase_if(kept.ports, [&](const RnicPort& p) { return !is_roce(d, p); });
        if (!kept.ports.empty() || all)
            r.devices.push_back(std::move(kept));
    }
    return r;
}

std::string type_of(const Rnic& d, bool rawids) {
    if (d.pci) {
        if (rawids)
            return hex4(d.pci->vendor) + ":" + hex4(d.pci->device);
        for (const auto& n : pci_names)
            if (n.vendor == d.pci->vendor && n.device == d.pci->device)
                return std::string(n.name);
        if (!d.driver.empty())
            return d.driver;
        return hex4(d.pci->vendor) + ":" + hex4(d.pci->device);
    }
    if (!d.parent.empty())
        return d.node_type == "RNIC" ? "soft-iWARP" : "soft-RoCE";
    return "-";
}

std::string to_text(const RnicTable& t, bool rawids) {
    if (t.devices.empty())
        return "No RDMA device: " + std::string(sysfs_root) +
               " lists none (a soft-RoCE device: rdma link add rxe0 type rxe netdev ETH).\n";
    using A = TextTable::Align;
    TextTable tab;
    tab.column("IB-Dev").column("IB-P", A::right).column("Net-Dev").column("Link");
    tab.column("State").column("Type").column("PCI-ID").column("PNET-ID").column("SMC");
    for (const auto& d : t.devices) {
        for (const auto& p : d.ports) {
            std::string pnetid = "-", smc = "-";
            if (p.smc) {
                if (!p.smc->pnetid.empty())
                    pnetid = (p.smc->pnetid_by_user ? "*" : "") + p.smc->pnetid;
                smc = p.smc->valid ? (p.smc->active ? "yes" : "inactive") : "no";
            } else if (t.smc_loaded) {
                smc = "no";
            }
            tab.row({d.name, std::to_string(p.number), p.netdev.empty() ? "-" : p.netdev,
                     p.phys_state.empty() ? "-" : p.phys_state, p.state.empty() ? "-" : p.state,
                     type_of(d, rawids), d.pci && !d.pci->id.empty() ? d.pci->id : "-", pnetid,
                     smc});
        }
    }
    return tab.str();
}

std::string to_json(const RnicTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    auto text_or_null = [&](std::string_view key, const std::string& v) {
        j.key(key);
        v.empty() ? j.null() : j.value(v);
    };
    j.begin_object();
    j.field("smc_loaded", t.smc_loaded);
    j.key("devices").begin_array();
    for (const auto& d : t.devices) {
        j.begin_object();
        j.field("ib_device", d.name);
        j.field("type", type_of(d, false));
        text_or_null("node_type", d.node_type);
        text_or_null("driver", d.driver);
        text_or_null("parent", d.parent);
        j.key("pci");
        if (d.pci) {
            j.begin_object();
            j.field("id", d.pci->id);
            j.field("vendor", "0x" + hex4(d.pci->vendor));
            j.field("device", "0x" + hex4(d.pci->device));
            j.end_object();
        } else {
            j.null();
        }
        j.key("critical");
        d.critical ? j.value(*d.critical) : j.null();
        j.key("ports").begin_array();
        for (const auto& p : d.ports) {
            j.begin_object();
            j.field("port", static_cast<unsigned>(p.number));
            text_or_null("link_layer", p.link_layer);
            j.field("roce", is_roce(d, p));
            text_or_null("state", p.state);
            text_or_null("phys_state", p.phys_state);
            text_or_null("netdev", p.netdev);
            j.key("smc");
            if (p.smc) {
                j.begin_object();
                j.key("pnetid");
                p.smc->pnetid.empty() ? j.null() : j.value(p.smc->pnetid);
                j.field("pnetid_by_user", p.smc->pnetid_by_user);
                j.field("valid", p.smc->valid);
                j.field("active", p.smc->active);
                j.field("links", static_cast<std::uint64_t>(p.smc->links));
                j.end_object();
            } else {
                j.null();
            }
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array().end_object().finish();
    return o.str();
}

RnicTable fetch(std::ostream& err) {
    RnicTable t = read_sysfs(sysfs_root);
    try {
        merge_smc(t, Client().smcr_devices());
    } catch (const nl::family_not_found&) {
        err << "smc_rnics: note: SMC module not loaded; PNET IDs and SMC use are unknown\n";
    } catch (const nl::error& e) {
        err << "smc_rnics: note: SMC device list not available (" << e.what() << ")\n";
    }
    return t;
}

} // namespace smcctl::rnics

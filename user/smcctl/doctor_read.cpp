// SPDX-License-Identifier: GPL-2.0
// smcctl doctor: what the checks look at, read from /proc and /sys under a root directory,
// and over netlink for the PNET and user EID tables.
#include <arpa/inet.h>
#include <fnmatch.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/utsname.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "client.hpp"
#include "doctor.hpp"
#include "names.hpp"

namespace smcctl::doctor {

namespace fs = std::filesystem;

namespace {

// The first line of a file, blanks trimmed; "" when it cannot be read.
std::string first_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line;
    if (!in || !std::getline(in, line))
        return {};
    return trim_blanks(line);
}

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

// The entries of a directory, sorted by name; none when it cannot be read.
std::vector<fs::path> entries(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

// "4: ACTIVE" -> "ACTIVE"
std::string enum_name(const std::string& s) {
    const auto colon = s.find(':');
    return colon == std::string::npos ? s : trim_blanks(std::string_view(s).substr(colon + 1));
}

// A number with nothing else around it ("0x" allowed for base 16); no sign.
bool parse_unsigned(const std::string& s, unsigned long& v, int base = 10) {
    if (s.empty() || !std::isxdigit(static_cast<unsigned char>(s[0])))
        return false;
    char* end = nullptr;
    errno = 0;
    v = std::strtoul(s.c_str(), &end, base);
    return errno == 0 && end && *end == '\0';
}

// ---- modprobe's view of net-pf-43 ----------------------------------------------------------

constexpr const char* af_smc_alias = "net-pf-43";

// The modprobe.d directories in modprobe's order; a file name in an earlier one hides the
// same name in later ones.
constexpr const char* modprobe_dirs[] = {"etc/modprobe.d", "run/modprobe.d",
                                         "usr/local/lib/modprobe.d", "lib/modprobe.d",
                                         "usr/lib/modprobe.d"};

struct ModprobeConfig {
    std::vector<std::pair<std::string, std::string>> aliases; // module, file
    std::set<std::string> blacklist;
};

ModprobeConfig read_modprobe_config(const fs::path& root) {
    std::map<std::string, fs::path> files; // by file name, first directory wins
    for (const char* d : modprobe_dirs)
        for (const auto& p : entries(root / d))
            if (p.extension() == ".conf")
                files.emplace(p.filename().string(), p);
    ModprobeConfig c;
    for (const auto& [name, path] : files) {
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);) {
            const auto w = words(line);
            if (w.size() >= 3 && w[0] == "alias" && fnmatch(w[1].c_str(), af_smc_alias, 0) == 0)
                c.aliases.emplace_back(w[2], "/" + fs::relative(path, root).string());
            else if (w.size() >= 2 && w[0] == "blacklist")
                c.blacklist.insert(w[1]);
        }
    }
    return c;
}

// Module names are compared with '-' and '_' alike, as modprobe does.
std::string module_key(std::string s) {
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
}

} // namespace

ModuleState read_modules(const fs::path& root, std::string_view kernel_release) {
    ModuleState m;
    {
        std::ifstream in(root / "proc/modules");
        m.readable = bool(in);
        for (std::string line; std::getline(in, line);)
            if (const auto w = words(line); !w.empty())
                m.loaded.insert(w[0]);
    }
    {
        // "protocol size sockets memory press maxhdr slab module cl co ..."
        std::ifstream in(root / "proc/net/protocols");
        std::string header;
        std::size_t col = 7;
        if (in && std::getline(in, header)) {
            const auto h = words(header);
            if (const auto it = std::find(h.begin(), h.end(), "module"); it != h.end())
                col = static_cast<std::size_t>(it - h.begin());
        }
        for (std::string line; std::getline(in, line);) {
            const auto w = words(line);
            if (w.size() > col &&
                (w[0] == "SMC" || w[0] == "SMC6" || w[0] == "SMCX" || w[0] == "SMCX6"))
                m.af_smc_owner = w[col];
        }
    }
    for (const auto& p : entries(root / "sys/module/smcx/parameters"))
        if (std::ifstream in(p); in) {
            std::string v;
            std::getline(in, v);
            m.smcx[p.filename().string()] = trim_blanks(v);
        }

    const ModprobeConfig conf = read_modprobe_config(root);
    if (!conf.aliases.empty()) {
        // an alias of the configuration wins over the modules' own
        m.autoload = conf.aliases.front().first;
        m.autoload_source = conf.aliases.front().second;
        return m;
    }
    for (const char* base : {"lib/modules", "usr/lib/modules"}) {
        const fs::path file = root / base / std::string(kernel_release) / "modules.alias";
        std::ifstream in(file);
        if (!in)
            continue;
        for (std::string line; std::getline(in, line);) {
            const auto w = words(line);
            if (w.size() < 3 || w[0] != "alias" || fnmatch(w[1].c_str(), af_smc_alias, 0) != 0)
                continue;
            // a blacklisted module's own aliases are ignored
            if (conf.blacklist.count(w[2]) || conf.blacklist.count(module_key(w[2])))
                continue;
            m.autoload = module_key(w[2]);
            m.autoload_source = "/" + fs::relative(file, root).string();
            return m;
        }
        break;
    }
    return m;
}

std::vector<RdmaPort> read_rdma(const fs::path& root, bool& readable) {
    const fs::path base = root / "sys/class/infiniband";
    std::error_code ec;
    readable = fs::is_directory(base, ec);
    std::vector<RdmaPort> out;
    for (const auto& dev : entries(base)) {
        const std::string parent = first_line(dev / "parent");
        for (const auto& pdir : entries(dev / "ports")) {
            unsigned long n = 0;
            if (!parse_unsigned(pdir.filename().string(), n) || n == 0 || n > 255)
                continue;
            RdmaPort p;
            p.device = dev.filename().string();
            p.port = static_cast<unsigned>(n);
            p.state = enum_name(first_line(pdir / "state"));
            p.link_layer = first_line(pdir / "link_layer");
            p.parent = parent;
            for (const auto& gfile : entries(pdir / "gids")) {
                unsigned long idx = 0;
                const std::string name = gfile.filename().string();
                if (!parse_unsigned(name, idx))
                    continue;
                const std::string gid = first_line(gfile);
                const std::string canon = canonical_gid(gid);
                if (canon.empty() || canon == "0000:0000:0000:0000:0000:0000:0000:0000")
                    continue;
                Gid g;
                g.index = static_cast<unsigned>(idx);
                g.gid = gid;
                g.type = first_line(pdir / "gid_attrs/types" / name);
                g.netdev = first_line(pdir / "gid_attrs/ndevs" / name);
                p.gids.push_back(std::move(g));
            }
            std::sort(p.gids.begin(), p.gids.end(),
                      [](const Gid& a, const Gid& b) { return a.index < b.index; });
            out.push_back(std::move(p));
        }
    }
    return out;
}

std::vector<Netdev> read_netdevs(const fs::path& root) {
    std::vector<Netdev> out;
    for (const auto& dir : entries(root / "sys/class/net")) {
        Netdev n;
        n.name = dir.filename().string();
        unsigned long flags = 0, mtu = 0;
        if (parse_unsigned(first_line(dir / "flags"), flags, 16)) {
            n.up = flags & IFF_UP;
            n.loopback = flags & IFF_LOOPBACK;
        }
        const std::string oper = first_line(dir / "operstate");
        if (oper == "down" || oper == "lowerlayerdown" || oper == "notpresent")
            n.up = false;
        if (parse_unsigned(first_line(dir / "mtu"), mtu))
            n.mtu = static_cast<unsigned>(mtu);
        out.push_back(std::move(n));
    }
    auto find = [&](const std::string& name) -> Netdev* {
        const auto it =
            std::find_if(out.begin(), out.end(), [&](const Netdev& n) { return n.name == name; });
        return it == out.end() ? nullptr : &*it;
    };
    // "Iface Destination Gateway Flags RefCnt Use Metric Mask ..."; RTF_UP is 0x1
    {
        std::ifstream in(root / "proc/net/route");
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            const auto w = words(line);
            unsigned long fl = 0;
            if (w.size() >= 4 && parse_unsigned(w[3], fl, 16) && (fl & 0x1))
                if (Netdev* n = find(w[0]))
                    n->egress = true;
        }
    }
    // "dest destlen src srclen nexthop metric refcnt use flags iface"; link-local, multicast
    // and local routes (RTF_LOCAL 0x80000000) every interface has do not count.
    {
        std::ifstream in(root / "proc/net/ipv6_route");
        for (std::string line; std::getline(in, line);) {
            const auto w = words(line);
            unsigned long fl = 0;
            if (w.size() < 10 || !parse_unsigned(w[8], fl, 16) || !(fl & 0x1) ||
                (fl & 0x80000000UL) || w[0].rfind("fe80", 0) == 0 || w[0].rfind("ff", 0) == 0)
                continue;
            if (Netdev* n = find(w[9]))
                n->egress = true;
        }
    }
    // "address ifindex prefixlen scope flags name"; scope 00 is global
    {
        std::ifstream in(root / "proc/net/if_inet6");
        for (std::string line; std::getline(in, line);) {
            const auto w = words(line);
            if (w.size() < 6 || w[0].size() != 32 || w[3] != "00")
                continue;
            std::string text;
            for (std::size_t i = 0; i < 32; i += 4)
                text += (i ? ":" : "") + w[0].substr(i, 4);
            in6_addr a{};
            char buf[INET6_ADDRSTRLEN];
            unsigned long plen = 0;
            Netdev* n = find(w[5]);
            if (!n || inet_pton(AF_INET6, text.c_str(), &a) != 1 ||
                !inet_ntop(AF_INET6, &a, buf, sizeof(buf)))
                continue;
            n->addrs.push_back(buf);
            if (parse_unsigned(w[2], plen, 16))
                n->prefix[buf] = static_cast<unsigned>(plen);
        }
    }
    return out;
}

void add_ipv4_addresses(std::vector<Netdev>& netdevs) {
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0)
        return;
    const std::unique_ptr<ifaddrs, void (*)(ifaddrs*)> hold(list, freeifaddrs);
    for (const ifaddrs* a = list; a; a = a->ifa_next) {
        if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || !a->ifa_name)
            continue;
        const auto it = std::find_if(netdevs.begin(), netdevs.end(),
                                     [&](const Netdev& n) { return n.name == a->ifa_name; });
        if (it == netdevs.end())
            continue;
        char buf[INET_ADDRSTRLEN];
        const auto* sin = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
        if (!inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof(buf)))
            continue;
        // IPv4 first, in the kernel's order
        const auto pos = std::find_if(it->addrs.begin(), it->addrs.end(), [](const std::string& s) {
            return s.find(':') != std::string::npos;
        });
        it->addrs.insert(pos, buf);
        if (a->ifa_netmask) {
            const auto* m = reinterpret_cast<const sockaddr_in*>(a->ifa_netmask);
            it->prefix[buf] = static_cast<unsigned>(std::popcount(m->sin_addr.s_addr));
        }
    }
}

std::map<std::string, std::string> read_sysctls(const fs::path& root, bool& readable) {
    const fs::path dir = root / "proc/sys/net/smc";
    std::error_code ec;
    readable = fs::is_directory(dir, ec);
    std::map<std::string, std::string> out;
    for (const auto& p : entries(dir))
        if (std::ifstream in(p); in) {
            std::string v;
            if (std::getline(in, v))
                out[p.filename().string()] = trim_blanks(v);
        }
    return out;
}

HostState collect() {
    HostState h;
    utsname u{};
    const std::string release = uname(&u) == 0 ? u.release : "";
    const fs::path root = "/";
    h.modules = read_modules(root, release);
    h.ports = read_rdma(root, h.rdma_readable);
    h.netdevs = read_netdevs(root);
    add_ipv4_addresses(h.netdevs);
    h.sysctls = read_sysctls(root, h.sysctl_readable);
    try {
        Client cl;
        h.pnet = cl.pnet_show(std::nullopt);
        h.ueids = cl.ueid_show();
    } catch (const nl::family_not_found& e) {
        h.smc_error = "SMC module not loaded (generic netlink family " + e.family() + " not found)";
    } catch (const std::exception& e) {
        h.smc_error = e.what();
    }
    return h;
}

} // namespace smcctl::doctor

// SPDX-License-Identifier: GPL-2.0
#include "baseline.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "names.hpp"

namespace smcctl::baseline {

namespace {

constexpr std::string_view magic = "smcctl-stats-baseline 1";

// Every monotonic counter of a Stats, with a stable name, as pointers into `s`.  Used for
// serialization and subtraction alike so the two can never disagree.
template <typename S> auto counters(S& s) {
    using ptr = std::conditional_t<std::is_const_v<S>, const std::uint64_t*, std::uint64_t*>;
    std::vector<std::pair<std::string, ptr>> v;
    auto tech = [&v](const std::string& p, auto& t) {
        v.emplace_back(p + ".clnt_v1_succ", &t.clnt_v1_succ);
        v.emplace_back(p + ".clnt_v2_succ", &t.clnt_v2_succ);
        v.emplace_back(p + ".srv_v1_succ", &t.srv_v1_succ);
        v.emplace_back(p + ".srv_v2_succ", &t.srv_v2_succ);
        v.emplace_back(p + ".rx_bytes", &t.rx_bytes);
        v.emplace_back(p + ".tx_bytes", &t.tx_bytes);
        v.emplace_back(p + ".rx_cnt", &t.rx_cnt);
        v.emplace_back(p + ".tx_cnt", &t.tx_cnt);
        v.emplace_back(p + ".sendpage_cnt", &t.sendpage_cnt);
        v.emplace_back(p + ".splice_cnt", &t.splice_cnt);
        v.emplace_back(p + ".cork_cnt", &t.cork_cnt);
        v.emplace_back(p + ".ndly_cnt", &t.ndly_cnt);
        v.emplace_back(p + ".urg_data_cnt", &t.urg_data_cnt);
        auto buffers = [&](const std::string& q, auto& b) {
            v.emplace_back(q + ".size_small_peer", &b.size_small_peer);
            v.emplace_back(q + ".size_small", &b.size_small);
            v.emplace_back(q + ".full_peer", &b.full_peer);
            v.emplace_back(q + ".full", &b.full);
            v.emplace_back(q + ".reuse", &b.reuse);
            v.emplace_back(q + ".alloc", &b.alloc);
            v.emplace_back(q + ".downgrade", &b.downgrade);
        };
        buffers(p + ".tx_buf", t.tx_buf);
        buffers(p + ".rx_buf", t.rx_buf);
        auto hist = [&](const std::string& q, auto& h) {
            for (std::size_t i = 0; i < SizeHistogram::buckets; ++i)
                v.emplace_back(q + "." + std::to_string(i), &h.count[i]);
        };
        hist(p + ".tx_rmb_size", t.tx_rmb_size);
        hist(p + ".rx_rmb_size", t.rx_rmb_size);
        hist(p + ".tx_payload", t.tx_payload);
        hist(p + ".rx_payload", t.rx_payload);
    };
    tech("smcr", s.smcr);
    tech("smcd", s.smcd);
    v.emplace_back("clnt_hs_err", &s.clnt_hs_err);
    v.emplace_back("srv_hs_err", &s.srv_hs_err);
    v.emplace_back("clnt_fallback", &s.clnt_fallback);
    v.emplace_back("srv_fallback", &s.srv_fallback);
    return v;
}

std::string read_first_line(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return trim_blanks(line);
}

bool subtract_reasons(std::vector<FallbackReason>& now, const std::vector<FallbackReason>& base) {
    for (const auto& b : base) {
        auto it = std::find_if(now.begin(), now.end(),
                               [&](const FallbackReason& r) { return r.code == b.code; });
        if (it == now.end()) {
            if (b.count != 0)
                return false;
            continue;
        }
        if (it->count < b.count)
            return false;
        it->count -= b.count;
    }
    std::erase_if(now, [](const FallbackReason& r) { return r.count == 0; });
    return true;
}

} // namespace

std::filesystem::path default_path() {
    if (const char* f = std::getenv("SMCCTL_STATS_FILE"); f && *f)
        return f;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/')
        return std::filesystem::path(x) / "smc" / "stats";
    std::string home;
    if (const char* h = std::getenv("HOME"); h && *h)
        home = h;
    else if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_dir)
        home = pw->pw_dir;
    else
        home = "/tmp";
    return std::filesystem::path(home) / ".cache" / "smc" / "stats";
}

Scope current_scope() {
    Scope s;
    s.boot_id = read_first_line("/proc/sys/kernel/random/boot_id");
    struct stat st {};
    if (::stat("/proc/self/ns/net", &st) == 0)
        s.netns = std::to_string(static_cast<unsigned long long>(st.st_ino));
    return s;
}

std::string serialize(const Stats& s, const Scope& scope) {
    std::ostringstream o;
    o << magic << '\n';
    o << "boot_id " << (scope.boot_id.empty() ? "-" : scope.boot_id) << '\n';
    o << "netns " << (scope.netns.empty() ? "-" : scope.netns) << '\n';
    for (const auto& [name, p] : counters(s))
        o << name << ' ' << *p << '\n';
    for (const auto& r : s.clnt_reasons)
        o << "reason.clnt." << hex_code(r.code) << ' ' << r.count << '\n';
    for (const auto& r : s.srv_reasons)
        o << "reason.srv." << hex_code(r.code) << ' ' << r.count << '\n';
    return o.str();
}

std::optional<std::pair<Stats, Scope>> parse(std::string_view text) {
    std::istringstream in{std::string(text)};
    std::string line;
    if (!std::getline(in, line) || line != magic)
        return std::nullopt;
    Stats s;
    Scope scope;
    std::map<std::string, std::uint64_t*> by_name;
    for (auto& [name, p] : counters(s))
        by_name.emplace(name, p);
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string key, value;
        if (!(ls >> key >> value))
            continue;
        if (key == "boot_id") {
            scope.boot_id = value == "-" ? "" : value;
            continue;
        }
        if (key == "netns") {
            scope.netns = value == "-" ? "" : value;
            continue;
        }
        char* end = nullptr;
        errno = 0;
        const unsigned long long n = std::strtoull(value.c_str(), &end, 0);
        if (errno || !end || *end)
            return std::nullopt;
        if (key.rfind("reason.", 0) == 0) {
            const bool server = key.rfind("reason.srv.", 0) == 0;
            const std::string code = key.substr(server ? 11 : 12);
            const unsigned long c = std::strtoul(code.c_str(), &end, 0);
            if (!end || *end)
                return std::nullopt;
            (server ? s.srv_reasons : s.clnt_reasons).push_back({static_cast<std::uint32_t>(c), n});
            continue;
        }
        if (auto it = by_name.find(key); it != by_name.end())
            *it->second = n; // unknown keys: written by a newer smcctl, ignored
    }
    return std::make_pair(std::move(s), std::move(scope));
}

std::optional<Stats> subtract(const Stats& now, const Stats& base) {
    Stats r = now;
    auto rc = counters(r);
    const auto bc = counters(base);
    for (std::size_t i = 0; i < rc.size(); ++i) {
        if (*rc[i].second < *bc[i].second)
            return std::nullopt;
        *rc[i].second -= *bc[i].second;
    }
    if (!subtract_reasons(r.clnt_reasons, base.clnt_reasons) ||
        !subtract_reasons(r.srv_reasons, base.srv_reasons))
        return std::nullopt;
    return r;
}

std::optional<Stats> load(const std::filesystem::path& path, const Scope& scope) {
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse(text.str());
    if (!parsed || !(parsed->second == scope))
        return std::nullopt;
    return std::move(parsed->first);
}

void save(const std::filesystem::path& path, const Stats& s, const Scope& scope) {
    auto fail = [&](const std::string& why) {
        throw std::runtime_error("cannot store statistics baseline " + path.string() + ": " + why);
    };
    std::error_code ec;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec)
            fail(ec.message());
    }
    const std::filesystem::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::trunc);
        if (!out)
            fail(std::strerror(errno));
        out << serialize(s, scope);
        out.flush();
        if (!out)
            fail(std::strerror(errno));
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        fail(ec.message());
    }
}

void discard(const std::filesystem::path& path) noexcept {
    std::error_code ec;
    std::filesystem::remove(path, ec);
}

} // namespace smcctl::baseline

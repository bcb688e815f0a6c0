// SPDX-License-Identifier: GPL-2.0
#include "format.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <string_view>

#include "json.hpp"
#include "names.hpp"

namespace smcctl {

namespace {

constexpr std::array<std::string_view, SizeHistogram::buckets> bucket_labels{
    "8K", "16K", "32K", "64K", "128K", "256K", "512K", "1024K", ">1024K"};
constexpr std::array<std::string_view, SizeHistogram::buckets> bucket_keys{
    "8K", "16K", "32K", "64K", "128K", "256K", "512K", "1024K", "over_1024K"};

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

// "  label ...... value" with the label left-aligned and the value right-aligned.
void line(std::ostream& o, std::string_view label, std::string_view value,
          std::string_view note = {}) {
    char buf[256];
    std::snprintf(buf, sizeof(buf), "  %-30.*s %14.*s", static_cast<int>(label.size()),
                  label.data(), static_cast<int>(value.size()), value.data());
    o << buf;
    if (!note.empty())
        o << "  " << note;
    o << '\n';
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "(%.2f%%)",
                  whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return buf;
}

std::string pair_note(std::string_view a, std::uint64_t x, std::string_view b, std::uint64_t y) {
    return "(" + std::string(a) + " " + str(x) + ", " + std::string(b) + " " + str(y) + ")";
}

void histogram(std::ostream& o, std::string_view label, const SizeHistogram& h) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "    %-6.*s", static_cast<int>(label.size()), label.data());
    o << buf;
    for (auto c : h.count) {
        std::snprintf(buf, sizeof(buf), " %7s", abbreviate(c).c_str());
        o << buf;
    }
    o << '\n';
}

void histogram_header(std::ostream& o) {
    o << "          ";
    char buf[32];
    for (auto l : bucket_labels) {
        std::snprintf(buf, sizeof(buf), " %7.*s", static_cast<int>(l.size()), l.data());
        o << buf;
    }
    o << '\n';
}

void reasons_text(std::ostream& o, std::string_view side, std::vector<FallbackReason> list) {
    std::stable_sort(
        list.begin(), list.end(),
        [](const FallbackReason& a, const FallbackReason& b) { return a.count > b.count; });
    for (const auto& r : list) {
        std::string name(decline_name(r.code));
        if (name.empty())
            name = hex_code(r.code);
        line(o, "    " + std::string(side) + " " + name, str(r.count),
             std::string(decline_text(r.code)));
    }
}

void tech_text(std::ostream& o, std::string_view title, const TechStats& t, const StatsView& v,
               std::string_view note = {}) {
    o << title << '\n';
    if (!note.empty())
        o << "  (" << note << ")\n";
    const std::uint64_t conns = t.connections();
    line(o, "SMC connections", str(conns),
         pair_note("client", t.clnt_v1_succ + t.clnt_v2_succ, "server",
                   t.srv_v1_succ + t.srv_v2_succ));
    line(o, "  v1", str(t.clnt_v1_succ + t.srv_v1_succ),
         pair_note("client", t.clnt_v1_succ, "server", t.srv_v1_succ));
    line(o, "  v2", str(t.clnt_v2_succ + t.srv_v2_succ),
         pair_note("client", t.clnt_v2_succ, "server", t.srv_v2_succ));
    char avg[32];
    std::snprintf(avg, sizeof(avg), "%.1f",
                  conns ? static_cast<double>(t.rx_cnt + t.tx_cnt) / static_cast<double>(conns)
                        : 0.0);
    line(o, "Avg requests per connection", avg);

    auto direction = [&](std::string_view name, std::uint64_t bytes, std::uint64_t calls,
                         const BufferEvents& b, const SizeHistogram& bufs,
                         const SizeHistogram& reqs, bool tx) {
        o << "  " << name << '\n';
        line(o, "  Data (bytes)", str(bytes), "(" + abbreviate(bytes) + ")");
        line(o, "  Requests", str(calls));
        line(o, "  Buffer full", str(b.full), percent(b.full, calls));
        if (tx) {
            line(o, "  Buffer full (remote)", str(b.full_peer), percent(b.full_peer, calls));
            line(o, "  Buffer too small", str(b.size_small), percent(b.size_small, calls));
            line(o, "  Buffer too small (remote)", str(b.size_small_peer),
                 percent(b.size_small_peer, calls));
        }
        if (v.details) {
            line(o, "  Buffer allocations", str(b.alloc));
            line(o, "  Buffer reuses", str(b.reuse));
            line(o, "  Buffer downgrades", str(b.downgrade));
        }
        histogram_header(o);
        histogram(o, "Bufs", bufs);
        histogram(o, "Reqs", reqs);
    };
    direction("RX", t.rx_bytes, t.rx_cnt, t.rx_buf, t.rx_rmb_size, t.rx_payload, false);
    direction("TX", t.tx_bytes, t.tx_cnt, t.tx_buf, t.tx_rmb_size, t.tx_payload, true);

    const std::uint64_t special =
        t.cork_cnt + t.ndly_cnt + t.sendpage_cnt + t.splice_cnt + t.urg_data_cnt;
    line(o, "Special socket calls", str(special));
    if (v.details) {
        line(o, "  cork", str(t.cork_cnt));
        line(o, "  nodelay", str(t.ndly_cnt));
        line(o, "  sendpage", str(t.sendpage_cnt));
        line(o, "  splice", str(t.splice_cnt));
        line(o, "  urgent data", str(t.urg_data_cnt));
        if (t.rx_rmb_usage)
            line(o, "RX buffer bytes in use", str(*t.rx_rmb_usage));
        if (t.tx_rmb_usage)
            line(o, "TX buffer bytes in use", str(*t.tx_rmb_usage));
    }
}

void json_histogram(JsonWriter& j, std::string_view key, const SizeHistogram& h) {
    j.key(key).begin_object();
    for (std::size_t i = 0; i < SizeHistogram::buckets; ++i)
        j.field(bucket_keys[i], h.count[i]);
    j.end_object();
}

void json_buffers(JsonWriter& j, std::string_view key, const BufferEvents& b) {
    j.key(key).begin_object();
    j.field("size_small_peer", b.size_small_peer);
    j.field("size_small", b.size_small);
    j.field("full_peer", b.full_peer);
    j.field("full", b.full);
    j.field("reuse", b.reuse);
    j.field("alloc", b.alloc);
    j.field("downgrade", b.downgrade);
    j.end_object();
}

void json_optional(JsonWriter& j, std::string_view key, const std::optional<std::uint64_t>& v) {
    j.key(key);
    if (v)
        j.value(*v);
    else
        j.null();
}

void json_tech(JsonWriter& j, std::string_view key, const TechStats& t) {
    j.key(key).begin_object();
    j.field("connections", t.connections());
    j.key("v1").begin_object();
    j.field("clnt_success", t.clnt_v1_succ).field("srv_success", t.srv_v1_succ);
    j.end_object();
    j.key("v2").begin_object();
    j.field("clnt_success", t.clnt_v2_succ).field("srv_success", t.srv_v2_succ);
    j.end_object();
    auto direction = [&](std::string_view k, std::uint64_t bytes, std::uint64_t cnt,
                         const BufferEvents& b, const SizeHistogram& rmb,
                         const SizeHistogram& payload, const std::optional<std::uint64_t>& use) {
        j.key(k).begin_object();
        j.field("bytes", bytes);
        j.field("cnt", cnt);
        json_optional(j, "rmb_usage", use);
        json_buffers(j, "buffer", b);
        json_histogram(j, "rmb_size", rmb);
        json_histogram(j, "payload_size", payload);
        j.end_object();
    };
    direction("rx", t.rx_bytes, t.rx_cnt, t.rx_buf, t.rx_rmb_size, t.rx_payload, t.rx_rmb_usage);
    direction("tx", t.tx_bytes, t.tx_cnt, t.tx_buf, t.tx_rmb_size, t.tx_payload, t.tx_rmb_usage);
    j.key("special_calls").begin_object();
    j.field("cork", t.cork_cnt);
    j.field("nodelay", t.ndly_cnt);
    j.field("sendpage", t.sendpage_cnt);
    j.field("splice", t.splice_cnt);
    j.field("urgent_data", t.urg_data_cnt);
    j.end_object();
    j.end_object();
}

void json_reasons(JsonWriter& j, std::string_view key, const std::vector<FallbackReason>& list) {
    j.key(key).begin_array();
    for (const auto& r : list) {
        j.begin_object();
        j.field("code", static_cast<std::uint64_t>(r.code));
        j.field("hex", hex_code(r.code));
        j.key("name");
        if (auto n = decline_name(r.code); !n.empty())
            j.value(n);
        else
            j.null();
        j.field("count", r.count);
        j.end_object();
    }
    j.end_array();
}

} // namespace

std::string abbreviate(std::uint64_t v) {
    if (v < 1024)
        return std::to_string(v);
    static constexpr std::string_view units = "KMGTPE";
    double d = static_cast<double>(v);
    std::size_t u = 0;
    d /= 1024.0;
    while (d >= 1024.0 && u + 1 < units.size()) {
        d /= 1024.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f%c", d, units[u]);
    return buf;
}

// ---- text tables -----------------------------------------------------------------------

TextTable& TextTable::column(std::string header, Align a) {
    headers_.push_back(std::move(header));
    align_.push_back(a);
    return *this;
}

TextTable& TextTable::row(std::vector<std::string> cells) {
    rows_.push_back(std::move(cells));
    return *this;
}

std::string TextTable::str() const {
    std::vector<std::size_t> width(headers_.size(), 0);
    for (std::size_t c = 0; c < headers_.size(); ++c)
        width[c] = headers_[c].size();
    for (const auto& r : rows_)
        for (std::size_t c = 0; c < r.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], r[c].size());

    std::ostringstream o;
    auto emit = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t c = 0; c < headers_.size(); ++c) {
            const std::string& cell = c < cells.size() ? cells[c] : std::string();
            if (c)
                line += "  ";
            const std::string pad(width[c] - std::min(width[c], cell.size()), ' ');
            line += align_[c] == Align::right ? pad + cell : cell + pad;
        }
        line.erase(line.find_last_not_of(' ') + 1);
        o << line << '\n';
    };
    emit(headers_);
    for (const auto& r : rows_)
        emit(r);
    return o.str();
}

// ---- PNET table ----------------------------------------------------------------------

std::string to_text(const PnetTable& t) {
    std::ostringstream o;
    for (const auto& e : t.entries)
        o << e.pnetid << ' ' << (e.eth.empty() ? "n/a" : e.eth) << ' '
          << (e.ib.empty() ? "n/a" : e.ib) << ' ' << (e.port ? unsigned(*e.port) : 255u) << '\n';
    return o.str();
}

std::string to_json(const PnetTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("pnet").begin_array();
    for (const auto& e : t.entries) {
        j.begin_object();
        j.field("pnetid", e.pnetid);
        j.key("interface");
        e.eth.empty() ? j.null() : j.value(e.eth);
        j.key("ib_device");
        e.ib.empty() ? j.null() : j.value(e.ib);
        j.key("ib_port");
        e.port ? j.value(unsigned(*e.port)) : j.null();
        j.end_object();
    }
    j.end_array().end_object().finish();
    return o.str();
}

// ---- user EIDs -------------------------------------------------------------------------

std::string to_text(const UeidTable& t) {
    std::ostringstream o;
    for (const auto& e : t.eids)
        o << e << '\n';
    return o.str();
}

std::string to_json(const UeidTable& t) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object().key("ueids").begin_array();
    for (const auto& e : t.eids)
        j.value(e);
    j.end_array().end_object().finish();
    return o.str();
}

// ---- system info -----------------------------------------------------------------------

std::string to_text(const SysInfo& s) {
    std::ostringstream o;
    auto row = [&](std::string_view label, const std::string& value) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%-18.*s", static_cast<int>(label.size()), label.data());
        o << buf << (value.empty() ? "n/a" : value) << '\n';
    };
    std::string version;
    if (s.version)
        version = std::to_string(*s.version) + "." + std::to_string(s.release.value_or(0));
    row("SMC version:", version);
    row("Hostname:", s.hostname);
    const bool v2 = s.version && *s.version >= 2;
    row("SMC-R features:", s.smcr_v2.value_or(false) ? "v1 v2" : "v1");
    if (s.smcd_devices && *s.smcd_devices == 0)
        row("SMC-D features:", "none (no ISM device)");
    else
        row("SMC-D features:", v2 ? "v1 v2" : "v1");
    row("ISMv2 capable:", s.ism_v2 ? (*s.ism_v2 ? "yes" : "no") : "");
    row("System EID:", s.seid);
    std::string ueids;
    for (const auto& e : s.ueids)
        ueids += (ueids.empty() ? "" : " ") + e;
    row("User EIDs:", ueids.empty() ? "none" : ueids);
    row("RoCE devices:", s.smcr_devices ? std::to_string(*s.smcr_devices) : "");
    row("ISM devices:", s.smcd_devices ? std::to_string(*s.smcd_devices) : "");
    return o.str();
}

std::string to_json(const SysInfo& s) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    auto opt_u = [&](std::string_view k, auto v) {
        j.key(k);
        if (v)
            j.value(static_cast<std::uint64_t>(*v));
        else
            j.null();
    };
    auto opt_b = [&](std::string_view k, const std::optional<bool>& v) {
        j.key(k);
        if (v)
            j.value(*v);
        else
            j.null();
    };
    auto opt_s = [&](std::string_view k, const std::string& v) {
        j.key(k);
        if (v.empty())
            j.null();
        else
            j.value(v);
    };
    opt_u("smc_version", s.version);
    opt_u("smc_release", s.release);
    opt_s("hostname", s.hostname);
    opt_b("smcr_v2", s.smcr_v2);
    opt_b("ism_v2", s.ism_v2);
    opt_s("seid", s.seid);
    j.key("ueids").begin_array();
    for (const auto& e : s.ueids)
        j.value(e);
    j.end_array();
    opt_u("smcr_devices", s.smcr_devices);
    opt_u("smcd_devices", s.smcd_devices);
    j.end_object().finish();
    return o.str();
}

// ---- statistics ------------------------------------------------------------------------

std::string to_text(const Stats& s, const StatsView& v) {
    std::ostringstream o;
    const std::uint64_t conns = s.smcr.connections() + s.smcd.connections();
    const std::uint64_t hs = s.clnt_hs_err + s.srv_hs_err;
    const std::uint64_t fb = s.clnt_fallback + s.srv_fallback;
    o << "Connections\n";
    line(o, "Total connections handled", str(conns + hs + fb));
    line(o, "SMC connections", str(conns),
         pair_note("SMC-R", s.smcr.connections(), "SMC-D", s.smcd.connections()));
    line(o, "Handshake errors", str(hs),
         pair_note("client", s.clnt_hs_err, "server", s.srv_hs_err));
    line(o, "TCP fallbacks", str(fb),
         pair_note("client", s.clnt_fallback, "server", s.srv_fallback));
    if (v.details) {
        reasons_text(o, "server", s.srv_reasons);
        reasons_text(o, "client", s.clnt_reasons);
    }
    if (v.smcr) {
        o << '\n';
        tech_text(o, "SMC-R", s.smcr, v);
    }
    if (v.smcd) {
        o << '\n';
        tech_text(o, "SMC-D", s.smcd, v,
                  v.smcd_devices && *v.smcd_devices == 0
                      ? "no SMC-D device: the kernel reports no ISM device, these counters stay 0"
                      : "");
    }
    return o.str();
}

std::string to_json(const Stats& s) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    json_tech(j, "smcr", s.smcr);
    json_tech(j, "smcd", s.smcd);
    j.key("handshake_errors").begin_object();
    j.field("clnt", s.clnt_hs_err).field("srv", s.srv_hs_err);
    j.end_object();
    j.key("fallbacks").begin_object();
    j.field("clnt", s.clnt_fallback);
    j.field("srv", s.srv_fallback);
    json_reasons(j, "clnt_reasons", s.clnt_reasons);
    json_reasons(j, "srv_reasons", s.srv_reasons);
    j.end_object();
    j.end_object().finish();
    return o.str();
}

} // namespace smcctl

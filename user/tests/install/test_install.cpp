// SPDX-License-Identifier: GPL-2.0
// `make install DESTDIR=<tmp>` installs exactly the expected files (every
// personality link, man page and completion name), with the right kinds and
// modes; `make uninstall` with the same variables removes all of them.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path repo = SMCX_REPO;
const fs::path build = SMCX_BUILD;

// What a user types: the tool and its smc-tools personalities.
const std::vector<std::string> personalities = {"smcss",   "smcr",    "smcd",    "smc_pnet",
                                                "smc_dbg", "smc_run", "smc_chk", "smc_rnics"};

class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "smcx-install-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

struct Run {
    int rc;
    std::string out;
};

struct PcloseDeleter {
    void operator()(FILE* f) const { ::pclose(f); }
};

// make on the checkout, outside any make that runs ctest (its jobserver and
// variables stay out).
Run make(const std::string& args) {
    const std::string cmd = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C '" + repo.string() +
                            "' BUILD='" + build.string() + "' " + args + " 2>&1";
    std::unique_ptr<FILE, PcloseDeleter> p(::popen(cmd.c_str(), "r"));
    if (!p)
        return {-1, "popen failed"};
    std::string out;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p.get())) > 0)
        out.append(buf.data(), n);
    const int st = ::pclose(p.release());
    return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, "$ make " + args + "\n" + out};
}

std::string read_file(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The kernel release smcx.ko was built for: its vermagic's first word.
std::string module_kver(const fs::path& ko) {
    const std::string data = read_file(ko);
    const auto at = data.find("vermagic=");
    if (at == std::string::npos)
        return {};
    const auto from = at + 9;
    return data.substr(from, data.find(' ', from) - from);
}

enum class Kind { file, link };

struct Entry {
    Kind kind;
    std::string target; // a link's target
    unsigned mode;      // a file's permission bits
};

using Tree = std::map<std::string, Entry>;

// Every non-directory below root, relative to it.
Tree scan(const fs::path& root) {
    Tree t;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        const auto rel = e.path().lexically_relative(root).string();
        if (e.is_symlink())
            t[rel] = {Kind::link, fs::read_symlink(e.path()).string(), 0};
        else if (!e.is_directory())
            t[rel] = {
                Kind::file, {}, static_cast<unsigned>(e.status().permissions() & fs::perms::mask)};
    }
    return t;
}

std::string octal(unsigned mode) {
    std::array<char, 8> b;
    std::snprintf(b.data(), b.size(), "%03o", mode);
    return b.data();
}

std::string show(const std::set<std::string>& s) {
    std::string r;
    for (const auto& x : s)
        r += "  " + x + "\n";
    return r.empty() ? "  (none)\n" : r;
}

// The expected tree of an install with PREFIX @prefix (no leading slash).
Tree expected(const std::string& prefix, const std::string& kver) {
    Tree t;
    const std::string sbin = prefix + "/sbin/";
    const std::string man = prefix + "/share/man/man8/";
    const std::string comp = prefix + "/share/bash-completion/completions/";
    t[sbin + "smcctl"] = {Kind::file, {}, 0755};
    t[comp + "smcctl"] = {Kind::file, {}, 0644};
    t[man + "smcctl.8.gz"] = {Kind::file, {}, 0644};
    for (const auto& p : personalities) {
        t[sbin + p] = {Kind::link, "smcctl", 0};
        t[comp + p] = {Kind::link, "smcctl", 0};
        t[man + p + ".8.gz"] = {Kind::file, {}, 0644};
    }
    t[prefix + "/lib/smcx/libsmc-preload.so"] = {Kind::file, {}, 0644};
    t["etc/modprobe.d/smcx.conf"] = {Kind::file, {}, 0644};
    t[prefix + "/lib/sysctl.d/50-smcx.conf"] = {Kind::file, {}, 0644};
    if (!kver.empty())
        t["lib/modules/" + kver + "/updates/smcx.ko"] = {Kind::file, {}, 0644};
    return t;
}

void expect_tree(const Tree& got, const Tree& want) {
    std::set<std::string> missing, extra, wrong;
    for (const auto& [path, w] : want) {
        const auto g = got.find(path);
        if (g == got.end())
            missing.insert(path);
        else if (g->second.kind != w.kind || g->second.target != w.target ||
                 g->second.mode != w.mode)
            wrong.insert(path + (w.kind == Kind::link
                                     ? " (want a link to " + w.target + ")"
                                     : " (want a file, mode " + octal(w.mode) + ")"));
    }
    for (const auto& [path, g] : got)
        if (!want.count(path))
            extra.insert(path);
    EXPECT_TRUE(missing.empty()) << "not installed:\n" << show(missing);
    EXPECT_TRUE(extra.empty()) << "installed but not expected:\n" << show(extra);
    EXPECT_TRUE(wrong.empty()) << "wrong kind, target or mode:\n" << show(wrong);
}

// Install with @vars, compare with the expected tree for @prefix, check the
// contents that can be checked, uninstall, check that nothing is left.
void install_uninstall(const std::string& vars, const std::string& prefix) {
    TempDir dest;
    const std::string destdir = " DESTDIR='" + dest.path().string() + "' " + vars;
    const fs::path ko = repo / "smcx.ko";
    std::string kver;
    std::string what = "install";
    if (fs::exists(ko)) {
        kver = module_kver(ko);
        ASSERT_FALSE(kver.empty()) << "no vermagic in " << ko;
    } else {
        // no module built: the module part must refuse clearly, the tools
        // are checked alone
        std::cout << "smcx.ko is not built: checking install-tools only ('make module' for all)\n";
        const Run r = make("install" + destdir);
        EXPECT_NE(r.rc, 0) << r.out;
        EXPECT_NE(r.out.find("no smcx.ko; run 'make module' first"), std::string::npos) << r.out;
        what = "install-tools";
    }
    const Run in = make(what + destdir);
    ASSERT_EQ(in.rc, 0) << in.out;
    const Tree got = scan(dest.path());
    expect_tree(got, expected(prefix, kver));

    // contents: the tool is the built one, man pages are gzip'd, the
    // configuration files are the tree's, the module is smcx.ko
    const fs::path d = dest.path();
    const auto same = [&](const std::string& rel, const fs::path& src) {
        if (got.count(rel) && fs::exists(src)) {
            EXPECT_EQ(read_file(d / rel), read_file(src)) << rel << " differs from " << src;
        }
    };
    same(prefix + "/sbin/smcctl", build / "user/smcctl/smcctl");
    same(prefix + "/lib/smcx/libsmc-preload.so", build / "user/preload/libsmc-preload.so");
    same(prefix + "/share/bash-completion/completions/smcctl", repo / "completion/smcctl");
    same("etc/modprobe.d/smcx.conf", repo / "conf/smcx-modprobe.conf");
    same(prefix + "/lib/sysctl.d/50-smcx.conf", repo / "conf/smcx-sysctl.conf");
    if (!kver.empty())
        same("lib/modules/" + kver + "/updates/smcx.ko", ko);
    for (const auto& [rel, e] : got) {
        if (rel.ends_with(".8.gz")) {
            EXPECT_EQ(read_file(d / rel).substr(0, 2), "\x1f\x8b") << rel << " is not gzip'd";
        }
    }
    // no depmod output under DESTDIR: depmod is the target's business
    EXPECT_FALSE(fs::exists(d / "lib/modules" / kver / "modules.dep"));

    const Run un = make("un" + what + destdir);
    ASSERT_EQ(un.rc, 0) << un.out;
    std::set<std::string> left;
    for (const auto& [rel, e] : scan(dest.path()))
        left.insert(rel);
    EXPECT_TRUE(left.empty()) << "left after uninstall:\n" << show(left);
    EXPECT_FALSE(fs::exists(d / prefix / "lib/smcx")) << "the preload directory is ours";
}

} // namespace

TEST(Install, DefaultPrefixIsDebians) {
    install_uninstall("", "usr");
}

TEST(Install, PrefixMovesTheToolsNotModprobeD) {
    install_uninstall("PREFIX=/usr/local", "usr/local");
}

// One version everywhere: the header the module and the tools print, DKMS'
// directory name, the Debian package version.
TEST(Install, VersionsAgree) {
    std::smatch m;
    const std::string h = read_file(repo / "include/smcx/version.h");
    ASSERT_TRUE(std::regex_search(h, m, std::regex("#define SMCX_VERSION \"([^\"]+)\"")));
    const std::string version = m[1];
    const std::string dkms = read_file(repo / "dkms.conf");
    ASSERT_TRUE(std::regex_search(dkms, m, std::regex("\nPACKAGE_VERSION=\"([^\"]+)\"")));
    EXPECT_EQ(m[1], version) << "dkms.conf PACKAGE_VERSION";
    const std::string changelog = read_file(repo / "debian/changelog");
    ASSERT_TRUE(std::regex_search(changelog, m, std::regex("^smcx \\(([^)]+)\\)")));
    EXPECT_EQ(m[1], version) << "debian/changelog";
}

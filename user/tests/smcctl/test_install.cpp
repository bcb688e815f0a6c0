// SPDX-License-Identifier: GPL-2.0
// What gets installed next to the binary: a personality link for every name the tool
// answers to, a man page for each, and bash completion for each.  The build passes the
// CMake list of personality links (SMCCTL_PERSONALITIES, comma separated) and the source tree.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cli_util.hpp"

using namespace smcctl;
using namespace smcctl::test;

namespace {

std::vector<std::string> cmake_personalities() {
    std::vector<std::string> v;
    std::stringstream in(SMCCTL_PERSONALITIES);
    for (std::string name; std::getline(in, name, ',');)
        if (!name.empty())
            v.push_back(name);
    return v;
}

// smcctl and every link CMake makes.
std::vector<std::string> installed_names() {
    auto v = cmake_personalities();
    v.insert(v.begin(), "smcctl");
    return v;
}

std::string source_file(const std::string& rel) {
    std::ifstream in(std::string(SMCX_SOURCE_DIR) + "/" + rel);
    std::stringstream s;
    s << in.rdbuf();
    return in ? s.str() : std::string();
}

struct pipe_closer {
    void operator()(FILE* f) const noexcept { pclose(f); }
};

// stdout+stderr of a shell command, and whether it exited 0.
std::pair<bool, std::string> run(const std::string& cmd) {
    std::unique_ptr<FILE, pipe_closer> p(popen((cmd + " 2>&1").c_str(), "r"));
    if (!p)
        return {false, "popen failed"};
    std::string out;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof(buf), p.get()))
        out.append(buf, n);
    const int rc = pclose(p.release());
    return {rc == 0, out};
}

bool have(const std::string& program) {
    return run("command -v " + program + " >/dev/null").first;
}

} // namespace

TEST(Install, CMakeLinksEveryPersonality) {
    std::set<std::string> links;
    for (const auto& n : cmake_personalities())
        links.insert(n);
    std::set<std::string> names;
    for (const auto p : all_personalities())
        if (p != Personality::smcctl)
            names.insert(std::string(personality_name(p)));
    EXPECT_EQ(links, names) << "SMCCTL_PERSONALITIES and all_personalities() differ";
    for (const auto& n : cmake_personalities())
        EXPECT_EQ(personality_name(personality_from_argv0("/usr/sbin/" + n)), n);
}

TEST(Install, ManPageForEveryName) {
    for (const auto& name : installed_names()) {
        const std::string page = source_file("man/" + name + ".8");
        ASSERT_FALSE(page.empty()) << "man/" << name << ".8 is missing";
        std::string upper;
        for (char c : name)
            upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_TRUE(contains(page, ".TH " + upper + " 8 ")) << name;
        EXPECT_TRUE(contains(page, ".SH NAME\n" + name + " \\-")) << name;
        for (const char* section : {".SH SYNOPSIS", ".SH DESCRIPTION", ".SH SEE ALSO"})
            EXPECT_TRUE(contains(page, section)) << name << ": " << section;
        EXPECT_TRUE(contains(page, "SPDX-License-Identifier: GPL-2.0")) << name;
    }
}

TEST(Install, ManPagesRenderWithoutWarnings) {
    if (!have("groff"))
        GTEST_SKIP() << "groff not installed";
    for (const auto& name : installed_names()) {
        const std::string path = std::string(SMCX_SOURCE_DIR) + "/man/" + name + ".8";
        const auto [ok, out] = run("LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 " + path);
        EXPECT_TRUE(ok) << name;
        EXPECT_EQ(out, "") << name;
    }
}

TEST(Install, ManPagesTellTheOptionsTheToolTakes) {
    // Every option of the usage text is in the page, so neither can drift alone.
    for (const auto p : all_personalities()) {
        const std::string name(personality_name(p));
        const std::string page = source_file("man/" + name + ".8");
        std::istringstream usage(usage_text(p));
        for (std::string line; std::getline(usage, line);) {
            const auto pos = line.find("--");
            if (line.rfind("  -", 0) != 0 || pos == std::string::npos)
                continue;
            const std::string opt = line.substr(pos + 2, line.find_first_of(" =,", pos) - pos - 2);
            EXPECT_TRUE(contains(page, "\\-\\-" + opt)) << name << ": --" << opt;
        }
    }
}

TEST(Install, CompletionNamesEveryCommand) {
    const std::string script = source_file("completion/smcctl");
    ASSERT_FALSE(script.empty()) << "completion/smcctl is missing";
    const auto reg = script.find("complete -F _smcctl");
    ASSERT_NE(reg, std::string::npos);
    const std::string line = script.substr(reg, script.find('\n', reg) - reg) + " ";
    for (const auto& name : installed_names())
        EXPECT_TRUE(contains(line, " " + name + " ")) << name << " missing in: " << line;
}

TEST(Install, CompletionCompletes) {
    if (!have("bash"))
        GTEST_SKIP() << "bash not installed";
    const std::string script = std::string(SMCX_SOURCE_DIR) + "/completion/smcctl";
    EXPECT_TRUE(run("bash -n " + script).first);
    // COMPREPLY for a command line whose last word is being completed
    auto complete = [&](const std::string& words) {
        return run("bash -c 'source " + script + "; COMP_WORDS=(" + words +
                   "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=\"${COMP_WORDS[*]}\"; "
                   "_smcctl; printf \"%s\\n\" \"${COMPREPLY[@]}\" | sort'")
            .second;
    };
    EXPECT_EQ(complete("smcd s"), "seid\nstats\n");
    EXPECT_EQ(complete("smcr seid \"\""), "disable\nenable\nhelp\nshow\n");
    EXPECT_EQ(complete("smc_chk --c"), "--connect\n--count\n");
    EXPECT_EQ(complete("smc_rnics -"), "--all\n--help\n--json\n--rawids\n--version\n-a\n-h\n-j\n"
                                       "-r\n-v\n");
    EXPECT_EQ(complete("/usr/sbin/smcctl li"), "linkgroup\n");
}

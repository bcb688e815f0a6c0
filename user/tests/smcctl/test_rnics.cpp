// SPDX-License-Identifier: GPL-2.0
// smc_rnics: command line, reading a (fake) /sys/class/infiniband, merging SMC's device list,
// selection and formatting.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "rnics.hpp"

using namespace smcctl;
using namespace smcctl::test;
namespace fs = std::filesystem;

namespace {

// A temporary directory tree, removed with the object.
class TempTree {
public:
    TempTree() {
        std::string tmpl = (fs::temp_directory_path() / "smcctl-rnics-XXXXXX").string();
        if (!mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp failed");
        root_ = tmpl;
    }
    ~TempTree() {
        std::error_code ec;
        fs::remove_all(root_, ec);
    }
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;

    const fs::path& root() const { return root_; }
    void file(const fs::path& rel, const std::string& content) const {
        fs::create_directories((root_ / rel).parent_path());
        std::ofstream(root_ / rel) << content << '\n';
    }
    void link(const fs::path& rel, const fs::path& target) const {
        fs::create_directories((root_ / rel).parent_path());
        fs::create_directory_symlink(target, root_ / rel);
    }
    void port(const std::string& dev, int n, const std::string& state, const std::string& phys,
              const std::string& layer, const std::string& ndev = {}) const {
        const fs::path p = fs::path("class") / dev / "ports" / std::to_string(n);
        file(p / "state", state);
        file(p / "phys_state", phys);
        file(p / "link_layer", layer);
        if (!ndev.empty())
            file(p / "gid_attrs" / "ndevs" / "0", ndev);
    }

private:
    fs::path root_;
};

// rxe0 (soft-RoCE on eth0), mlx5_0 (PCI, two RoCE ports), mlx4_ib (InfiniBand), siw0
// (soft-iWARP on eth1).
void populate(const TempTree& t, std::uint16_t pci_device = 0x1016) {
    t.file("class/rxe0/node_type", "1: CA");
    t.file("class/rxe0/parent", "eth0");
    t.port("rxe0", 1, "4: ACTIVE", "5: LinkUp", "Ethernet");

    t.file("pci/0000:00:04.0/vendor", "0x15b3");
    char dev[16];
    std::snprintf(dev, sizeof(dev), "0x%04x", pci_device);
    t.file("pci/0000:00:04.0/device", dev);
    fs::create_directories(t.root() / "drivers/mlx5_core");
    t.link("pci/0000:00:04.0/driver", t.root() / "drivers/mlx5_core");
    t.file("class/mlx5_0/node_type", "1: CA");
    t.link("class/mlx5_0/device", t.root() / "pci/0000:00:04.0");
    t.port("mlx5_0", 2, "4: ACTIVE", "5: LinkUp", "Ethernet", "ens5");
    t.port("mlx5_0", 1, "1: DOWN", "3: Disabled", "Ethernet", "ens4");
    t.file("class/mlx5_0/ports/README", "not a port");

    t.file("class/mlx4_ib/node_type", "1: CA");
    t.port("mlx4_ib", 1, "4: ACTIVE", "5: LinkUp", "InfiniBand");

    t.file("class/siw0/node_type", "4: RNIC");
    t.file("class/siw0/parent", "eth1");
    t.port("siw0", 1, "4: ACTIVE", "5: LinkUp", "Ethernet");
}

DeviceTable smc_view() {
    DeviceTable t;
    Device rxe;
    rxe.ibdev = "rxe0";
    rxe.critical = true;
    DevicePort p;
    p.number = 1;
    p.pnetid = "SMCXLAB";
    p.pnetid_by_user = true;
    p.valid = true;
    p.active = true;
    p.links = 2; // and no netdev: sysfs's is shown
    rxe.ports.push_back(p);
    t.devices.push_back(rxe);
    Device mlx;
    mlx.ibdev = "mlx5_0";
    DevicePort q;
    q.number = 2;
    q.netdev = "ens5v";
    q.valid = true;
    q.active = false;
    mlx.ports.push_back(q);
    t.devices.push_back(mlx);
    Device gone; // SMC still lists a device sysfs no longer has
    gone.ibdev = "rxe9";
    t.devices.push_back(gone);
    return t;
}

} // namespace

TEST(RnicsCli, Forms) {
    EXPECT_EQ(personality_from_argv0("/usr/sbin/smc_rnics"), Personality::smc_rnics);
    EXPECT_EQ(as<cmd::RnicsShow>(parse({"smc_rnics"})), cmd::RnicsShow{});
    EXPECT_EQ(as<cmd::RnicsShow>(parse({"smc_rnics", "-ar"})), (cmd::RnicsShow{true, true}));
    EXPECT_EQ(as<cmd::RnicsShow>(parse({"smc_rnics", "--all", "--rawids"})),
              (cmd::RnicsShow{true, true}));
    EXPECT_TRUE(parse({"smc_rnics", "-j"}).opt.json);
    EXPECT_TRUE(parse({"smc_rnics", "--json"}).opt.json);
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smc_rnics", "-v"}).command));
    EXPECT_TRUE(contains(as<cmd::Help>(parse({"smc_rnics", "-h"})).text, "Usage: smc_rnics"));
}

TEST(RnicsCli, Errors) {
    EXPECT_TRUE(contains(usage_error_of({"smc_rnics", "-e", "1a"}), "s390 PCI functions"));
    EXPECT_TRUE(contains(usage_error_of({"smc_rnics", "--disable=1a"}), "s390 PCI functions"));
    EXPECT_TRUE(contains(usage_error_of({"smc_rnics", "-I"}), "unknown option"));
    EXPECT_TRUE(contains(usage_error_of({"smc_rnics", "rxe0"}), "unexpected argument"));
}

TEST(RnicsSysfs, ReadsDevicesAndPorts) {
    TempTree t;
    populate(t);
    const RnicTable r = rnics::read_sysfs(t.root() / "class");
    EXPECT_FALSE(r.smc_loaded);
    ASSERT_EQ(r.devices.size(), 4u);
    EXPECT_EQ(r.devices[0].name, "mlx4_ib");
    EXPECT_EQ(r.devices[1].name, "mlx5_0");
    EXPECT_EQ(r.devices[2].name, "rxe0");
    EXPECT_EQ(r.devices[3].name, "siw0");

    const Rnic& mlx = r.devices[1];
    EXPECT_EQ(mlx.node_type, "CA");
    EXPECT_EQ(mlx.driver, "mlx5_core");
    EXPECT_TRUE(mlx.parent.empty());
    ASSERT_TRUE(mlx.pci);
    EXPECT_EQ(mlx.pci->id, "0000:00:04.0");
    EXPECT_EQ(mlx.pci->vendor, 0x15b3);
    EXPECT_EQ(mlx.pci->device, 0x1016);
    ASSERT_EQ(mlx.ports.size(), 2u); // "README" is no port
    EXPECT_EQ(mlx.ports[0].number, 1);
    EXPECT_EQ(mlx.ports[0].state, "DOWN");
    EXPECT_EQ(mlx.ports[0].phys_state, "Disabled");
    EXPECT_EQ(mlx.ports[0].netdev, "ens4");
    EXPECT_EQ(mlx.ports[1].netdev, "ens5");
    EXPECT_FALSE(mlx.critical);

    const Rnic& rxe = r.devices[2];
    EXPECT_FALSE(rxe.pci);
    EXPECT_EQ(rxe.parent, "eth0");
    ASSERT_EQ(rxe.ports.size(), 1u);
    EXPECT_EQ(rxe.ports[0].netdev, "eth0"); // from the parent: no GID netdev file
    EXPECT_EQ(rxe.ports[0].state, "ACTIVE");
    EXPECT_EQ(rxe.ports[0].link_layer, "Ethernet");
    EXPECT_FALSE(rxe.ports[0].smc);
}

TEST(RnicsSysfs, MissingRootIsEmpty) {
    const RnicTable r = rnics::read_sysfs("/nonexistent/smcctl-test");
    EXPECT_TRUE(r.devices.empty());
    EXPECT_TRUE(contains(rnics::to_text(r, false), "No RDMA device"));
}

TEST(Rnics, Types) {
    TempTree t;
    populate(t);
    const RnicTable r = rnics::read_sysfs(t.root() / "class");
    EXPECT_EQ(rnics::type_of(r.devices[1], false), "RoCE_Express2");
    EXPECT_EQ(rnics::type_of(r.devices[1], true), "15b3:1016");
    EXPECT_EQ(rnics::type_of(r.devices[2], false), "soft-RoCE");
    EXPECT_EQ(rnics::type_of(r.devices[2], true), "soft-RoCE");
    EXPECT_EQ(rnics::type_of(r.devices[3], false), "soft-iWARP");
    EXPECT_EQ(rnics::type_of(r.devices[0], false), "-");

    TempTree other;
    populate(other, 0x1017); // an adapter without a name: its driver
    EXPECT_EQ(rnics::type_of(rnics::read_sysfs(other.root() / "class").devices[1], false),
              "mlx5_core");
}

TEST(Rnics, SelectKeepsRoceUnlessAll) {
    TempTree t;
    populate(t);
    const RnicTable r = rnics::read_sysfs(t.root() / "class");
    EXPECT_TRUE(rnics::is_roce(r.devices[2], r.devices[2].ports[0]));
    EXPECT_FALSE(rnics::is_roce(r.devices[0], r.devices[0].ports[0])); // InfiniBand
    EXPECT_FALSE(rnics::is_roce(r.devices[3], r.devices[3].ports[0])); // iWARP
    const RnicTable roce = rnics::select(r, false);
    ASSERT_EQ(roce.devices.size(), 2u);
    EXPECT_EQ(roce.devices[0].name, "mlx5_0");
    EXPECT_EQ(roce.devices[1].name, "rxe0");
    EXPECT_EQ(rnics::select(r, true).devices.size(), 4u);
}

TEST(Rnics, MergeSmcView) {
    TempTree t;
    populate(t);
    RnicTable r = rnics::read_sysfs(t.root() / "class");
    rnics::merge_smc(r, smc_view());
    EXPECT_TRUE(r.smc_loaded);
    const Rnic& rxe = r.devices[2];
    EXPECT_EQ(rxe.critical, true);
    ASSERT_TRUE(rxe.ports[0].smc);
    EXPECT_EQ(rxe.ports[0].smc->pnetid, "SMCXLAB");
    EXPECT_EQ(rxe.ports[0].netdev, "eth0"); // SMC named none: sysfs's stays
    const Rnic& mlx = r.devices[1];
    EXPECT_EQ(mlx.critical, false);
    EXPECT_FALSE(mlx.ports[0].smc); // SMC lists port 2 only
    ASSERT_TRUE(mlx.ports[1].smc);
    EXPECT_EQ(mlx.ports[1].netdev, "ens5v"); // SMC's netdev wins
    EXPECT_FALSE(r.devices[0].critical);     // not in SMC's list
}

TEST(Rnics, Text) {
    TempTree t;
    populate(t);
    RnicTable r = rnics::select(rnics::read_sysfs(t.root() / "class"), false);
    EXPECT_EQ(rnics::to_text(r, false),
              "IB-Dev  IB-P  Net-Dev  Link      State   Type           PCI-ID        PNET-ID  SMC\n"
              "mlx5_0     1  ens4     Disabled  DOWN    RoCE_Express2  0000:00:04.0  -        -\n"
              "mlx5_0     2  ens5     LinkUp    ACTIVE  RoCE_Express2  0000:00:04.0  -        -\n"
              "rxe0       1  eth0     LinkUp    ACTIVE  soft-RoCE      -             -        -\n");
    rnics::merge_smc(r, smc_view());
    EXPECT_EQ(rnics::to_text(r, true),
              "IB-Dev  IB-P  Net-Dev  Link      State   Type       PCI-ID        PNET-ID   SMC\n"
              "mlx5_0     1  ens4     Disabled  DOWN    15b3:1016  0000:00:04.0  -         no\n"
              "mlx5_0     2  ens5v    LinkUp    ACTIVE  15b3:1016  0000:00:04.0  -         "
              "inactive\n"
              "rxe0       1  eth0     LinkUp    ACTIVE  soft-RoCE  -             *SMCXLAB  yes\n");
}

TEST(Rnics, Json) {
    TempTree t;
    populate(t);
    RnicTable r = rnics::read_sysfs(t.root() / "class");
    rnics::merge_smc(r, smc_view());
    const std::string j = rnics::to_json(r);
    for (const char* key :
         {"\"smc_loaded\": true", "\"ib_device\": \"mlx4_ib\"", "\"link_layer\": \"InfiniBand\"",
          "\"roce\": false", "\"type\": \"RoCE_Express2\"", "\"driver\": \"mlx5_core\"",
          "\"pci\": {\n        \"id\": \"0000:00:04.0\",\n        \"vendor\": \"0x15b3\"",
          "\"parent\": \"eth0\"", "\"critical\": true", "\"critical\": null",
          "\"pnetid\": \"SMCXLAB\"", "\"pnetid_by_user\": true", "\"links\": 2", "\"smc\": null",
          "\"phys_state\": \"LinkUp\"", "\"node_type\": \"RNIC\""})
        EXPECT_TRUE(contains(j, key)) << key << "\n" << j;
}

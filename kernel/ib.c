// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA device tracking and RoCE port choice (see ib.h for the lifetime and
 * locking rules).
 *
 * Wire facts used here:
 *   - RoCE v2 (IB_GID_TYPE_ROCE_UDP_ENCAP) addresses a port by the IP
 *     address of its netdev: an IPv4 address a.b.c.d appears in the GID
 *     table as the IPv4-mapped IPv6 address ::ffff:a.b.c.d.  SMC-Rv2 sends
 *     that GID in its CLC messages and routes over IP, so the GID that
 *     carries the CLC socket's source address is the one to use.
 *   - RoCE v1 (IB_GID_TYPE_ROCE) is Ethernet-only; SMC-Rv1 needs a v1 GID
 *     of the egress netdev plus its MAC.  rxe exposes v2 GIDs only.
 *   - ib_core keeps one GID entry per (netdev, address, type); the entry's
 *     netdev is the VLAN device itself for VLAN addresses, so comparing the
 *     entry's netdev with the egress netdev also matches the VLAN.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/seq_file.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>

#include "ib.h"
#include "obj.h"
#include "pnet.h"

static LIST_HEAD(smcx_ib_devices);
static DEFINE_MUTEX(smcx_ib_mutex);		/* protects smcx_ib_devices */
static BLOCKING_NOTIFIER_HEAD(smcx_ib_chain);

static atomic_long_t smcx_ib_ndevs;		/* struct smcx_ibdev alive */
static atomic_long_t smcx_ib_refs;		/* references beyond the list's */

static struct dentry *smcx_ib_dbg, *smcx_ib_dbg_route;

long smcx_ib_count(void)
{
	return atomic_long_read(&smcx_ib_ndevs);
}

long smcx_ib_user_refs(void)
{
	return atomic_long_read(&smcx_ib_refs);
}

/* -- references ---------------------------------------------------------- */

static void smcx_ibdev_release(struct kref *ref)
{
	struct smcx_ibdev *d = container_of(ref, struct smcx_ibdev, ref);

	/* only the remove path frees: it waits for this, then kfree()s */
	complete(&d->released);
}

struct smcx_ibdev *smcx_ibdev_get(struct smcx_ibdev *d)
{
	kref_get(&d->ref);
	atomic_long_inc(&smcx_ib_refs);
	return d;
}

void smcx_ibdev_put(struct smcx_ibdev *d)
{
	if (!d)
		return;
	atomic_long_dec(&smcx_ib_refs);
	kref_put(&d->ref, smcx_ibdev_release);
}

const char *smcx_ibdev_name(const struct smcx_ibdev *d)
{
	return dev_name(&d->ibdev->dev);
}

struct smcx_ibdev *smcx_ibdev_nth(unsigned int n)
{
	struct smcx_ibdev *d, *found = NULL;

	mutex_lock(&smcx_ib_mutex);
	list_for_each_entry(d, &smcx_ib_devices, list) {
		if (!n--) {
			found = smcx_ibdev_get(d);
			break;
		}
	}
	mutex_unlock(&smcx_ib_mutex);
	return found;
}

/* -- ports --------------------------------------------------------------- */

static struct smcx_ibport *smcx_ibport(struct smcx_ibdev *d, u32 port)
{
	if (port < 1 || port > d->nports)
		return NULL;
	return &d->port[port - 1];
}

bool smcx_ibport_active(struct smcx_ibdev *d, u32 port)
{
	enum ib_port_state state;

	if (!smcx_ibport(d, port))
		return false;
	if (ib_get_cached_port_state(d->ibdev, port, &state))
		return false;
	return state == IB_PORT_ACTIVE;
}

/*
 * ib_core updates its port cache from a work item after the netdev event,
 * so for a moment after `ip link set down` the cache still says ACTIVE
 * while the netdev has stopped (and, virtio-net for one, keeps the packets
 * it had queued until it is opened again).  The netdev's own state has no
 * such delay.
 */
bool smcx_ibport_sending(struct smcx_ibdev *d, u32 port)
{
	struct net_device *ndev;
	bool up;

	if (!smcx_ibport_active(d, port))
		return false;
	ndev = ib_device_get_netdev(d->ibdev, port);
	if (!ndev)
		return false;
	up = netif_running(ndev) && netif_carrier_ok(ndev);
	dev_put(ndev);
	return up;
}

int smcx_ibport_ifindex(struct smcx_ibdev *d, u32 port)
{
	struct net_device *ndev;
	int ifindex;

	if (!smcx_ibport(d, port))
		return 0;
	/* works for drivers without ops.get_netdev (rxe) too */
	ndev = ib_device_get_netdev(d->ibdev, port);
	if (!ndev)
		return 0;
	ifindex = ndev->ifindex;
	dev_put(ndev);
	return ifindex;
}

void smcx_ibdev_link_add(struct smcx_ibdev *d, u32 port)
{
	struct smcx_ibport *p = smcx_ibport(d, port);

	smcx_ibdev_get(d);
	atomic_inc(&d->links);
	if (p)
		atomic_inc(&p->links);
}

void smcx_ibdev_link_del(struct smcx_ibdev *d, u32 port)
{
	struct smcx_ibport *p = smcx_ibport(d, port);

	if (p)
		atomic_dec(&p->links);
	atomic_dec(&d->links);
	smcx_ibdev_put(d);
}

/* -- route choice -------------------------------------------------------- */

/*
 * Scan one port's GID table for an entry of @type on @ndev (and, for v2,
 * equal to @want, or any v4-mapped one when @want is NULL).  Fills
 * gid/index of @out on success.
 */
static bool smcx_ib_find_gid(struct smcx_ibdev *d, struct smcx_ibport *p,
			     struct net_device *ndev,
			     const struct in6_addr *want,
			     enum ib_gid_type type, struct smcx_ib_choice *out)
{
	const struct ib_gid_attr *attr;
	struct net_device *gid_ndev;
	bool match;
	u32 i;

	/*
	 * A given RoCE v2 GID: ib_core's lookup, one walk of the table under
	 * its lock, instead of a reference taken and dropped on each of its
	 * entries (rxe has 1024: most of a connection's setup cost where no
	 * port carries the address, as on a veth pair)
	 */
	if (want && type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
		attr = rdma_find_gid_by_port(d->ibdev, (const union ib_gid *)want,
					     type, p->num, ndev);
		if (IS_ERR(attr))
			return false;
		out->gid = attr->gid;
		out->gid_index = attr->index;
		out->gid_type = attr->gid_type;
		rdma_put_gid_attr(attr);
		return true;
	}
	for (i = 0; i < p->gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(d->ibdev, p->num, i);
		if (IS_ERR(attr))
			continue;	/* empty slot */
		match = attr->gid_type == type;
		if (match && type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
			const struct in6_addr *a = (const void *)attr->gid.raw;

			match = want ? ipv6_addr_equal(a, want) :
				ipv6_addr_v4mapped(a);
		}
		if (match) {
			rcu_read_lock();
			gid_ndev = rdma_read_gid_attr_ndev_rcu(attr);
			match = !IS_ERR(gid_ndev) && gid_ndev == ndev;
			rcu_read_unlock();
		}
		if (match) {
			out->gid = attr->gid;
			out->gid_index = attr->index;
			out->gid_type = attr->gid_type;
		}
		rdma_put_gid_attr(attr);
		if (match)
			return true;
	}
	return false;
}

int smcx_ib_choose_gid(struct net_device *ndev, const struct in6_addr *gid,
		       enum smcx_roce_ver ver, const struct smcx_ibdev *skip,
		       struct smcx_ib_choice *out)
{
	enum ib_gid_type type = ver == SMCX_ROCE_V2 ?
		IB_GID_TYPE_ROCE_UDP_ENCAP : IB_GID_TYPE_ROCE;
	char port_pnetid[SMCX_PNETID_LEN + 1];
	struct smcx_ibdev *d;
	bool has_pnetid;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	has_pnetid = !smcx_pnet_ndev_pnetid(ndev, out->pnetid);
	ether_addr_copy(out->mac, ndev->dev_addr);

	mutex_lock(&smcx_ib_mutex);
	list_for_each_entry(d, &smcx_ib_devices, list) {
		if (d == skip || d->removing)
			continue;
		/* a device bound to another namespace (rdma exclusive mode) */
		if (!rdma_dev_access_netns(d->ibdev, dev_net(ndev)))
			continue;
		for (i = 0; i < d->nports; i++) {
			struct smcx_ibport *p = &d->port[i];

			if (!p->roce || !smcx_ibport_active(d, p->num))
				continue;
			if (has_pnetid &&
			    (smcx_pnet_ib_pnetid(d->ibdev, p->num, port_pnetid) ||
			     strcmp(port_pnetid, out->pnetid)))
				continue;
			if (!smcx_ib_find_gid(d, p, ndev, gid, type, out))
				continue;
			out->dev = smcx_ibdev_get(d);
			out->port = p->num;
			mutex_unlock(&smcx_ib_mutex);
			return 0;
		}
	}
	mutex_unlock(&smcx_ib_mutex);
	return -ENODEV;
}

int smcx_ib_choose(struct net_device *ndev, __be32 saddr,
		   enum smcx_roce_ver ver, const struct smcx_ibdev *skip,
		   struct smcx_ib_choice *out)
{
	struct in6_addr gid;

	ipv6_addr_set_v4mapped(saddr, &gid);
	return smcx_ib_choose_gid(ndev, saddr ? &gid : NULL, ver, skip, out);
}

void smcx_ib_choice_release(struct smcx_ib_choice *c)
{
	smcx_ibdev_put(c->dev);
	c->dev = NULL;
}

/* -- events -------------------------------------------------------------- */

int smcx_ib_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&smcx_ib_chain, nb);
}

void smcx_ib_notifier_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&smcx_ib_chain, nb);
}

static void smcx_ib_notify(enum smcx_ib_event_type type,
			   struct smcx_ibdev *d, u32 port)
{
	struct smcx_ib_event ev = { .dev = d, .port = port };

	blocking_notifier_call_chain(&smcx_ib_chain, type, &ev);
}

static const char *smcx_port_state_name(enum ib_port_state s)
{
	switch (s) {
	case IB_PORT_NOP:		return "NOP";
	case IB_PORT_DOWN:		return "DOWN";
	case IB_PORT_INIT:		return "INIT";
	case IB_PORT_ARMED:		return "ARMED";
	case IB_PORT_ACTIVE:		return "ACTIVE";
	case IB_PORT_ACTIVE_DEFER:	return "ACTIVE_DEFER";
	}
	return "UNKNOWN";
}

/*
 * Process-context half of the event handler: compare each flagged port's
 * state with the last one announced and tell the chain about transitions.
 */
static void smcx_ib_port_work(struct work_struct *work)
{
	struct smcx_ibdev *d = container_of(work, struct smcx_ibdev, port_work);
	enum ib_port_state state;
	unsigned int i;
	bool was, now;

	for (i = 0; i < d->nports; i++) {
		struct smcx_ibport *p = &d->port[i];

		if (test_and_clear_bit(i, &d->state_pending)) {
			if (ib_get_cached_port_state(d->ibdev, p->num, &state))
				state = IB_PORT_DOWN;
			was = p->state == IB_PORT_ACTIVE;
			now = state == IB_PORT_ACTIVE;
			p->state = state;
			if (was != now) {
				pr_info("%s port %u %s\n", smcx_ibdev_name(d),
					p->num, smcx_port_state_name(state));
				smcx_ib_notify(now ? SMCX_IB_EV_PORT_ACTIVE :
						     SMCX_IB_EV_PORT_DOWN,
					       d, p->num);
			}
		}
		if (test_and_clear_bit(i, &d->gid_pending))
			smcx_ib_notify(SMCX_IB_EV_GID_CHANGE, d, p->num);
	}
}

/* ib_core's async event callback: may run in atomic context, so only flag */
static void smcx_ib_event(struct ib_event_handler *h, struct ib_event *ev)
{
	struct smcx_ibdev *d = container_of(h, struct smcx_ibdev, evh);
	u32 port = ev->element.port_num;
	unsigned int i;

	switch (ev->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
		if (port >= 1 && port <= d->nports)
			set_bit(port - 1, &d->state_pending);
		break;
	case IB_EVENT_GID_CHANGE:
		if (port >= 1 && port <= d->nports)
			set_bit(port - 1, &d->gid_pending);
		break;
	case IB_EVENT_DEVICE_FATAL:
		for (i = 0; i < d->nports; i++)
			set_bit(i, &d->state_pending);
		break;
	default:
		return;
	}
	schedule_work(&d->port_work);
}

/* -- the ib_client -------------------------------------------------------- */

static struct ib_client smcx_ib_client;

static int smcx_ib_add(struct ib_device *ibdev)
{
	struct ib_port_attr attr;
	struct smcx_ibdev *d;
	unsigned int i;

	/* SMC-R runs on channel adapters only (no switches, no iWARP) */
	if (ibdev->node_type != RDMA_NODE_IB_CA)
		return -EOPNOTSUPP;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->ibdev = ibdev;
	kref_init(&d->ref);
	init_completion(&d->released);
	INIT_WORK(&d->port_work, smcx_ib_port_work);
	atomic_set(&d->links, 0);
	d->nports = min_t(u32, rdma_end_port(ibdev), SMCX_IB_MAX_PORTS);
	for (i = 0; i < d->nports; i++) {
		struct smcx_ibport *p = &d->port[i];

		p->num = i + 1;
		atomic_set(&p->links, 0);
		p->roce = rdma_protocol_roce(ibdev, p->num);
		p->state = IB_PORT_NOP;
		if (!ib_query_port(ibdev, p->num, &attr)) {
			p->gid_tbl_len = attr.gid_tbl_len;
			p->state = attr.state;
		}
	}
	atomic_long_inc(&smcx_ib_ndevs);

	INIT_IB_EVENT_HANDLER(&d->evh, ibdev, smcx_ib_event);
	ib_register_event_handler(&d->evh);
	ib_set_client_data(ibdev, &smcx_ib_client, d);

	mutex_lock(&smcx_ib_mutex);
	list_add_tail(&d->list, &smcx_ib_devices);
	mutex_unlock(&smcx_ib_mutex);

	for (i = 0; i < d->nports; i++)
		pr_info("%s port %u: %s, %s\n", smcx_ibdev_name(d), i + 1,
			d->port[i].roce ? "RoCE" : "not RoCE",
			smcx_port_state_name(d->port[i].state));
	smcx_ib_notify(SMCX_IB_EV_ADD, d, 0);
	return 0;
}

static void smcx_ib_remove(struct ib_device *ibdev, void *client_data)
{
	struct smcx_ibdev *d = client_data;
	unsigned long left;

	if (!d)
		return;
	mutex_lock(&smcx_ib_mutex);
	list_del_init(&d->list);
	WRITE_ONCE(d->removing, true);	/* before the REMOVE below: lgr.c */
	/* before the sweep reads link states: pairs with smcx_link_init() */
	smp_mb();
	mutex_unlock(&smcx_ib_mutex);

	/* no handler runs once unregistered; then no work can be requeued */
	ib_unregister_event_handler(&d->evh);
	cancel_work_sync(&d->port_work);

	/* users (links, pnet entries) let go now ... */
	smcx_ib_notify(SMCX_IB_EV_REMOVE, d, 0);

	/*
	 * ... and ib_core frees the device only after we return.  What we
	 * wait for ends by itself: every link group on the device was
	 * terminated above or is refused from here on (lgr.c: create, find
	 * and publish check ->removing), a handshake holds its route choice
	 * for one bounded lookup, and terminate drops the group's device
	 * reference without waiting for its connections.
	 */
	kref_put(&d->ref, smcx_ibdev_release);
	while (!(left = wait_for_completion_timeout(&d->released, 10 * HZ)))
		pr_warn("%s removal waits for %u reference(s), %d link(s)\n",
			dev_name(&ibdev->dev), kref_read(&d->ref),
			atomic_read(&d->links));
	pr_info("%s removed\n", dev_name(&ibdev->dev));
	kfree(d);
	atomic_long_dec(&smcx_ib_ndevs);
}

static struct ib_client smcx_ib_client = {
	.name = KBUILD_MODNAME,
	.add = smcx_ib_add,
	.remove = smcx_ib_remove,
};

/* -- debugfs: one line per device port ----------------------------------- */

static void smcx_ib_show_gids(struct seq_file *m, struct smcx_ibdev *d,
			      struct smcx_ibport *p)
{
	const struct ib_gid_attr *attr;
	bool any = false;
	u32 i;

	for (i = 0; i < p->gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(d->ibdev, p->num, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
			seq_printf(m, "%s%u=%pI6c", any ? "," : " v2=", i,
				   attr->gid.raw);
			any = true;
		}
		rdma_put_gid_attr(attr);
	}
	if (!any)
		seq_puts(m, " v2=-");
}

static int smcx_ib_devices_show(struct seq_file *m, void *v)
{
	enum ib_port_state state;
	struct smcx_ibdev *d;
	struct net_device *ndev;
	unsigned int n, i;

	seq_puts(m, "# device port state netdev links pnetid v2=index=gid,...\n");
	for (n = 0; (d = smcx_ibdev_nth(n)); n++) {
		for (i = 0; i < d->nports; i++) {
			struct smcx_ibport *p = &d->port[i];
			char pnetid[SMCX_PNETID_LEN + 1];

			if (ib_get_cached_port_state(d->ibdev, p->num, &state))
				state = IB_PORT_NOP;
			ndev = ib_device_get_netdev(d->ibdev, p->num);
			if (smcx_pnet_ib_pnetid(d->ibdev, p->num, pnetid))
				strscpy(pnetid, "-", sizeof(pnetid));
			seq_printf(m, "%s %u %s %s %d %s", smcx_ibdev_name(d),
				   p->num, smcx_port_state_name(state),
				   ndev ? netdev_name(ndev) : "-",
				   atomic_read(&p->links), pnetid);
			dev_put(ndev);
			smcx_ib_show_gids(m, d, p);
			seq_putc(m, '\n');
		}
		smcx_ibdev_put(d);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smcx_ib_devices);

/*
 * debugfs "route": the route choice on demand, for tests.  Write
 * "IFNAME A.B.C.D v1|v2" (the address may be 0.0.0.0 for "any"), read the
 * answer: "DEVICE PORT GID_INDEX GID PNETID" or "error -19".  The netdev is
 * looked up in the writer's network namespace.
 *
 * "hold IFNAME A.B.C.D v1|v2" also keeps a stand-in link on the chosen port,
 * the way the link layer will (smcx_ibdev_link_add), and "release" drops it.
 * The device's REMOVE event drops it too, as a link layer must: tests use it
 * to check that removal waits for, and gets, every reference back.
 */
static DEFINE_MUTEX(smcx_ib_route_mutex);	/* the answer and the held link */
static char smcx_ib_route_answer[128] = "none\n";
static struct smcx_ibdev *smcx_ib_held;		/* referenced by its link */
static u32 smcx_ib_held_port;

static void smcx_ib_release_held(void)
{
	lockdep_assert_held(&smcx_ib_route_mutex);
	if (smcx_ib_held)
		smcx_ibdev_link_del(smcx_ib_held, smcx_ib_held_port);
	smcx_ib_held = NULL;
}

static int smcx_ib_held_event(struct notifier_block *nb, unsigned long event,
			      void *data)
{
	struct smcx_ib_event *ev = data;

	if (event != SMCX_IB_EV_REMOVE)
		return NOTIFY_DONE;
	mutex_lock(&smcx_ib_route_mutex);
	if (smcx_ib_held == ev->dev)
		smcx_ib_release_held();
	mutex_unlock(&smcx_ib_route_mutex);
	return NOTIFY_OK;
}

static struct notifier_block smcx_ib_held_nb = {
	.notifier_call = smcx_ib_held_event,
};

static ssize_t smcx_ib_route_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char buf[64], ifname[IFNAMSIZ], addr[16], ver[4];
	struct smcx_ib_choice c;
	struct net_device *ndev;
	const char *q = buf;
	bool hold = false;
	__be32 saddr;
	int rc;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sysfs_streq(buf, "release")) {
		mutex_lock(&smcx_ib_route_mutex);
		smcx_ib_release_held();
		mutex_unlock(&smcx_ib_route_mutex);
		return len;
	}
	if (!strncmp(buf, "hold ", 5)) {
		hold = true;
		q += 5;
	}
	if (sscanf(q, "%15s %15s %3s", ifname, addr, ver) != 3 ||
	    !in4_pton(addr, -1, (u8 *)&saddr, -1, NULL) ||
	    (strcmp(ver, "v1") && strcmp(ver, "v2")))
		return -EINVAL;
	ndev = dev_get_by_name(current->nsproxy->net_ns, ifname);
	if (!ndev)
		return -ENODEV;
	rc = smcx_ib_choose(ndev, saddr,
			    ver[1] == '2' ? SMCX_ROCE_V2 : SMCX_ROCE_V1, NULL, &c);
	dev_put(ndev);
	mutex_lock(&smcx_ib_route_mutex);
	if (rc) {
		snprintf(smcx_ib_route_answer, sizeof(smcx_ib_route_answer),
			 "error %d\n", rc);
	} else {
		snprintf(smcx_ib_route_answer, sizeof(smcx_ib_route_answer),
			 "%s %u %u %pI6c %s\n", smcx_ibdev_name(c.dev), c.port,
			 c.gid_index, c.gid.raw, c.pnetid[0] ? c.pnetid : "-");
		if (hold && !smcx_ib_held) {
			smcx_ibdev_link_add(c.dev, c.port);
			smcx_ib_held = c.dev;
			smcx_ib_held_port = c.port;
		} else if (hold) {
			rc = -EBUSY;
		}
		smcx_ib_choice_release(&c);
	}
	mutex_unlock(&smcx_ib_route_mutex);
	return rc == -EBUSY ? rc : len;
}

static int smcx_ib_route_show(struct seq_file *m, void *v)
{
	mutex_lock(&smcx_ib_route_mutex);
	seq_puts(m, smcx_ib_route_answer);
	mutex_unlock(&smcx_ib_route_mutex);
	return 0;
}

static int smcx_ib_route_open(struct inode *inode, struct file *file)
{
	return single_open(file, smcx_ib_route_show, NULL);
}

static const struct file_operations smcx_ib_route_fops = {
	.owner = THIS_MODULE,
	.open = smcx_ib_route_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = smcx_ib_route_write,
};

/*
 * The files go into the module's debugfs directory, which obj.c owns and
 * creates before we run (main.c's order); without it we go without.  They
 * read the PNET tables, so main.c makes them after smcx_pnet_init() and
 * removes them before smcx_pnet_exit().
 */
void smcx_ib_debugfs_init(void)
{
	struct dentry *dir = smcx_debugfs_dir();

	if (!dir)
		return;
	smcx_ib_dbg = debugfs_create_file("devices", 0444, dir, NULL,
					  &smcx_ib_devices_fops);
	if (IS_ERR(smcx_ib_dbg))
		smcx_ib_dbg = NULL;
	smcx_ib_dbg_route = debugfs_create_file("route", 0600, dir, NULL,
						&smcx_ib_route_fops);
	if (IS_ERR(smcx_ib_dbg_route))
		smcx_ib_dbg_route = NULL;
}

int smcx_ib_init(void)
{
	int rc;

	smcx_ib_notifier_register(&smcx_ib_held_nb);
	rc = ib_register_client(&smcx_ib_client);
	if (rc) {
		pr_err("cannot register as ib_client: %d\n", rc);
		smcx_ib_notifier_unregister(&smcx_ib_held_nb);
		return rc;
	}
	return 0;
}

/* removal waits for a reader or writer of the files in progress */
void smcx_ib_debugfs_exit(void)
{
	debugfs_remove(smcx_ib_dbg_route);
	debugfs_remove(smcx_ib_dbg);
	smcx_ib_dbg = NULL;
	smcx_ib_dbg_route = NULL;
}

void smcx_ib_exit(void)
{
	/* removes every device, each waiting for its users */
	ib_unregister_client(&smcx_ib_client);
	smcx_ib_notifier_unregister(&smcx_ib_held_nb);
	if (smcx_ib_count() || smcx_ib_user_refs())
		pr_err("BUG: %ld device(s), %ld reference(s) left at exit\n",
		       smcx_ib_count(), smcx_ib_user_refs());
}

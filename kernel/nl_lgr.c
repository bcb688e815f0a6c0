// SPDX-License-Identifier: GPL-2.0
/*
 * The link-group dumps of SMC_GEN_NETLINK: GET_LGR_SMCR and GET_LINK_SMCR
 * (SMC-R groups), GET_LGR_SMCD (SMC-D groups over the loopback device) and
 * GET_DEV_SMCD (that device) in mainline's attribute nesting, and whether
 * a device is critical (a link group depends on it alone).  They read the link groups through
 * smcx_lgr_for_each(), which keeps each one alive while it is dumped; the
 * family is registered after the link-group layer is up and unregistered
 * before it goes (main.c), so nothing here can outlive it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/unaligned.h>
#include <net/genetlink.h>

#include "lgr.h"
#include "lo.h"
#include "netlink.h"
#include "stats.h"

static int smcx_nl_gid(struct sk_buff *skb, int attr, const u8 *gid)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x",
		 get_unaligned_be16(gid), get_unaligned_be16(gid + 2),
		 get_unaligned_be16(gid + 4), get_unaligned_be16(gid + 6),
		 get_unaligned_be16(gid + 8), get_unaligned_be16(gid + 10),
		 get_unaligned_be16(gid + 12), get_unaligned_be16(gid + 14));
	return nla_put_string(skb, attr, buf);
}

/* a fixed-size text field as a NUL-terminated string */
static int smcx_nl_text(struct sk_buff *skb, int attr, const u8 *p, size_t n)
{
	char buf[40];

	n = min(n, sizeof(buf) - 1);
	memcpy(buf, p, n);
	buf[n] = 0;
	return nla_put_string(skb, attr, buf);
}

/* the v2 facts both kinds of group share, nested in @attr */
static int smcx_nl_lgr_v2_common(struct sk_buff *skb, struct smcx_lgr *lgr,
				 int attr)
{
	struct nlattr *v2 = nla_nest_start(skb, attr);

	if (!v2)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_LGR_V2_VER, lgr->version) ||
	    nla_put_u8(skb, SMC_NLA_LGR_V2_REL, lgr->v2x.release) ||
	    nla_put_u8(skb, SMC_NLA_LGR_V2_OS, lgr->peer_os) ||
	    smcx_nl_text(skb, SMC_NLA_LGR_V2_NEG_EID, lgr->neg_eid,
			 SMCX_EID_LEN) ||
	    smcx_nl_text(skb, SMC_NLA_LGR_V2_PEER_HOST, lgr->peer_host,
			 SMCX_HOSTNAME_LEN)) {
		nla_nest_cancel(skb, v2);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, v2);
	return 0;
}

static int smcx_nl_put_lgr(struct sk_buff *skb, struct netlink_callback *cb,
			   struct smcx_lgr *lgr)
{
	struct nlattr *a, *v2;
	void *hdr;

	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_LGR_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	a = nla_nest_start(skb, SMC_GEN_LGR_SMCR);
	if (!a)
		goto cancel;
	if (nla_put_u32(skb, SMC_NLA_LGR_R_ID, get_unaligned((u32 *)lgr->id)) ||
	    nla_put_u32(skb, SMC_NLA_LGR_R_CONNS_NUM, lgr->conns_num) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_ROLE, lgr->role == SMCX_SRV ? 1 : 0) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_TYPE, smcx_lgr_type(lgr)) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_BUF_TYPE, 0 /* physically contiguous */) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_VLAN_ID, 0) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_R_NET_COOKIE,
			      lgr->net->net_cookie,
			      SMC_NLA_LGR_R_PAD) ||
	    nla_put_string(skb, SMC_NLA_LGR_R_PNETID, "") ||
	    nla_put_uint(skb, SMC_NLA_LGR_R_SNDBUF_ALLOC,
			 READ_ONCE(lgr->buf_alloc[0])) ||
	    nla_put_uint(skb, SMC_NLA_LGR_R_RMB_ALLOC,
			 READ_ONCE(lgr->buf_alloc[1])))
		goto cancel_nest;
	if (smcx_nl_lgr_v2_common(skb, lgr, SMC_NLA_LGR_R_V2_COMMON))
		goto cancel_nest;
	v2 = nla_nest_start(skb, SMC_NLA_LGR_R_V2);
	if (!v2)
		goto cancel_nest;
	if (nla_put_u8(skb, SMC_NLA_LGR_R_V2_DIRECT, lgr->v2_direct) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_V2_MAX_CONNS, lgr->v2x.max_conns) ||
	    nla_put_u8(skb, SMC_NLA_LGR_R_V2_MAX_LINKS, lgr->v2x.max_links)) {
		nla_nest_cancel(skb, v2);
		goto cancel_nest;
	}
	nla_nest_end(skb, v2);
	nla_nest_end(skb, a);
	genlmsg_end(skb, hdr);
	return 0;
cancel_nest:
	nla_nest_cancel(skb, a);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * One usable link @lnk of @lgr, a message of its own as mainline's.  The
 * device is read inside a section of smcx_link_enter() (link.h): link
 * clear may run at any time, and the device reference behind lnk->ibdev
 * goes with it.  A link that stopped being usable is left out.
 */
static int smcx_nl_put_link(struct sk_buff *skb, struct netlink_callback *cb,
			    struct smcx_lgr *lgr, struct smcx_link *lnk)
{
	char ibname[IB_DEVICE_NAME_MAX];
	struct net_device *ndev;
	struct nlattr *a;
	void *hdr;
	int ifindex = 0;

	if (!smcx_link_enter(lnk, SMCX_LNK_MAPPED))
		return 0;
	if (!smcx_link_usable(lnk)) {
		smcx_link_leave(lnk);
		return 0;
	}
	strscpy(ibname, dev_name(&lnk->ibdev->dev), sizeof(ibname));
	ndev = ib_device_get_netdev(lnk->ibdev, lnk->port);
	smcx_link_leave(lnk);
	if (ndev) {
		ifindex = ndev->ifindex;
		dev_put(ndev);
	}
	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_LINK_SMCR);
	if (!hdr)
		return -EMSGSIZE;
	a = nla_nest_start(skb, SMC_GEN_LINK_SMCR);
	if (!a)
		goto cancel;
	if (nla_put_u8(skb, SMC_NLA_LINK_ID, lnk->link_id) ||
	    nla_put_u32(skb, SMC_NLA_LINK_STATE,
			lnk->state == SMCX_LNK_ACTIVE ? 3 /* ACTIVE */ :
			lnk->state == SMCX_LNK_INIT ? 2 /* ACTIVATING */ :
						      1 /* INACTIVE */) ||
	    nla_put_u32(skb, SMC_NLA_LINK_CONN_CNT,
			atomic_read(&lnk->conn_cnt)) ||
	    nla_put_u8(skb, SMC_NLA_LINK_IB_PORT, lnk->port) ||
	    nla_put_string(skb, SMC_NLA_LINK_IB_DEV, ibname) ||
	    nla_put_u32(skb, SMC_NLA_LINK_NET_DEV, ifindex) ||
	    nla_put_u32(skb, SMC_NLA_LINK_UID,
			get_unaligned((u32 *)lnk->link_uid)) ||
	    nla_put_u32(skb, SMC_NLA_LINK_PEER_UID,
			get_unaligned((u32 *)lnk->peer_link_uid)) ||
	    smcx_nl_gid(skb, SMC_NLA_LINK_GID, lnk->gid) ||
	    smcx_nl_gid(skb, SMC_NLA_LINK_PEER_GID, lnk->peer_gid))
		goto cancel_nest;
	nla_nest_end(skb, a);
	genlmsg_end(skb, hdr);
	return 0;
cancel_nest:
	nla_nest_cancel(skb, a);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * One SMC-D group @lgr, as mainline's smc_nl_fill_smcd_lgr() fills it.
 * The peer is this host, so both GIDs are the loopback device's; no VLAN
 * and no PNET ID (the device has none).  The CHID goes as a u32, as
 * mainline puts it (the uapi comment says u16; readers take the low half).
 * The peer facts are set at first contact (join_d.c), before the group
 * has a connection anyone could see; mainline reads them unlocked too.
 */
static int smcx_nl_put_lgr_d(struct sk_buff *skb, struct netlink_callback *cb,
			     struct smcx_lgr *lgr)
{
	struct nlattr *a;
	void *hdr;

	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_LGR_SMCD);
	if (!hdr)
		return -EMSGSIZE;
	a = nla_nest_start(skb, SMC_GEN_LGR_SMCD);
	if (!a)
		goto cancel;
	if (nla_put_u32(skb, SMC_NLA_LGR_D_ID, get_unaligned((u32 *)lgr->id)) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_D_GID, smcx_lo_gid.gid,
			      SMC_NLA_LGR_D_PAD) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_D_EXT_GID, smcx_lo_gid.gid_ext,
			      SMC_NLA_LGR_D_PAD) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_D_PEER_GID, smcx_lo_gid.gid,
			      SMC_NLA_LGR_D_PAD) ||
	    nla_put_u64_64bit(skb, SMC_NLA_LGR_D_PEER_EXT_GID,
			      smcx_lo_gid.gid_ext, SMC_NLA_LGR_D_PAD) ||
	    nla_put_u8(skb, SMC_NLA_LGR_D_VLAN_ID, 0) ||
	    nla_put_u32(skb, SMC_NLA_LGR_D_CONNS_NUM, lgr->conns_num) ||
	    nla_put_u32(skb, SMC_NLA_LGR_D_CHID, SMCX_LO_CHID) ||
	    nla_put_string(skb, SMC_NLA_LGR_D_PNETID, "") ||
	    nla_put_uint(skb, SMC_NLA_LGR_D_SNDBUF_ALLOC,
			 READ_ONCE(lgr->buf_alloc[0])) ||
	    nla_put_uint(skb, SMC_NLA_LGR_D_DMB_ALLOC,
			 READ_ONCE(lgr->buf_alloc[1])))
		goto cancel_nest;
	if (smcx_nl_lgr_v2_common(skb, lgr, SMC_NLA_LGR_D_V2_COMMON))
		goto cancel_nest;
	nla_nest_end(skb, a);
	genlmsg_end(skb, hdr);
	return 0;
cancel_nest:
	nla_nest_cancel(skb, a);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* where a dump stands: link groups fully dumped so far and the resume point */
struct smcx_nl_lgr_walk {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	struct net *net;
	long i, from;
	bool links;
	bool smcd;		/* GET_LGR_SMCD: the SMC-D groups instead */
};

static int smcx_nl_dump_one(struct smcx_lgr *lgr, void *arg)
{
	struct smcx_nl_lgr_walk *w = arg;
	struct sk_buff *skb = w->skb;
	struct smcx_link *lnk;
	int mark = skb->len;

	if (lgr->dead || lgr->smcd != w->smcd || !net_eq(lgr->net, w->net))
		return 0;
	if (w->i++ < w->from)
		return 0;
	if (w->smcd ? smcx_nl_put_lgr_d(skb, w->cb, lgr) :
		      smcx_nl_put_lgr(skb, w->cb, lgr))
		goto full;
	/* a group and its links go into one skb or wait for the next */
	if (w->links)
		for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
		     lnk = smcx_lgr_next_link(lgr, lnk))
			if (smcx_nl_put_link(skb, w->cb, lgr, lnk))
				goto full;
	return 0;
full:
	nlmsg_trim(skb, skb->data + mark);
	w->i--;
	return 1;		/* full: the next call resumes here */
}

/* cb->args[0]: link groups fully dumped so far (resume position) */
static int smcx_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
			bool links, bool smcd)
{
	struct smcx_nl_lgr_walk w = {
		.skb = skb,
		.cb = cb,
		.net = sock_net(skb->sk),
		.from = cb->args[0],
		.links = links,
		.smcd = smcd,
	};

	smcx_lgr_for_each(smcx_nl_dump_one, &w);
	cb->args[0] = w.i;
	return skb->len;
}

int smcx_nl_dump_lgr(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcx_nl_dump(skb, cb, false, false);
}

int smcx_nl_dump_link(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcx_nl_dump(skb, cb, true, false);
}

int smcx_nl_dump_lgr_d(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcx_nl_dump(skb, cb, false, true);
}

/* does @lgr depend on @dev alone (its usable links are all on it)? */
static int smcx_nl_uses_dev(struct smcx_lgr *lgr, void *dev)
{
	struct smcx_ibdev *d = dev;
	struct smcx_link *lnk;
	int n = 0;

	if (lgr->dead)
		return 0;
	for (lnk = smcx_lgr_next_link(lgr, NULL); lnk;
	     lnk = smcx_lgr_next_link(lgr, lnk)) {
		if (lnk->dev != d)
			return 0;
		n++;
	}
	return n > 0;
}

/* critical: a link group would end with @dev (all its links are on it) */
bool smcx_nl_dev_critical(struct smcx_ibdev *dev)
{
	return smcx_lgr_for_each(smcx_nl_uses_dev, dev) > 0;
}

/* -- the loopback device (lo.h) ------------------------------------------- */

bool smcx_nl_lo_present(void)
{
	/* made at load; it serves only while the SMC data path is on */
	return READ_ONCE(smcx_smcr_enabled);
}

static int smcx_nl_count_d(struct smcx_lgr *lgr, void *arg)
{
	unsigned int *n = arg;

	if (lgr->smcd && !lgr->dead)
		(*n)++;
	return 0;
}

/*
 * GET_DEV_SMCD: the loopback device, one message, with the attributes
 * mainline's smc_nl_handle_smcd_dev() gives an ISM device: USE_CNT, the
 * SMC-D groups of every namespace on it (a device is the host's, as
 * mainline's lgr_cnt); IS_CRIT when it has any; no PCI function (FID,
 * vendor and device 0, an empty PCI ID) but its CHID, 0xFFFF; one port
 * with no PNET ID.  Mainline itself leaves loopback-ism out of this dump
 * (its filler reads a PCI parent the emulated device lacks); smcx lists
 * it so that the device is visible (docs/smcctl.md).  Listed whatever the
 * reader's net.smc.smcx_loopback says: that sysctl decides whether its
 * namespace's handshakes use the device, not whether the device exists.
 */
int smcx_nl_dump_dev_d(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *a, *port;
	unsigned int n = 0;
	void *hdr;

	if (cb->args[0] || !smcx_nl_lo_present())
		return 0;
	smcx_lgr_for_each(smcx_nl_count_d, &n);
	hdr = smcx_nl_dump_hdr(skb, cb, SMC_NETLINK_GET_DEV_SMCD);
	if (!hdr)
		return -EMSGSIZE;
	a = nla_nest_start(skb, SMC_GEN_DEV_SMCD);
	if (!a)
		goto cancel;
	if (nla_put_u32(skb, SMC_NLA_DEV_USE_CNT, n) ||
	    nla_put_u8(skb, SMC_NLA_DEV_IS_CRIT, n > 0) ||
	    nla_put_u32(skb, SMC_NLA_DEV_PCI_FID, 0) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_CHID, SMCX_LO_CHID) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_VENDOR, 0) ||
	    nla_put_u16(skb, SMC_NLA_DEV_PCI_DEVICE, 0) ||
	    nla_put_string(skb, SMC_NLA_DEV_PCI_ID, ""))
		goto cancel_nest;
	port = nla_nest_start(skb, SMC_NLA_DEV_PORT);
	if (!port)
		goto cancel_nest;
	if (nla_put_u8(skb, SMC_NLA_DEV_PORT_PNET_USR, 0) ||
	    nla_put_string(skb, SMC_NLA_DEV_PORT_PNETID, "")) {
		nla_nest_cancel(skb, port);
		goto cancel_nest;
	}
	nla_nest_end(skb, port);
	nla_nest_end(skb, a);
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return skb->len;
cancel_nest:
	nla_nest_cancel(skb, a);
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

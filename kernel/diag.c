// SPDX-License-Identifier: GPL-2.0
/*
 * sock_diag for AF_SMC: the smc_diag dump, answered from smcx's socks.
 *
 * A SOCK_DIAG_BY_FAMILY dump request with family AF_SMC gets one
 * struct smc_diag_msg per smcx sock of the requester's namespace (AF_SMC
 * sockets of both protocols and IPPROTO_SMC sockets), followed by the
 * extensions the request's diag_ext asks for; the fallback reason is
 * always sent, as mainline does.  smc_diag_req has no state filter: tools
 * filter by diag_state themselves.
 *
 * What each field means for smcx:
 *   - addresses, ports, interface: from the CLC (TCP) socket;
 *   - inode and uid: of the application's socket (the smcx sock keeps
 *     pointing at it after a fallback graft); 0 before accept();
 *   - state: the smcx sock's; for an active SMC-R connection the state
 *     of its close protocol (ACTIVE, PEERCLOSEWAIT1, ..., as mainline's
 *     sk_state); once grafted onto TCP, the TCP sock's state told in SMC
 *     numbers (listen, init, active, closed);
 *   - mode: FALLBACK_TCP once the connection is TCP, else SMCR;
 *   - CONNINFO and LGRINFO: only for a connection running over SMC-R.
 *
 * Socks are taken from the hash in small batches with a reference each and
 * filled outside the hash lock.  The SMC-R parts are read under the
 * connection's spinlock, under which smcx_conn_free() clears conn->lgr
 * and the buffers, and the group is referenced there for the link part,
 * read under the group's mutex (which keeps the device while the group
 * is alive).  Not with the send side owned: a push owns it while it waits for a
 * send slot (up to SMCX_TX_STALL on a dead link), and ss or smcss must
 * not wait that long for one socket's cursors.
 * The dump position is (hash, socks of this netns already sent), like
 * mainline's: socks created or closed between two parts of a dump may be
 * missed or shown twice.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/tcp.h>

#include <smcx/cursor.h>
#include <smcx/wire.h>

#include "uapi.h"
#include "../include/uapi/linux/smc_diag.h"
#include "diag.h"
#include "lgr.h"
#include "sock.h"

#define SMCX_DIAG_BATCH		16

static bool smcx_diag_want(u8 ext, int type)
{
	return ext & (1 << (type - 1));
}

/* the TCP sock of the CLC socket, or NULL; caller in an RCU section */
static struct sock *smcx_diag_tcpsk(struct smcx_sock *smc)
{
	struct socket *cs = READ_ONCE(smc->clcsock);

	return cs ? READ_ONCE(cs->sk) : NULL;
}

static u8 smcx_diag_state(struct smcx_sock *smc, struct sock *tcpsk)
{
	struct smcx_conn *conn = READ_ONCE(smc->conn);
	u8 state = READ_ONCE(smc->sk.sk_state);

	if (!READ_ONCE(smc->grafted) || !tcpsk) {
		/* an SMC-R connection: where its close protocol is */
		if (state == SMCX_ACTIVE && READ_ONCE(smc->smcr) && conn)
			return smcx_conn_close(conn).state;
		return state;
	}
	switch (READ_ONCE(tcpsk->sk_state)) {
	case TCP_LISTEN:
		return SMCX_LISTEN;
	case TCP_CLOSE:
		return SMCX_CLOSED;
	case TCP_SYN_SENT:
	case TCP_SYN_RECV:
		return SMCX_INIT;
	default:
		return SMCX_ACTIVE;
	}
}

static void smcx_diag_fill_id(struct smc_diag_msg *r, struct sock *tcpsk)
{
	const struct inet_sock *inet = inet_sk(tcpsk);

	r->id.idiag_sport = htons(READ_ONCE(inet->inet_num));
	r->id.idiag_dport = READ_ONCE(inet->inet_dport);
	r->id.idiag_if = READ_ONCE(tcpsk->sk_bound_dev_if);
	if (tcpsk->sk_family == AF_INET) {
		r->id.idiag_src[0] = READ_ONCE(inet->inet_rcv_saddr);
		r->id.idiag_dst[0] = READ_ONCE(inet->inet_daddr);
#if IS_ENABLED(CONFIG_IPV6)
	} else if (tcpsk->sk_family == AF_INET6) {
		memcpy(r->id.idiag_src, &tcpsk->sk_v6_rcv_saddr,
		       sizeof(r->id.idiag_src));
		memcpy(r->id.idiag_dst, &tcpsk->sk_v6_daddr,
		       sizeof(r->id.idiag_dst));
#endif
	}
}

/* a monotonic byte count as a ring position: offset and wrap count */
/* a CDC's connection-state bits as the wire byte carries them */
static u8 smcx_diag_cf(struct smcx_cdc_flags f)
{
	return (f.done_writing ? SMCX_CDC_CF_DONE_WRITING : 0) |
	       (f.closed ? SMCX_CDC_CF_CONN_CLOSED : 0) |
	       (f.abort ? SMCX_CDC_CF_CONN_ABORT : 0);
}

static void smcx_diag_curs(struct smc_diag_cursor *c, u64 pos, u32 size)
{
	struct smcx_cdc_cursor w;

	if (!size)
		return;
	smcx_curs_from_count(pos, size, &w);
	c->wrap = w.wrap;
	c->count = w.count;
}

/* GID bytes as eight big-endian 16-bit groups, smc_diag's text form */
static void smcx_diag_gid(u8 *out, size_t len, const u8 *gid)
{
	const __be16 *g = (const __be16 *)gid;

	snprintf(out, len, "%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x",
		 be16_to_cpu(g[0]), be16_to_cpu(g[1]), be16_to_cpu(g[2]),
		 be16_to_cpu(g[3]), be16_to_cpu(g[4]), be16_to_cpu(g[5]),
		 be16_to_cpu(g[6]), be16_to_cpu(g[7]));
}

/*
 * The SMC-R extensions of a connection.  Process context, no locks held;
 * the sock is referenced, so smc->conn (freed by sk_destruct) stays.
 */
static int smcx_diag_fill_smcr(struct sk_buff *skb, struct smcx_sock *smc,
			       u8 ext)
{
	struct smcx_conn *conn = READ_ONCE(smc->conn);
	struct smc_diag_conninfo ci;
	struct smc_diag_lgrinfo li;
	struct smcd_diag_dmbinfo di;
	bool have_ci = false, have_li = false, have_di = false;
	struct smcx_link *lnk;
	struct smcx_lgr *lgr;

	if (!conn)
		return 0;
	memset(&ci, 0, sizeof(ci));
	memset(&li, 0, sizeof(li));
	memset(&di, 0, sizeof(di));
	spin_lock_bh(&conn->lock);
	lgr = conn->lgr;
	/* the connection's reference keeps it while conn->lgr is set */
	if (lgr)
		kref_get(&lgr->ref);
	lnk = conn->lnk;
	if (lgr && conn->sndbuf && conn->rmb &&
	    smcx_diag_want(ext, SMC_DIAG_CONNINFO)) {
		u32 ssz = conn->sndbuf->size, rsz = conn->rmb->size;

		ci.token = conn->token;
		ci.sndbuf_size = ssz;
		ci.rmbe_size = rsz;
		ci.peer_rmbe_size = conn->peer_rmbe_size;
		smcx_diag_curs(&ci.rx_prod, conn->rx_prod, rsz);
		smcx_diag_curs(&ci.rx_cons, conn->rx_cons, rsz);
		smcx_diag_curs(&ci.tx_prod, conn->tx_sent, conn->peer_rmbe_size);
		smcx_diag_curs(&ci.tx_cons, conn->peer_cons,
			       conn->peer_rmbe_size);
		smcx_diag_curs(&ci.tx_prep, conn->tx_prep, ssz);
		smcx_diag_curs(&ci.tx_sent, conn->tx_sent, ssz);
		smcx_diag_curs(&ci.tx_fin, conn->tx_fin, ssz);
		if (conn->peer_write_blocked)
			ci.rx_prod_flags |= SMCX_CDC_PF_WRITE_BLOCKED;
		ci.rx_conn_state_flags = smcx_diag_cf(conn->close.peer);
		ci.tx_conn_state_flags = smcx_diag_cf(conn->close.local);
		have_ci = true;
	}
	/* SMC-D: the loopback device's GID at both ends, the two DMBs */
	if (lgr && lgr->smcd && smcx_diag_want(ext, SMC_DIAG_DMBINFO)) {
		memcpy(&di.linkid, lgr->id, sizeof(di.linkid));
		di.my_gid = smcx_lo_gid.gid;
		di.my_gid_ext = smcx_lo_gid.gid_ext;
		di.peer_gid = smcx_lo_gid.gid;
		di.peer_gid_ext = smcx_lo_gid.gid_ext;
		di.token = conn->dmb_token;
		di.peer_token = conn->peer_dmb.token;
		have_di = true;
	}
	spin_unlock_bh(&conn->lock);
	/* uapi has room for one link: the connection's (lgr->lnk[], in lgr) */
	if (lgr && smcx_diag_want(ext, SMC_DIAG_LGRINFO)) {
		mutex_lock(&lgr->mutex);
		/* the link's device lives until its clear, after the section */
		if (!lgr->dead && lnk && smcx_link_enter(lnk, SMCX_LNK_MAPPED)) {
			li.role = lgr->role == SMCX_SRV;
			li.lnk[0].link_id = lnk->link_id;
			li.lnk[0].ibport = lnk->port;
			if (lnk->dev)
				strscpy(li.lnk[0].ibname,
					smcx_ibdev_name(lnk->dev),
					sizeof(li.lnk[0].ibname));
			smcx_diag_gid(li.lnk[0].gid, sizeof(li.lnk[0].gid),
				      lnk->gid);
			smcx_diag_gid(li.lnk[0].peer_gid,
				      sizeof(li.lnk[0].peer_gid),
				      lnk->peer_gid);
			have_li = true;
			smcx_link_leave(lnk);
		}
		mutex_unlock(&lgr->mutex);
	}
	if (lgr)
		smcx_lgr_put(lgr);

	if (have_ci &&
	    nla_put(skb, SMC_DIAG_CONNINFO, sizeof(ci), &ci) < 0)
		return -EMSGSIZE;
	if (have_li &&
	    nla_put(skb, SMC_DIAG_LGRINFO, sizeof(li), &li) < 0)
		return -EMSGSIZE;
	if (have_di &&
	    nla_put(skb, SMC_DIAG_DMBINFO, sizeof(di), &di) < 0)
		return -EMSGSIZE;
	return 0;
}

static int smcx_diag_fill(struct sk_buff *skb, struct netlink_callback *cb,
			  struct sock *sk, u8 ext)
{
	struct user_namespace *uns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	struct smcx_sock *smc = smcx_sk(sk);
	struct smc_diag_fallback fb;
	struct smc_diag_msg *r;
	struct nlmsghdr *nlh;
	struct sock *tcpsk;
	bool tcp;
	u8 shut;

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			cb->nlh->nlmsg_type, sizeof(*r), NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	r = nlmsg_data(nlh);
	memset(r, 0, sizeof(*r));
	r->diag_family = sk->sk_family;
	sock_diag_save_cookie(sk, r->id.idiag_cookie);
	tcp = READ_ONCE(smc->fallback) || READ_ONCE(smc->grafted);
	r->diag_mode = tcp ? SMC_DIAG_MODE_FALLBACK_TCP :
		       READ_ONCE(smc->smcd) ? SMC_DIAG_MODE_SMCD :
		       SMC_DIAG_MODE_SMCR;

	/* the CLC socket's struct socket is RCU-freed, TCP socks typesafe */
	rcu_read_lock();
	tcpsk = smcx_diag_tcpsk(smc);
	if (tcpsk)
		smcx_diag_fill_id(r, tcpsk);
	r->diag_state = smcx_diag_state(smc, tcpsk);
	shut = READ_ONCE(sk->sk_shutdown);
	if (READ_ONCE(smc->grafted) && tcpsk)
		shut = READ_ONCE(tcpsk->sk_shutdown);
	rcu_read_unlock();
	r->diag_shutdown = shut;
	r->diag_uid = from_kuid_munged(uns, sk_uid(sk));
	r->diag_inode = sock_i_ino(sk);

	if (smcx_diag_want(ext, SMC_DIAG_SHUTDOWN) &&
	    nla_put_u8(skb, SMC_DIAG_SHUTDOWN, shut) < 0)
		goto cancel;
	fb.reason = READ_ONCE(smc->fallback_rsn);
	fb.peer_diagnosis = READ_ONCE(smc->peer_diag);
	if (nla_put(skb, SMC_DIAG_FALLBACK, sizeof(fb), &fb) < 0)
		goto cancel;
	if (!tcp && READ_ONCE(smc->smcr) &&
	    smcx_diag_fill_smcr(skb, smc, ext) < 0)
		goto cancel;
	nlmsg_end(skb, nlh);
	return 0;

cancel:
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}

/* cb->args[0]: hash (0 v4, 1 v6); cb->args[1]: socks of it already sent */
static int smcx_diag_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct smc_diag_req *req = nlmsg_data(cb->nlh);
	struct net *net = sock_net(skb->sk);
	struct sock *batch[SMCX_DIAG_BATCH];
	unsigned int n, i;
	bool full = false;

	while (cb->args[0] < 2 && !full) {
		n = smcx_sock_collect(net, cb->args[0], cb->args[1], batch,
				      SMCX_DIAG_BATCH);
		for (i = 0; i < n; i++) {
			if (!full && smcx_diag_fill(skb, cb, batch[i],
						    req->diag_ext) < 0)
				full = true;
			else if (!full)
				cb->args[1]++;
			sock_put(batch[i]);
		}
		if (!full && n < SMCX_DIAG_BATCH) {
			cb->args[0]++;
			cb->args[1] = 0;
		}
	}
	return skb->len;
}

static int smcx_diag_handler_dump(struct sk_buff *skb, struct nlmsghdr *h)
{
	struct net *net = sock_net(skb->sk);
	struct netlink_dump_control c = {
		.dump = smcx_diag_dump,
		.min_dump_alloc = SKB_WITH_OVERHEAD(32768),
	};

	if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    !(h->nlmsg_flags & NLM_F_DUMP))
		return -EOPNOTSUPP;
	if (nlmsg_len(h) < sizeof(struct smc_diag_req))
		return -EINVAL;
	return netlink_dump_start(net->diag_nlsk, skb, h, &c);
}

static const struct sock_diag_handler smcx_diag_handler = {
	.owner	= THIS_MODULE,
	.family	= AF_SMC,
	.dump	= smcx_diag_handler_dump,
};

int smcx_diag_init(void)
{
	return sock_diag_register(&smcx_diag_handler);
}

void smcx_diag_exit(void)
{
	sock_diag_unregister(&smcx_diag_handler);
}

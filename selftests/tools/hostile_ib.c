// SPDX-License-Identifier: GPL-2.0
/*
 * hostile, RDMA side: a real SMC-R link to the victim over rxe, and cases
 * that attack it with CDC and LLC messages and RDMA WRITEs.
 *
 *   hostile rdma -a ADDR -p PORT [-s SEED] [-n CASES] [-c FIRST] [-x/-k CLASS,...] [-v]
 *
 * The first contact is honest: a v2 proposal with our EID and the RoCE v2
 * GID of rxe0 (max links 1, so the victim offers no second link), an RC QP
 * brought up with the QPN, PSN, GID and MTU of the victim's Accept, our
 * Confirm naming our QP and RMB, and the CONFIRM_LINK answered.  A thread
 * answers the victim's LLC requests (CONFIRM_RKEY, TEST_LINK, DELETE_RKEY,
 * ADD_LINK with a reject, DELETE_LINK) and records its CDCs.
 * Each case opens one more connection on that link group (the victim
 * confirms the new RMB's rkey over LLC, then Accept and Confirm), attacks
 * it, then checks with an echo (RDMA WRITE + CDC, the victim application
 * echoes, its RDMA WRITE + CDC come back) what became of it:
 *   smcr      the connection still carries data, byte for byte;
 *   reset     the victim aborted or closed the connection;
 *   lgr-term  the victim ended our link group: its DELETE_LINK, our QP in
 *             error, or no TEST_LINK answer while it closed the connection
 *             (link_probe()); the next case makes a new first contact.
 * Unexpected: the victim delivers bytes it was never given validly (an echo
 * after a producer cursor beyond its RMB), an echo that differs, no answer
 * at all within 20 s while the link is up.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <smcx/cursor.h>

#include "hostile.h"

#define NSLOT		64		/* receive and send slots of 64 bytes */
#define SLOT		64
#define NRMB		64		/* our RMBs, one per open connection */
#define RMB_SIZE	16384		/* compressed size 0 */
#define SRC_SIZE	65536		/* bytes we RDMA WRITE from */
#define LLC_WAIT_MS	10000
#define SLOT_RESERVE	8		/* send slots only answers may take */
#define SLOT_WAIT_MS	3000		/* a live victim acknowledges in ms */
/*
 * A TEST_LINK probe ends with the victim's answer (group alive) or with our
 * QP in error (the victim's QP is gone: nothing acknowledges our SEND, and
 * RC gives up after retry_cnt x the ACK timeout, about 0.5 s, seconds under
 * TCG) or the victim's DELETE_LINK.  Neither within this bound: a finding.
 */
#define PROBE_MS	5000

/*
 * The victim's CDCs from one case's start to the next case's: a correct
 * victim sends a few (its echo, consumer updates, its close): at most 4
 * in the 300 cases of seed 1.  A close() that answered every CDC
 * completion with the next CDC (cd4b1bf fixed it) sent about 400 per
 * case.  More than this is a finding: a CDC storm.
 */
#define CDC_STORM	50

struct hconn {
	int fd;				/* the CLC TCP connection */
	uint32_t token;			/* ours: the victim's CDCs name it */
	uint32_t peer_token, peer_rkey, peer_size;
	uint64_t peer_addr;
	uint8_t *rmb;			/* ours */
	uint16_t seq;			/* the number of our last CDC */
	uint16_t vseq;			/* the newest the victim took (seq_adopt()) */
	int vseq_set;
	/* from the victim's CDCs, under ib.lk */
	int cdcs;
	uint64_t prod;			/* its producer cursor in our RMB, a count */
	uint8_t conn_flags;
};

static struct {
	const char *addr;
	const char *src;		/* slowack: our CLC source address */
	int port;
	uint64_t seed, first, count;
	int verbose;
	unsigned long long skip, keep;
	unsigned int skip_symptoms;	/* 1: cursor-stall is a known bug */
	/* llc-first-unsol: sent with our CONFIRM_LINK response (conn_open) */
	int tail_set;
	struct smcx_llc_msg tail;
} R;

static void conn_forget(struct hconn *k);

/*
 * slowack: receive slots the CQ thread consumed and did not post again;
 * the slow poster gives them back one at a time.  Under ib.lk.
 */
static struct {
	int on;
	unsigned int n;
	unsigned int owed[NSLOT];
} slow;

static struct {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *mem;			/* recv slots, send slots, RMBs, src */
	int gid_idx;
	uint8_t gid[16], mac[6];
	uint32_t psn;
	uint8_t link_num, link_uid[4];
	pthread_t thr;
	int thr_up;
	pthread_mutex_t lk;
	pthread_cond_t cv;
	int dead;			/* the link is gone */
	const char *why;
	uint8_t probe_data[16];		/* our TEST_LINK's user data */
	int probe_ok;			/* ... came back in a response */
	struct smcx_llc_msg resp;	/* CONFIRM_LINK or a response */
	int resp_got;
	unsigned int send_next;
	unsigned int inflight;		/* send WRs posted, not completed */
	struct hconn *conns[NRMB];
	unsigned long llc_answered, cdc_rx, bad_rx;
} ib = { .lk = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static uint8_t *recv_slot(unsigned int i) { return ib.mem + i * SLOT; }
static uint8_t *send_slot(unsigned int i) { return ib.mem + (NSLOT + i) * SLOT; }
static uint8_t *rmb_of(unsigned int i) { return ib.mem + 2 * NSLOT * SLOT + (size_t)i * RMB_SIZE; }
static uint8_t *src_area(void) { return ib.mem + 2 * NSLOT * SLOT + (size_t)NRMB * RMB_SIZE; }
#define MEM_SIZE (2 * NSLOT * SLOT + (size_t)NRMB * RMB_SIZE + SRC_SIZE)

/* wait up to 50 ms for the CQ thread's news; caller holds ib.lk */
static void ib_wait_news(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 50 * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&ib.cv, &ib.lk, &ts);
}

static void set_dead(const char *why)
{
	pthread_mutex_lock(&ib.lk);
	if (!ib.dead) {
		ib.dead = 1;
		ib.why = why;
	}
	pthread_cond_broadcast(&ib.cv);
	pthread_mutex_unlock(&ib.lk);
}

static int post_recv(unsigned int i)
{
	struct ibv_sge sge = { (uintptr_t)recv_slot(i), SLOT, ib.mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(ib.qp, &wr, &bad);
}

/* set in the CQ thread: it must never wait for a slot it frees itself */
static __thread int in_cq_thread;

/*
 * A send slot: at most NSLOT - 1 send WRs are in flight, so a slot is
 * reused only after its SEND completed (RC completes in order).  The CQ
 * thread, which answers the victim's requests, takes one without waiting
 * (the completions that free slots are its own to poll) and has
 * SLOT_RESERVE slots the cases' sends leave to it, so a flood of ours
 * never keeps the victim's CONFIRM_RKEY or TEST_LINK unanswered.  The
 * index, or -1 when the link is dead, no slot is free for the CQ thread,
 * or the cases' sends are stuck for SLOT_WAIT_MS.
 */
static int slot_get(void)
{
	unsigned int max = in_cq_thread ? NSLOT - 1 : NSLOT - 1 - SLOT_RESERVE;
	int64_t deadline = now_ms() + (in_cq_thread ? 0 : SLOT_WAIT_MS);
	int i = -1;

	pthread_mutex_lock(&ib.lk);
	while (!ib.dead && ib.inflight >= max && now_ms() < deadline) {
		pthread_mutex_unlock(&ib.lk);
		sleep_ms(1);
		pthread_mutex_lock(&ib.lk);
	}
	if (!ib.dead && ib.inflight < max) {
		ib.inflight++;
		i = (int)(ib.send_next++ % NSLOT);
	}
	pthread_mutex_unlock(&ib.lk);
	return i;
}

static void slot_put(void)
{
	pthread_mutex_lock(&ib.lk);
	if (ib.inflight)
		ib.inflight--;
	pthread_mutex_unlock(&ib.lk);
}

/* an RDMA SEND of @len bytes at @p (CDC or LLC) */
static int hib_send(const uint8_t *p, size_t len)
{
	struct ibv_sge sge;
	struct ibv_send_wr wr = { 0 }, *bad;
	int i, rc;

	i = slot_get();
	if (i < 0)
		return -EAGAIN;
	if (len > SLOT)
		len = SLOT;
	memcpy(send_slot(i), p, len);
	sge.addr = (uintptr_t)send_slot(i);
	sge.length = (uint32_t)len;
	sge.lkey = ib.mr->lkey;
	wr.wr_id = 1000 + i;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_SEND;
	wr.send_flags = IBV_SEND_SIGNALED;
	rc = ibv_post_send(ib.qp, &wr, &bad);
	if (rc)
		slot_put();
	return rc ? -rc : 0;
}

/*
 * RDMA WRITE @len bytes of the source area to the victim; with @imm, an
 * RDMA WRITE WITH IMMEDIATE of @imm_data (smcx's extension, docs/wire.md)
 */
static int hib_write_op(uint32_t rkey, uint64_t addr, size_t len, int imm, uint32_t imm_data)
{
	struct ibv_sge sge = { (uintptr_t)src_area(), (uint32_t)len, ib.mr->lkey };
	struct ibv_send_wr wr = { 0 }, *bad;

	if (slot_get() < 0)
		return -EAGAIN;
	wr.wr_id = 2000;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	wr.imm_data = htonl(imm_data);
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = addr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(ib.qp, &wr, &bad)) {
		slot_put();
		return -EIO;
	}
	return 0;
}

static int hib_write(uint32_t rkey, uint64_t addr, size_t len)
{
	return hib_write_op(rkey, addr, len, 0, 0);
}

static int llc_send(struct smcx_llc_msg *m)
{
	uint8_t buf[SLOT];
	int len = smcx_llc_encode(m, buf, sizeof(buf));

	return len < 0 ? len : hib_send(buf, (size_t)len);
}

/*
 * The LLC messages @m[0..@n-1] in one post: the provider sends them back
 * to back, so the victim's one receive poll tends to see them all.
 */
static int llc_send_burst(const struct smcx_llc_msg *m, int n)
{
	struct ibv_send_wr wr[2], *bad = NULL, *w;
	struct ibv_sge sge[2];
	int i, s, len;

	if (n > 2)
		return -EINVAL;
	memset(wr, 0, sizeof(wr));
	for (i = 0; i < n; i++) {
		s = slot_get();
		len = s < 0 ? -EAGAIN : smcx_llc_encode(&m[i], send_slot(s), SLOT);
		if (len < 0) {
			/* the slots taken so far, this one too: not posted */
			for (n = i + (s >= 0); n > 0; n--)
				slot_put();
			return len;
		}
		sge[i].addr = (uintptr_t)send_slot(s);
		sge[i].length = (uint32_t)len;
		sge[i].lkey = ib.mr->lkey;
		wr[i].wr_id = 1000 + s;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].opcode = IBV_WR_SEND;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	if (!ibv_post_send(ib.qp, wr, &bad))
		return 0;
	for (w = bad; w; w = w->next)	/* not posted: never completes */
		slot_put();
	return -EIO;
}

/* a victim's LLC request: answer it as a plain peer would */
static void llc_answer(struct smcx_llc_msg *m)
{
	struct smcx_llc_msg r;

	switch (m->type) {
	case SMCX_LLC_TEST_LINK:
	case SMCX_LLC_CONFIRM_RKEY:
	case SMCX_LLC_DELETE_RKEY:
		r = *m;
		r.flags = (uint8_t)((m->flags | SMCX_LLC_FLAG_RESP) & ~SMCX_LLC_FLAG_RKEY_NEG);
		if (m->type == SMCX_LLC_DELETE_RKEY) {
			memset(&r.u, 0, sizeof(r.u));
			r.flags = SMCX_LLC_FLAG_RESP;
		}
		break;
	case SMCX_LLC_ADD_LINK:
		memset(&r, 0, sizeof(r));
		r.version = m->version;
		r.type = SMCX_LLC_ADD_LINK;
		r.flags = SMCX_LLC_FLAG_RESP | SMCX_LLC_FLAG_ADD_LNK_REJ;
		if (r.version == SMCX_LLC_V1)
			r.rej_rsn = SMCX_LLC_REJ_RSN_NO_ALT_PATH;
		memcpy(r.u.add_link.mac, ib.mac, 6);
		memcpy(r.u.add_link.gid, ib.gid, 16);
		r.u.add_link.qpn = ib.qp->qp_num;
		r.u.add_link.link_num = m->u.add_link.link_num;
		break;
	case SMCX_LLC_DELETE_LINK:
		r = *m;
		r.flags |= SMCX_LLC_FLAG_RESP;
		llc_send(&r);
		set_dead("victim sent DELETE_LINK");
		return;
	default:
		return;
	}
	if (!llc_send(&r)) {
		pthread_mutex_lock(&ib.lk);
		ib.llc_answered++;
		pthread_mutex_unlock(&ib.lk);
	}
}

static void on_recv(const uint8_t *buf, uint32_t len)
{
	struct smcx_cdc_msg cdc;
	struct smcx_llc_msg m;
	unsigned int i;

	if (buf[0] == SMCX_CDC_TYPE) {
		if (smcx_cdc_decode(buf, len, &cdc, 0)) {
			ib.bad_rx++;
			return;
		}
		pthread_mutex_lock(&ib.lk);
		ib.cdc_rx++;
		for (i = 0; i < NRMB; i++) {
			struct hconn *k = ib.conns[i];

			if (k && k->token == cdc.token) {
				k->cdcs++;
				uint64_t v = (uint64_t)cdc.prod.wrap * RMB_SIZE + cdc.prod.count;

				if (v > k->prod)
					k->prod = v;
				k->conn_flags |= cdc.conn_flags;
			}
		}
		pthread_cond_broadcast(&ib.cv);
		pthread_mutex_unlock(&ib.lk);
		return;
	}
	if (smcx_llc_decode(buf, len, &m, 0)) {
		ib.bad_rx++;
		return;
	}
	if (m.type == SMCX_LLC_TEST_LINK && (m.flags & SMCX_LLC_FLAG_RESP) &&
	    !memcmp(m.u.test_link.user_data, ib.probe_data, 16)) {
		pthread_mutex_lock(&ib.lk);
		ib.probe_ok = 1;
		pthread_cond_broadcast(&ib.cv);
		pthread_mutex_unlock(&ib.lk);
		return;
	}
	if ((m.flags & SMCX_LLC_FLAG_RESP) || m.type == SMCX_LLC_CONFIRM_LINK) {
		pthread_mutex_lock(&ib.lk);
		ib.resp = m;
		ib.resp_got = 1;
		pthread_cond_broadcast(&ib.cv);
		pthread_mutex_unlock(&ib.lk);
		return;
	}
	llc_answer(&m);
}

/* a consumed receive slot: post it again, or owe it (slowack) */
static void recv_again(unsigned int i)
{
	int owe;

	pthread_mutex_lock(&ib.lk);
	owe = slow.on && slow.n < NSLOT;
	if (owe)
		slow.owed[slow.n++] = i;
	pthread_mutex_unlock(&ib.lk);
	if (!owe)
		post_recv(i);
}

static void *cq_thread(void *arg)
{
	(void)arg;
	in_cq_thread = 1;
	for (;;) {
		struct pollfd p = { .fd = ib.ch->fd, .events = POLLIN };
		struct ibv_cq *cq;
		struct ibv_wc wc[16];
		void *cctx;
		int n, i;

		pthread_mutex_lock(&ib.lk);
		if (!ib.thr_up) {
			pthread_mutex_unlock(&ib.lk);
			break;
		}
		pthread_mutex_unlock(&ib.lk);
		if (poll(&p, 1, 100) == 1 && !ibv_get_cq_event(ib.ch, &cq, &cctx)) {
			ibv_ack_cq_events(cq, 1);
			ibv_req_notify_cq(cq, 0);
		}
		while ((n = ibv_poll_cq(ib.cq, 16, wc)) > 0) {
			for (i = 0; i < n; i++) {
				if (wc[i].wr_id >= 1000)	/* a send of ours */
					slot_put();
				if (wc[i].status != IBV_WC_SUCCESS) {
					set_dead(ibv_wc_status_str(wc[i].status));
					continue;
				}
				if (wc[i].opcode != IBV_WC_RECV)
					continue;
				on_recv(recv_slot((unsigned int)wc[i].wr_id), wc[i].byte_len);
				if (!ib.dead)
					recv_again((unsigned int)wc[i].wr_id);
			}
		}
	}
	return NULL;
}

/* ---------------------------------------------------------- link setup */

static int local_ip_mac(int fd, uint8_t *gid, uint8_t *mac)
{
	struct sockaddr_in sa;
	socklen_t l = sizeof(sa);
	struct ifreq ifr = { 0 };
	int s;

	if (getsockname(fd, (struct sockaddr *)&sa, &l))
		return -errno;
	memset(gid, 0, 16);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, &sa.sin_addr, 4);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "eth0");
	if (s < 0 || ioctl(s, SIOCGIFHWADDR, &ifr)) {
		if (s >= 0)
			close(s);
		return -errno;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(s);
	return 0;
}

static int find_gid_index(void)
{
	union ibv_gid g;
	int i;

	for (i = 0; i < 16; i++) {
		char path[128], type[32] = "";
		FILE *f;

		if (ibv_query_gid(ib.ctx, 1, i, &g) || memcmp(g.raw, ib.gid, 16))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/%s/ports/1/gid_attrs/types/%d",
			 ibv_get_device_name(ib.ctx->device), i);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(type, sizeof(type), f))
				type[0] = 0;
			fclose(f);
		}
		if (strstr(type, "v2"))
			return i;
	}
	return -1;
}

static void ib_close(void)
{
	if (ib.thr_up) {
		pthread_mutex_lock(&ib.lk);
		ib.thr_up = 0;
		pthread_mutex_unlock(&ib.lk);
		pthread_join(ib.thr, NULL);
	}
	if (ib.qp)
		ibv_destroy_qp(ib.qp);
	if (ib.cq)
		ibv_destroy_cq(ib.cq);
	if (ib.ch)
		ibv_destroy_comp_channel(ib.ch);
	if (ib.mr)
		ibv_dereg_mr(ib.mr);
	if (ib.pd)
		ibv_dealloc_pd(ib.pd);
	if (ib.ctx)
		ibv_close_device(ib.ctx);
	free(ib.mem);
	ib.qp = NULL;
	ib.cq = NULL;
	ib.ch = NULL;
	ib.mr = NULL;
	ib.pd = NULL;
	ib.ctx = NULL;
	ib.mem = NULL;
	ib.inflight = 0;
}

/* device, PD, CQ, QP in RESET, memory; the GID of @fd's local address */
static int ib_open(int fd, char *err, size_t errlen)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_qp_init_attr qa = { 0 };
	int i;

	if (!l) {
		snprintf(err, errlen, "no RDMA devices");
		return -1;
	}
	for (i = 0; l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rxe0"))
			break;
	ib.ctx = l[i] ? ibv_open_device(l[i]) : NULL;
	ibv_free_device_list(l);
	if (!ib.ctx) {
		snprintf(err, errlen, "cannot open rxe0");
		return -1;
	}
	if (local_ip_mac(fd, ib.gid, ib.mac)) {
		snprintf(err, errlen, "local address: %s", strerror(errno));
		return -1;
	}
	ib.gid_idx = find_gid_index();
	if (ib.gid_idx < 0) {
		snprintf(err, errlen, "no RoCE v2 GID for our address on rxe0");
		return -1;
	}
	ib.pd = ibv_alloc_pd(ib.ctx);
	ib.ch = ib.pd ? ibv_create_comp_channel(ib.ctx) : NULL;
	ib.cq = ib.ch ? ibv_create_cq(ib.ctx, 4 * NSLOT, NULL, ib.ch, 0) : NULL;
	ib.mem = aligned_alloc(4096, MEM_SIZE);
	if (!ib.cq || !ib.mem) {
		snprintf(err, errlen, "PD/CQ/memory");
		return -1;
	}
	memset(ib.mem, 0, MEM_SIZE);
	ib.mr = ibv_reg_mr(ib.pd, ib.mem, MEM_SIZE, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	qa.send_cq = ib.cq;
	qa.recv_cq = ib.cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 2 * NSLOT;
	qa.cap.max_recv_wr = NSLOT;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	ib.qp = ib.mr ? ibv_create_qp(ib.pd, &qa) : NULL;
	if (!ib.qp) {
		snprintf(err, errlen, "MR/QP: %s", strerror(errno));
		return -1;
	}
	ibv_req_notify_cq(ib.cq, 0);
	return 0;
}

static int qp_up(const struct smcx_clc_accept *a, char *err, size_t errlen)
{
	struct ibv_qp_attr at = { 0 };
	unsigned int i;

	at.qp_state = IBV_QPS_INIT;
	at.pkey_index = 0;
	at.port_num = 1;
	at.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE;
	if (ibv_modify_qp(ib.qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS)) {
		snprintf(err, errlen, "QP INIT: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < NSLOT; i++)
		post_recv(i);
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTR;
	at.path_mtu = a->qp_mtu >= IBV_MTU_256 && a->qp_mtu <= IBV_MTU_1024 ?
		      (enum ibv_mtu)a->qp_mtu : IBV_MTU_1024;
	at.dest_qp_num = a->qpn;
	at.rq_psn = a->psn;
	at.max_dest_rd_atomic = 1;
	at.min_rnr_timer = 12;
	at.ah_attr.is_global = 1;
	memcpy(at.ah_attr.grh.dgid.raw, a->gid, 16);
	at.ah_attr.grh.sgid_index = (uint8_t)ib.gid_idx;
	at.ah_attr.grh.hop_limit = 64;
	at.ah_attr.port_num = 1;
	if (ibv_modify_qp(ib.qp, &at, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER)) {
		snprintf(err, errlen, "QP RTR: %s", strerror(errno));
		return -1;
	}
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTS;
	at.timeout = 14;
	at.retry_cnt = 7;
	at.rnr_retry = 7;
	at.sq_psn = ib.psn;
	at.max_rd_atomic = 1;
	if (ibv_modify_qp(ib.qp, &at, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)) {
		snprintf(err, errlen, "QP RTS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* wait for an LLC message in the mailbox; 0, or -1 (timeout / link dead) */
static int llc_wait(struct smcx_llc_msg *out, int ms)
{
	int64_t deadline = now_ms() + ms;
	int rc = -1;

	pthread_mutex_lock(&ib.lk);
	while (!ib.resp_got && !ib.dead && now_ms() < deadline) {
		pthread_mutex_unlock(&ib.lk);
		pthread_mutex_lock(&ib.lk);
		ib_wait_news();
	}
	if (ib.resp_got) {
		*out = ib.resp;
		ib.resp_got = 0;
		rc = 0;
	}
	pthread_mutex_unlock(&ib.lk);
	return rc;
}

/*
 * Is the victim's end of our link still there?  A TEST_LINK request with
 * fresh user data: the victim answers it from any state but a dead link.
 * 1 answered; 0 the link is gone (our QP in error: the victim's QP no
 * longer acknowledges, or its DELETE_LINK came); -1 neither within
 * PROBE_MS (*@why says so).
 */
static int link_probe(struct hrng *r, const char **why)
{
	int64_t deadline = now_ms() + PROBE_MS;
	struct smcx_llc_msg m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.version = SMCX_LLC_V2;
	m.type = SMCX_LLC_TEST_LINK;
	pthread_mutex_lock(&ib.lk);
	hr_fill(r, ib.probe_data, 16);
	memcpy(m.u.test_link.user_data, ib.probe_data, 16);
	ib.probe_ok = 0;
	pthread_mutex_unlock(&ib.lk);
	/* no slot: the wait below tells a dead QP from a stuck one */
	llc_send(&m);
	pthread_mutex_lock(&ib.lk);
	while (!ib.probe_ok && !ib.dead && now_ms() < deadline)
		ib_wait_news();
	rc = ib.dead ? 0 : ib.probe_ok ? 1 : -1;
	pthread_mutex_unlock(&ib.lk);
	if (rc < 0)
		*why = "the victim answers no TEST_LINK, and our QP is up";
	return rc;
}

static int clc_closed(int fd);

/*
 * After link_probe() found no answer: the group is gone when the victim
 * also closed the case's CLC connection (its application closed the
 * socket after an abort with no closing CDC, as terminate aborts them)
 * and a live group would have answered within PROBE_MS.  Our QP is
 * declared dead then (the caller's link_down() destroys it).  1 gone.
 */
static int probe_gone(int fd)
{
	if (!clc_closed(fd))
		return 0;
	set_dead("no TEST_LINK answer, and the victim closed the connection");
	return 1;
}

/*
 * The victim closed the CLC (TCP) connection of @fd: its application
 * closed the socket, e.g. after the abort that ends every connection of a
 * terminated link group.  The victim never sends CLC bytes after the
 * handshake, so any readiness is EOF or an error.
 */
static int clc_closed(int fd)
{
	uint8_t b;
	ssize_t n = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);

	return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* the proposal of an honest smcx-like client, with our GID */
static size_t honest_prop(struct hrng *r, uint8_t *out)
{
	struct smcx_clc_proposal p;
	int len;

	memset(&p, 0, sizeof(p));
	p.hdr.eyecatcher = SMCX_EYE_SMCR;
	p.hdr.version = SMCX_CLC_V2;
	p.hdr.typev1 = SMCX_TYPE_N;
	p.hdr.typev2 = SMCX_TYPE_R;
	p.has_smcd_area = 1;
	p.release = SMCX_RELEASE_1;
	p.max_conns = 255;
	p.max_links = 1;		/* no ADD_LINK offer */
	p.eid_cnt = 1;
	memcpy(p.roce_gid, ib.gid, 16);
	hr_fill(r, p.peer_id, 8);
	eid_set(p.user_eid[0], HOSTILE_OUR_EID);
	len = smcx_clc_encode_proposal(&p, out, 1024);
	return len > 0 ? (size_t)len : 0;
}

static int read_clc(int fd, uint8_t *buf, size_t room, struct smcx_clc_hdr *h)
{
	int64_t deadline = now_ms() + 20000;
	int why;

	if (rd_exact(fd, buf, SMCX_CLC_HDR_LEN, deadline, &why) != SMCX_CLC_HDR_LEN ||
	    smcx_clc_peek(buf, SMCX_CLC_HDR_LEN, h) || h->length > room ||
	    h->length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN)
		return -1;
	if (rd_exact(fd, buf + SMCX_CLC_HDR_LEN, h->length - SMCX_CLC_HDR_LEN, deadline, &why) !=
	    (size_t)h->length - SMCX_CLC_HDR_LEN)
		return -1;
	return h->length;
}

/* a free RMB, round robin: a late write for a closed connection lands in
 * an RMB nobody compares
 */
static int free_rmb(void)
{
	static unsigned int next;
	unsigned int i, j;

	for (i = 0; i < NRMB; i++) {
		j = next++ % NRMB;
		if (!ib.conns[j])
			return (int)j;
	}
	return -1;
}

/*
 * A connection on our link group (first contact when there is none):
 * proposal, Accept, Confirm; 0 and *@k, or -1 with @err; -2 when the
 * victim answered with a first contact although we have a link group.
 */
static int conn_open(struct hrng *r, struct hconn *k, int *first, char *err, size_t errlen)
{
	/*
	 * What only a first contact draws comes from a stream of its own: a
	 * case draws the same numbers from @r whether it made the first
	 * contact or not, so that -c CASE -n 1 replays a case of a long run.
	 */
	struct hrng fr = { .s = r->s ^ 0x4643ull };
	static uint8_t buf[1024];
	struct smcx_clc_accept a, mine;
	struct smcx_clc_hdr h;
	struct smcx_llc_msg m;
	size_t n;
	int fd, len, slot;

	memset(k, 0, sizeof(*k));
	fd = tcp_connect_from(R.src, R.addr, R.port, 20000);
	if (fd < 0) {
		snprintf(err, errlen, "connect: %s", strerror(-fd));
		return -1;
	}
	k->fd = fd;
	*first = !ib.qp;
	if (*first) {
		if (ib_open(fd, err, errlen))
			goto fail;
		ib.psn = (uint32_t)hr_next(&fr) & 0xffffff;
		ib.dead = 0;
		ib.resp_got = 0;
	}
	n = honest_prop(r, buf);
	if (send_all(fd, buf, n)) {
		snprintf(err, errlen, "send proposal");
		goto fail;
	}
	len = read_clc(fd, buf, sizeof(buf), &h);
	if (len < 0 || h.type != SMCX_CLC_ACCEPT ||
	    smcx_clc_decode_accept(buf, (size_t)len, SMCX_CLC_ACCEPT, &a, 0)) {
		snprintf(err, errlen, "no valid accept (type %u len %d)", len > 0 ? h.type : 0, len);
		goto fail;
	}
	if (smcx_clc_first_contact(&a.hdr) != *first) {
		snprintf(err, errlen, "accept: first contact %d, we expected %d",
			 smcx_clc_first_contact(&a.hdr), *first);
		conn_forget(k);
		/* the victim has no group with us: ours ended (the caller probes) */
		return *first ? -1 : -2;
	}
	slot = free_rmb();
	if (slot < 0) {
		snprintf(err, errlen, "no free RMB");
		goto fail;
	}
	k->token = (uint32_t)hr_next(r) | 1;
	k->peer_token = a.rmbe_alert_token;
	k->peer_rkey = a.rmb_rkey;
	k->peer_addr = a.rmb_dma_addr;
	k->peer_size = 1u << (a.rmbe_size + 14);
	k->rmb = rmb_of((unsigned int)slot);
	memset(k->rmb, 0, RMB_SIZE);
	if (*first && qp_up(&a, err, errlen))
		goto fail;
	pthread_mutex_lock(&ib.lk);
	ib.conns[slot] = k;
	pthread_mutex_unlock(&ib.lk);
	if (*first && !ib.thr_up) {
		ib.thr_up = 1;
		pthread_create(&ib.thr, NULL, cq_thread, NULL);
	}
	memset(&mine, 0, sizeof(mine));
	mine.hdr = a.hdr;
	mine.hdr.typev2 = *first ? SMCX_CLC_FIRST_CONTACT : 0;
	hr_fill(r, mine.peer_id, 8);
	memcpy(mine.gid, ib.gid, 16);
	memcpy(mine.mac, ib.mac, 6);
	mine.qpn = ib.qp->qp_num;
	mine.rmb_rkey = ib.mr->rkey;
	mine.rmbe_idx = 1;
	mine.rmbe_alert_token = k->token;
	mine.rmbe_size = 0;
	mine.qp_mtu = IBV_MTU_1024;
	mine.rmb_dma_addr = (uintptr_t)k->rmb;
	mine.psn = ib.psn;
	memcpy(mine.eid, a.eid, SMCX_EID_LEN);
	if (*first) {
		mine.fce_v2x = 1;
		mine.v2_direct = 1;
		mine.os_type = SMCX_CLC_OS_LINUX;
		mine.release = a.release;
		memset(mine.hostname, ' ', SMCX_HOSTNAME_LEN);
		memcpy(mine.hostname, "hostile", 7);
		mine.max_conns = a.max_conns;
		mine.max_links = a.max_links;
		mine.gid_cnt = 1;
		memcpy(mine.gids[0], ib.gid, 16);
	}
	len = smcx_clc_encode_accept(&mine, SMCX_CLC_CONFIRM, buf, sizeof(buf));
	if (len < 0 || send_all(fd, buf, (size_t)len)) {
		snprintf(err, errlen, "confirm: encode/send");
		goto fail;
	}
	if (*first) {
		if (llc_wait(&m, LLC_WAIT_MS) || m.type != SMCX_LLC_CONFIRM_LINK ||
		    (m.flags & SMCX_LLC_FLAG_RESP)) {
			snprintf(err, errlen, "no CONFIRM_LINK from the victim (%s)",
				 ib.dead ? ib.why : "timeout");
			goto fail;
		}
		ib.link_num = m.u.confirm_link.link_num;
		hr_fill(&fr, ib.link_uid, 4);
		m.flags = SMCX_LLC_FLAG_RESP | SMCX_LLC_FLAG_NO_RMBE_EYEC;
		memcpy(m.u.confirm_link.mac, ib.mac, 6);
		memcpy(m.u.confirm_link.gid, ib.gid, 16);
		m.u.confirm_link.qpn = ib.qp->qp_num;
		memcpy(m.u.confirm_link.link_uid, ib.link_uid, 4);
		if (R.tail_set ? llc_send_burst((struct smcx_llc_msg[]){ m, R.tail }, 2) :
				 llc_send(&m)) {
			snprintf(err, errlen, "CONFIRM_LINK response");
			goto fail;
		}
	}
	return 0;
fail:
	conn_forget(k);
	return -1;
}

static void conn_forget(struct hconn *k)
{
	int i;

	pthread_mutex_lock(&ib.lk);
	for (i = 0; i < NRMB; i++)
		if (ib.conns[i] == k)
			ib.conns[i] = NULL;
	pthread_mutex_unlock(&ib.lk);
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/* ------------------------------------------------------------- the cases */

enum {
	RK_CDC_VALID, RK_CDC_FIELD, RK_CDC_CURSOR, RK_CDC_TOKEN, RK_CDC_FLAGS, RK_CDC_DUP,
	RK_LLC_UNSOLICITED, RK_LLC_REQUEST, RK_LLC_FIELD, RK_LLC_FLOOD, RK_LLC_UNKNOWN,
	RK_RDMA_OOB, RK_DELETE_LINK, RK_LLC_FIRST_UNSOL, RK_IMM_UNNEG, RK_PUSH_TEARDOWN,
	RK_REUSE_GUESS, RK_MAX
};

static const struct {
	const char *name;
	unsigned int weight;
	const char *what;
} rclasses[RK_MAX] = {
	[RK_CDC_VALID] = { "cdc-valid", 60, "data both ways, nothing wrong" },
	[RK_CDC_FIELD] = { "cdc-field", 250, "a CDC with one to four fields mutated" },
	[RK_CDC_CURSOR] = { "cdc-cursor", 150, "producer/consumer cursors beyond the RMB, wrap jumps" },
	[RK_CDC_TOKEN] = { "cdc-token", 60, "a CDC with a bogus alert token" },
	[RK_CDC_FLAGS] = { "cdc-flags", 80, "urgent, blocked, closed, abort flag combinations" },
	[RK_CDC_DUP] = { "cdc-dup", 50, "the same CDC many times, out-of-order seqnos" },
	[RK_LLC_UNSOLICITED] = { "llc-unsolicited", 80, "LLC responses nobody asked for" },
	[RK_LLC_REQUEST] = { "llc-request", 80, "LLC requests with bogus rkeys, link ids, GIDs" },
	[RK_LLC_FIELD] = { "llc-field", 120, "an LLC message with fields mutated" },
	[RK_LLC_FLOOD] = { "llc-flood", 20, "200 LLC requests back to back" },
	[RK_LLC_UNKNOWN] = { "llc-unknown", 30, "unknown LLC types and versions" },
	[RK_RDMA_OOB] = { "rdma-oob", 10, "RDMA WRITE outside the RMB or with a bogus rkey" },
	[RK_DELETE_LINK] = { "delete-link", 10, "DELETE_LINK for our link" },
	[RK_IMM_UNNEG] = { "imm-unneg", 20,
			   "RDMA WRITE WITH IMMEDIATE on a group that never negotiated it" },
	[RK_LLC_FIRST_UNSOL] = { "llc-first-unsol", 20,
				 "a first contact; an unsolicited response right behind our CONFIRM_LINK response" },
	[RK_PUSH_TEARDOWN] = { "push-teardown", 10,
			       "the victim echoes 48 KiB while we delete the link or fail our QP" },
	[RK_REUSE_GUESS] = { "reuse-guess", 20,
			     "a reuse of our group whose Confirm names a guessed QPN, MAC or GID" },
};

struct rcase {
	uint64_t no;
	struct hrng r;
	int cls;
	char what[200];
	char msg[200];
	int outcome;
	uint32_t valid;		/* bytes we wrote and announced validly */
	int beyond;		/* we claimed bytes beyond the RMB */
	int claimed;		/* a CDC of ours may have moved the cursors */
	int we_closed;		/* ... or carried abort, closed or done flags */
	int imm_own;		/* an unnegotiated imm write named the connection */
};

static const char *const onames[HO_MAX] = {
	"decline", "fallback", "reset", "lgr-term", "smcr", "known-bug", "unexpected",
};

/* a case after which our connection must still carry data: any other
 * outcome the oracle would allow elsewhere is a finding here, after @what */
static void must_live(struct rcase *c, const char *what)
{
	char was[sizeof(c->msg)];

	if (c->outcome == HO_SMCR || c->outcome == HO_UNEXPECTED)
		return;
	memcpy(was, c->msg, sizeof(was));
	snprintf(c->msg, sizeof(c->msg), "%s after %s: %.100s", onames[c->outcome], what, was);
	c->outcome = HO_UNEXPECTED;
}

static void rnote(struct rcase *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rnote(struct rcase *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note_append(c->what, sizeof(c->what), fmt, ap);
	va_end(ap);
}

static void cdc_build(struct hconn *k, struct smcx_cdc_msg *m, uint32_t prod, uint32_t cons)
{
	memset(m, 0, sizeof(*m));
	m->seqno = ++k->seq;
	m->token = k->peer_token;
	m->prod.count = prod;
	m->cons.count = cons;
}

/*
 * The victim's rule for CDC sequence numbers (cdc.c, as mainline): the
 * first CDC it takes on a connection sets the start, and later it drops
 * one older than the newest it took (smcx_cdc_seq_before()); a failover
 * validation CDC does not count.  k->vseq models that newest number, and
 * our later CDCs go on from it, or the echo's would be dropped as stale
 * (rdma case 5400 of seed 20261203: a random first seqno was taken as the
 * start, and the old rule, which compared with our own last number,
 * adopted an older one).  A CDC the victim cannot decode or that names
 * another connection changes nothing.
 */
static void seq_adopt(struct hconn *k, const uint8_t *raw)
{
	struct smcx_cdc_msg m;

	if (smcx_cdc_decode(raw, SMCX_CDC_LEN, &m, SMCX_WIRE_LAX_RSVD) ||
	    m.token != k->peer_token || (m.prod_flags & SMCX_CDC_PF_FAILOVER_VALID))
		return;
	if (k->vseq_set && smcx_cdc_seq_before(m.seqno, k->vseq))
		return;
	k->vseq = m.seqno;
	k->vseq_set = 1;
	k->seq = m.seqno;
}

/* a CDC of ours (maybe mutated) to the victim, and its number taken note of */
static int cdc_send_bytes(struct hconn *k, const uint8_t *raw)
{
	int rc = hib_send(raw, SMCX_CDC_LEN);

	if (!rc)
		seq_adopt(k, raw);
	return rc;
}

static int cdc_send_raw(struct hconn *k, const struct smcx_cdc_msg *m, uint8_t *raw)
{
	if (smcx_cdc_encode(m, raw, SMCX_CDC_LEN) < 0)
		return -EINVAL;
	return cdc_send_bytes(k, raw);
}

/*
 * Data through the victim: @len bytes written at our producer cursor, a
 * CDC, and the victim application's echo back into our RMB.  Sets the
 * case's outcome; 0 when the echo came back byte for byte.
 */
static int echo_check(struct rcase *c, struct hconn *k, size_t len)
{
	/* after a cursor or flag of ours, a stall is the question: wait less */
	int64_t deadline = now_ms() + (c->claimed || c->we_closed ? 6000 : 20000);
	uint32_t start = c->valid;
	uint64_t echoed, acked = 0;
	struct smcx_cdc_msg m;
	uint8_t raw[SMCX_CDC_LEN];
	const char *why = "";
	int rc = 0, closed = 0;
	uint8_t flags;

	if (start + len > k->peer_size || start + len > RMB_SIZE)
		len = 0;
	hr_fill(&c->r, src_area(), len);
	if (len && hib_write(k->peer_rkey, k->peer_addr + start, len))
		rc = -1;
	cdc_build(k, &m, start + (uint32_t)len, 0);
	if (!rc)
		rc = cdc_send_raw(k, &m, raw);
	if (rc) {
		/*
		 * No send slot: a victim that ended the group (an LLC flood
		 * does that) no longer acknowledges; the probe waits for our
		 * QP to give up on it.
		 */
		rc = link_probe(&c->r, &why);
		if (!rc || (rc < 0 && probe_gone(k->fd))) {
			c->outcome = HO_LGR_TERM;
			snprintf(c->msg, sizeof(c->msg), "%s", ib.why);
		} else {
			struct ibv_qp_attr at;
			struct ibv_qp_init_attr ia;

			if (ibv_query_qp(ib.qp, &at, IBV_QP_STATE, &ia))
				at.qp_state = (enum ibv_qp_state)-1;
			c->outcome = HO_UNEXPECTED;
			snprintf(c->msg, sizeof(c->msg),
				 "our send queue is stuck (%u in flight, QP state %d), link up",
				 ib.inflight, (int)at.qp_state);
		}
		return -1;
	}
	c->valid += (uint32_t)len;
	pthread_mutex_lock(&ib.lk);
	while (!ib.dead && !(k->conn_flags & (SMCX_CDC_CF_CONN_ABORT | SMCX_CDC_CF_CONN_CLOSED |
					      SMCX_CDC_CF_DONE_WRITING)) &&
	       k->prod < c->valid && now_ms() < deadline && !closed) {
		/* the victim's end closed: the question is only why (below) */
		closed = clc_closed(k->fd);
		if (k->prod > acked) {
			/* we consumed it: the victim may write on */
			acked = k->prod;
			pthread_mutex_unlock(&ib.lk);
			cdc_build(k, &m, c->valid, 0);
			m.cons.wrap = (uint16_t)(acked / RMB_SIZE);
			m.cons.count = (uint32_t)(acked % RMB_SIZE);
			cdc_send_raw(k, &m, raw);
			pthread_mutex_lock(&ib.lk);
			continue;
		}
		ib_wait_news();
	}
	echoed = k->prod;
	flags = k->conn_flags;
	pthread_mutex_unlock(&ib.lk);
	/*
	 * No echo and no CDC that ends the connection: the victim closed the
	 * CLC connection, or the time is up.  Whether its link group ended
	 * is a fact the probe finds (its answer, or our QP in error); what
	 * the victim sent before its answer has arrived by then (RC keeps
	 * the order), a CDC with the close or abort flags included.
	 */
	if (!ib.dead && echoed < c->valid &&
	    !(flags & (SMCX_CDC_CF_CONN_ABORT | SMCX_CDC_CF_CONN_CLOSED |
		       SMCX_CDC_CF_DONE_WRITING)) &&
	    link_probe(&c->r, &why) < 0 && !probe_gone(k->fd)) {
		c->outcome = HO_UNEXPECTED;
		snprintf(c->msg, sizeof(c->msg), "%s", why);
		return -1;
	}
	pthread_mutex_lock(&ib.lk);
	echoed = k->prod;
	pthread_mutex_unlock(&ib.lk);
	if (ib.dead) {
		c->outcome = HO_LGR_TERM;
		snprintf(c->msg, sizeof(c->msg), "%s", ib.why);
		return -1;
	}
	if (k->conn_flags & (SMCX_CDC_CF_CONN_ABORT | SMCX_CDC_CF_CONN_CLOSED |
			     SMCX_CDC_CF_DONE_WRITING)) {
		c->outcome = HO_RESET;
		if (echoed > c->valid && c->beyond)
			goto beyond;
		return -1;
	}
	if (echoed < c->valid) {
		/*
		 * we aborted or closed it ourselves, or the victim's
		 * application closed it (its TCP FIN or RST came)
		 */
		if (c->we_closed || closed) {
			c->outcome = HO_RESET;
			return -1;
		}
		c->outcome = c->claimed && (R.skip_symptoms & 1) ? HO_KNOWN : HO_UNEXPECTED;
		snprintf(c->msg, sizeof(c->msg),
			 "%sno echo (%llu of %u bytes), no abort, link up", c->claimed ?
			 "cursor-stall: after a cursor of ours, " : "",
			 (unsigned long long)echoed, c->valid);
		return -1;
	}
	if (echoed > c->valid && c->beyond)
		goto beyond;
	/* after a cursor of ours moved, the victim may echo its RMB's old
	 * bytes first: only an untouched stream is compared byte for byte
	 */
	if (!c->claimed && echoed == c->valid && memcmp(k->rmb + start, src_area(), len)) {
		c->outcome = HO_UNEXPECTED;
		snprintf(c->msg, sizeof(c->msg), "echo differs from the %zu bytes written", len);
		return -1;
	}
	c->outcome = HO_SMCR;
	return 0;
beyond:
	c->outcome = HO_UNEXPECTED;
	snprintf(c->msg, sizeof(c->msg),
		 "victim delivered %llu bytes after a cursor beyond its RMB (valid %u)",
		 (unsigned long long)echoed, c->valid);
	return -1;
}

static void cdc_mutate(struct rcase *c, uint8_t *raw)
{
	static const struct { const char *name; int off, len; } f[] = {
		{ "type", 0, 1 }, { "length", 1, 1 }, { "seqno", 2, 2 }, { "token", 4, 4 },
		{ "prod_rsvd", 8, 2 }, { "prod_wrap", 10, 2 }, { "prod_count", 12, 4 },
		{ "cons_rsvd", 16, 2 }, { "cons_wrap", 18, 2 }, { "cons_count", 20, 4 },
		{ "prod_flags", 24, 1 }, { "conn_flags", 25, 1 }, { "reserved", 26, 18 },
	};
	unsigned int i, n = hr_chance(&c->r, 80) ? 1 : 2 + hr_below(&c->r, 3);

	while (n--) {
		i = hr_below(&c->r, sizeof(f) / sizeof(f[0]));
		if (hr_chance(&c->r, 50))
			hr_fill(&c->r, raw + f[i].off, (size_t)f[i].len);
		else
			raw[f[i].off + hr_below(&c->r, (uint32_t)f[i].len)] ^=
				(uint8_t)(1u << hr_below(&c->r, 8));
		rnote(c, "%s", f[i].name);
	}
}

static void llc_random(struct rcase *c, struct smcx_llc_msg *m)
{
	static const uint8_t types[] = {
		SMCX_LLC_CONFIRM_LINK, SMCX_LLC_ADD_LINK, SMCX_LLC_DELETE_LINK,
		SMCX_LLC_CONFIRM_RKEY, SMCX_LLC_TEST_LINK, SMCX_LLC_DELETE_RKEY,
		SMCX_LLC_REQ_ADD_LINK,
	};
	struct hrng *r = &c->r;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->version = SMCX_LLC_V2;
	m->type = types[hr_below(r, sizeof(types))];
	switch (m->type) {
	case SMCX_LLC_CONFIRM_LINK:
		hr_fill(r, m->u.confirm_link.mac, 6);
		hr_fill(r, m->u.confirm_link.gid, 16);
		m->u.confirm_link.qpn = (uint32_t)hr_next(r) & 0xffffff;
		m->u.confirm_link.link_num = (uint8_t)hr_next(r);
		hr_fill(r, m->u.confirm_link.link_uid, 4);
		m->u.confirm_link.max_links = (uint8_t)hr_next(r);
		break;
	case SMCX_LLC_ADD_LINK:
		hr_fill(r, m->u.add_link.mac, 6);
		hr_fill(r, m->u.add_link.gid, 16);
		m->u.add_link.qpn = (uint32_t)hr_next(r) & 0xffffff;
		m->u.add_link.link_num = (uint8_t)hr_next(r);
		m->u.add_link.qp_mtu = (uint8_t)hr_below(r, 16);
		m->u.add_link.psn = (uint32_t)hr_next(r) & 0xffffff;
		break;
	case SMCX_LLC_DELETE_LINK:
		/* another link than ours: the victim answers and keeps ours */
		m->u.delete_link.link_num = (uint8_t)(ib.link_num + 1 + hr_below(r, 200));
		m->u.delete_link.reason = (uint32_t)hr_next(r);
		break;
	case SMCX_LLC_CONFIRM_RKEY:
		m->u.confirm_rkey.num_rkeys = (uint8_t)hr_below(r, 3);
		for (i = 0; i < SMCX_LLC_RKEYS_PER_MSG; i++) {
			m->u.confirm_rkey.rt[i].link_id = i ? (uint8_t)hr_next(r) : 0;
			m->u.confirm_rkey.rt[i].rkey = (uint32_t)hr_next(r);
			m->u.confirm_rkey.rt[i].vaddr = hr_next(r);
		}
		if (!m->u.confirm_rkey.num_rkeys)
			for (i = 1; i < SMCX_LLC_RKEYS_PER_MSG; i++)
				memset(&m->u.confirm_rkey.rt[i], 0, sizeof(m->u.confirm_rkey.rt[i]));
		else if (m->u.confirm_rkey.num_rkeys == 1)
			memset(&m->u.confirm_rkey.rt[2], 0, sizeof(m->u.confirm_rkey.rt[2]));
		break;
	case SMCX_LLC_TEST_LINK:
		hr_fill(r, m->u.test_link.user_data, 16);
		break;
	case SMCX_LLC_DELETE_RKEY: {
		/*
		 * our RMB's key (the victim drops it) or keys it never saw;
		 * static: a first_unsol() message is encoded later, and no
		 * MR exists then (link_down())
		 */
		static uint8_t keys[3 * 4];

		m->version = SMCX_LLC_V1;
		m->u.delete_rkey.num_rkeys = (uint8_t)hr_below(r, 4);
		for (i = 0; i < m->u.delete_rkey.num_rkeys; i++)
			smcx_llc_rkey_put(keys, i, ib.mr && hr_chance(r, 50) ? ib.mr->rkey :
					  (uint32_t)hr_next(r));
		m->u.delete_rkey.rkeys = keys;
		break;
	}
	default:
		m->u.req_add_link.gid_cnt = (uint8_t)hr_below(r, 3);
		for (i = 0; i < m->u.req_add_link.gid_cnt; i++)
			hr_fill(r, m->u.req_add_link.gids[i], 16);
		break;
	}
}

/* the attack of case @c on connection @k (then the echo judges it) */
static void reuse_guess(struct rcase *c);

static void attack(struct rcase *c, struct hconn *k)
{
	struct hrng *r = &c->r;
	struct smcx_cdc_msg m;
	struct smcx_llc_msg l;
	uint8_t raw[SLOT];
	unsigned int i, n;
	int len;

	switch (c->cls) {
	case RK_CDC_VALID:
		break;
	case RK_CDC_FIELD:
		cdc_build(k, &m, c->valid, 0);
		smcx_cdc_encode(&m, raw, sizeof(raw));
		cdc_mutate(c, raw);
		/* a cursor field mutated may claim bytes beyond the RMB */
		if (raw[0] == SMCX_CDC_TYPE && smcx_get_be32(raw + 4) == k->peer_token &&
		    smcx_get_be32(raw + 12) > k->peer_size)
			c->beyond = 1;
		c->claimed = 1;
		c->we_closed = raw[0] == SMCX_CDC_TYPE && (raw[25] & 0xe0);
		cdc_send_bytes(k, raw);
		break;
	case RK_CDC_CURSOR: {
		static const uint32_t v[] = { 1, 2, 0x3fff, 0x4000, 0x4001, 0x7fffffff,
					      0x80000000, 0xffffffff };

		cdc_build(k, &m, c->valid, 0);
		if (hr_chance(r, 50)) {
			m.prod.count = hr_chance(r, 50) ? v[hr_below(r, 8)] :
				       k->peer_size + hr_below(r, 4096);
			m.prod.wrap = (uint16_t)(hr_chance(r, 70) ? 0 : hr_next(r));
			c->beyond = m.prod.count > k->peer_size;
			c->claimed = 1;
			rnote(c, "prod=%u:%u", m.prod.wrap, m.prod.count);
		} else {
			m.cons.count = hr_chance(r, 50) ? v[hr_below(r, 8)] : (uint32_t)hr_next(r);
			m.cons.wrap = (uint16_t)(hr_chance(r, 70) ? 0 : hr_next(r));
			rnote(c, "cons=%u:%u", m.cons.wrap, m.cons.count);
		}
		cdc_send_raw(k, &m, raw);
		break;
	}
	case RK_CDC_TOKEN:
		cdc_build(k, &m, c->valid, 0);
		m.token = (uint32_t)hr_next(r);
		m.prod.count = (uint32_t)hr_next(r);
		rnote(c, "token=%#x prod=%u", m.token, m.prod.count);
		cdc_send_raw(k, &m, raw);
		break;
	case RK_CDC_FLAGS:
		cdc_build(k, &m, c->valid, 0);
		m.prod_flags = (uint8_t)(hr_next(r) & ~SMCX_CDC_PF_RESERVED);
		m.conn_flags = (uint8_t)(hr_next(r) & ~SMCX_CDC_CF_RESERVED);
		rnote(c, "pf=%#x cf=%#x", m.prod_flags, m.conn_flags);
		c->claimed = 1;
		c->we_closed = !!m.conn_flags;
		cdc_send_raw(k, &m, raw);
		break;
	case RK_CDC_DUP:
		cdc_build(k, &m, c->valid, 0);
		n = 2 + hr_below(r, 200);
		for (i = 0; i < n; i++) {
			if (hr_chance(r, 30))
				m.seqno = (uint16_t)hr_next(r);
			cdc_send_raw(k, &m, raw);
		}
		rnote(c, "%u CDCs", n);
		c->claimed = 1;
		break;
	case RK_LLC_UNSOLICITED:
		llc_random(c, &l);
		l.flags |= SMCX_LLC_FLAG_RESP;
		rnote(c, "%s response", smcx_llc_type_name(l.type));
		llc_send(&l);
		break;
	case RK_LLC_FIRST_UNSOL:
		break;		/* conn_open() sent it (first_unsol()) */
	case RK_LLC_REQUEST:
		llc_random(c, &l);
		rnote(c, "%s", smcx_llc_type_name(l.type));
		llc_send(&l);
		break;
	case RK_LLC_FIELD:
		llc_random(c, &l);
		len = smcx_llc_encode(&l, raw, sizeof(raw));
		if (len < 0)
			break;
		n = 1 + hr_below(r, 3);
		for (i = 0; i < n; i++) {
			unsigned int off = hr_below(r, (uint32_t)len);

			raw[off] = (uint8_t)hr_next(r);
			rnote(c, "%s byte %u", smcx_llc_type_name(l.type), off);
		}
		/* a mutation into DELETE_LINK of our link ends the group: fine */
		hib_send(raw, (size_t)len);
		break;
	case RK_LLC_FLOOD:
		for (i = 0; i < 200; i++) {
			memset(&l, 0, sizeof(l));
			l.version = SMCX_LLC_V2;
			l.type = hr_chance(r, 50) ? SMCX_LLC_TEST_LINK : SMCX_LLC_CONFIRM_RKEY;
			if (llc_send(&l))
				break;	/* dead or stuck: the echo check tells */
		}
		rnote(c, "%u requests", i);
		break;
	case RK_LLC_UNKNOWN:
		memset(raw, 0, sizeof(raw));
		raw[0] = (uint8_t)hr_next(r);
		if (raw[0] == SMCX_CDC_TYPE)
			raw[0] = 0x0f;
		raw[1] = (uint8_t)(hr_chance(r, 50) ? 44 : hr_next(r));
		hr_fill(r, raw + 2, 42);
		rnote(c, "first byte %#x", raw[0]);
		hib_send(raw, 44);
		break;
	case RK_RDMA_OOB:
		if (hr_chance(r, 50)) {
			rnote(c, "beyond the RMB");
			hib_write(k->peer_rkey, k->peer_addr + k->peer_size + hr_below(r, 1 << 20),
				  64);
		} else {
			rnote(c, "bogus rkey");
			hib_write((uint32_t)hr_next(r), k->peer_addr, 64);
		}
		break;
	case RK_IMM_UNNEG:
		/*
		 * our Proposal did not offer smcx's WRITE WITH IMMEDIATE, so
		 * one that names the connection (the immediate is the
		 * victim's token) is a protocol error that ends it; a bogus
		 * token names nothing
		 */
		c->imm_own = hr_chance(r, 50);
		n = c->imm_own ? k->peer_token : (uint32_t)hr_next(r);
		rnote(c, "imm write token=%#x", n);
		c->claimed = 1;
		hib_write_op(k->peer_rkey, k->peer_addr + c->valid % k->peer_size, 64, 1, n);
		break;
	case RK_REUSE_GUESS:
		reuse_guess(c);
		break;
	case RK_DELETE_LINK:
		memset(&l, 0, sizeof(l));
		l.version = SMCX_LLC_V2;
		l.type = SMCX_LLC_DELETE_LINK;
		l.flags = hr_chance(r, 50) ? SMCX_LLC_FLAG_DEL_LINK_ALL : 0;
		l.u.delete_link.link_num = ib.link_num;
		llc_send(&l);
		break;
	}
}

/*
 * The class of case @c: cases 0, 1, ... take the selected classes in
 * turn, one each, so that every class runs in a short run too (the rare
 * ones have a weight of 10 in 1,000); later cases pick by weight.
 */
static int rpick(struct rcase *c)
{
	unsigned int tot = 0, x;
	uint64_t nth = 0;
	int k;

	for (k = 0; k < RK_MAX; k++)
		if (!(R.skip & (1ull << k)) && (!R.keep || (R.keep & (1ull << k)))) {
			tot += rclasses[k].weight;
			if (nth++ == c->no)
				return k;
		}
	if (!tot)
		return -1;
	x = hr_below(&c->r, tot);
	for (k = 0; k < RK_MAX; k++) {
		if ((R.skip & (1ull << k)) || (R.keep && !(R.keep & (1ull << k))))
			continue;
		if (x < rclasses[k].weight)
			return k;
		x -= rclasses[k].weight;
	}
	return -1;
}

static void close_conn(struct hconn *k, struct rcase *c)
{
	struct smcx_cdc_msg m;
	uint8_t raw[SMCX_CDC_LEN];

	if (!ib.dead) {
		cdc_build(k, &m, c->valid, 0);
		m.cons.wrap = (uint16_t)(k->prod / RMB_SIZE);
		m.cons.count = (uint32_t)(k->prod % RMB_SIZE);
		m.conn_flags = SMCX_CDC_CF_DONE_WRITING | SMCX_CDC_CF_CONN_CLOSED;
		cdc_send_raw(k, &m, raw);
	}
	conn_forget(k);
}

static void link_down(void)
{
	int i;

	if (ib.qp && !ib.dead && ib.thr_up) {
		/* an orderly end: the victim drops the group now, not later */
		struct smcx_llc_msg l, resp;

		memset(&l, 0, sizeof(l));
		l.version = SMCX_LLC_V2;
		l.type = SMCX_LLC_DELETE_LINK;
		l.flags = SMCX_LLC_FLAG_DEL_LINK_ALL | SMCX_LLC_FLAG_DEL_LINK_ORDERLY;
		l.u.delete_link.link_num = ib.link_num;
		if (!llc_send(&l))
			llc_wait(&resp, 2000);
	}
	for (i = 0; i < NRMB; i++)
		if (ib.conns[i])
			conn_forget(ib.conns[i]);
	ib_close();
	ib.dead = 0;
}

/*
 * llc-first-unsol: the case is a first contact of its own, and an LLC
 * response nobody asked for goes in one post with our CONFIRM_LINK
 * response (R.tail), into the victim's receive poll while its first
 * contact waits for that answer.  Any type but a second CONFIRM_LINK
 * response (the first must win, which the outcome cannot tell).
 */
static void first_unsol(struct rcase *c)
{
	if (ib.qp)
		link_down();
	do
		llc_random(c, &R.tail);
	while (R.tail.type == SMCX_LLC_CONFIRM_LINK);
	R.tail.flags |= SMCX_LLC_FLAG_RESP;
	R.tail_set = 1;
	rnote(c, "%s response", smcx_llc_type_name(R.tail.type));
}

/*
 * push-teardown (N3): the victim's link goes while it pushes data to us.
 * We write up to PUSH_LEN bytes into its RMB; its application echoes them
 * into our RMB of RMB_SIZE, a window at a time.  When the first window
 * is in, our consumer update lets it write the next, and right behind
 * that update we end the link: a DELETE_LINK (the victim clears the link
 * while its push runs), or our QP into the error state as soon as the
 * update is acknowledged (polled every ms: the victim's next RDMA WRITE
 * then finds no QP, retries and fails while its push runs; one that was
 * quicker and filled the window again finds the dead link only at its
 * next TEST_LINK, after 30 s idle: 19-39 s in the lab).  The group has
 * this one link, so the victim's connection must end, its application
 * closing the CLC connection, within PUSH_END_MS.  The runner then checks the victim's
 * kernel log (no WARN, BUG, KFENCE: the send-slot buffers of N3).
 */
#define PUSH_LEN	(48 * 1024)
#define PUSH_END_MS	60000	/* its TEST_LINK (30 s idle) finds a dead link too */

static void push_teardown(struct rcase *c, struct hconn *k)
{
	size_t len = k->peer_size < PUSH_LEN ? k->peer_size : PUSH_LEN;
	int64_t t0, deadline = now_ms() + 20000;
	uint8_t raw[SMCX_CDC_LEN];
	struct smcx_cdc_msg m;
	struct smcx_llc_msg l;
	struct ibv_qp_attr at;
	int qp_err, closed = 0;
	unsigned int n;
	uint64_t got;

	qp_err = len > RMB_SIZE && hr_chance(&c->r, 50);	/* a second window */
	hr_fill(&c->r, src_area(), len);
	cdc_build(k, &m, (uint32_t)len, 0);
	if (hib_write(k->peer_rkey, k->peer_addr, len) || cdc_send_raw(k, &m, raw)) {
		c->outcome = HO_UNEXPECTED;
		snprintf(c->msg, sizeof(c->msg), "push-teardown: cannot write on a new connection");
		return;
	}
	c->valid = (uint32_t)len;
	/* the first window: full, or no more coming for 300 ms */
	pthread_mutex_lock(&ib.lk);
	got = 0;
	t0 = now_ms();
	while (!ib.dead && k->prod < (len < RMB_SIZE ? len : RMB_SIZE) && now_ms() < deadline &&
	       !(got && now_ms() - t0 > 300)) {
		if (k->prod != got) {
			got = k->prod;
			t0 = now_ms();
		}
		ib_wait_news();
	}
	got = k->prod;
	pthread_mutex_unlock(&ib.lk);
	if (ib.dead || !got) {
		c->outcome = ib.dead ? HO_LGR_TERM : HO_UNEXPECTED;
		snprintf(c->msg, sizeof(c->msg), "push-teardown: %s before the teardown",
			 ib.dead ? ib.why : "no echo");
		return;
	}
	/* the victim may write on: the next window ... */
	cdc_build(k, &m, (uint32_t)len, 0);
	m.cons.wrap = (uint16_t)(got / RMB_SIZE);
	m.cons.count = (uint32_t)(got % RMB_SIZE);
	cdc_send_raw(k, &m, raw);
	/* ... and its link goes meanwhile */
	if (qp_err) {
		/* a completion wakes nobody: poll for the update's */
		deadline = now_ms() + 2000;
		while (now_ms() < deadline) {
			pthread_mutex_lock(&ib.lk);
			n = ib.dead ? 0 : ib.inflight;
			pthread_mutex_unlock(&ib.lk);
			if (!n)
				break;
			sleep_ms(1);
		}
		memset(&at, 0, sizeof(at));
		at.qp_state = IBV_QPS_ERR;
		ibv_modify_qp(ib.qp, &at, IBV_QP_STATE);
		rnote(c, "our QP in error after %llu echoed", (unsigned long long)got);
	} else {
		memset(&l, 0, sizeof(l));
		l.version = SMCX_LLC_V2;
		l.type = SMCX_LLC_DELETE_LINK;
		l.flags = hr_chance(&c->r, 50) ? SMCX_LLC_FLAG_DEL_LINK_ALL : 0;
		l.u.delete_link.link_num = ib.link_num;
		llc_send(&l);
		rnote(c, "DELETE_LINK after %llu echoed", (unsigned long long)got);
	}
	set_dead("we ended our link during the victim's push");
	t0 = now_ms();
	while (!(closed = clc_closed(k->fd)) && now_ms() - t0 < PUSH_END_MS)
		sleep_ms(50);
	pthread_mutex_lock(&ib.lk);
	got = k->prod;
	pthread_mutex_unlock(&ib.lk);
	rnote(c, "echoed %llu of %zu", (unsigned long long)got, len);
	if (!closed) {
		c->outcome = HO_UNEXPECTED;
		snprintf(c->msg, sizeof(c->msg),
			 "the victim's connection lives %d s after its group's only link went",
			 PUSH_END_MS / 1000);
		return;
	}
	rnote(c, "closed after %lld ms", (long long)(now_ms() - t0));
	c->outcome = HO_RESET;
}

/*
 * reuse-guess (F11, N1): what a stranger who guessed right would send.  A
 * second CLC connection from our address proposes our GID; the victim
 * offers a reuse of our group (or a first contact while its reuse meter,
 * reuse.h, is closed: we reset that one).  Our Confirm repeats the link's
 * values but one: a QP number near ours, a low or a random one, another
 * MAC, or a neighbour's GID.  The victim must decline or reset that
 * connection, and our group must live on: the case's own connection
 * still echoes (the caller checks: smcr only).  What the victim did
 * wrong on the guessing connection itself goes to guess_msg.
 */
static char guess_msg[160];

static void reuse_guess(struct rcase *c)
{
	static uint8_t buf[1024];
	struct smcx_clc_accept a, mine;
	struct hrng *r = &c->r;
	struct smcx_clc_hdr h;
	int fd, len, why;
	size_t n;

	guess_msg[0] = 0;
	fd = tcp_connect(R.addr, R.port, 20000);
	if (fd < 0) {
		rnote(c, "guess: connect: %s", strerror(-fd));
		return;
	}
	n = honest_prop(r, buf);
	len = send_all(fd, buf, n) ? -1 : read_clc(fd, buf, sizeof(buf), &h);
	if (len < 0 || h.type != SMCX_CLC_ACCEPT ||
	    smcx_clc_decode_accept(buf, (size_t)len, SMCX_CLC_ACCEPT, &a, 0)) {
		rnote(c, "guess: no accept (%s)", len < 0 ? "none" : "a decline");
		close(fd);
		return;
	}
	if (smcx_clc_first_contact(&a.hdr)) {
		rnote(c, "guess: a first contact offered (meter closed)");
		close(fd);
		return;
	}
	memset(&mine, 0, sizeof(mine));
	mine.hdr = a.hdr;
	mine.hdr.typev2 = 0;
	hr_fill(r, mine.peer_id, 8);
	memcpy(mine.gid, ib.gid, 16);
	memcpy(mine.mac, ib.mac, 6);
	mine.qpn = ib.qp->qp_num;
	mine.rmb_rkey = (uint32_t)hr_next(r);
	mine.rmbe_idx = 1;
	mine.rmbe_alert_token = (uint32_t)hr_next(r) | 1;
	mine.rmbe_size = 0;
	mine.qp_mtu = IBV_MTU_1024;
	mine.rmb_dma_addr = hr_next(r);
	mine.psn = ib.psn;
	memcpy(mine.eid, a.eid, SMCX_EID_LEN);
	switch (hr_below(r, 5)) {
	case 0:
		mine.qpn = (mine.qpn + 1 + hr_below(r, 8)) & 0xffffff;
		break;
	case 1:
		mine.qpn = (mine.qpn - 1 - hr_below(r, 8)) & 0xffffff;
		break;
	case 2:
		mine.qpn = 16 + hr_below(r, 256);
		if (mine.qpn == ib.qp->qp_num)
			mine.qpn++;
		break;
	case 3:
		mine.mac[5] ^= (uint8_t)(1 + hr_below(r, 255));
		break;
	default:
		mine.gid[15] ^= (uint8_t)(1 + hr_below(r, 255));
		break;
	}
	rnote(c, "guess: qpn %u (ours %u)%s%s", mine.qpn, ib.qp->qp_num,
	      memcmp(mine.mac, ib.mac, 6) ? " other mac" : "",
	      memcmp(mine.gid, ib.gid, 16) ? " other gid" : "");
	len = smcx_clc_encode_accept(&mine, SMCX_CLC_CONFIRM, buf, sizeof(buf));
	if (len < 0 || send_all(fd, buf, (size_t)len)) {
		rnote(c, "guess: confirm not sent");
		close(fd);
		return;
	}
	/* a Decline, EOF or a reset; anything else, or nothing, a finding */
	n = rd_exact(fd, buf, SMCX_CLC_HDR_LEN, now_ms() + 20000, &why);
	if (n == SMCX_CLC_HDR_LEN && !smcx_clc_peek(buf, SMCX_CLC_HDR_LEN, &h) &&
	    h.type == SMCX_CLC_DECLINE) {
		rnote(c, "-> decline");
	} else if (!n && why != -ETIMEDOUT) {
		rnote(c, "-> reset");
	} else {
		snprintf(guess_msg, sizeof(guess_msg), "guessed reuse confirm: %s",
			 n ? "an answer that is no Decline" : "no answer within 20 s");
	}
	close(fd);
}

static unsigned long long rcounts[RK_MAX][HO_MAX];

/* tries to open a case's connection, 0.5 s apart unless our group ended */
#define OPEN_TRIES	10

int hostile_rdma(const char *addr, int port, uint64_t seed, uint64_t first, uint64_t count,
		 int verbose, const char *skip, const char *keep, int hold)
{
	static struct hconn conn;
	unsigned long long tot[HO_MAX] = { 0 }, firsts = 0, n = 0, late = 0;
	unsigned long cdc_start, cdc_case, cdc_max = 0;
	uint64_t cdc_max_case = 0;
	int64_t t0 = now_ms();
	int findings = 0, k, o, classes = 0, ran = 0;
	uint64_t i;
	struct rcase c;

	R.addr = addr;
	R.port = port;
	if (skip && strstr(skip, "cursor-stall"))
		R.skip_symptoms |= 1;
	for (k = 0; k < RK_MAX; k++) {
		if (skip && strstr(skip, rclasses[k].name))
			R.skip |= 1ull << k;
		if (keep && strstr(keep, rclasses[k].name))
			R.keep |= 1ull << k;
	}
	for (i = first; i < first + count; i++) {
		char err[300] = "";
		int fc = 0, tries, rc;

		memset(&c, 0, sizeof(c));
		c.no = i;
		c.r.s = seed * 0x9e3779b97f4a7c15ull ^ (i + 1) * 0xd1b54a32d192ed03ull ^ 0x5244ull;
		hr_next(&c.r);
		c.cls = rpick(&c);
		if (c.cls < 0)
			break;
		R.tail_set = 0;
		pthread_mutex_lock(&ib.lk);
		cdc_start = ib.cdc_rx;
		pthread_mutex_unlock(&ib.lk);
		if (c.cls == RK_LLC_FIRST_UNSOL)
			first_unsol(&c);
		for (tries = 0; tries < OPEN_TRIES; tries++) {
			const char *why = "";

			rc = conn_open(&c.r, &conn, &fc, err, sizeof(err));
			if (!rc)
				break;
			if (fc) {		/* a first contact failed: anew */
				link_down();
			} else if (rc == -2 || !link_probe(&c.r, &why)) {
				/*
				 * The victim made a first contact, or our QP
				 * is in error: it ended our group after the
				 * last case's checks.  Ours goes too, at once.
				 */
				late++;
				if (verbose)
					printf("rdma: the victim ended our link group after case %llu (%s)\n",
					       (unsigned long long)i - 1, err);
				link_down();
				continue;
			} else if (why[0]) {
				snprintf(err + strlen(err), sizeof(err) - strlen(err), "; %s", why);
			}
			sleep_ms(500);
		}
		if (tries == OPEN_TRIES) {
			c.outcome = HO_UNEXPECTED;
			snprintf(c.msg, sizeof(c.msg), "cannot open a connection: %s", err);
		} else {
			firsts += fc;
			if (c.cls == RK_PUSH_TEARDOWN) {
				push_teardown(&c, &conn);
			} else {
				attack(&c, &conn);
				echo_check(&c, &conn, 1 + hr_below(&c.r, 2048));
			}
			if (hold > 0 && c.outcome == HO_UNEXPECTED) {
				printf("rdma case %llu: unexpected (%s); holding its connection "
				       "(victim token %#x) for %d s\n", (unsigned long long)i,
				       c.msg, conn.peer_token, hold);
				fflush(stdout);
				sleep_ms(hold * 1000);
			}
			close_conn(&conn, &c);
			if (c.outcome == HO_LGR_TERM || ib.dead)
				link_down();
			/* a connection that took an unnegotiated imm write: a finding */
			if (c.cls == RK_IMM_UNNEG && c.imm_own && c.outcome == HO_SMCR) {
				c.outcome = HO_UNEXPECTED;
				snprintf(c.msg, sizeof(c.msg),
					 "the connection lives after a WRITE WITH IMMEDIATE "
					 "the group never negotiated");
			}
			/* a stranger's guessed reuse: our group and connection live */
			if (c.cls == RK_REUSE_GUESS && guess_msg[0]) {
				c.outcome = HO_UNEXPECTED;
				snprintf(c.msg, sizeof(c.msg), "%s", guess_msg);
			} else if (c.cls == RK_REUSE_GUESS) {
				must_live(&c, "a guessed reuse confirm");
			}
			/* an unsolicited response is dropped: the group lives */
			if (c.cls == RK_LLC_FIRST_UNSOL)
				must_live(&c, "an unsolicited response in a first contact");
		}
		pthread_mutex_lock(&ib.lk);
		cdc_case = ib.cdc_rx - cdc_start;
		pthread_mutex_unlock(&ib.lk);
		if (cdc_case > cdc_max) {
			cdc_max = cdc_case;
			cdc_max_case = i;
		}
		if (cdc_case > CDC_STORM && c.outcome != HO_UNEXPECTED) {
			snprintf(c.msg, sizeof(c.msg),
				 "a CDC storm: the victim sent %lu CDCs during the case (%s before)",
				 cdc_case, onames[c.outcome]);
			c.outcome = HO_UNEXPECTED;
		}
		rcounts[c.cls][c.outcome]++;
		n++;
		if (c.outcome == HO_UNEXPECTED)
			findings++;
		if (verbose || c.outcome == HO_UNEXPECTED) {
			printf("rdma case %llu seed %llu class %s: %s [%s]%s%s%s\n",
			       (unsigned long long)i, (unsigned long long)seed,
			       rclasses[c.cls].name, onames[c.outcome], c.what, fc ? " first" : "",
			       c.msg[0] ? ": " : "", c.msg);
			fflush(stdout);
		}
		if (c.outcome == HO_UNEXPECTED && tries == OPEN_TRIES)
			break;
	}
	link_down();
	for (k = 0; k < RK_MAX; k++) {
		unsigned long long m = 0;

		for (o = 0; o < HO_MAX; o++) {
			if (!rcounts[k][o])
				continue;
			printf("class %-20s %-10s %llu\n", rclasses[k].name, onames[o], rcounts[k][o]);
			tot[o] += rcounts[k][o];
			m += rcounts[k][o];
		}
		if (!(R.skip & (1ull << k)) && (!R.keep || (R.keep & (1ull << k)))) {
			classes++;
			ran += !!m;
		}
	}
	for (o = 0; o < HO_MAX; o++)
		printf("outcome %-10s %llu\n", onames[o], tot[o]);
	printf("hostile: rdma classes selected=%d ran=%d\n", classes, ran);
	printf("hostile: rdma most victim CDCs in one case: %lu (case %llu; a storm is > %d)\n",
	       cdc_max, (unsigned long long)cdc_max_case, CDC_STORM);
	printf("hostile: rdma cases=%llu first=%llu seed=%llu first_contacts=%llu late_lgr_terms=%llu secs=%.1f rate=%.1f/s llc_answered=%lu cdc_rx=%lu findings=%d\n",
	       n, (unsigned long long)first, (unsigned long long)seed, firsts, late,
	       (now_ms() - t0) / 1000.0, n * 1000.0 / (double)(now_ms() - t0 + 1),
	       ib.llc_answered, ib.cdc_rx, findings);
	return findings ? 1 : 0;
}

/* ------------------------------------------------------ slow acknowledger */

/*
 * The slow poster: every @ms one owed receive back, and one more TEST_LINK
 * request, whose answer queues behind the others in the victim's send
 * queue: about three of its SENDs wait there at any time, each for about
 * three periods (under its 15 s stall watchdog).  While a REG_MR waits for
 * the queue to be idle the victim sends no new answers, and the queue
 * drains in three periods, longer than that wait (10 s) with @ms 4000.
 */
static int slow_ms, slow_stop;

static void slow_ask(void)
{
	struct smcx_llc_msg m;

	memset(&m, 0, sizeof(m));
	m.version = SMCX_LLC_V2;
	m.type = SMCX_LLC_TEST_LINK;
	llc_send(&m);
}

static void *slow_thread(void *arg)
{
	(void)arg;
	for (;;) {
		int64_t until = now_ms() + slow_ms;
		unsigned int i = NSLOT;

		while (now_ms() < until) {
			if (__atomic_load_n(&slow_stop, __ATOMIC_ACQUIRE))
				return NULL;
			sleep_ms(50);
		}
		pthread_mutex_lock(&ib.lk);
		if (slow.n)
			i = slow.owed[--slow.n];
		pthread_mutex_unlock(&ib.lk);
		if (i < NSLOT && !ib.dead)
			post_recv(i);
		if (!ib.dead)
			slow_ask();
	}
}

/*
 * hostile slowack (review N5): an honest first contact from @src, then
 * our receive queue runs dry (TEST_LINK requests whose answers take our
 * posted receives, none posted again) and gets one receive back every
 * @ms (slow_thread()): the victim's SENDs wait in RNR retries and complete
 * late, so its send queue is never idle.  Then @n connections at
 * once that claim our group (each needs a new RMB: a REG_MR, which wants
 * the send queue idle, under the group's conf_mutex).  We never confirm;
 * each connection's reply and when it came (ms after the flood) is
 * printed, or "silent" when none came within 20 s.  The link then lives
 * on, with the slow receives, until @secs after the start; then
 * everything is given back and the group deleted.
 */
int hostile_slowack(const char *addr, int port, const char *src, int n, int secs, int ms)
{
	static struct hconn conn;
	static uint8_t buf[1024];
	struct hrng r = { .s = 0x534c4f57ull };
	int64_t t0 = now_ms(), tf, end = t0 + secs * 1000LL;
	int first = 0, i, fds[NRMB], answered = 0, declined = 0, accepted = 0;
	int64_t worst = 0;
	unsigned int drained, tries;
	struct smcx_llc_msg m;
	struct smcx_clc_hdr h;
	pthread_t thr;
	char err[300] = "";
	size_t len;

	R.addr = addr;
	R.port = port;
	R.src = src;
	slow_ms = ms;
	if (n > NRMB)
		n = NRMB;
	hr_next(&r);
	if (conn_open(&r, &conn, &first, err, sizeof(err)) || !first) {
		printf("slowack: no first contact: %s\n", err);
		return 2;
	}
	printf("slowack: first contact up\n");
	pthread_mutex_lock(&ib.lk);
	slow.on = 1;
	pthread_mutex_unlock(&ib.lk);
	memset(&m, 0, sizeof(m));
	m.version = SMCX_LLC_V2;
	m.type = SMCX_LLC_TEST_LINK;
	for (tries = 0, drained = 0; tries < 400 && drained < NSLOT && !ib.dead; tries++) {
		llc_send(&m);
		sleep_ms(25);
		pthread_mutex_lock(&ib.lk);
		drained = slow.n;
		pthread_mutex_unlock(&ib.lk);
	}
	printf("slowack: %u receives taken by %u TEST_LINKs%s\n", drained, tries,
	       ib.dead ? " (link dead)" : "");
	if (drained < NSLOT || ib.dead)
		return 2;
	for (i = 0; i < 3; i++)	/* three answers wait in the victim's queue */
		slow_ask();
	sleep_ms(500);
	pthread_create(&thr, NULL, slow_thread, NULL);
	tf = now_ms();
	for (i = 0; i < n; i++) {
		fds[i] = tcp_connect_from(src, addr, port, 20000);
		len = honest_prop(&r, buf);
		if (fds[i] >= 0 && send_all(fds[i], buf, len)) {
			close(fds[i]);
			fds[i] = -1;
		}
	}
	printf("slowack: %d connections sent their Proposal\n", n);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		int64_t at;
		int got;

		if (fds[i] < 0) {
			printf("slowack conn %d: connect failed\n", i);
			continue;
		}
		got = read_clc(fds[i], buf, sizeof(buf), &h);
		at = now_ms() - tf;
		if (got < 0) {
			printf("slowack conn %d: silent or closed (%lld ms)\n", i, (long long)at);
		} else if (h.type == SMCX_CLC_DECLINE && got >= 20) {
			uint32_t diag;

			memcpy(&diag, buf + 16, 4);
			printf("slowack conn %d: decline 0x%08x (%lld ms)\n", i, ntohl(diag),
			       (long long)at);
			declined++;
		} else {
			printf("slowack conn %d: type %u (%lld ms)\n", i, h.type, (long long)at);
			accepted += h.type == SMCX_CLC_ACCEPT;
		}
		if (got >= 0) {
			answered++;
			if (at > worst)
				worst = at;
		}
		fflush(stdout);
	}
	printf("slowack: answered=%d declined=%d accepted=%d of %d, last answer %lld ms\n",
	       answered, declined, accepted, n, (long long)worst);
	fflush(stdout);
	while (now_ms() < end && !ib.dead)
		sleep_ms(200);
	printf("slowack: link %s after %.1f s\n", ib.dead ? ib.why : "up",
	       (now_ms() - t0) / 1000.0);
	__atomic_store_n(&slow_stop, 1, __ATOMIC_RELEASE);
	pthread_join(thr, NULL);
	pthread_mutex_lock(&ib.lk);
	slow.on = 0;
	while (slow.n)
		post_recv(slow.owed[--slow.n]);
	pthread_mutex_unlock(&ib.lk);
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	link_down();
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffers of a link group (buf.c): the send buffers and RMBs of its
 * connections.  Physically contiguous and DMA mapped on each link's device;
 * an RMB also has an MR per link registered (REG_MR) for remote write, a
 * send buffer uses each link's PD's local DMA lkey.  A buffer is charged
 * to the memory cgroup of the socket it was made for, reused across the
 * group's connections of that cgroup, and freed once unused for
 * buf_idle_ms (30 s) or with the group (buf.c).  The pool list, the used
 * flags and idle times are under lgr->mutex.
 */
#ifndef SMCX_BUF_H
#define SMCX_BUF_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include <smcx/bufsize.h>

#include "link.h"

struct mem_cgroup;
struct smcx_lgr;
struct sock;

#define SMCX_BUF_DEFAULT	(64 * 1024)	/* mainline 6.12 wmem/rmem */
#define SMCX_BUF_MIN		SMCX_BUFSIZE_MIN
#define SMCX_BUF_MAX		SMCX_BUFSIZE_MAX	/* 512 MiB: the CLC's */

/*
 * What a buffer has on one link of its group (smcx_buf.l[lnk->idx]): the
 * DMA mapping on that link's device and, for an RMB, an MR in that link's
 * PD with its own rkey and address and the state of its REG_MR.  The links
 * of a group may be on different RDMA devices (another PD, another DMA
 * mapping), so none of this is shared between them.  Made for every link
 * that maps the group's buffers (smcx_buf_map_link()), under lgr->mutex;
 * taken down by smcx_buf_unmap() for one link at that link's clear.
 */
struct smcx_buf_lnk {
	dma_addr_t dma;			/* local DMA only, never sent */
	bool mapped;
	bool reg;			/* REG_MR done on the link */
	bool rkey_conf;			/* peer confirmed the rkey (LLC) */
	struct ib_mr *mr;		/* RMB only; NULL once unmapped */
	u32 rkey;			/* mr->rkey, kept for the CLC/LLC */
	u64 raddr;			/* mr->iova: see smcx_buf_raddr() */
	/*
	 * Each RMB's REG_MR completes into its own buffer's entry, so a
	 * late completion can never be taken for another buffer's (the
	 * link group ends when one is late).  Under the link's reg_mutex.
	 */
	struct ib_cqe reg_cqe;
	struct completion reg_done;
	int reg_status;
	bool reg_pending;		/* posted, completion not yet seen */
};

struct smcx_buf {
	struct list_head list;		/* lgr->bufs */
	void *cpu;
	u32 size;
	bool rmb;
	bool used;
	/*
	 * Some link's mapping needs CPU syncs (not a virtual-DMA device such
	 * as rxe, not coherent DMA): set at the mapping, under lgr->mutex,
	 * and never cleared; the receive path reads it without a lock.
	 */
	bool need_sync;
	unsigned long idle_since;	/* jiffies at the last put */
	struct mem_cgroup *memcg;	/* charged to; referenced; or NULL */
	struct smcx_buf_lnk l[SMCX_LGR_LINKS];	/* by lnk->idx */
};

/*
 * A free buffer of @size (a power of two from SMCX_BUF_MIN) from the link
 * group's pool, or a new one; if neither, the same at half the size, down
 * to SMCX_BUF_MIN.  NULL if there is none at all or the group is dead.
 * Charged to @sk's memory cgroup (a pooled one: of the same cgroup).
 */
struct smcx_buf *smcx_buf_get(struct smcx_lgr *lgr, const struct sock *sk,
			      u32 size, bool rmb);
/*
 * A server connection's sock @sk, made in a worker: charge its buffers to
 * the memory cgroup of its listener @from (a reference the sock's destruct
 * puts), as a client's go to the cgroup of the task that made its socket.
 */
void smcx_buf_memcg_inherit(struct sock *sk, const struct sock *from);
/* the group's watchdog: free pooled buffers idle for buf_idle_ms */
void smcx_buf_reap(struct smcx_lgr *lgr);
/* back to the pool (the group keeps it) */
void smcx_buf_put(struct smcx_lgr *lgr, struct smcx_buf *buf);
/*
 * An RMB the peer may still write into: kept out of the pool, allocated
 * and registered, until the group's release (see buf.c)
 */
void smcx_buf_retire(struct smcx_lgr *lgr, struct smcx_buf *buf);
/*
 * register an RMB for remote write on @lnk, once per link; 0 or -errno.
 * The wait for an idle send queue ends early once *@abort is set (a
 * handshake's smc->aborting; NULL: none), see smcx_wr_quiesce().
 */
int smcx_buf_reg(struct smcx_link *lnk, struct smcx_buf *buf,
		 const bool *abort);
/*
 * A link that starts to carry the group's data: map (and give an MR to)
 * every buffer of the pool on it, and every buffer made from now on until
 * its clear.  0 or -errno (what was made stays for smcx_link_clear()).
 * Each RMB is then registered on the link with smcx_buf_reg() once its QP
 * is ready, before its rkey on the link goes out (ADD_LINK_CONT).
 */
int smcx_buf_map_link(struct smcx_link *lnk);
/* link clear: @lnk's MR and DMA mapping of @b go with the link's device */
void smcx_buf_unmap(struct smcx_link *lnk, struct smcx_buf *b);
/* group release: the memory */
void smcx_buf_free(struct smcx_buf *b);

/* @b's state on @lnk */
static inline struct smcx_buf_lnk *smcx_buf_on(struct smcx_buf *b,
					       const struct smcx_link *lnk)
{
	return &b->l[lnk->idx];
}

/*
 * Is @b mapped on @lnk?  Inside a SMCX_LNK_MAPPED section of @lnk, or in
 * its completion handlers; the flag is published after the DMA address.
 */
static inline bool smcx_buf_mapped(const struct smcx_buf *b,
				   const struct smcx_link *lnk)
{
	/* pairs with the smp_store_release() in smcx_buf_map() */
	return smp_load_acquire(&b->l[lnk->idx].mapped);
}

/*
 * The address the peer knows an RMB by on @lnk, with smcx_buf_rkey(): what
 * the CLC Accept/Confirm and CONFIRM_RKEY carry and the peer's RDMA WRITEs
 * over @lnk start at.  It is the iova of the link's MR, a random value set
 * at registration (buf.c), never the DMA address (on rxe a kernel virtual
 * address); each link's MR has its own.
 */
static inline u64 smcx_buf_raddr(const struct smcx_buf *b,
				 const struct smcx_link *lnk)
{
	return b->l[lnk->idx].raddr;
}

static inline u32 smcx_buf_rkey(const struct smcx_buf *b,
				const struct smcx_link *lnk)
{
	return b->l[lnk->idx].rkey;
}

/* the DMA address of @b on @lnk's device (the lkey is @lnk's PD's) */
static inline u64 smcx_buf_dma(const struct smcx_buf *b,
			       const struct smcx_link *lnk)
{
	return b->l[lnk->idx].dma;
}

/* the compressed buffer size in CLC messages: smcx/bufsize.h */
u8 smcx_compress_bufsize(u32 size);
u32 smcx_uncompress_bufsize(u8 c);

#endif /* SMCX_BUF_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffers of a link group (buf.c): the send buffers and RMBs of its
 * connections.  Physically contiguous and DMA mapped; an RMB also has an MR
 * registered (REG_MR) for remote write, a send buffer uses the PD's local
 * DMA lkey.  A buffer is reused across the group's connections and freed
 * with the group.  The pool list and the used flags are under lgr->mutex.
 */
#ifndef SMCX_BUF_H
#define SMCX_BUF_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct smcx_lgr;
struct smcx_link;

#define SMCX_BUF_DEFAULT	(64 * 1024)	/* mainline 6.12 wmem/rmem */
#define SMCX_BUF_MIN		(16 * 1024)
#define SMCX_BUF_MAX		(512 * 1024)

struct smcx_buf {
	struct list_head list;		/* lgr->bufs */
	void *cpu;
	dma_addr_t dma;			/* local DMA only, never sent */
	u32 size;
	bool rmb;
	bool used;
	bool mapped;
	bool reg;			/* REG_MR done on the link */
	bool rkey_conf;			/* peer confirmed the rkey (LLC) */
	struct ib_mr *mr;		/* RMB only; NULL once unmapped */
	u32 rkey;			/* mr->rkey, kept for the CLC/LLC */
	u64 raddr;			/* mr->iova: see smcx_buf_raddr() */
	/*
	 * Each RMB's REG_MR completes into its own buffer, so a late
	 * completion can never be taken for another buffer's (the link
	 * group ends when one is late).  Under the link's reg_mutex.
	 */
	struct ib_cqe reg_cqe;
	struct completion reg_done;
	int reg_status;
	bool reg_pending;		/* posted, completion not yet seen */
};

/* a free buffer of @size from the link group's pool, or a new one; NULL */
struct smcx_buf *smcx_buf_get(struct smcx_lgr *lgr, u32 size, bool rmb);
/* back to the pool (the group keeps it) */
void smcx_buf_put(struct smcx_lgr *lgr, struct smcx_buf *buf);
/* register an RMB for remote write on @lnk, once; 0 or -errno */
int smcx_buf_reg(struct smcx_link *lnk, struct smcx_buf *buf);
/* link clear: the MR and the DMA mapping go with the link's device */
void smcx_buf_unmap(struct smcx_link *lnk, struct smcx_buf *b);
/* group release: the memory */
void smcx_buf_free(struct smcx_buf *b);

/*
 * The address the peer knows an RMB by, with its rkey: what the CLC
 * Accept/Confirm and CONFIRM_RKEY carry and the peer's RDMA WRITEs start
 * at.  It is the MR's iova, a random value set at registration (buf.c),
 * never the DMA address (on rxe a kernel virtual address).
 */
static inline u64 smcx_buf_raddr(const struct smcx_buf *b)
{
	return b->raddr;
}

/* mainline's compressed buffer size in CLC messages: 16 KiB << n */
u8 smcx_compress_bufsize(u32 size);
u32 smcx_uncompress_bufsize(u8 c);

#endif /* SMCX_BUF_H */

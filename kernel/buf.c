// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer pool of a link group, the buffers' DMA mapping and MR, and
 * the REG_MR that makes an RMB writable for the peer (see buf.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "lgr.h"
#include "obj.h"
#include "stats.h"

/* mainline's compressed notation: 16 KiB << n */
u8 smcx_compress_bufsize(u32 size)
{
	if (size <= SMCX_BUF_MIN)
		return 0;
	return min_t(u8, ilog2((size - 1) >> 14) + 1, 5);
}

u32 smcx_uncompress_bufsize(u8 c)
{
	return 1U << (c + 14);
}

void smcx_buf_unmap(struct smcx_link *lnk, struct smcx_buf *b)
{
	if (b->mr) {
		ib_dereg_mr(b->mr);
		b->mr = NULL;
		smcx_obj_dec(SMCX_OBJ_MR);
	}
	if (b->mapped) {
		ib_dma_unmap_single(lnk->ibdev, b->dma, b->size,
				    DMA_BIDIRECTIONAL);
		b->mapped = false;
	}
}

void smcx_buf_free(struct smcx_buf *b)
{
	free_pages((unsigned long)b->cpu, get_order(b->size));
	kfree(b);
	smcx_obj_dec(SMCX_OBJ_BUF);
}

static void smcx_buf_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_buf *b = container_of(wc->wr_cqe, struct smcx_buf, reg_cqe);

	b->reg_status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("REG_MR: %s\n", ib_wc_status_msg(wc->status));
	WRITE_ONCE(b->reg_pending, false);
	complete(&b->reg_done);
}

/*
 * The iova of an RMB's MR, which is the address the peer writes to (see
 * smcx_buf_raddr()).  ib_map_mr_sg() sets it to the DMA address, which on
 * rxe is the buffer's kernel virtual address: a peer would learn where the
 * kernel's memory is.  An iova is only a name in the MR's own address
 * space: the device turns iova + n into page (iova + n) / page size -
 * iova / page size of the MR's page list, offset (iova + n) % page size
 * (rxe does exactly that; real HCAs take the iova from the REG_MR work
 * request, and NFS/RDMA rewrites the upper bits of it the same way).  So
 * any value works that keeps the DMA address's offset in its MR page (the
 * MR pages are PAGE_SIZE, the buffer is page aligned: offset 0) and does
 * not wrap with the buffer's length.  Here: 2^46 plus random page bits
 * below 2^45, so [iova, iova + size) lies in [2^46, 2^47): never zero,
 * never in the kernel's half, and unrelated to any other RMB's.
 */
#define SMCX_RADDR_BASE		BIT_ULL(46)
#define SMCX_RADDR_RANDOM	GENMASK_ULL(44, PAGE_SHIFT)

static u64 smcx_buf_pick_raddr(u64 iova)
{
	return SMCX_RADDR_BASE + (get_random_u64() & SMCX_RADDR_RANDOM) +
	       offset_in_page(iova);
}

static struct smcx_buf *smcx_buf_new(struct smcx_lgr *lgr, u32 size, bool rmb)
{
	struct smcx_link *lnk = &lgr->lnk;
	struct scatterlist sg;
	struct smcx_buf *b;
	int n;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->cpu = (void *)__get_free_pages(GFP_KERNEL | __GFP_NOWARN |
					  __GFP_NORETRY | __GFP_ZERO,
					  get_order(size));
	if (!b->cpu) {
		kfree(b);
		return NULL;
	}
	smcx_obj_inc(SMCX_OBJ_BUF);
	b->reg_cqe.done = smcx_buf_reg_done;
	init_completion(&b->reg_done);
	b->size = size;
	b->rmb = rmb;
	b->dma = ib_dma_map_single(lnk->ibdev, b->cpu, size, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(lnk->ibdev, b->dma))
		goto err;
	b->mapped = true;
	if (rmb) {
		b->mr = ib_alloc_mr(lnk->pd, IB_MR_TYPE_MEM_REG,
				    size >> PAGE_SHIFT);
		if (IS_ERR(b->mr)) {
			b->mr = NULL;
			goto err;
		}
		smcx_obj_inc(SMCX_OBJ_MR);
		b->rkey = b->mr->rkey;
		sg_init_table(&sg, 1);
		sg_dma_address(&sg) = b->dma;
		sg_dma_len(&sg) = size;
		n = ib_map_mr_sg(b->mr, &sg, 1, NULL, PAGE_SIZE);
		if (n != 1)
			goto err;
		/* before the REG_MR, which gives the device the iova */
		b->raddr = smcx_buf_pick_raddr(b->mr->iova);
		b->mr->iova = b->raddr;
	}
	return b;
err:
	smcx_buf_unmap(lnk, b);
	smcx_buf_free(b);
	return NULL;
}

/* a free buffer of @size from the link group's pool, or a new one */
struct smcx_buf *smcx_buf_get(struct smcx_lgr *lgr, u32 size, bool rmb)
{
	struct smcx_buf *b;

	mutex_lock(&lgr->mutex);
	list_for_each_entry(b, &lgr->bufs, list) {
		if (!b->used && b->rmb == rmb && b->size == size) {
			b->used = true;
			mutex_unlock(&lgr->mutex);
			smcx_stats_buf_get(lgr->net, rmb, size, true);
			memset(b->cpu, 0, b->size);
			return b;
		}
	}
	b = lgr->dead ? NULL : smcx_buf_new(lgr, size, rmb);
	if (b) {
		b->used = true;
		list_add_tail(&b->list, &lgr->bufs);
	}
	mutex_unlock(&lgr->mutex);
	if (b)
		smcx_stats_buf_get(lgr->net, rmb, size, false);
	return b;
}

void smcx_buf_put(struct smcx_lgr *lgr, struct smcx_buf *b)
{
	mutex_lock(&lgr->mutex);
	b->used = false;
	mutex_unlock(&lgr->mutex);
	smcx_stats_buf_put(lgr->net, b->rmb, b->size);
}

/*
 * Register an RMB for remote write on the link, once per buffer, before its
 * rkey goes out in a CLC message: the peer may write as soon as it has it.
 * A REG_MR completes only after every WR posted before it, so a busy link
 * delays it; one that has not completed in SMCX_REG_WAIT means a stuck
 * link, which ends the group (mainline: link down after its wait too).
 */
int smcx_buf_reg(struct smcx_link *lnk, struct smcx_buf *b)
{
	struct ib_reg_wr wr = {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.wr_cqe = &b->reg_cqe,
			.send_flags = IB_SEND_SIGNALED,
		},
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	int rc;

	if (b->reg)
		return 0;
	mutex_lock(&lnk->reg_mutex);
	/* a link being torn down: its QP and MRs may be gone already */
	if (READ_ONCE(lnk->state) == SMCX_LNK_DEAD || !lnk->qp || !b->mr) {
		rc = -ENOLINK;
		goto out;
	}
	/* an earlier REG_MR of this buffer never completed: group ending */
	if (READ_ONCE(b->reg_pending)) {
		rc = -EBUSY;
		goto out;
	}
	wr.mr = b->mr;
	wr.key = b->rkey;
	rc = smcx_wr_quiesce(lnk);
	if (rc)
		goto out;
	reinit_completion(&b->reg_done);
	b->reg_pending = true;
	rc = -ENOLINK;
	if (smcx_link_enter(lnk, SMCX_LNK_POST)) {
		rc = ib_post_send(lnk->qp, &wr.wr, NULL);
		smcx_link_leave(lnk);
	}
	if (rc)
		b->reg_pending = false;
	else if (!wait_for_completion_timeout(&b->reg_done, SMCX_REG_WAIT))
		rc = -ETIMEDOUT;	/* the drain at teardown completes it */
	else
		rc = b->reg_status;
	smcx_wr_unquiesce(lnk);
	if (rc == -ETIMEDOUT)
		smcx_lgr_terminate_async(lnk->lgr, "REG_MR timed out");
	if (!rc)
		b->reg = true;
out:
	mutex_unlock(&lnk->reg_mutex);
	return rc;
}

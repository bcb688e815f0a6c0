// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer pool of a link group, the buffers' DMA mapping and MR, and
 * the REG_MR that makes an RMB writable for the peer (see buf.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/memcontrol.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "lgr.h"
#include "obj.h"
#include "stats.h"

u8 smcx_compress_bufsize(u32 size)
{
	return smcx_bufsize_compress(size);
}

u32 smcx_uncompress_bufsize(u8 c)
{
	return smcx_bufsize_uncompress(c);
}

void smcx_buf_unmap(struct smcx_link *lnk, struct smcx_buf *b)
{
	struct smcx_buf_lnk *bl = smcx_buf_on(b, lnk);

	if (bl->mr) {
		ib_dereg_mr(bl->mr);
		bl->mr = NULL;
		smcx_obj_dec(SMCX_OBJ_MR);
	}
	if (bl->mapped) {
		ib_dma_unmap_single(lnk->ibdev, bl->dma, b->size,
				    DMA_BIDIRECTIONAL);
		bl->mapped = false;
	}
	bl->reg = false;
	bl->rkey_conf = false;
}

/*
 * Memory cgroups (review N6).  A buffer's pages are charged to the memory
 * cgroup of the socket it is made for: sk->sk_memcg, which the socket core
 * sets (with a reference, put at the sock's destruct) when a socket is
 * made in process context in a cgroup other than the root with socket
 * accounting on (cgroup v2, no cgroup.memory=nosocket); a server's
 * connection gets its listener's (smcx_buf_memcg_inherit()).  The join
 * runs in a worker as often as in the application's task, so the cgroup
 * is named explicitly: __GFP_ACCOUNT under set_active_memcg().  A socket
 * without one (root cgroup, memcg off) charges nobody, as before.  The
 * charge is the page allocator's: a cgroup at its limit gets no buffer
 * (the size is halved, then the handshake declines with reason MEM), and
 * free_pages() uncharges.
 *
 * The pool: a buffer is reused only by a socket of the cgroup it is
 * charged to (b->memcg, the same pointer or both none).  So a charge never
 * moves between cgroups, and no cgroup uses memory another one pays for;
 * a socket of another cgroup makes its own buffer, and the idle ones go
 * after smcx_buf_idle_ms (smcx_buf_reap()).  b->memcg holds a reference,
 * so the comparison never meets a freed and reused cgroup; a removed
 * cgroup stays a zombie until its last pooled buffer is freed.
 */
static unsigned int smcx_buf_idle_ms = 30 * MSEC_PER_SEC;
module_param_named(buf_idle_ms, smcx_buf_idle_ms, uint, 0644);
MODULE_PARM_DESC(buf_idle_ms,
		 "pooled buffers unused this long are freed (default 30000; checked every 5 s)");

#ifdef CONFIG_MEMCG
static struct mem_cgroup *smcx_buf_memcg_get(const struct sock *sk)
{
	struct mem_cgroup *memcg = READ_ONCE(sk->sk_memcg);

	if (memcg)
		css_get(&memcg->css);
	return memcg;
}

void smcx_buf_memcg_inherit(struct sock *sk, const struct sock *from)
{
	if (!sk->sk_memcg && from->sk_memcg) {
		css_get(&from->sk_memcg->css);	/* put by the sock's destruct */
		sk->sk_memcg = from->sk_memcg;
	}
}
#else
static struct mem_cgroup *smcx_buf_memcg_get(const struct sock *sk)
{
	return NULL;
}

void smcx_buf_memcg_inherit(struct sock *sk, const struct sock *from)
{
}
#endif

void smcx_buf_free(struct smcx_buf *b)
{
	free_pages((unsigned long)b->cpu, get_order(b->size));
	mem_cgroup_put(b->memcg);
	kfree(b);
	smcx_obj_dec(SMCX_OBJ_BUF);
}

static void smcx_buf_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcx_buf_lnk *bl = container_of(wc->wr_cqe, struct smcx_buf_lnk,
					       reg_cqe);

	bl->reg_status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		pr_info("REG_MR: %s\n", ib_wc_status_msg(wc->status));
	WRITE_ONCE(bl->reg_pending, false);
	complete(&bl->reg_done);
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
 * never in the kernel's half, and unrelated to any other RMB's or to the
 * same RMB's on another link.
 */
#define SMCX_RADDR_BASE		BIT_ULL(46)
#define SMCX_RADDR_RANDOM	GENMASK_ULL(44, PAGE_SHIFT)

static u64 smcx_buf_pick_raddr(u64 iova)
{
	return SMCX_RADDR_BASE + (get_random_u64() & SMCX_RADDR_RANDOM) +
	       offset_in_page(iova);
}

/*
 * Map @b on @lnk's device and, for an RMB, give it an MR in @lnk's PD with
 * its own random address.  lgr->mutex held and lnk->maps_bufs (or about to
 * be set by smcx_buf_map_link()), so link clear, which ends maps_bufs under
 * the same mutex before it unmaps, cannot have taken the device yet.  On
 * error what was made stays for smcx_buf_unmap().
 */
static int smcx_buf_map(struct smcx_link *lnk, struct smcx_buf *b)
{
	struct smcx_buf_lnk *bl = smcx_buf_on(b, lnk);
	struct scatterlist sg;
	int n;

	if (bl->mapped)
		return 0;
	bl->reg_cqe.done = smcx_buf_reg_done;
	init_completion(&bl->reg_done);
	bl->dma = ib_dma_map_single(lnk->ibdev, b->cpu, b->size,
				    DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(lnk->ibdev, bl->dma))
		return -ENOMEM;
	if (!ib_uses_virt_dma(lnk->ibdev) &&
	    dma_need_sync(lnk->ibdev->dma_device, bl->dma))
		WRITE_ONCE(b->need_sync, true);
	smp_store_release(&bl->mapped, true);	/* smcx_buf_mapped() */
	if (!b->rmb)
		return 0;
	bl->mr = ib_alloc_mr(lnk->pd, IB_MR_TYPE_MEM_REG, b->size >> PAGE_SHIFT);
	if (IS_ERR(bl->mr)) {
		n = PTR_ERR(bl->mr);
		bl->mr = NULL;
		return n;
	}
	smcx_obj_inc(SMCX_OBJ_MR);
	bl->rkey = bl->mr->rkey;
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = bl->dma;
	sg_dma_len(&sg) = b->size;
	n = ib_map_mr_sg(bl->mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1)
		return n < 0 ? n : -EINVAL;
	/* before the REG_MR, which gives the device the iova */
	bl->raddr = smcx_buf_pick_raddr(bl->mr->iova);
	bl->mr->iova = bl->raddr;
	return 0;
}

/*
 * A new buffer charged to @memcg (NULL: nobody), whose reference it takes
 * on success; mapped on every link that maps the pool.  lgr->mutex held.
 */
static struct smcx_buf *smcx_buf_new(struct smcx_lgr *lgr, u32 size, bool rmb,
				     struct mem_cgroup *memcg)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY |
		    __GFP_NOMEMALLOC | __GFP_ZERO;
	struct mem_cgroup *old;
	struct smcx_link *lnk;
	struct smcx_buf *b;
	int i;

	/*
	 * Physically contiguous: one DMA address, one MR page list.  Past
	 * the page allocator's largest order there is nothing to try; below
	 * it a large order may well fail, quietly and without reclaim
	 * storms, and the caller tries half the size.
	 */
	if (get_order(size) > MAX_PAGE_ORDER)
		return NULL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	if (memcg)
		gfp |= __GFP_ACCOUNT;
	old = set_active_memcg(memcg);
	b->cpu = (void *)__get_free_pages(gfp, get_order(size));
	set_active_memcg(old);
	if (!b->cpu) {
		kfree(b);
		return NULL;
	}
	smcx_obj_inc(SMCX_OBJ_BUF);
	b->size = size;
	b->rmb = rmb;
	b->memcg = memcg;
	for (i = 0; i < SMCX_LGR_LINKS; i++) {
		lnk = &lgr->lnk[i];
		if (lnk->maps_bufs && smcx_buf_map(lnk, b))
			goto err;
	}
	return b;
err:
	for (i = 0; i < SMCX_LGR_LINKS; i++)
		if (lgr->lnk[i].maps_bufs)
			smcx_buf_unmap(&lgr->lnk[i], b);
	b->memcg = NULL;		/* the reference stays the caller's */
	smcx_buf_free(b);
	return NULL;
}

/*
 * Map every buffer of the pool on @lnk, a link that starts to carry the
 * group's data (the first link at group create, whose pool is empty, and
 * a link added later, whose RMBs then get their own MR and address on the
 * new link's device for ADD_LINK_CONT to announce), and have new buffers
 * mapped on it too.  Under lgr->mutex, so no buffer is made in between,
 * and before the link is DEAD-marked by clear (which also takes the mutex
 * to end maps_bufs).  A failure leaves the link's partial state to
 * smcx_link_clear(), which unmaps every buffer on it.
 */
int smcx_buf_map_link(struct smcx_link *lnk)
{
	struct smcx_lgr *lgr = lnk->lgr;
	struct smcx_buf *b;
	int rc = 0;

	mutex_lock(&lgr->mutex);
	if (lgr->dead || READ_ONCE(lnk->state) == SMCX_LNK_DEAD ||
	    lnk->unmapped) {
		rc = -ENOLINK;
		goto out;
	}
	lnk->maps_bufs = true;
	list_for_each_entry(b, &lgr->bufs, list) {
		rc = smcx_buf_map(lnk, b);
		if (rc)
			break;
	}
out:
	mutex_unlock(&lgr->mutex);
	return rc;
}

/*
 * A free buffer of @size and kind charged to @memcg in the pool, taken;
 * lgr->mutex held
 */
static struct smcx_buf *smcx_buf_take(struct smcx_lgr *lgr, u32 size,
				      bool rmb, const struct mem_cgroup *memcg)
{
	struct smcx_buf *b;

	list_for_each_entry(b, &lgr->bufs, list) {
		if (!b->used && b->rmb == rmb && b->size == size &&
		    b->memcg == memcg) {
			b->used = true;
			return b;
		}
	}
	return NULL;
}

/*
 * As mainline: at each size from @size down, a pooled buffer first, then a
 * new one; a size that has neither (the allocation or its mapping failed)
 * is halved.  A smaller buffer only makes the connection's window smaller:
 * the RMB size goes to the peer in the CLC, the send buffer's is local.
 */
struct smcx_buf *smcx_buf_get(struct smcx_lgr *lgr, const struct sock *sk,
			      u32 size, bool rmb)
{
	struct mem_cgroup *memcg = smcx_buf_memcg_get(sk);
	struct smcx_buf *b = NULL;
	bool reused = false;
	u32 want = size;

	mutex_lock(&lgr->mutex);
	for (; !lgr->dead && size >= SMCX_BUF_MIN; size /= 2) {
		b = smcx_buf_take(lgr, size, rmb, memcg);
		if (b) {
			reused = true;
			break;
		}
		b = smcx_buf_new(lgr, size, rmb, memcg);
		if (b) {
			memcg = NULL;		/* the buffer's reference now */
			b->used = true;
			list_add_tail(&b->list, &lgr->bufs);
			WRITE_ONCE(lgr->buf_alloc[rmb],
				   lgr->buf_alloc[rmb] + b->size);
			break;
		}
	}
	mutex_unlock(&lgr->mutex);
	mem_cgroup_put(memcg);		/* reused, or none made */
	if (!b)
		return NULL;
	smcx_stats_buf_get(smcx_lgr_stats(lgr), rmb, b->size, reused,
			   b->size < want);
	/*
	 * A pooled buffer is not cleared (mainline clears both kinds).  A
	 * send buffer: only what this connection's sendmsg() copied into it
	 * is ever sent or read (tx.c posts from between the cursors up to
	 * tx_prep, which counts whole copies only).  An RMB: a peer that lies
	 * about its cursors can show our application bytes of the RMB it did
	 * not write for this connection, but every byte there is either a
	 * zero of the allocation (__GFP_ZERO) or one this group's peer wrote
	 * (the pool is the group's, and only the peer has the rkeys): bytes
	 * that peer had and could send as data anyway.  Clearing would
	 * protect nothing and costs a whole RMB's stores per connection
	 * (64 KiB by default: about 10,000 instructions, the largest single
	 * item of a short connection's setup).
	 */
	return b;
}

void smcx_buf_put(struct smcx_lgr *lgr, struct smcx_buf *b)
{
	mutex_lock(&lgr->mutex);
	b->used = false;
	b->idle_since = jiffies;
	mutex_unlock(&lgr->mutex);
	smcx_stats_buf_put(smcx_lgr_stats(lgr), b->rmb, b->size);
}

/* has an REG_MR of @b not completed on some link (the group is ending)? */
static bool smcx_buf_reg_busy(const struct smcx_buf *b)
{
	int i;

	for (i = 0; i < SMCX_LGR_LINKS; i++)
		if (READ_ONCE(b->l[i].reg_pending))
			return true;
	return false;
}

/*
 * Free the buffers of @lgr's pool that nobody used for smcx_buf_idle_ms
 * (review N6: before, a pool kept every buffer it ever made, of every
 * size, until the group ended, which an idle group does after 10 min).
 * From the group's watchdog, every 5 s, in process context: so an idle
 * buffer goes 30 to 35 s after its connection let go, while the group
 * itself may linger for its next connection.
 *
 * Under lgr->mutex the buffer leaves the list and is unmapped on every
 * link that maps the pool, as link clear does under the same mutex (so
 * no link's device goes away meanwhile, and no other link maps it).  A
 * free buffer has no user: a send buffer's last CDC completed before its
 * connection put it, and the peer writes no more into a free RMB (an RMB
 * it might still write into is retired, marked used for good).  An RMB
 * is reaped only while the group's key flows are not running (conf_mutex
 * taken without waiting): the add-link flow keeps pointers to RMBs
 * between its list and its REG_MRs (addlink.c); a busy round leaves them
 * for the next one.  The peer keeps the reaped RMB's key (we send no
 * DELETE_RKEY): an smcx peer drops it with its last connection naming it
 * (rtok.c), and the MR is gone, so the key opens nothing.
 */
void smcx_buf_reap(struct smcx_lgr *lgr)
{
	unsigned long idle = msecs_to_jiffies(READ_ONCE(smcx_buf_idle_ms));
	struct smcx_buf *b, *t;
	LIST_HEAD(gone);
	bool keys;
	int i;

	keys = smcx_lgr_conf_trylock(lgr);
	mutex_lock(&lgr->mutex);
	list_for_each_entry_safe(b, t, &lgr->bufs, list) {
		if (lgr->dead)
			break;			/* the release frees them */
		if (b->used || (b->rmb && !keys) ||
		    time_before(jiffies, b->idle_since + idle) ||
		    smcx_buf_reg_busy(b))
			continue;
		for (i = 0; i < SMCX_LGR_LINKS; i++)
			if (lgr->lnk[i].maps_bufs)
				smcx_buf_unmap(&lgr->lnk[i], b);
		list_move(&b->list, &gone);
		WRITE_ONCE(lgr->buf_alloc[b->rmb],
			   lgr->buf_alloc[b->rmb] - b->size);
	}
	mutex_unlock(&lgr->mutex);
	if (keys)
		smcx_lgr_conf_unlock(lgr);	/* wakes a handshake waiting */
	list_for_each_entry_safe(b, t, &gone, list) {
		list_del(&b->list);
		smcx_buf_free(b);
	}
}

/*
 * An RMB the peer may still write into (review N2) leaves the pool for good
 * but stays allocated and registered: a late RDMA WRITE from the peer lands
 * in it, where no reader will ever look, instead of in the stream of the
 * next connection that would have taken it.  Deregistering it instead
 * would turn such a write into a remote access error, which takes the
 * writer's link down and with it every connection of the group.  The
 * buffer stays marked used on lgr->bufs, so smcx_buf_take() never picks it
 * again; the group's release frees it with the rest of the pool.  Its
 * memory is what a connection would hold: a peer that never answers an
 * abort keeps at most one RMB per connection we dropped, for the life of
 * the group.  No lock: nothing changes in the buffer or the list.
 */
void smcx_buf_retire(struct smcx_lgr *lgr, struct smcx_buf *b)
{
	struct smcx_stats __percpu *s = smcx_lgr_stats(lgr);

	smcx_stats_buf_put(s, true, b->size);
	smcx_stats_rmb_retire(s);
}

/*
 * Register an RMB for remote write on @lnk, once per buffer and link, before
 * its rkey goes out in a CLC or LLC message: the peer may write as soon as it has it.
 * A REG_MR completes only after every WR posted before it, so a busy link
 * delays it; one that has not completed in SMCX_REG_WAIT means a stuck
 * link, which ends the group (mainline: link down after its wait too).
 */
int smcx_buf_reg(struct smcx_link *lnk, struct smcx_buf *b, const bool *abort)
{
	struct smcx_buf_lnk *bl = smcx_buf_on(b, lnk);
	struct ib_reg_wr wr = {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.wr_cqe = &bl->reg_cqe,
			.send_flags = IB_SEND_SIGNALED,
		},
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	int rc;

	if (bl->reg)
		return 0;
	mutex_lock(&lnk->reg_mutex);
	/* a link being torn down: its QP and MRs may be gone already */
	if (READ_ONCE(lnk->state) == SMCX_LNK_DEAD || !lnk->qp || !bl->mr) {
		rc = -ENOLINK;
		goto out;
	}
	/* an earlier REG_MR of this buffer never completed: group ending */
	if (READ_ONCE(bl->reg_pending)) {
		rc = -EBUSY;
		goto out;
	}
	wr.mr = bl->mr;
	wr.key = bl->rkey;
	rc = smcx_wr_quiesce(lnk, abort);	/* not idle: no link down */
	if (rc)
		goto out;
	reinit_completion(&bl->reg_done);
	bl->reg_pending = true;
	rc = -ENOLINK;
	if (smcx_link_enter(lnk, SMCX_LNK_POST)) {
		rc = ib_post_send(lnk->qp, &wr.wr, NULL);
		smcx_link_leave(lnk);
	}
	if (rc)
		bl->reg_pending = false;
	else if (!wait_for_completion_timeout(&bl->reg_done, SMCX_REG_WAIT))
		rc = -ETIMEDOUT;	/* the drain at teardown completes it */
	else
		rc = bl->reg_status;
	smcx_wr_unquiesce(lnk);
	if (rc == -ETIMEDOUT)
		smcx_lgr_link_down(lnk, "REG_MR timed out");
	if (!rc)
		bl->reg = true;
out:
	mutex_unlock(&lnk->reg_mutex);
	return rc;
}

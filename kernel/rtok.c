// SPDX-License-Identifier: GPL-2.0
/*
 * The peer's RMB keys of a link group, per link (lgr->rtoks, the pure logic
 * in smcx/rtoken.h), under lgr->rtok_lock: what the CLC, the peer's
 * CONFIRM_RKEY and its ADD_LINK key list tell, and what a connection that
 * moves to another link writes with (see lgr.h); and the clear of one
 * link, which forgets the keys on it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "lgr.h"

void smcx_lgr_link_clear(struct smcx_lgr *lgr, struct smcx_link *lnk)
{
	mutex_lock(&lgr->links_mutex);
	smcx_link_clear(lnk);
	spin_lock(&lgr->rtok_lock);
	smcx_rtok_drop_link(lgr->rtoks, lnk->idx);
	spin_unlock(&lgr->rtok_lock);
	mutex_unlock(&lgr->links_mutex);
}

int smcx_lgr_rtok_get(struct smcx_lgr *lgr, struct smcx_link *lnk, u32 rkey,
		      u64 addr)
{
	int idx;

	spin_lock(&lgr->rtok_lock);
	idx = smcx_rtok_get(lgr->rtoks, lnk->idx, rkey, addr);
	spin_unlock(&lgr->rtok_lock);
	return idx;
}

void smcx_lgr_rtok_put(struct smcx_lgr *lgr, int idx)
{
	spin_lock(&lgr->rtok_lock);
	smcx_rtok_put(lgr->rtoks, idx);
	spin_unlock(&lgr->rtok_lock);
}

/*
 * The peer freed an RMB: its keys go on every link, so that no failover
 * writes into memory the peer may have given to something else.  A
 * connection still naming it keeps its reference (the peer frees an RMB
 * only once no connection of its own uses it).
 */
int smcx_lgr_rtok_delete(struct smcx_lgr *lgr, struct smcx_link *lnk,
			 u32 rkey)
{
	int rc;

	spin_lock(&lgr->rtok_lock);
	rc = smcx_rtok_del(lgr->rtoks, lnk->idx, rkey);
	spin_unlock(&lgr->rtok_lock);
	return rc ? -ENOENT : 0;
}

int smcx_lgr_rtok_key(struct smcx_lgr *lgr, int idx, struct smcx_link *lnk,
		      u32 *rkey, u64 *addr)
{
	unsigned long long a;
	unsigned int k;
	int rc;

	spin_lock(&lgr->rtok_lock);
	rc = smcx_rtok_key(lgr->rtoks, idx, lnk->idx, &k, &a);
	spin_unlock(&lgr->rtok_lock);
	if (rc)
		return -ENOENT;
	*rkey = k;
	*addr = a;
	return 0;
}

/*
 * The peer's CONFIRM_RKEY for a new RMB of its own, received on @lnk:
 * rt[0] is the key on @lnk, rt[1..] name other links by id.  Keys for a
 * link we do not have are of no use and dropped.  Process context (the
 * link's LLC work).
 */
void smcx_lgr_rtok_confirm(struct smcx_lgr *lgr, struct smcx_link *lnk,
			   const struct smcx_llc_confirm_rkey *c)
{
	unsigned int i, n = min_t(unsigned int, c->num_rkeys + 1,
				  SMCX_LLC_RKEYS_PER_MSG);
	struct smcx_link *other;

	spin_lock(&lgr->rtok_lock);
	if (smcx_rtok_add(lgr->rtoks, lnk->idx, c->rt[0].rkey,
			  c->rt[0].vaddr) >= 0)
		for (i = 1; i < n; i++) {
			other = smcx_lgr_link_by_id(lgr, c->rt[i].link_id);
			if (other && other != lnk)
				smcx_rtok_learn(lgr->rtoks, lnk->idx,
						c->rt[0].rkey, other->idx,
						c->rt[i].rkey, c->rt[i].vaddr);
		}
	spin_unlock(&lgr->rtok_lock);
}

void smcx_lgr_rtok_add_link(struct smcx_lgr *lgr, struct smcx_link *from,
			    struct smcx_link *to, const u8 *rts, unsigned int n)
{
	struct smcx_llc_rt rt;
	unsigned int i;

	spin_lock(&lgr->rtok_lock);
	for (i = 0; i < n; i++) {
		smcx_llc_rt_get(rts, i, &rt);
		smcx_rtok_learn(lgr->rtoks, from->idx, rt.rkey, to->idx,
				rt.rkey_new, rt.vaddr_new);
	}
	spin_unlock(&lgr->rtok_lock);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * splice from an smcx socket: splice_read and splice_eof of the proto_ops
 * that af_smc.c holds.  A grafted socket splices as TCP does.  An smcx
 * sock waits for a running handshake like recvmsg, then copies through
 * its own recvmsg into pages it hands to the pipe (smcx_splice_copy()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <linux/pipe_fs_i.h>
#include <linux/splice.h>
#include <net/sock.h>

#include "af_smc.h"
#include "sock.h"

#define SMCX_SPLICE_PAGES	16

static void smcx_splice_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

/*
 * splice from an SMC socket (SMC-R, or not connected): receive into fresh
 * pages with our own recvmsg, then hand the pages to the pipe.  The CLC
 * socket cannot serve it, tcp_splice_read() needs the file it does not
 * have.  splice holds the pipe lock and has cut @len to the pipe's free
 * slots, so every byte taken from the RMB finds room in the pipe.
 */
static ssize_t smcx_splice_copy(struct socket *sock,
				struct pipe_inode_info *pipe, size_t len,
				unsigned int flags)
{
	struct page *pages[SMCX_SPLICE_PAGES];
	struct partial_page partial[SMCX_SPLICE_PAGES];
	struct bio_vec bv[SMCX_SPLICE_PAGES];
	struct splice_pipe_desc spd = {
		.pages = pages,
		.partial = partial,
		.nr_pages_max = SMCX_SPLICE_PAGES,
		.ops = &nosteal_pipe_buf_ops,
		.spd_release = smcx_splice_release,
	};
	struct msghdr msg = {};
	unsigned int n, i, used;
	size_t want = 0;
	int mflags = 0;
	int got;

	len = min_t(size_t, len, SMCX_SPLICE_PAGES * PAGE_SIZE);
	n = DIV_ROUND_UP(len, PAGE_SIZE);
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i])
			break;
		bvec_set_page(&bv[i], pages[i],
			      min_t(size_t, PAGE_SIZE, len - want), 0);
		want += bv[i].bv_len;
	}
	n = i;
	if (!n)
		return -ENOMEM;
	if ((flags & SPLICE_F_NONBLOCK) ||
	    (sock->file && (sock->file->f_flags & O_NONBLOCK)))
		mflags |= MSG_DONTWAIT;
	iov_iter_bvec(&msg.msg_iter, ITER_DEST, bv, n, want);
	got = smcx_recvmsg(sock, &msg, want, mflags);
	used = got > 0 ? DIV_ROUND_UP(got, PAGE_SIZE) : 0;
	for (i = 0; i < used; i++) {
		partial[i].offset = 0;
		partial[i].len = min_t(size_t, PAGE_SIZE, got - i * PAGE_SIZE);
		partial[i].private = 0;
	}
	for (i = used; i < n; i++)
		put_page(pages[i]);
	if (got <= 0)
		return got;
	spd.nr_pages = used;
	return splice_to_pipe(pipe, &spd);
}

ssize_t smcx_splice_read(struct socket *sock, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags)
{
	struct smcx_sock *smc;
	struct sock *sk;
	long timeo;
	int rc;

again:
	smc = smcx_lock_or_tcp(sock, &sk);
	if (!smc)
		return smcx_tcp_ops_of(sk)->splice_read(sock, ppos, pipe, len,
							flags);
	if (smcx_hs_busy(smc)) {
		timeo = sock_rcvtimeo(sk, flags & SPLICE_F_NONBLOCK);
		rc = smcx_wait_hs(smc, &timeo);
		release_sock(sk);
		if (rc)
			return rc;
		goto again;
	}
	smcx_stats_splice(READ_ONCE(smc->stats), smc->smcr);
	release_sock(sk);
	/* fell back meanwhile: smcx_recvmsg takes the TCP path then */
	return smcx_splice_copy(sock, pipe, len, flags);
}

void smcx_splice_eof(struct socket *sock)
{
	struct sock *sk = READ_ONCE(sock->sk);
	const struct proto_ops *ops;

	if (smcx_sk_is_smc(sk))
		return;
	ops = smcx_tcp_ops_of(sk);
	if (ops->splice_eof)
		ops->splice_eof(sock);
}

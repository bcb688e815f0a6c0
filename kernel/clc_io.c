// SPDX-License-Identifier: GPL-2.0
/*
 * CLC messages on the CLC socket, the internal TCP socket of the
 * handshake: one whole message written or read, the server's first look
 * at the client's stream, and our Decline.  clc.c fills and judges the
 * messages; the codec (include/smcx/wire) encodes and decodes them.
 *
 * Framing: the 8-byte header is read first, its length field says how
 * much follows, and exactly that much is read, so a message never
 * swallows a byte of application data that follows it in the TCP stream
 * (the peer falls back right after a decline and its first data may
 * already be queued behind it).  Every read waits within the caller's
 * deadline (*timeo) on the CLC socket's own queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/net.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <smcx/sniff.h>
#include <smcx/wire.h>

#include "clc.h"
#include "clc_io.h"
#include "conn.h"
#include "hsrec.h"
#include "lgr.h"

/* write one whole message; it is small and the connection fresh */
int smcx_clc_write(struct smcx_sock *smc, const u8 *buf, size_t len)
{
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	struct kvec iov = { .iov_base = (void *)buf, .iov_len = len };
	int rc;

	smcx_hsrec_msg(smc->rec, true, buf, len);
	rc = kernel_sendmsg(smc->clcsock, &msg, &iov, 1, len);
	if (rc < 0)
		return rc;
	/* a partial message would desynchronise the stream: give up */
	return rc == len ? 0 : -EPROTO;
}

/*
 * Read exactly @n bytes, waiting at most *@timeo jiffies in total.  The
 * waits are on the CLC socket's own queue; an abort (tcp_abort from
 * release or from the listener) wakes them and the read returns its error.
 */
static int smcx_clc_read(struct socket *cs, u8 *p, size_t n, long *timeo)
{
	struct sock *tcpsk = cs->sk;
	int rc;

	while (n) {
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
		struct kvec iov = { .iov_base = p, .iov_len = n };

		rc = kernel_recvmsg(cs, &msg, &iov, 1, n, MSG_DONTWAIT);
		if (rc > 0) {
			p += rc;
			n -= rc;
			continue;
		}
		if (rc == 0)
			return -ECONNRESET;	/* peer closed mid-handshake */
		if (rc != -EAGAIN)
			return rc;
		if (!*timeo)
			return -ETIMEDOUT;
		lock_sock(tcpsk);
		sk_wait_data(tcpsk, timeo, NULL);
		release_sock(tcpsk);
	}
	return 0;
}

/*
 * Receive one CLC message into ctx->buf, waiting at most *@timeo jiffies in
 * total (one deadline per message); its length, or -errno.
 */
int smcx_clc_recv(struct smcx_sock *smc, struct smcx_clc_ctx *ctx,
		  struct smcx_clc_hdr *hdr, long *timeo)
{
	struct socket *cs = smc->clcsock;
	int rc;

	rc = smcx_clc_read(cs, ctx->buf, SMCX_CLC_HDR_LEN, timeo);
	if (rc)
		return rc;
	if (smcx_clc_peek(ctx->buf, SMCX_CLC_HDR_LEN, hdr))
		return -EPROTO;
	if (hdr->length < SMCX_CLC_HDR_LEN + SMCX_CLC_TRL_LEN ||
	    hdr->length > sizeof(ctx->buf))
		return -EPROTO;
	rc = smcx_clc_read(cs, ctx->buf + SMCX_CLC_HDR_LEN,
			   hdr->length - SMCX_CLC_HDR_LEN, timeo);
	if (rc)
		return rc;
	smcx_hsrec_msg(smc->rec, false, ctx->buf, hdr->length);
	return hdr->length;
}

/*
 * Server, before consuming anything: does the client's stream start with a
 * CLC message at all?  Every CLC message starts with one of two EBCDIC
 * eyecatchers ("SMCR"/"SMCD", first byte e2 for both), so the first
 * received bytes that leave both eyecatchers decide "not CLC" - usually
 * the very first byte.  Only MSG_PEEK is used: nothing is consumed, so on
 * "not CLC" the application reads the client's stream from its first byte.
 * An orderly EOF is "not CLC" too, before any byte (the client shut its
 * sending side down without a word) or after the start of an eyecatcher
 * (nothing can follow a FIN: those bytes are the application's, then EOF).
 * A reset or an abort (listener close, release: @smc->aborting and
 * tcp_abort()) ends it with the socket's error.
 *
 * Returns 1: looks like CLC (the caller reads and validates the message),
 * 0: the client is not speaking CLC, -errno: reset, abort or *@timeo ran
 * out (an SMC client whose proposal is late is indistinguishable from a
 * TCP client that waits for the server to speak first; see clc_server).
 *
 * What one pass (a peek, then the socket's error and receive shutdown)
 * decides is smcx_sniff_step() (include/smcx/sniff.h, unit-tested): data
 * and a FIN can arrive between the peek and the shutdown check, so a FIN
 * makes it peek once more before the stream counts as not CLC.
 *
 * Every pass either returns or sleeps until more than the bytes it saw
 * are queued (then the next peek sees more, or the stream ended), the
 * socket has an error or EOF (checked before the next sleep), or *@timeo
 * ran down: the peeked bytes stay queued after a FIN or reset, and a loop
 * that only re-peeked them would spin (sk_wait_event() does not sleep,
 * nor count *@timeo down, while its condition holds).
 */
int smcx_clc_sniff(struct smcx_sock *smc, long *timeo)
{
	struct socket *cs = smc->clcsock;
	struct sock *tcpsk = cs->sk;
	u8 b[SMCX_SNIFF_EYELEN];
	int rc, seen = -1, final = 0;

	for (;;) {
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
		struct kvec iov = { .iov_base = b, .iov_len = sizeof(b) };
		DEFINE_WAIT_FUNC(wait, woken_wake_function);
		struct smcx_sniff_pass pass = { .b = b };
		bool ready;

		if (READ_ONCE(smc->aborting))
			return -ECONNABORTED;
		rc = kernel_recvmsg(cs, &msg, &iov, 1, sizeof(b),
				    MSG_DONTWAIT | MSG_PEEK);
		if (rc == -EAGAIN)
			rc = 0;			/* nothing queued yet */
		else if (rc < 0)
			return rc;
		else if (rc == 0)
			pass.eof = 1;		/* FIN before any byte */
		pass.n = rc;
		/* read after the peek: see include/smcx/sniff.h */
		pass.err = READ_ONCE(tcpsk->sk_err);
		pass.shut = !!(READ_ONCE(tcpsk->sk_shutdown) & RCV_SHUTDOWN);
		switch (smcx_sniff_step(&pass, &final)) {
		case SMCX_SNIFF_CLC:
			return 1;
		case SMCX_SNIFF_TCP:
			return 0;
		case SMCX_SNIFF_ERR:
			return -pass.err;	/* reset or abort */
		case SMCX_SNIFF_PEEK:
			continue;
		case SMCX_SNIFF_WAIT:
			break;
		}
		/*
		 * The last sleep ended on "more queued" yet the peek saw no
		 * more: never expected (tcp_inq() counts what a peek
		 * returns), and looping would spin.
		 */
		if (rc == seen)
			return -EPROTO;
		if (!*timeo)
			return -ETIMEDOUT;
		/*
		 * Wait for more than the @rc bytes already queued:
		 * sk_wait_data() cannot be used with bytes left in the queue,
		 * TCP may coalesce new data into the tail skb it compares.
		 */
		lock_sock(tcpsk);
		add_wait_queue(sk_sleep(tcpsk), &wait);
		ready = sk_wait_event(tcpsk, timeo,
				      tcp_inq(tcpsk) > rc ||
				      READ_ONCE(tcpsk->sk_err) ||
				      (READ_ONCE(tcpsk->sk_shutdown) &
				       RCV_SHUTDOWN) ||
				      READ_ONCE(smc->aborting), &wait);
		remove_wait_queue(sk_sleep(tcpsk), &wait);
		release_sock(tcpsk);
		seen = ready && tcp_inq(tcpsk) > rc ? rc : -1;
	}
}

int smcx_clc_send_decline(struct smcx_sock *smc, u32 reason, u8 version)
{
	struct smcx_clc_decline d = {
		.hdr = {
			.eyecatcher = SMCX_EYE_SMCR,
			.version = version,
			.typev1 = SMCX_TYPE_R,
			/* "out of sync" only goes with SYNCERR */
			.typev2 = reason == SMCX_DECL_SYNCERR ?
				  SMCX_CLC_FIRST_CONTACT : 0,
		},
		.diag = reason,
		.os_type = version == SMCX_CLC_V1 ? 0 : SMCX_CLC_OS_LINUX,
	};
	u8 buf[SMCX_CLC_DECL_V2_LEN];
	int len;

	memcpy(d.peer_id, smcx_systemid, SMCX_PEERID_LEN);	/* as mainline's */
	len = smcx_clc_encode_decline(&d, buf, sizeof(buf));
	if (len < 0)
		return -EINVAL;
	return smcx_clc_write(smc, buf, len);
}

int smcx_clc_decline(struct smcx_sock *smc, u32 reason, u8 version)
{
	int rc = smcx_clc_send_decline(smc, reason, version);

	return rc ? rc : reason;
}

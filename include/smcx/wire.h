/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * smcx wire codec: one include for everything smcx reads from or writes to
 * the network (CLC over TCP, LLC and CDC over RDMA).  Header-only C that
 * builds unchanged in the kernel (-DSMCX_KERNEL), in C11 and in C++20.
 *
 * Conventions: decoders take (buf, len, out-struct, flags) and return 0 or
 * -SMCX_WIRE_E*; encoders take (struct, out, out_len) and return the number
 * of bytes written or -SMCX_WIRE_E*.  smcx_wire_strerror() names an error.
 * See docs/wire.md for the layouts and the spec-vs-mainline differences.
 */
#ifndef SMCX_WIRE_H
#define SMCX_WIRE_H

#include "wire/bytes.h"
#include "wire/clc.h"
#include "wire/clc_accept.h"
#include "wire/clc_accept_d.h"
#include "wire/llc.h"
#include "wire/cdc.h"
#include "wire/reasons.h"

#endif /* SMCX_WIRE_H */

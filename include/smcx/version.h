/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* One version string for the module and the user tools. */
#ifndef SMCX_VERSION_H
#define SMCX_VERSION_H

#define SMCX_VERSION "0.1.0"

#endif

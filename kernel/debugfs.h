/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugfs views of the layers above the leaf (debugfs.c): handshake
 * statistics and the smcx socks, in the directory obj.c owns.
 */
#ifndef SMCX_DEBUGFS_H
#define SMCX_DEBUGFS_H

int smcx_debugfs_init(void);
void smcx_debugfs_exit(void);

#endif /* SMCX_DEBUGFS_H */

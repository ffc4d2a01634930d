/* SPDX-License-Identifier: GPL-2.0 */
/*
 * biotrack - remember which cgroup dirtied each page cache folio, so that
 * the writeback of that folio is charged to it.  See block/blk-biotrack.c.
 */
#ifndef _LINUX_BIOTRACK_H
#define _LINUX_BIOTRACK_H

#include <linux/jump_label.h>

struct bio;
struct folio;
struct page_ext_operations;

#ifdef CONFIG_BLK_BIOTRACK
extern struct page_ext_operations biotrack_ops;
DECLARE_STATIC_KEY_FALSE(biotrack_enabled);

void __biotrack_folio_dirtied(struct folio *folio);
void __biotrack_bio(struct bio *bio);

/* @folio just turned dirty, in the context of the task that dirtied it */
static inline void biotrack_folio_dirtied(struct folio *folio)
{
	if (static_branch_likely(&biotrack_enabled))
		__biotrack_folio_dirtied(folio);
}

/* charge a write @bio of the root group to the cgroup that dirtied it */
static inline void biotrack_bio(struct bio *bio)
{
	if (static_branch_likely(&biotrack_enabled))
		__biotrack_bio(bio);
}
#else
static inline void biotrack_folio_dirtied(struct folio *folio)
{
}

static inline void biotrack_bio(struct bio *bio)
{
}
#endif /* CONFIG_BLK_BIOTRACK */

#endif /* _LINUX_BIOTRACK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * biotrack - remember which cgroup dirtied each page cache folio, so that
 * the writeback of that folio is charged to it.  See block/blk-biotrack.c.
 */
#ifndef _LINUX_BIOTRACK_H
#define _LINUX_BIOTRACK_H

#include <linux/jump_label.h>

struct bio;
struct cgroup_subsys_state;
struct folio;
struct page_ext_operations;

#ifdef CONFIG_BLK_BIOTRACK
extern struct page_ext_operations biotrack_ops;
DECLARE_STATIC_KEY_FALSE(biotrack_enabled);

void __biotrack_folio_dirtied(struct folio *folio);
void __biotrack_bio(struct bio *bio);
void __biotrack_css_offline(struct cgroup_subsys_state *css);

/**
 * biotrack_folio_dirtied - remember who dirtied a page cache folio
 * @folio: the folio that just turned dirty
 *
 * Records the io cgroup of the current task (for a kthread, the blkcg it
 * is associated with, if any; nobody in interrupt context) as the owner
 * of @folio's writeback.  A no-op until biotrack is enabled at boot.
 *
 * Context: folio_account_dirtied(), with the mapping's i_pages lock held
 * and interrupts disabled; does not sleep.
 */
static inline void biotrack_folio_dirtied(struct folio *folio)
{
	if (static_branch_likely(&biotrack_enabled))
		__biotrack_folio_dirtied(folio);
}

/**
 * biotrack_bio - charge a writeback bio to the cgroups that dirtied it
 * @bio: a write bio about to be submitted
 *
 * Each page cache folio of @bio under writeback whose recorded owner (or
 * its nearest online ancestor) is a descendant of @bio's cgroup is
 * charged to that owner's blkg: @bio is split where the owner changes,
 * the parts before the last are submitted with submit_bio(), and @bio is
 * re-associated with its last part's owner.  Other folios are left where
 * @bio was.  A no-op until biotrack is enabled at boot.
 *
 * Context: submit_bio(), before @bio is accounted; sleeps only where
 * submit_bio() may, in submitting the parts.
 */
static inline void biotrack_bio(struct bio *bio)
{
	if (static_branch_likely(&biotrack_enabled))
		__biotrack_bio(bio);
}

/**
 * biotrack_css_offline - an io cgroup is going away
 * @css: the io cgroup going offline
 *
 * Records @css's parent, so that writeback of pages @css dirtied is
 * charged to its nearest online ancestor once @css is gone.  A no-op
 * until biotrack is enabled at boot.
 *
 * Context: the io controller's css_offline callback; may sleep.
 */
static inline void biotrack_css_offline(struct cgroup_subsys_state *css)
{
	if (static_branch_likely(&biotrack_enabled))
		__biotrack_css_offline(css);
}
#else
static inline void biotrack_folio_dirtied(struct folio *folio)
{
}

static inline void biotrack_bio(struct bio *bio)
{
}

static inline void biotrack_css_offline(struct cgroup_subsys_state *css)
{
}
#endif /* CONFIG_BLK_BIOTRACK */

#endif /* _LINUX_BIOTRACK_H */

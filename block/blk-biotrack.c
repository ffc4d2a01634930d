// SPDX-License-Identifier: GPL-2.0
/*
 * biotrack - charge page cache writeback to the cgroup that dirtied it.
 *
 * Model
 * -----
 * Buffered writes reach the disk later, from the flusher (or from
 * whoever writes back: sync(2), reclaim, a journal thread), so the
 * writeback bios carry the blkcg of that thread, usually the root, and
 * every blkcg policy charges them there.  Cgroup writeback fixes this
 * only where the memory and io controllers share the v2 hierarchy; on
 * cgroup v1, or on v2 without the memory controller, the dirtier's
 * weight never reaches its writeback.
 *
 * biotrack keeps, for every page, the io cgroup that last turned it from
 * clean to dirty, in page_ext (8 bytes a page).  folio_account_dirtied()
 * records it in the dirtier's context; submit_bio() looks it up for a
 * write bio that is charged to the root group and moves the bio to that
 * cgroup's blkg, before any policy sees it.  A bio is charged whole to
 * the owner of its first folio: filesystems build writeback bios from
 * contiguous ranges of one file, which one cgroup usually dirtied.
 *
 * What is trusted: only folios of the page cache that are under
 * writeback, so dirtied in their current life, where the record is
 * fresh.  Pages of any other kind (anonymous, slab, journal buffers)
 * may carry the record of an earlier life and are left alone, as are
 * bios that already belong to a non-root group (the dirtier's own
 * fsync, cgroup writeback on v2).  A kernel thread that dirties a folio
 * records its associated blkcg (kthread_associate_blkcg(), loop and
 * friends) or nothing; redirtying by the flusher thus drops the record
 * rather than charge the root's I/O to a stale owner.  Dirtying in
 * interrupt context records nothing either.
 *
 * The record is the css id plus the low 32 bits of the css serial
 * number, in one u64 written and read with WRITE_ONCE/READ_ONCE: an id
 * that a new cgroup reuses after the dirtier's cgroup was removed does
 * not match, and neither does a dead cgroup (css_tryget_online()); such
 * writeback stays with the root, as it would without biotrack.
 *
 * "biotrack=off" on the kernel command line disables it and saves the
 * page_ext space.
 */
#include <linux/bio.h>
#include <linux/blk-cgroup.h>
#include <linux/biotrack.h>
#include <linux/cgroup.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/page_ext.h>
#include <linux/pagemap.h>

#include "blk-cgroup.h"

DEFINE_STATIC_KEY_FALSE(biotrack_enabled);
static bool biotrack_off __initdata;

static int __init biotrack_param(char *buf)
{
	bool on;

	if (kstrtobool(buf, &on))
		return -EINVAL;
	biotrack_off = !on;
	return 0;
}
early_param("biotrack", biotrack_param);

static __init bool biotrack_need(void)
{
	return !biotrack_off;
}

static __init void biotrack_init(void)
{
	static_branch_enable(&biotrack_enabled);
}

struct page_ext_operations biotrack_ops = {
	.size = sizeof(u64),
	.need = biotrack_need,
	.init = biotrack_init,
};

static u64 *biotrack_slot(struct page_ext *ext)
{
	return page_ext_data(ext, &biotrack_ops);
}

/* css id in the low half, low 32 bits of the serial number above */
static u64 biotrack_owner(struct cgroup_subsys_state *css)
{
	return (u64)(u32)css->serial_nr << 32 | (u32)css->id;
}

/**
 * __biotrack_folio_dirtied - record @folio's dirtier
 * @folio: the folio that just turned dirty
 *
 * The body of biotrack_folio_dirtied(), for when biotrack is enabled.
 * Stores the owner with WRITE_ONCE: a folio that another cgroup redirties
 * while it is under writeback may be charged to either.
 *
 * Context: any; does not sleep.
 */
void __biotrack_folio_dirtied(struct folio *folio)
{
	struct cgroup_subsys_state *css;
	struct page_ext *ext;
	u64 owner = 0;

	/* in interrupt context, current is not who dirtied the folio */
	if (in_task()) {
		rcu_read_lock();
		if (current->flags & PF_KTHREAD)
			css = kthread_blkcg();
		else
			css = task_css(current, io_cgrp_id);
		/* the root's own writeback needs no moving */
		if (css && css->parent)
			owner = biotrack_owner(css);
		rcu_read_unlock();
	}

	ext = page_ext_get(&folio->page);
	if (!ext)
		return;
	WRITE_ONCE(*biotrack_slot(ext), owner);
	page_ext_put(ext);
}

/**
 * __biotrack_bio - move a root-group writeback bio to its dirtier's blkg
 * @bio: a write bio about to be submitted
 *
 * The body of biotrack_bio(), for when biotrack is enabled.  Only the
 * first page of @bio is looked at: writeback builds a bio from one
 * inode's folios, which one cgroup usually dirtied.  An owner whose css
 * is gone, offline, or reused (the serial number differs) is ignored.
 *
 * Context: any context that may submit a bio; does not sleep.
 */
void __biotrack_bio(struct bio *bio)
{
	struct cgroup_subsys_state *css;
	struct folio *folio;
	struct page_ext *ext;
	u64 owner;

	if (!bio->bi_blkg || bio->bi_blkg->parent || !bio_has_data(bio))
		return;
	/* the page at the bio's iterator: right for clones (btrfs, dm) too */
	folio = page_folio(bio_page(bio));
	if (!folio_test_writeback(folio) || folio_test_anon(folio) ||
	    folio_test_swapcache(folio))
		return;

	ext = page_ext_get(&folio->page);
	if (!ext)
		return;
	owner = READ_ONCE(*biotrack_slot(ext));
	page_ext_put(ext);
	if (!owner)
		return;

	rcu_read_lock();
	css = css_from_id((u32)owner, &io_cgrp_subsys);
	if (!css || biotrack_owner(css) != owner || !css_tryget_online(css)) {
		rcu_read_unlock();
		return;
	}
	rcu_read_unlock();
	bio_associate_blkg_from_css(bio, css);
	css_put(css);
}

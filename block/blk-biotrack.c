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
 * write bio and, if the owner is a descendant of the bio's cgroup (the
 * root's, for the flusher; a parent's, for cgroup writeback on v2 where
 * the memory controller stops above the io one), moves the bio to the
 * owner's blkg, before any policy sees it.  Filesystems build writeback
 * bios from contiguous ranges of one file, which one cgroup usually
 * dirtied; a bio whose folios have several owners is split where the
 * owner changes, and each part is charged to its own.
 *
 * What is left alone: metadata and swap bios, which the core issues as
 * the root's (bio_issue_as_root_blkg()), and reclaim's writeout
 * (PF_MEMALLOC), which frees memory for everyone.
 *
 * What is trusted: only folios of the page cache that are under
 * writeback, so dirtied in their current life, where the record is
 * fresh.  Pages of any other kind (anonymous, slab, journal buffers)
 * may carry the record of an earlier life and are left alone, as are
 * bios of the owner itself or of a cgroup outside its ancestry (the
 * dirtier's own fsync, cgroup writeback of the owner's own memcg).  A
 * kernel thread that dirties a folio records its associated blkcg
 * (kthread_associate_blkcg(), loop and friends) or nothing; redirtying
 * by the flusher thus drops the record rather than charge the root's
 * I/O to a stale owner.  Dirtying in interrupt context records nothing
 * either.
 *
 * The record is the css id plus the low 32 bits of the css serial
 * number, in one u64 written and read with WRITE_ONCE/READ_ONCE: an id
 * that a new cgroup reuses after the dirtier's cgroup was removed does
 * not match.  The writeback of a removed cgroup goes to its nearest
 * ancestor that is still online: while the css exists its ->parent
 * chain leads there, and once it is freed biotrack_dead, filled when an
 * io cgroup goes offline, maps its record to its parent's.  That table
 * holds one small entry per css id that was ever removed, replaced when
 * a removed cgroup's id is reused and removed again.
 *
 * "biotrack=off" on the kernel command line disables it and saves the
 * page_ext space.
 */
#include <linux/bio.h>
#include <linux/blk-cgroup.h>
#include <linux/blkdev.h>
#include <linux/biotrack.h>
#include <linux/cgroup.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/page_ext.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <trace/events/block.h>

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

/*
 * page_ext calls every client's init once it has allocated its space,
 * for any client that needed it, so this runs with biotrack=off too
 * (when page_owner, say, is on): biotrack then has no slot and must stay
 * off.
 */
static __init void biotrack_init(void)
{
	if (biotrack_off)
		return;
	static_branch_enable(&biotrack_enabled);
	pr_info("biotrack: charging writeback to the cgroup that dirtied it\n");
}

struct page_ext_operations biotrack_ops = {
	.size = sizeof(u64),
	.need = biotrack_need,
	.init = biotrack_init,
};

/*
 * A removed io cgroup: its record and its parent's (0 for the root), at
 * its css id in biotrack_dead.  Entries are stored at offline and freed
 * after an RCU grace period when a later removal of the id replaces them.
 */
struct biotrack_dead {
	u64		owner;
	u64		parent;
	struct rcu_head	rcu;
};

static DEFINE_XARRAY(biotrack_dead);

/* for the parts of bios split between owners; set up once, at boot */
static struct bio_set biotrack_bio_set;
static bool biotrack_can_split __ro_after_init;

static int __init biotrack_bioset_init(void)
{
	if (!static_branch_unlikely(&biotrack_enabled))
		return 0;
	if (bioset_init(&biotrack_bio_set, BIO_POOL_SIZE, 0, 0)) {
		pr_warn("biotrack: no bio_set: a bio goes whole to its first folio's owner\n");
		return 0;
	}
	biotrack_can_split = true;
	return 0;
}
subsys_initcall(biotrack_bioset_init);

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

/*
 * The online io cgroup that @owner's writeback is charged to, with a
 * reference: @owner's own css, or its nearest online ancestor if it was
 * removed.  NULL if that is the root, or if the chain is lost.  Called
 * under rcu_read_lock(), which keeps the css and biotrack_dead entries.
 */
static struct cgroup_subsys_state *biotrack_live_owner(u64 owner)
{
	struct cgroup_subsys_state *css;
	struct biotrack_dead *d;

	while (owner) {
		css = css_from_id((u32)owner, &io_cgrp_subsys);
		if (css && biotrack_owner(css) == owner) {
			for (; css->parent; css = css->parent)
				if (css_tryget_online(css))
					return css;
			return NULL;
		}
		/* freed: follow the link recorded when it went offline */
		d = xa_load(&biotrack_dead, (u32)owner);
		if (!d || d->owner != owner)
			return NULL;
		owner = d->parent;
	}
	return NULL;
}

/*
 * The record of @folio's dirtier, or 0 where it is not to be trusted:
 * only page cache folios under writeback were dirtied in their current
 * life.
 */
static u64 biotrack_record(struct folio *folio)
{
	struct page_ext *ext;
	u64 owner;

	if (!folio_test_writeback(folio) || folio_test_anon(folio) ||
	    folio_test_swapcache(folio))
		return 0;
	ext = page_ext_get(&folio->page);
	if (!ext)
		return 0;
	owner = READ_ONCE(*biotrack_slot(ext));
	page_ext_put(ext);
	return owner;
}

/*
 * Bytes at the start of @bio (from its iterator: right for clones too)
 * whose folios all carry the first one's record, which goes to @first.
 */
static unsigned int biotrack_run(struct bio *bio, u64 *first)
{
	struct folio *folio, *last = NULL;
	unsigned int len = 0;
	struct bvec_iter iter;
	struct bio_vec bv;
	u64 rec;

	bio_for_each_segment(bv, bio, iter) {
		folio = page_folio(bv.bv_page);
		if (folio != last) {
			rec = biotrack_record(folio);
			if (!last)
				*first = rec;
			else if (rec != *first)
				break;
			last = folio;
		}
		len += bv.bv_len;
	}
	return len;
}

/* Move @bio to @owner's blkg (or its nearest online ancestor's). */
static void biotrack_charge(struct bio *bio, u64 owner)
{
	struct cgroup_subsys_state *css;

	if (!owner)
		return;
	rcu_read_lock();
	css = biotrack_live_owner(owner);
	rcu_read_unlock();
	if (!css)
		return;
	/* only ever down the tree: from the root, or from a cgwb's parent */
	if (css != &bio->bi_blkg->blkcg->css &&
	    cgroup_is_descendant(css->cgroup, bio->bi_blkg->blkcg->css.cgroup))
		bio_associate_blkg_from_css(bio, css);
	css_put(css);
}

/**
 * __biotrack_bio - move a writeback bio down to its dirtiers' blkgs
 * @bio: a write bio about to be submitted
 *
 * The body of biotrack_bio(), for when biotrack is enabled.  A bio whose
 * folios were dirtied by more than one cgroup is split where the owner
 * changes, and each part goes to its own owner: the parts before the
 * last are submitted from here, in order, and @bio is left with the
 * last.  Where a split cannot be made (no memory without sleeping; a
 * flush, atomic, nowait or polled write, which the core does not split
 * either; a zoned device; a boundary inside a logical block), the rest
 * goes to the owner of its first folio.  An owner whose css is gone,
 * offline, or reused (the serial number differs) is ignored.
 *
 * Context: submit_bio(), before it accounts @bio; sleeps only where
 * submit_bio() may, in submitting the parts.
 */
void __biotrack_bio(struct bio *bio)
{
	unsigned int lbs, len;
	struct bio *head;
	u64 owner = 0;
	bool split;

	if (!bio->bi_blkg || !bio_has_data(bio))
		return;
	/*
	 * The core keeps metadata and swap in the root on purpose
	 * (bio_issue_as_root_blkg()), and reclaim writes pages out to free
	 * memory for everyone: none of it may wait at a dirtier's weight.
	 */
	if (bio_issue_as_root_blkg(bio) || (current->flags & PF_MEMALLOC))
		return;
	lbs = bdev_logical_block_size(bio->bi_bdev);
	split = biotrack_can_split && !bdev_is_zoned(bio->bi_bdev) &&
		!(bio->bi_opf & (REQ_PREFLUSH | REQ_ATOMIC | REQ_NOWAIT |
				 REQ_POLLED));
	for (;;) {
		len = biotrack_run(bio, &owner);
		if (!split || len >= bio->bi_iter.bi_size || !len ||
		    !IS_ALIGNED(len, lbs))
			break;
		head = bio_split(bio, len >> SECTOR_SHIFT,
				 GFP_NOWAIT | __GFP_NOWARN, &biotrack_bio_set);
		if (!head)
			break;
		bio_chain(head, bio);
		trace_block_split(head, bio->bi_iter.bi_sector);
		/* one owner throughout: charged by this hook, and accounted */
		submit_bio(head);
	}
	biotrack_charge(bio, owner);
}

/**
 * __biotrack_css_offline - remember a removed io cgroup's parent
 * @css: the io cgroup going offline
 *
 * The body of biotrack_css_offline(), for when biotrack is enabled.  An
 * allocation failure only loses the link: the cgroup's remaining
 * writeback then goes to the root, as without biotrack.
 *
 * Context: the io controller's css_offline callback; may sleep.
 */
void __biotrack_css_offline(struct cgroup_subsys_state *css)
{
	struct biotrack_dead *d, *old;

	if (!css->parent)
		return;
	d = kmalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return;
	d->owner = biotrack_owner(css);
	d->parent = css->parent->parent ? biotrack_owner(css->parent) : 0;
	old = xa_store(&biotrack_dead, css->id, d, GFP_KERNEL);
	if (xa_is_err(old)) {
		kfree(d);
		return;
	}
	if (old)
		kfree_rcu(old, rcu);
}

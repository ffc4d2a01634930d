// SPDX-License-Identifier: GPL-2.0
/*
 * hcfq blkcg policy: weights and statistics per cgroup and device.
 *
 * cgroup v1 gets CFQ's interface, so existing tools (libcgroup configs,
 * runc's --blkio-weight) work unchanged:
 *
 *   blkio.weight		10..1000, default 500; on the root it sets
 *				the weight of the root's own tasks
 *   blkio.weight_device	"MAJ:MIN W", W = 0 removes the override
 *
 * These two write the block cgroup core's weights (blkcg_weight()), as
 * blkio.bfq.weight[_device] do, so a weight reaches hcfq or bfq whichever
 * file a tool wrote, and a per-device weight can be set whatever runs on
 * the disk.  Only hcfq reads the leaf weights:
 *
 *   blkio.leaf_weight[_device]	weight of the tasks that sit directly in
 *				a group that also has child groups (the
 *				per-device ones are kept by the core too)
 *   blkio.time, blkio.sectors, blkio.io_service_bytes, io_serviced,
 *   io_service_time, io_wait_time, io_merged, io_queued, and _recursive
 *   variants, in CFQ's formats (time in ms, service/wait times in ns).
 *
 * cgroup v2: hcfq follows io.weight, the block core's weight file that
 * iocost reads too (1..10000, default 100; "N", "default N", "MAJ:MIN N"
 * and "MAJ:MIN default"), so that systemd, runc and Kubernetes reach it
 * unchanged.  io.bfq.weight (1..1000) and io.hcfq.weight write the same
 * weights, for tools and scripts written for those.  hcfq.* keys go into
 * io.stat.
 *
 * Buffered writers: hcfq_pd_dirty_weight() gives balance_dirty_pages()
 * the factor by which it scales a dirtier's rate on the disk (weight
 * split among the group's paced tasks, over the largest such part paced
 * on the disk), so that
 * cgroups sharing a bdi_writeback dirty, and so write back, by weight.
 *
 * A weight of 0, in the block core's store, in struct hcfq_cgroup_data
 * or in a struct hcfq_group, means "the default of the hierarchy the io
 * controller is mounted on" (500 on v1, 100 on v2), so a group made
 * before the hierarchy was chosen still gets the right one.
 */
#include <linux/blk-cgroup.h>
#include <linux/cgroup.h>
#include <linux/hash.h>
#include <linux/math64.h>
#include <linux/seq_file.h>

#include "elevator.h"
#include "hcfq-iosched.h"

/* per-cgroup configuration; fields written under blkcg->lock */
struct hcfq_cgroup_data {
	struct blkcg_policy_data	cpd;
	unsigned int			leaf_weight;	/* v1; 0: default */
};

static struct hcfq_cgroup_data *cpd_to_hcfqcd(struct blkcg_policy_data *cpd)
{
	return cpd ? container_of(cpd, struct hcfq_cgroup_data, cpd) : NULL;
}

static struct hcfq_cgroup_data *blkcg_to_hcfqcd(struct blkcg *blkcg)
{
	return cpd_to_hcfqcd(blkcg_to_cpd(blkcg, &blkcg_policy_hcfq));
}

static bool hcfq_on_dfl(void)
{
	return cgroup_subsys_on_dfl(io_cgrp_subsys);
}

static unsigned int hcfq_dfl_weight(void)
{
	return hcfq_on_dfl() ? CGROUP_WEIGHT_DFL : HCFQ_V1_WEIGHT_DFL;
}

/* v1's range; the block core parses the weight files with it */
static bool hcfq_weight_valid(u64 v)
{
	return v >= HCFQ_V1_WEIGHT_MIN && v <= HCFQ_V1_WEIGHT_MAX;
}

/**
 * hcfq_group_weight - the weight @hg competes with among its siblings
 * @hg: the group
 *
 * Return: the device-specific weight if one is set, else the cgroup's,
 * else the default of the hierarchy in use (500 on v1, 100 on v2).
 *
 * Context: any; the weights are read with READ_ONCE, so a concurrent
 * write gives either the old or the new value.
 */
unsigned int hcfq_group_weight(struct hcfq_group *hg)
{
	return READ_ONCE(hg->weight) ?: hcfq_dfl_weight();
}

/**
 * hcfq_group_leaf_weight - the weight of @hg's own tasks against its children
 * @hg: the group
 *
 * Return: v1's blkio.leaf_weight (device-specific, else the cgroup's,
 * else the default).  On v2, which has no leaf weight, a child group's
 * own tasks weigh as the group itself, so its weight.
 *
 * Context: any, as hcfq_group_weight().
 */
unsigned int hcfq_group_leaf_weight(struct hcfq_group *hg)
{
	/* v2 has no leaf weight: a group's own tasks weigh as the group */
	if (hcfq_on_dfl() && hg->parent)
		return hcfq_group_weight(hg);
	return READ_ONCE(hg->leaf_weight) ?: hcfq_dfl_weight();
}

/*
 * Recompute @hg's effective weights: the block core's (device, else
 * cgroup, else 0 for the default), and v1's leaf weight (the core's for
 * the device, else the cgroup's).
 */
static void hcfq_group_update_weights(struct hcfq_group *hg,
				      struct hcfq_cgroup_data *cd)
{
	struct blkcg_gq *blkg = pd_to_blkg(&hg->pd);
	struct gendisk *disk = blkg->q->disk;

	WRITE_ONCE(hg->weight, blkcg_weight(blkg->blkcg, disk));
	WRITE_ONCE(hg->leaf_weight,
		   blkcg_dev_leaf_weight(blkg->blkcg, disk) ?: cd->leaf_weight);
}

/* Apply @blkcg's weights to its groups on every device. */
static void hcfq_blkcg_update_weights(struct blkcg *blkcg)
{
	struct hcfq_cgroup_data *cd = blkcg_to_hcfqcd(blkcg);
	struct blkcg_gq *blkg;

	lockdep_assert_held(&blkcg->lock);
	hlist_for_each_entry(blkg, &blkcg->blkg_list, blkcg_node) {
		struct hcfq_group *hg = blkg_to_hcfqg(blkg);

		if (hg)
			hcfq_group_update_weights(hg, cd);
	}
}

/* the weight_update_fn op: a weight of @blkcg changed */
static void hcfq_weight_update(struct blkcg *blkcg)
{
	spin_lock_irq(&blkcg->lock);
	hcfq_blkcg_update_weights(blkcg);
	spin_unlock_irq(&blkcg->lock);
}

/* statistics */

/* Everything @from counted, its own and its dead children's, to @to. */
static void hcfq_rwstat_add_aux(struct hcfq_rwstat *to,
				struct hcfq_rwstat *from)
{
	int i;

	for (i = 0; i < BLKG_RWSTAT_NR; i++)
		atomic64_add(READ_ONCE(from->cnt[i]) +
			     atomic64_read(&from->aux[i]), &to->aux[i]);
}

/* reads and writes, as blkg_rwstat_total() */
static u64 hcfq_rwstat_total(struct hcfq_rwstat *st)
{
	return READ_ONCE(st->cnt[BLKG_RWSTAT_READ]) +
		READ_ONCE(st->cnt[BLKG_RWSTAT_WRITE]);
}

static void hcfq_rwstat_reset(struct hcfq_rwstat *st)
{
	int i;

	for (i = 0; i < BLKG_RWSTAT_NR; i++) {
		WRITE_ONCE(st->cnt[i], 0);
		atomic64_set(&st->aux[i], 0);
	}
}

/* Hand a dying group's counts to its parent for the _recursive files. */
static void hcfq_stats_xfer_dead(struct hcfq_group *hg)
{
	struct hcfq_stats *to, *from = &hg->stats;

	if (!hg->parent)
		return;
	to = &hg->parent->stats;
	hcfq_rwstat_add_aux(&to->bytes, &from->bytes);
	hcfq_rwstat_add_aux(&to->ios, &from->ios);
	hcfq_rwstat_add_aux(&to->service_time, &from->service_time);
	hcfq_rwstat_add_aux(&to->wait_time, &from->wait_time);
	hcfq_rwstat_add_aux(&to->merged, &from->merged);
	atomic64_add(READ_ONCE(from->time) + atomic64_read(&from->dead_time),
		     &to->dead_time);
	atomic64_add(READ_ONCE(from->sectors) +
		     atomic64_read(&from->dead_sectors), &to->dead_sectors);
}

/* policy callbacks */

static struct blkcg_policy_data *hcfq_cpd_alloc(gfp_t gfp)
{
	struct hcfq_cgroup_data *cd = kzalloc(sizeof(*cd), gfp);

	return cd ? &cd->cpd : NULL;
}

static void hcfq_cpd_free(struct blkcg_policy_data *cpd)
{
	kfree(cpd_to_hcfqcd(cpd));
}

static struct blkg_policy_data *hcfq_pd_alloc(struct gendisk *disk,
					      struct blkcg *blkcg, gfp_t gfp)
{
	struct hcfq_group *hg;

	hg = kzalloc_node(sizeof(*hg), gfp, disk->queue->node);
	return hg ? &hg->pd : NULL;
}

static void hcfq_pd_init(struct blkg_policy_data *pd)
{
	struct hcfq_group *hg = pd_to_hcfqg(pd);
	struct blkcg_gq *blkg = pd_to_blkg(pd);

	hcfq_group_update_weights(hg, blkcg_to_hcfqcd(blkg->blkcg));
	hcfq_group_init(blkg->q->elevator->elevator_data, hg);
}

/*
 * blkg_create() calls pd_init before the blkg is on blkcg->blkg_list, so
 * a weight written in between would miss it; read them again here, where
 * blkcg->lock is held in both callers.
 */
static void hcfq_pd_online(struct blkg_policy_data *pd)
{
	struct blkcg_gq *blkg = pd_to_blkg(pd);

	lockdep_assert_held(&blkg->blkcg->lock);
	hcfq_group_update_weights(pd_to_hcfqg(pd), blkcg_to_hcfqcd(blkg->blkcg));
}

static void hcfq_pd_offline(struct blkg_policy_data *pd)
{
	struct hcfq_group *hg = pd_to_hcfqg(pd);

	hcfq_group_offline(hg);
	hcfq_stats_xfer_dead(hg);
}

static void hcfq_pd_free(struct blkg_policy_data *pd)
{
	kfree(pd_to_hcfqg(pd));
}

static void hcfq_pd_reset_stats(struct blkg_policy_data *pd)
{
	struct hcfq_stats *st = &pd_to_hcfqg(pd)->stats;

	hcfq_rwstat_reset(&st->bytes);
	hcfq_rwstat_reset(&st->ios);
	hcfq_rwstat_reset(&st->service_time);
	hcfq_rwstat_reset(&st->wait_time);
	hcfq_rwstat_reset(&st->merged);
	WRITE_ONCE(st->time, 0);
	WRITE_ONCE(st->sectors, 0);
	atomic64_set(&st->dead_time, 0);
	atomic64_set(&st->dead_sectors, 0);
}

/* period over which paced writers and weights are counted */
#define HCFQ_DIRTIERS_PERIOD	HZ

/*
 * Whether a period that began at @stamp is over at @now, and whether a
 * whole period went by without any call (the old counts are stale).
 * A @stamp of 0 may lie in jiffies' future: that counts as stale.
 */
static bool hcfq_dirty_period_over(unsigned long stamp, unsigned long now,
				   bool *stale)
{
	*stale = time_after(now, stamp + 2 * HCFQ_DIRTIERS_PERIOD) ||
		 time_before(now, stamp);
	return *stale || time_after(now, stamp + HCFQ_DIRTIERS_PERIOD);
}

/*
 * How many of @hg's tasks are being paced as they dirty page cache: the
 * distinct hashed pids seen in this period, or in the last one if that
 * saw more.  Hash collisions only ever count too few.
 */
static unsigned int hcfq_count_dirtier(struct hcfq_group *hg)
{
	unsigned long now = jiffies;
	bool stale;

	if (hcfq_dirty_period_over(hg->dirty_stamp, now, &stale)) {
		hg->nr_dirtiers = stale ? 0 : hweight64(hg->dirtiers);
		hg->dirtiers = 0;
		hg->dirty_stamp = now;
	}
	hg->dirtiers |= BIT_ULL(hash_32(current->pid, 6));
	return max_t(unsigned int, hg->nr_dirtiers, hweight64(hg->dirtiers));
}

/*
 * Record per-task weight @w on @hd and return the largest one paced on
 * the disk in this period or the last, so that the heaviest dirtier
 * runs at the wb's own rate and the others below it.
 */
static unsigned int hcfq_dirty_wmax(struct hcfq_data *hd, unsigned int w)
{
	unsigned long now = jiffies;
	bool stale;

	if (hcfq_dirty_period_over(hd->dirty_stamp, now, &stale)) {
		hd->dirty_wmax_last = stale ? 0 : hd->dirty_wmax;
		hd->dirty_wmax = 0;
		hd->dirty_stamp = now;
	}
	hd->dirty_wmax = max(hd->dirty_wmax, w);
	return max(hd->dirty_wmax, hd->dirty_wmax_last);
}

/**
 * hcfq_pd_dirty_weight - the pd_dirty_weight_fn op: pace buffered writers
 * @pd: the group of the task that is dirtying page cache on hcfq's disk
 *
 * balance_dirty_pages() scales the task's rate by the returned factor,
 * so the dirtiers of one bdi_writeback share its write bandwidth by
 * weight (see "Buffered writers" in Documentation/block/hcfq-iosched.rst).
 * A group's weight is split between its tasks that are being paced, so
 * that the group, not each task, gets the weight's share, and taken
 * relative to the heaviest such share on the disk, so that factors stay
 * at or below 1 and the wb's rate does not have to fall far to absorb
 * them.  The root's own tasks weigh as its leaf weight.
 *
 * Context: queue_lock held, so the elevator data outlives the call.
 *
 * Return: the task's part of the group's weight over the largest part
 * paced on the disk lately, in units of 1 / BLKCG_DIRTY_WEIGHT_ONE; 0
 * when the disk's dirty_weight tunable is 0.
 */
static unsigned int hcfq_pd_dirty_weight(struct blkg_policy_data *pd)
{
	struct hcfq_group *hg = pd_to_hcfqg(pd);
	unsigned int w;

	lockdep_assert_held(&pd_to_blkg(pd)->q->queue_lock);
	if (!READ_ONCE(hg->hd->dirty_weight))
		return 0;
	w = hg->parent ? hcfq_group_weight(hg) : hcfq_group_leaf_weight(hg);
	w = max(w * BLKCG_DIRTY_WEIGHT_ONE / hcfq_count_dirtier(hg), 1U);
	return max_t(u64, div_u64((u64)w * BLKCG_DIRTY_WEIGHT_ONE,
				  hcfq_dirty_wmax(hg->hd, w)), 1);
}

/* io.stat keys on v2 */
static void hcfq_pd_stat(struct blkg_policy_data *pd, struct seq_file *s)
{
	struct hcfq_group *hg = pd_to_hcfqg(pd);
	struct hcfq_stats *st = &hg->stats;

	seq_printf(s, " hcfq.weight=%u hcfq.time=%llu hcfq.sectors=%llu hcfq.wait=%llu hcfq.service=%llu hcfq.merged=%llu hcfq.queued=%llu",
		   hcfq_group_weight(hg),
		   div_u64(READ_ONCE(st->time), NSEC_PER_MSEC),
		   READ_ONCE(st->sectors),
		   hcfq_rwstat_total(&st->wait_time),
		   hcfq_rwstat_total(&st->service_time),
		   hcfq_rwstat_total(&st->merged),
		   hcfq_rwstat_total(&st->queued));
}

/* weight files */

/*
 * Set the cgroup-wide weight (@leaf false), which is the block core's,
 * or the leaf weight of @blkcg, and apply it to its groups on every
 * device.  On the root, blkio.weight is the weight of the root's own
 * tasks, that is, its leaf weight.
 */
static int hcfq_set_weight(struct blkcg *blkcg, u64 val, bool leaf)
{
	struct hcfq_cgroup_data *cd = blkcg_to_hcfqcd(blkcg);

	if (!hcfq_weight_valid(val))
		return -ERANGE;

	spin_lock_irq(&blkcg->lock);
	if (leaf || blkcg == &blkcg_root)
		cd->leaf_weight = val;
	hcfq_blkcg_update_weights(blkcg);
	spin_unlock_irq(&blkcg->lock);
	/* tells every reader, hcfq_weight_update() included */
	if (!leaf)
		blkcg_set_dfl_weight(blkcg, val);
	return 0;
}

static int hcfq_weight_write(struct cgroup_subsys_state *css,
			     struct cftype *cft, u64 val)
{
	return hcfq_set_weight(css_to_blkcg(css), val, cft->private);
}

static int hcfq_weight_show(struct seq_file *sf, void *v)
{
	struct blkcg *blkcg = css_to_blkcg(seq_css(sf));
	unsigned int w = seq_cft(sf)->private ?
			 blkcg_to_hcfqcd(blkcg)->leaf_weight :
			 blkcg_weight(blkcg, NULL);

	seq_printf(sf, "%u\n", w ?: hcfq_dfl_weight());
	return 0;
}

/* v1's blkio.leaf_weight_device: the block core's per-device leaf weights */
static ssize_t hcfq_dev_leaf_weight_write(struct kernfs_open_file *of,
					  char *buf, size_t nbytes, loff_t off)
{
	return blkcg_weight_write_range(of, buf, nbytes, HCFQ_V1_WEIGHT_MIN,
					HCFQ_V1_WEIGHT_MAX,
					BLKCG_WEIGHT_DEV_ONLY |
					BLKCG_WEIGHT_LEAF);
}

/* v1's blkio.weight_device: the block core's per-device weights */
static ssize_t hcfq_dev_weight_write(struct kernfs_open_file *of, char *buf,
				     size_t nbytes, loff_t off)
{
	return blkcg_weight_write_range(of, buf, nbytes, HCFQ_V1_WEIGHT_MIN,
					HCFQ_V1_WEIGHT_MAX,
					BLKCG_WEIGHT_DEV_ONLY);
}

/* v1 statistics in CFQ's formats */

enum hcfq_u64_stat { HCFQ_STAT_TIME, HCFQ_STAT_SECTORS };

static u64 hcfq_u64_stat(struct hcfq_group *hg, int which, bool recursive)
{
	struct hcfq_stats *st = &hg->stats;

	if (which == HCFQ_STAT_TIME)
		return div_u64(READ_ONCE(st->time) +
			       (recursive ? atomic64_read(&st->dead_time) : 0),
			       NSEC_PER_MSEC);
	return READ_ONCE(st->sectors) +
		(recursive ? atomic64_read(&st->dead_sectors) : 0);
}

static u64 hcfq_prfill_u64(struct seq_file *sf, struct blkg_policy_data *pd,
			   int which)
{
	return __blkg_prfill_u64(sf, pd,
				 hcfq_u64_stat(pd_to_hcfqg(pd), which, false));
}

static u64 hcfq_prfill_u64_recursive(struct seq_file *sf,
				     struct blkg_policy_data *pd, int which)
{
	struct blkcg_gq *pos_blkg, *blkg = pd_to_blkg(pd);
	struct cgroup_subsys_state *pos_css;
	u64 sum = 0;

	lockdep_assert_held(&blkg->q->queue_lock);

	rcu_read_lock();
	blkg_for_each_descendant_pre(pos_blkg, pos_css, blkg) {
		struct hcfq_group *hg = blkg_to_hcfqg(pos_blkg);

		if (pos_blkg->online && hg)
			sum += hcfq_u64_stat(hg, which, true);
	}
	rcu_read_unlock();
	return __blkg_prfill_u64(sf, pd, sum);
}

static int hcfq_print_u64(struct seq_file *sf, void *v)
{
	blkcg_print_blkgs(sf, css_to_blkcg(seq_css(sf)), hcfq_prfill_u64,
			  &blkcg_policy_hcfq, seq_cft(sf)->private, false);
	return 0;
}

static int hcfq_print_u64_recursive(struct seq_file *sf, void *v)
{
	blkcg_print_blkgs(sf, css_to_blkcg(seq_css(sf)),
			  hcfq_prfill_u64_recursive, &blkcg_policy_hcfq,
			  seq_cft(sf)->private, false);
	return 0;
}

/* the hcfq_rwstat at offset @off of a group's policy data */
static struct hcfq_rwstat *hcfq_pd_rwstat(struct blkg_policy_data *pd,
					  int off)
{
	return (void *)pd + off;
}

/* Add @st's counts to @sum, with its dead children's if @recursive. */
static void hcfq_rwstat_sum(struct hcfq_rwstat *st,
			    struct blkg_rwstat_sample *sum, bool recursive)
{
	int i;

	for (i = 0; i < BLKG_RWSTAT_NR; i++)
		sum->cnt[i] += READ_ONCE(st->cnt[i]) +
			(recursive ? atomic64_read(&st->aux[i]) : 0);
}

static u64 hcfq_prfill_rwstat(struct seq_file *sf,
			      struct blkg_policy_data *pd, int off)
{
	struct blkg_rwstat_sample sum = { };

	hcfq_rwstat_sum(hcfq_pd_rwstat(pd, off), &sum, false);
	return __blkg_prfill_rwstat(sf, pd, &sum);
}

static int hcfq_print_rwstat(struct seq_file *sf, void *v)
{
	blkcg_print_blkgs(sf, css_to_blkcg(seq_css(sf)), hcfq_prfill_rwstat,
			  &blkcg_policy_hcfq, seq_cft(sf)->private, true);
	return 0;
}

/* The group's counts plus those of its live and dead descendants. */
static u64 hcfq_prfill_rwstat_recursive(struct seq_file *sf,
					struct blkg_policy_data *pd, int off)
{
	struct blkcg_gq *pos_blkg, *blkg = pd_to_blkg(pd);
	struct blkg_rwstat_sample sum = { };
	struct cgroup_subsys_state *pos_css;

	lockdep_assert_held(&blkg->q->queue_lock);

	rcu_read_lock();
	blkg_for_each_descendant_pre(pos_blkg, pos_css, blkg) {
		struct blkg_policy_data *pos_pd;

		pos_pd = blkg_to_pd(pos_blkg, &blkcg_policy_hcfq);
		if (pos_blkg->online && pos_pd)
			hcfq_rwstat_sum(hcfq_pd_rwstat(pos_pd, off), &sum,
					true);
	}
	rcu_read_unlock();
	return __blkg_prfill_rwstat(sf, pd, &sum);
}

static int hcfq_print_rwstat_recursive(struct seq_file *sf, void *v)
{
	blkcg_print_blkgs(sf, css_to_blkcg(seq_css(sf)),
			  hcfq_prfill_rwstat_recursive, &blkcg_policy_hcfq,
			  seq_cft(sf)->private, true);
	return 0;
}

static struct cftype hcfq_legacy_files[] = {
	{
		.name = "weight",
		.seq_show = hcfq_weight_show,
		.write_u64 = hcfq_weight_write,
	},
	{
		.name = "weight_device",
		.seq_show = blkcg_dev_weight_show,
		.write = hcfq_dev_weight_write,
	},
	{
		.name = "leaf_weight",
		.private = 1,
		.seq_show = hcfq_weight_show,
		.write_u64 = hcfq_weight_write,
	},
	{
		.name = "leaf_weight_device",
		.seq_show = blkcg_dev_leaf_weight_show,
		.write = hcfq_dev_leaf_weight_write,
	},
	{
		.name = "time",
		.private = HCFQ_STAT_TIME,
		.seq_show = hcfq_print_u64,
	},
	{
		.name = "time_recursive",
		.private = HCFQ_STAT_TIME,
		.seq_show = hcfq_print_u64_recursive,
	},
	{
		.name = "sectors",
		.private = HCFQ_STAT_SECTORS,
		.seq_show = hcfq_print_u64,
	},
	{
		.name = "sectors_recursive",
		.private = HCFQ_STAT_SECTORS,
		.seq_show = hcfq_print_u64_recursive,
	},
	{
		.name = "io_service_bytes",
		.private = offsetof(struct hcfq_group, stats.bytes),
		.seq_show = hcfq_print_rwstat,
	},
	{
		.name = "io_service_bytes_recursive",
		.private = offsetof(struct hcfq_group, stats.bytes),
		.seq_show = hcfq_print_rwstat_recursive,
	},
	{
		.name = "io_serviced",
		.private = offsetof(struct hcfq_group, stats.ios),
		.seq_show = hcfq_print_rwstat,
	},
	{
		.name = "io_serviced_recursive",
		.private = offsetof(struct hcfq_group, stats.ios),
		.seq_show = hcfq_print_rwstat_recursive,
	},
	{
		.name = "io_service_time",
		.private = offsetof(struct hcfq_group, stats.service_time),
		.seq_show = hcfq_print_rwstat,
	},
	{
		.name = "io_service_time_recursive",
		.private = offsetof(struct hcfq_group, stats.service_time),
		.seq_show = hcfq_print_rwstat_recursive,
	},
	{
		.name = "io_wait_time",
		.private = offsetof(struct hcfq_group, stats.wait_time),
		.seq_show = hcfq_print_rwstat,
	},
	{
		.name = "io_wait_time_recursive",
		.private = offsetof(struct hcfq_group, stats.wait_time),
		.seq_show = hcfq_print_rwstat_recursive,
	},
	{
		.name = "io_merged",
		.private = offsetof(struct hcfq_group, stats.merged),
		.seq_show = hcfq_print_rwstat,
	},
	{
		.name = "io_merged_recursive",
		.private = offsetof(struct hcfq_group, stats.merged),
		.seq_show = hcfq_print_rwstat_recursive,
	},
	{
		.name = "io_queued",
		.private = offsetof(struct hcfq_group, stats.queued),
		.seq_show = hcfq_print_rwstat,
	},
	{
		.name = "io_queued_recursive",
		.private = offsetof(struct hcfq_group, stats.queued),
		.seq_show = hcfq_print_rwstat_recursive,
	},
	{ }	/* terminate */
};

static struct cftype hcfq_dfl_files[] = {
	{
		/* io.weight under hcfq's name, for scripts written for it */
		.name = "hcfq.weight",
		.flags = CFTYPE_NOT_ON_ROOT,
		.seq_show = blkcg_weight_show,
		.write = blkcg_weight_write,
	},
	{ }	/* terminate */
};

struct blkcg_policy blkcg_policy_hcfq = {
	.dfl_cftypes		= hcfq_dfl_files,
	.legacy_cftypes		= hcfq_legacy_files,

	.cpd_alloc_fn		= hcfq_cpd_alloc,
	.cpd_free_fn		= hcfq_cpd_free,

	.pd_alloc_fn		= hcfq_pd_alloc,
	.pd_init_fn		= hcfq_pd_init,
	.pd_online_fn		= hcfq_pd_online,
	.pd_offline_fn		= hcfq_pd_offline,
	.pd_free_fn		= hcfq_pd_free,
	.pd_reset_stats_fn	= hcfq_pd_reset_stats,
	.pd_stat_fn		= hcfq_pd_stat,
	.pd_dirty_weight_fn	= hcfq_pd_dirty_weight,
	.weight_update_fn	= hcfq_weight_update,
};

/**
 * hcfq_cgroup_register - register hcfq's blkcg policy
 *
 * Return: 0, or blkcg_policy_register()'s error (-ENOSPC when every
 * policy slot is taken).
 *
 * Context: module init; may sleep.
 */
int hcfq_cgroup_register(void)
{
	return blkcg_policy_register(&blkcg_policy_hcfq);
}

/**
 * hcfq_cgroup_unregister - unregister hcfq's blkcg policy
 *
 * Context: module exit, after the elevator is unregistered; may sleep.
 */
void hcfq_cgroup_unregister(void)
{
	blkcg_policy_unregister(&blkcg_policy_hcfq);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcfq - hierarchical CFQ-style proportional I/O scheduler: shared data.
 *
 * See hcfq-iosched.c for the model.  This header is shared by the
 * scheduler core (hcfq-iosched.c) and its blkcg policy (hcfq-cgroup.c).
 */
#ifndef _HCFQ_IOSCHED_H
#define _HCFQ_IOSCHED_H

#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/rbtree.h>

#include "blk-cgroup.h"
#include "blk-cgroup-rwstat.h"

/* cgroup v1 (blkio.weight) weight range; v2 has io.weight's CGROUP_WEIGHT_* */
#define HCFQ_V1_WEIGHT_MIN	10
#define HCFQ_V1_WEIGHT_DFL	500
#define HCFQ_V1_WEIGHT_MAX	1000

/* vtime advances by (charge << HCFQ_VT_SHIFT) / weight */
#define HCFQ_VT_SHIFT		10

enum hcfq_entity_type {
	HCFQ_ENT_QUEUE,		/* a process's (or a group's async) queue */
	HCFQ_ENT_LEAF,		/* the queues of a group, as one child */
	HCFQ_ENT_GROUP,		/* a child cgroup */
};

/*
 * A service tree: the entities that compete at one level, ordered by
 * virtual time.  All fields are protected by hcfq_data->lock.
 */
struct hcfq_sched_data {
	struct rb_root_cached	tree;
	/* monotonic floor for the vtime of entities that (re)join */
	u64			min_vtime;
	unsigned int		nr;		/* entities on the tree */
	/* sum of their weights; WRITE_ONCE, as admission reads it unlocked */
	unsigned int		weight_sum;
};

/*
 * Something that competes on a service tree.  Protected by hd->lock;
 * @weight and @on_tree are written with WRITE_ONCE, since admission
 * (hcfq_limit_depth()) reads them without the lock.
 */
struct hcfq_entity {
	struct rb_node		rb;
	u64			vtime;		/* service received / weight */
	unsigned int		weight;		/* weight on @sd */
	u8			type;		/* enum hcfq_entity_type */
	bool			on_tree;
	/* tree the entity competes on while busy */
	struct hcfq_sched_data	*sd;
	/* entity of the level above, NULL at the top */
	struct hcfq_entity	*parent;
};

/*
 * A counter split by direction and sync-ness, like struct blkg_rwstat
 * but plain: it is only ever updated under hd->lock, which the scheduler
 * holds anyway, so percpu counters would only add cost per request.
 */
struct hcfq_rwstat {
	u64			cnt[BLKG_RWSTAT_NR];	/* hd->lock, WRITE_ONCE */
	atomic64_t		aux[BLKG_RWSTAT_NR];	/* of dead children */
};

/* Per-group statistics for the v1 files and io.stat */
struct hcfq_stats {
	/* updated under hd->lock with WRITE_ONCE, read with READ_ONCE */
	struct hcfq_rwstat	bytes;		/* io_service_bytes */
	struct hcfq_rwstat	ios;		/* io_serviced */
	struct hcfq_rwstat	service_time;	/* ns, dispatch to completion */
	struct hcfq_rwstat	wait_time;	/* ns, insertion to dispatch */
	struct hcfq_rwstat	merged;		/* bios and requests merged */
	struct hcfq_rwstat	queued;		/* requests queued now */
	u64			time;		/* disk time charged, ns */
	u64			sectors;	/* sectors dispatched */
	/* time and sectors of dead children, for the _recursive files */
	atomic64_t		dead_time;
	atomic64_t		dead_sectors;
};

struct hcfq_data;
struct hcfq_queue;

/*
 * A cgroup on one device.  The group's own queues compete, as its leaf
 * entity, with its child groups on @children.
 */
struct hcfq_group {
	struct blkg_policy_data	pd;
	struct hcfq_data	*hd;		/* set at init, never changes */
	struct hcfq_group	*parent;	/* NULL for the root group */

	/* below: protected by hd->lock */
	struct hcfq_entity	entity;		/* on parent->children */
	struct hcfq_entity	leaf;		/* on @children */
	struct hcfq_sched_data	children;	/* child groups and @leaf */
	struct hcfq_sched_data	queues;		/* RT and BE queues */
	struct hcfq_sched_data	idle_queues;	/* IDLE-class queues */
	struct hcfq_queue	*async_queue;	/* shared by async writers */
	/* sync I/O done for the group by others: hcfq_bio_proxy() */
	struct hcfq_queue	*proxy_queue;
	u64			last_idle_class_ns; /* IDLE class last served */
	/* requests queued or in the driver; WRITE_ONCE, admission reads it */
	unsigned int		nr_rqs;
	bool			online;		/* WRITE_ONCE, likewise */
	/* due less than a tag at its last slice start: hcfq_group_light() */
	bool			light;		/* WRITE_ONCE, likewise */

	/*
	 * Effective weights, 0 for the hierarchy's default: copied from
	 * the block core's store and hcfq_cgroup_data under blkcg->lock,
	 * read by the scheduler with READ_ONCE through
	 * hcfq_group_weight(): a change applies at the next charge.
	 */
	unsigned int		weight;		/* device's, else cgroup's */
	unsigned int		leaf_weight;	/* likewise */

	/*
	 * Buffered writers (hcfq_pd_dirty_weight()), under queue_lock: a
	 * bit per hashed pid that was paced since @dirty_stamp (jiffies),
	 * and how many were counted in the period before.
	 */
	u64			dirtiers;
	unsigned long		dirty_stamp;
	unsigned int		nr_dirtiers;

	struct hcfq_stats	stats;
};

/*
 * A queue of requests: one per process and group for sync I/O, one per
 * group for async I/O.  Protected by hd->lock.
 */
struct hcfq_queue {
	struct hcfq_entity	entity;		/* on group->(idle_)queues */
	struct hcfq_data	*hd;
	struct hcfq_group	*group;
	struct blkcg_gq		*blkg;		/* reference held */
	int			ref;		/* icq, requests, async slot, active */
	struct list_head	fifo;		/* queued requests, oldest first */
	unsigned int		nr_queued;
	unsigned int		nr_dispatched;	/* in the driver */
	unsigned int		slice_dispatched;
	u64			slice_start;
	u64			slice_end;
	u64			slice_charge;	/* device time this slice, ns */
	u64			last_end_ns;	/* last completion */
	u64			ttime_mean;	/* think time, ns */
	unsigned int		ttime_samples;
	sector_t		last_pos;	/* end of the last request */
	u32			seek_history;	/* 1 bit per request: seeky */
	u16			ioprio;
	bool			sync;
	/* its last completion since its slice began was a metadata write */
	bool			meta_done;
	pid_t			pid;		/* for trace messages */
	/* the owner's io_context, sync queues only: compared, never used */
	struct io_context	*ioc;
};

/* Per-process data on a device.  sync_queue protected by hd->lock. */
struct hcfq_io_cq {
	struct io_cq		icq;		/* must be first */
	struct hcfq_queue	*sync_queue;
};

enum hcfq_idle_kind {
	HCFQ_IDLE_NONE,
	HCFQ_IDLE_QUEUE,	/* wait for the active queue's next request */
	HCFQ_IDLE_GROUP,	/* wait for any request of the active group */
	HCFQ_IDLE_DRY,		/* nobody else waits: until any request */
};

/* Per-device scheduler data */
struct hcfq_data {
	/* protects all scheduler state; nests inside q->queue_lock */
	spinlock_t		lock;
	struct request_queue	*queue;
	struct hcfq_group	*root;		/* root blkg's group */

	/* below: protected by @lock */
	struct hcfq_queue	*active;	/* queue being served */
	/*
	 * Whom admission lets use every scheduler tag: the active queue's
	 * group, and its process's io_context if it is a process's sync
	 * queue (NULL for the group's async or proxy queue).  Identities
	 * only, written with WRITE_ONCE, read without the lock.
	 */
	struct io_context	*admit_ioc;
	struct hcfq_group	*admit_group;
	struct list_head	dispatch;	/* requeues and at-head inserts */
	struct hrtimer		idle_timer;
	u8			idling;		/* enum hcfq_idle_kind */
	bool			withheld;	/* returned NULL with work queued */
	u64			dry_ns;		/* HCFQ_IDLE_DRY since; charged up to */
	unsigned int		nr_queued;	/* requests in the scheduler */
	unsigned int		nr_busy;	/* queues on service trees */
	unsigned int		nr_driver;	/* dispatched, not completed */
	u64			busy_mark;	/* device time handed out up to */
	u64			clock;		/* hcfq_now(): last time read */

	/* tunables, in ns where times; sysfs writes them with WRITE_ONCE */
	u64			slice_sync;
	u64			slice_async;
	u64			slice_idle;
	u64			group_idle;
	u64			target_latency;
	u64			quantum;	/* requests */
	u64			low_latency;	/* 0 or 1 */
	u64			dirty_weight;	/* 0 or 1: pace dirtiers */
	/*
	 * hcfq_async_weight() of the slices above, alone [0] and beside the
	 * group's sync queues [1]: written with them, read with READ_ONCE
	 */
	unsigned int		async_weight[2];

	/*
	 * Buffered writers (hcfq_pd_dirty_weight()), under q->queue_lock:
	 * the largest per-task weight paced since @dirty_stamp (jiffies),
	 * and in the period before; the factors are taken relative to it.
	 */
	unsigned int		dirty_wmax;
	unsigned int		dirty_wmax_last;
	unsigned long		dirty_stamp;
};

static inline struct hcfq_group *pd_to_hcfqg(struct blkg_policy_data *pd)
{
	return pd ? container_of(pd, struct hcfq_group, pd) : NULL;
}

extern struct blkcg_policy blkcg_policy_hcfq;

static inline struct hcfq_group *blkg_to_hcfqg(struct blkcg_gq *blkg)
{
	return pd_to_hcfqg(blkg_to_pd(blkg, &blkcg_policy_hcfq));
}

static inline struct blkcg_gq *hcfqg_to_blkg(struct hcfq_group *hg)
{
	return pd_to_blkg(&hg->pd);
}

/* hcfq-iosched.c, for the blkcg policy */
void hcfq_group_init(struct hcfq_data *hd, struct hcfq_group *hg);
void hcfq_group_offline(struct hcfq_group *hg);

/* hcfq-cgroup.c */
unsigned int hcfq_group_weight(struct hcfq_group *hg);
unsigned int hcfq_group_leaf_weight(struct hcfq_group *hg);
int hcfq_cgroup_register(void);
void hcfq_cgroup_unregister(void);

#endif /* _HCFQ_IOSCHED_H */

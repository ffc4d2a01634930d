// SPDX-License-Identifier: GPL-2.0
/*
 * hcfq - a hierarchical, CFQ-style blk-mq I/O scheduler that apportions
 * disk time between cgroups by weight.
 *
 * Model
 * -----
 * Disk time is the resource.  Whoever holds the disk pays for the time
 * it held it, whether it moved data or waited for its next request, and
 * pays in virtual time: the time it used scaled by the inverse of its
 * weight.  At every level the entity with the least virtual time is
 * served next, so over time every busy entity gets a share of the disk
 * proportional to its weight.
 *
 * The levels form a tree that mirrors the cgroup hierarchy:
 *
 *	root group:  children = { leaf(root), group A, group B }
 *	group A:     children = { leaf(A), group A1, group A2 }
 *	leaf(X):     queues   = { process queues and the async queue of X }
 *
 * A group competes with its siblings by its weight.  The processes that
 * sit directly in a group (its "leaf") compete with the group's child
 * groups as one more child, weighted by the group's leaf_weight, as in
 * CFQ 3.x.  Only busy entities, with requests queued or being served,
 * are on a service tree, so an idle group's share goes to the others.
 *
 * Inside a group every process has its own sync queue, and the group
 * has one async queue for writeback and one proxy queue for the sync
 * I/O that others do for it (an fsync or sync(2) of pages it dirtied).
 * RT and BE queues share a tree, weighted by class and level (RT 8x BE;
 * BE level 0 to 7 scale like CFQ's slices, 180 down to 40).  The async
 * queue weighs slice_async / slice_sync of a BE4 queue (40), and that
 * ratio less again while RT or BE sync queues of its group are busy (16,
 * set as they come and go: hcfq_async_reweight()), as CFQ scaled a
 * group's async workload; that bounds writeback's share.  A sync request
 * preempts an async slice in any group once it has run for an eighth of
 * slice_async, and its own group's at once when it is due first (less
 * vtime), so readers do not wait behind writeback, which still gets its
 * weight's share: the next queue is chosen by vtime, however often
 * writeback is preempted.  A sync metadata write of an ancestor group
 * (jbd2's journal commit, from the root) ends a descendant's idle window
 * and preempts its writeback at once: every fsync on the file system
 * waits for it, the idling group's included.  Nor does sync writeback
 * (an fsync's or sync(2)'s) of the metadata writer's group or below wait
 * out the idle window that follows a metadata write: a journal writer
 * writes again only after the fsyncs it served have written again.
 * IDLE-class queues are served only when no RT or BE queue of the group
 * is busy, save one request per HCFQ_IDLE_STARVE so they never hang.
 *
 * Dispatch: the queue chosen (walking down the trees by least vtime)
 * becomes active for a slice (slice_sync, or slice_async, scaled by its
 * weight; under low_latency capped to its share of the disk times
 * target_latency).  It dispatches until its slice ends or it runs dry;
 * then its slice time is charged to it and to every entity above it.  A
 * queue that runs dry while nobody else has requests stays active until
 * the next request arrives: its own continues the slice, anyone else's
 * ends it, charged up to the moment it ran dry.  The disk is time-shared,
 * so when a sync queue runs dry it keeps the disk for up to slice_idle if
 * its think time is short (queue idling), or, when it was the last busy
 * queue of its group, for up to group_idle (group idling): a process or a
 * group with one request in flight at a time still gets its share.
 * The preemption rules above end either wait early in some cases.
 * On non-rotational devices hcfq idles only while someone else waits,
 * and not for a queue whose group has busy queues of the same priority:
 * the next of those goes instead, which keeps the disk busy.
 *
 * The active queue's states (hd->idling, and whether it has requests
 * queued or in the driver), and what moves it between them:
 *
 *   select (least vtime) ---> SERVING: dispatches from its FIFO
 *                                |    ^           ^            ^
 *     nothing queued, and it may |    |    its own request     |
 *     idle (or nobody else waits)v    |           |            |
 *                   WAITING for its requests     IDLE         DRY
 *                   in flight (untimed)      (timer armed) (untimed,
 *                      |  last completion:        ^        not charged)
 *                      +--- it may idle ----------+            ^
 *                      +--- nobody else waits -----------------+
 *
 *   With nothing in flight, SERVING goes to IDLE or DRY at once: the
 *   choice is made at the queue's last completion (hcfq_completed()),
 *   or at dispatch when others have requests (hcfq_serve_active()).
 *   EXPIRED, charged up the hierarchy, from
 *     SERVING: slice over (it stays on the trees), the IDLE class's
 *              one request sent, or nothing queued and no reason to wait;
 *     WAITING: nothing to idle for at the last completion, and others
 *              are waiting;
 *     IDLE:    the timer fired;
 *     DRY:     another queue's request arrived;
 *     any:     hcfq_should_preempt() said so.
 *   A queue that expires with nothing queued leaves the trees.
 *
 * Time charged is device time (hcfq_charge()): each completion pays the
 * time since the previous completion, or since the device last went from
 * empty to busy if that is later, and the active queue pays for the time
 * the device stays empty while hcfq keeps it for it.  A slice that ends
 * as soon as its queue has nothing queued so still pays for the requests
 * it left in flight.
 *
 * IOPS mode: with slice_idle = 0 hcfq does not idle on queues and
 * charges each slice by the requests dispatched instead of by time, the
 * throughput-friendly mode for fast devices.  Group idling still applies
 * unless group_idle is 0 too.
 *
 * A (re)joining entity gets vtime max(own vtime, tree min_vtime - one
 * slice): it keeps credit for at most one slice, so a group that was
 * briefly empty between two requests does not lose its place, and one
 * that was away for long cannot hoard service.  A sync queue that gets a
 * request while the device is still completing its earlier ones was not
 * idle: it had nothing queued only because its requests were being
 * served (a reader with a few large requests in flight, without group
 * idling).  It, and every level it brings back, keeps up to
 * 1 << HCFQ_BUSY_CREDIT_SHIFT slices instead, so that it is not forgiven
 * what it is owed at each of its requests; however long it was away,
 * never more.  A group's async queue gets no credit on its group's
 * tree: it joins at the floor, behind the readers there.
 *
 * A queue is served in FIFO order, REQ_PRIO requests first.
 *
 * Admission (hcfq_limit_depth()): hcfq asks for at least 128 scheduler
 * tags, since it can only order requests that hold one.  The process it
 * serves may use every tag; everyone else leaves it a reserve, and a
 * group may hold no more tags than its weight's share.  A group due less
 * than one tag, while more processes wait for a tag than there are tags,
 * may use only the lower half of them, and hcfq does not idle for it.  Writes
 * may hold only part of the tags (async ones half of nr_requests, sync
 * ones three quarters of nr_requests), so that a reader is not left
 * waiting for a tag, or behind a long queue of writeback.
 *
 * Buffered writers: the scheduler only sees writeback, paced by what
 * was dirtied, and balance_dirty_pages() lets every task on a wb dirty
 * at the same rate.  hcfq-cgroup.c's pd_dirty_weight_fn() scales each
 * paced task's rate by its group's weight, split among the group's
 * paced tasks, so the dirtying, and then the writeback, follow weights.
 *
 * Locking: hd->lock protects all scheduler state and nests inside
 * q->queue_lock (the blkcg policy callbacks run under it).  The blkcg
 * files write weights that the scheduler reads with READ_ONCE.
 */
#include <linux/blk-mq.h>
#include <linux/blktrace_api.h>
#include <linux/ioprio.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <trace/events/block.h>

#include "elevator.h"
#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-debugfs.h"
#include "blk-mq-sched.h"
#include "blk-wbt.h"
#include "hcfq-iosched.h"

/* defaults, as CFQ had them */
#define HCFQ_SLICE_SYNC		(100 * NSEC_PER_MSEC)
#define HCFQ_SLICE_ASYNC	(40 * NSEC_PER_MSEC)
#define HCFQ_SLICE_IDLE		(8 * NSEC_PER_MSEC)
#define HCFQ_GROUP_IDLE		(8 * NSEC_PER_MSEC)
#define HCFQ_TARGET_LATENCY	(300 * NSEC_PER_MSEC)
#define HCFQ_QUANTUM		8
/* an IDLE-class queue that waited this long gets one request through */
#define HCFQ_IDLE_STARVE	(500 * NSEC_PER_MSEC)
/* charge per request in IOPS mode */
#define HCFQ_IOPS_CHARGE	NSEC_PER_MSEC
/* credit, in slices, of a queue that rejoins busy: hcfq_queue_busy() */
#define HCFQ_BUSY_CREDIT_SHIFT	2
/* a request this far from the previous one is a seek */
#define HCFQ_SEEK_THR		(8 * 1024)
#define HCFQ_BE_WEIGHT		100	/* BE level 4 */
/* an async queue's weight at most: slice_async = 10000 x slice_sync */
#define HCFQ_MAX_ASYNC_WEIGHT	1000000
/* scheduler tags to start with on shallow devices, CFQ's nr_requests */
#define HCFQ_MIN_NR_REQUESTS	BLKDEV_DEFAULT_RQ

#define HCFQ_RQ_DISPATCHED	((void *)1UL)

static struct kmem_cache *hcfq_queue_pool;

#define hcfq_log_group(hd, hg, fmt, ...)				\
	blk_add_cgroup_trace_msg((hd)->queue,				\
		&hcfqg_to_blkg(hg)->blkcg->css, "hcfq " fmt, ##__VA_ARGS__)
#define hcfq_log_queue(hd, hq, fmt, ...)				\
do {									\
	struct hcfq_queue *__hq __maybe_unused = (hq);			\
									\
	hcfq_log_group(hd, __hq->group, "%d%c " fmt, __hq->pid,		\
		       __hq->sync ? 'S' : 'A', ##__VA_ARGS__);		\
} while (0)

/*
 * Pure helpers: weights, charges, slices and service trees.  They touch
 * nothing but their arguments, so KUnit tests them directly.
 */

/* Weight of a queue within its group, from its I/O priority. */
static unsigned int hcfq_prio_weight(u16 ioprio)
{
	unsigned int level = IOPRIO_PRIO_LEVEL(ioprio);
	unsigned int w;

	if (level >= IOPRIO_NR_LEVELS)
		level = IOPRIO_NR_LEVELS - 1;
	/* CFQ's slice scaling: BE4 = 100, each level 20 % of that */
	w = HCFQ_BE_WEIGHT + HCFQ_BE_WEIGHT / 5 * (4 - (int)level);
	if (IOPRIO_PRIO_CLASS(ioprio) == IOPRIO_CLASS_RT)
		w *= 8;
	return w;
}

/*
 * Weight of a group's async queue: slice_async / slice_sync of a BE4
 * queue, as CFQ's async slices were.  Beside busy sync queues of its
 * group (@beside_sync, hcfq_async_beside_sync()) it weighs that ratio
 * less again, as CFQ scaled the slice of a group's async workload: 16
 * against a BE4 reader's 100 and a BE0 reader's 180 by default.
 */
static unsigned int hcfq_async_weight(u64 slice_async, u64 slice_sync,
				      bool beside_sync)
{
	u64 sync = max_t(u64, slice_sync, 1);
	u64 w = min_t(u64, div64_u64(HCFQ_BE_WEIGHT * slice_async, sync),
		      HCFQ_MAX_ASYNC_WEIGHT);

	if (beside_sync)
		w = div64_u64(w * slice_async, sync);
	return clamp_t(u64, w, 1, HCFQ_MAX_ASYNC_WEIGHT);
}

/*
 * Cache both async weights of @hd's slices, so that charges divide
 * nothing.  Called at init and by sysfs, whose stores are serialized.
 */
static void hcfq_set_async_weights(struct hcfq_data *hd)
{
	u64 async = READ_ONCE(hd->slice_async), sync = READ_ONCE(hd->slice_sync);

	WRITE_ONCE(hd->async_weight[0], hcfq_async_weight(async, sync, false));
	WRITE_ONCE(hd->async_weight[1], hcfq_async_weight(async, sync, true));
}

/* Virtual time an entity of @weight pays for @charge of service. */
static u64 hcfq_vtime_delta(u64 charge, unsigned int weight)
{
	return div_u64(charge << HCFQ_VT_SHIFT, max(weight, 1U));
}

/* Slice length of a queue of @weight whose base slice is @base. */
static u64 hcfq_scale_slice(u64 base, unsigned int weight)
{
	return div_u64(base * weight, HCFQ_BE_WEIGHT);
}

/*
 * Cap @slice so that a round over every busy queue of the disk fits in
 * @target: a queue that has @ppm parts per million of the disk (its
 * hcfq_hweight_ppm()) gets that part of @target, but never less than a
 * tenth of @slice.  Without the cap N busy groups take N full slices per
 * round, and a heavy group that joins waits behind all of them.
 */
static u64 hcfq_latency_slice(u64 slice, u64 target, u32 ppm)
{
	u64 fair;

	if (!ppm || ppm >= 1000000)
		return slice;
	fair = mul_u64_u32_div(target, ppm, 1000000);
	return clamp(fair, div_u64(slice, 10), slice);
}

/*
 * Share of the disk an entity gets when everything now busy stays busy:
 * the product of weight / weight_sum along the path to the top.  Returned
 * in parts per million, 0 for an entity that is not on a tree.
 */
static u32 hcfq_hweight_ppm(const struct hcfq_entity *e)
{
	u64 share = 1000000;

	for (; e && e->sd; e = e->parent) {
		if (!e->on_tree || !e->sd->weight_sum)
			return 0;
		share = div_u64(share * e->weight, e->sd->weight_sum);
	}
	return share;
}

static void hcfq_sd_init(struct hcfq_sched_data *sd)
{
	sd->tree = RB_ROOT_CACHED;
	sd->min_vtime = 0;
	sd->nr = 0;
	sd->weight_sum = 0;
}

static struct hcfq_entity *hcfq_first(struct hcfq_sched_data *sd)
{
	struct rb_node *n = rb_first_cached(&sd->tree);

	return n ? rb_entry(n, struct hcfq_entity, rb) : NULL;
}

static bool hcfq_vtime_less(struct rb_node *a, const struct rb_node *b)
{
	const struct hcfq_entity *ea = rb_entry(a, struct hcfq_entity, rb);
	const struct hcfq_entity *eb = rb_entry(b, struct hcfq_entity, rb);

	return (s64)(ea->vtime - eb->vtime) < 0;
}

static void hcfq_update_min_vtime(struct hcfq_sched_data *sd)
{
	struct hcfq_entity *first = hcfq_first(sd);

	if (first && (s64)(first->vtime - sd->min_vtime) > 0)
		sd->min_vtime = first->vtime;
}

/* Put @e on @sd at its vtime. */
static void hcfq_entity_add(struct hcfq_sched_data *sd, struct hcfq_entity *e)
{
	e->sd = sd;
	WRITE_ONCE(e->on_tree, true);
	sd->nr++;
	WRITE_ONCE(sd->weight_sum, sd->weight_sum + e->weight);
	rb_add_cached(&e->rb, &sd->tree, hcfq_vtime_less);
	hcfq_update_min_vtime(sd);
}

/*
 * Put @e, which joins @sd, there with at most @credit of vtime below the
 * tree's min_vtime.  Vtimes wrap: they are only ever compared by their
 * signed difference, so the floor is computed modulo 2^64 too.
 */
static void hcfq_entity_enqueue(struct hcfq_sched_data *sd,
				struct hcfq_entity *e, u64 credit)
{
	u64 floor = sd->min_vtime - credit;

	if ((s64)(e->vtime - floor) < 0)
		e->vtime = floor;
	hcfq_entity_add(sd, e);
}

static void hcfq_entity_dequeue(struct hcfq_entity *e)
{
	struct hcfq_sched_data *sd = e->sd;

	rb_erase_cached(&e->rb, &sd->tree);
	RB_CLEAR_NODE(&e->rb);
	WRITE_ONCE(e->on_tree, false);
	sd->nr--;
	WRITE_ONCE(sd->weight_sum, sd->weight_sum - e->weight);
	hcfq_update_min_vtime(sd);
}

/*
 * Charge @charge of service to @e at @weight, keeping its tree sorted.
 * An entity on a tree is moved in place: taken out and put back through
 * hcfq_entity_dequeue() and hcfq_entity_add(), it would let min_vtime
 * jump to the next entity's vtime meanwhile, so that the floor would be
 * the runner-up's and not the least vtime.  No floor applies: a charge
 * is no rejoining.  An entity just taken off a tree that it left empty
 * still moves the tree's min_vtime, as if it had been charged before it
 * left.
 */
static void hcfq_entity_charge(struct hcfq_entity *e, u64 charge,
			       unsigned int weight)
{
	struct hcfq_sched_data *sd = e->sd;

	if (e->on_tree) {
		rb_erase_cached(&e->rb, &sd->tree);
		WRITE_ONCE(sd->weight_sum, sd->weight_sum - e->weight + weight);
		WRITE_ONCE(e->weight, weight);
		e->vtime += hcfq_vtime_delta(charge, weight);
		rb_add_cached(&e->rb, &sd->tree, hcfq_vtime_less);
		hcfq_update_min_vtime(sd);
		return;
	}
	WRITE_ONCE(e->weight, weight);
	e->vtime += hcfq_vtime_delta(charge, weight);
	if (sd && !sd->nr && (s64)(e->vtime - sd->min_vtime) > 0)
		sd->min_vtime = e->vtime;
}

/*
 * The scheduler proper.
 */

static struct hcfq_queue *hcfq_entity_queue(struct hcfq_entity *e)
{
	return container_of(e, struct hcfq_queue, entity);
}

static struct hcfq_group *hcfq_entity_group(struct hcfq_entity *e)
{
	if (e->type == HCFQ_ENT_LEAF)
		return container_of(e, struct hcfq_group, leaf);
	return container_of(e, struct hcfq_group, entity);
}

static unsigned int hcfq_entity_weight(struct hcfq_entity *e)
{
	switch (e->type) {
	case HCFQ_ENT_QUEUE:
		return e->weight;
	case HCFQ_ENT_LEAF:
		return hcfq_group_leaf_weight(hcfq_entity_group(e));
	default:
		return hcfq_group_weight(hcfq_entity_group(e));
	}
}

static bool hcfq_iops_mode(struct hcfq_data *hd)
{
	return !READ_ONCE(hd->slice_idle);
}

static bool hcfq_class_idle(struct hcfq_queue *hq)
{
	return IOPRIO_PRIO_CLASS(hq->ioprio) == IOPRIO_CLASS_IDLE;
}

static bool hcfq_class_rt(struct hcfq_queue *hq)
{
	return IOPRIO_PRIO_CLASS(hq->ioprio) == IOPRIO_CLASS_RT;
}

/* Is the disk held for the active queue on the idle timer? */
static bool hcfq_idle_timed(struct hcfq_data *hd)
{
	return hd->idling == HCFQ_IDLE_QUEUE || hd->idling == HCFQ_IDLE_GROUP;
}

/*
 * Are sync queues of @hq's group busy beside @hq, an async queue?  Its
 * tree holds the group's RT and BE sync queues, its proxy queue and @hq
 * (IDLE-class queues have a tree of their own), so: is anyone else on
 * it?  @hq may be on it or, just taken off, not.  Asked when a queue
 * joins or leaves the tree.
 */
static bool hcfq_async_beside_sync(struct hcfq_queue *hq)
{
	const struct hcfq_sched_data *sd = &hq->group->queues;

	return sd->nr > (hq->entity.on_tree && hq->entity.sd == sd);
}

/*
 * Give @hg's async queue the weight it has beside the group's sync queues
 * or alone (hd->async_weight[]) when a queue joins or leaves the group's
 * tree, the only times that changes; its charges then take the weight it
 * has.  New slice tunables reach it at the next such change.  On the
 * tree it is moved in place with no service; off it, only the weight is
 * set, and the tree's floor is left alone.
 */
static void hcfq_async_reweight(struct hcfq_data *hd, struct hcfq_group *hg)
{
	struct hcfq_queue *aq = hg->async_queue;
	unsigned int weight;

	lockdep_assert_held(&hd->lock);

	if (!aq)
		return;
	weight = READ_ONCE(hd->async_weight[hcfq_async_beside_sync(aq)]);
	if (aq->entity.weight == weight)
		return;
	if (aq->entity.on_tree)
		hcfq_entity_charge(&aq->entity, 0, weight);
	else
		WRITE_ONCE(aq->entity.weight, weight);
}

/*
 * Credit for an entity that joins a tree: one slice, or four
 * (HCFQ_BUSY_CREDIT_SHIFT) if the queue that brings it back is busy
 * (hcfq_queue_busy()); a shift, no extra division per level.
 */
static u64 hcfq_credit(struct hcfq_data *hd, struct hcfq_entity *e,
		       bool busy)
{
	u64 credit = hcfq_vtime_delta(READ_ONCE(hd->slice_sync), e->weight);

	return busy ? credit << HCFQ_BUSY_CREDIT_SHIFT : credit;
}

/*
 * Does @hq, which gets a request @now with none queued, come back from
 * being served rather than from idleness?  It has requests in the driver,
 * and the device completed one of them within the last slice (a request
 * stuck there is no sign of service).  hq->nr_dispatched of this one
 * queue is sufficient evidence for every level its activation brings
 * back, all of which hold those requests; not a necessary one, since a
 * sibling's or a child group's requests in the driver keep a level busy
 * too: that level then gets one slice, as any other.  Writeback is paced
 * by what was dirtied, not by its place on the tree, and a reader must
 * not wait four slices behind it; the IDLE class gains no place either.
 */
static bool hcfq_queue_busy(struct hcfq_data *hd, struct hcfq_queue *hq,
			    u64 now)
{
	return hq->sync && !hcfq_class_idle(hq) && hq->nr_dispatched &&
		hq->last_end_ns &&
		now - hq->last_end_ns < READ_ONCE(hd->slice_sync);
}

/* Mark @hq busy: put it and every idle level above it on their trees. */
static void hcfq_activate_queue(struct hcfq_data *hd, struct hcfq_queue *hq,
				u64 now)
{
	struct hcfq_group *hg = hq->group;
	struct hcfq_entity *e = &hq->entity;
	struct hcfq_sched_data *sd = hcfq_class_idle(hq) ? &hg->idle_queues :
		&hg->queues;
	bool busy = hcfq_queue_busy(hd, hq, now);
	u64 credit;

	lockdep_assert_held(&hd->lock);

	/*
	 * A queue whose class changed keeps no place on its new tree.
	 * Writeback joins with no credit: one slice at its weight would let
	 * it run ahead of a reader at the tree's floor for most of a slice
	 * (91 ms against a BE0 reader), where CFQ put a new async queue at
	 * the back.
	 */
	credit = hq->sync ? hcfq_credit(hd, e, busy && e->sd == sd) : 0;
	hcfq_entity_enqueue(sd, e, credit);
	hcfq_async_reweight(hd, hg);
	hd->nr_busy++;

	for (e = e->parent; e && !e->on_tree; e = e->parent) {
		struct hcfq_group *owner = hcfq_entity_group(e);

		sd = e->type == HCFQ_ENT_LEAF ? &owner->children :
			&owner->parent->children;
		WRITE_ONCE(e->weight, hcfq_entity_weight(e));
		hcfq_entity_enqueue(sd, e, hcfq_credit(hd, e, busy));
	}
}

/* @hq is no longer busy: take it and every emptied level off the trees. */
static void hcfq_deactivate_queue(struct hcfq_data *hd, struct hcfq_queue *hq)
{
	struct hcfq_entity *e = &hq->entity;

	lockdep_assert_held(&hd->lock);

	hcfq_entity_dequeue(e);
	hcfq_async_reweight(hd, hq->group);
	hd->nr_busy--;

	for (e = e->parent; e && e->on_tree; e = e->parent) {
		struct hcfq_group *owner = hcfq_entity_group(e);

		if (e->type == HCFQ_ENT_LEAF) {
			if (owner->queues.nr || owner->idle_queues.nr)
				break;
		} else if (owner->children.nr) {
			break;
		}
		hcfq_entity_dequeue(e);
	}
}

static void hcfq_get_queue(struct hcfq_queue *hq)
{
	lockdep_assert_held(&hq->hd->lock);
	hq->ref++;
}

static void hcfq_put_queue(struct hcfq_queue *hq)
{
	lockdep_assert_held(&hq->hd->lock);
	if (--hq->ref)
		return;
	WARN_ON_ONCE(hq->entity.on_tree || hq->nr_queued || hq->nr_dispatched);
	blkg_put(hq->blkg);
	kmem_cache_free(hcfq_queue_pool, hq);
}

/* A queue of @hg: a process's (@ioc), or one the group's own (no @ioc) */
static struct hcfq_queue *hcfq_alloc_queue(struct hcfq_data *hd,
					   struct hcfq_group *hg,
					   struct io_context *ioc, u16 ioprio,
					   bool sync)
{
	struct hcfq_queue *hq;

	lockdep_assert_held(&hd->lock);

	hq = kmem_cache_alloc_node(hcfq_queue_pool,
				   GFP_NOWAIT | __GFP_NOWARN | __GFP_ZERO,
				   hd->queue->node);
	if (!hq)
		return NULL;
	RB_CLEAR_NODE(&hq->entity.rb);
	hq->entity.type = HCFQ_ENT_QUEUE;
	hq->entity.parent = &hg->leaf;
	hq->entity.weight = sync ? hcfq_prio_weight(ioprio) :
		READ_ONCE(hd->async_weight[0]);
	hq->hd = hd;
	hq->group = hg;
	hq->blkg = hcfqg_to_blkg(hg);
	blkg_get(hq->blkg);
	hq->ref = 1;
	INIT_LIST_HEAD(&hq->fifo);
	hq->ioprio = ioprio;
	hq->sync = sync;
	hq->pid = ioc ? current->pid : 0;
	hq->ioc = ioc;
	return hq;
}

/*
 * Group of a bio's @blkg, or the root group.  Needs no lock: the caller
 * holds a reference to @blkg (through its bio), every blkg holds one to
 * its parent, and while hcfq is attached every blkg of the queue has its
 * policy data.  A group going away sends its stragglers to its nearest
 * online ancestor, whose share they came out of.
 */
static struct hcfq_group *hcfq_blkg_group(struct hcfq_data *hd,
					  struct blkcg_gq *blkg)
{
	struct hcfq_group *hg;

	if (!blkg || blkg->q != hd->queue)
		return hd->root;
	for (; blkg; blkg = blkg->parent) {
		hg = blkg_to_hcfqg(blkg);
		if (hg && READ_ONCE(hg->online))
			return hg;
	}
	return hd->root;
}

static struct hcfq_group *hcfq_rq_group(struct hcfq_data *hd,
					struct request *rq)
{
	return hcfq_blkg_group(hd, rq->bio ? rq->bio->bi_blkg : NULL);
}

/*
 * Is @bio I/O that the current task does for another cgroup?  That is
 * writeback of pages the other cgroup dirtied, moved there by biotrack or
 * cgroup writeback: an fsync, sync(2), a journal commit, or the flusher
 * in WB_SYNC_ALL mode.  Such a task may do it for many groups in turn,
 * and one process has one sync queue, in one group; so its sync requests
 * go to the group's proxy queue instead.  So do a helper thread's (a
 * loop or dm-crypt worker's) for the group it serves.  Called in the
 * submitter's context, where the request's icq is made.
 */
static bool hcfq_bio_proxy(struct bio *bio)
{
	struct cgroup *own, *cgrp;
	bool proxy;

	if (!bio || !bio->bi_blkg)
		return false;
	cgrp = bio->bi_blkg->blkcg->css.cgroup;
	rcu_read_lock();
	own = task_css(current, io_cgrp_id)->cgroup;
	/*
	 * Not where the task's own I/O may land: its cgroup, or an
	 * ancestor of it (an ancestor's blkg when its own could not be
	 * made, the memcg's cgroup for cgroup writeback without biotrack)
	 */
	proxy = !cgroup_is_descendant(own, cgrp);
	rcu_read_unlock();
	return proxy;
}

/*
 * A queue that @hg owns, @slot (its async or proxy queue), made on first
 * use.  Best effort, whoever submits first: the group's writeback must
 * not turn IDLE or RT class with the class of the task that made it.
 */
static struct hcfq_queue *hcfq_group_queue(struct hcfq_data *hd,
					   struct hcfq_group *hg,
					   struct hcfq_queue **slot, bool sync)
{
	lockdep_assert_held(&hd->lock);

	if (!*slot)
		*slot = hcfq_alloc_queue(hd, hg, NULL,
					 IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE,
							   IOPRIO_BE_NORM),
					 sync);
	if (*slot)
		hcfq_get_queue(*slot);
	return *slot;
}

/* Find or make the queue @rq belongs to; returns it with a reference. */
static struct hcfq_queue *hcfq_rq_queue(struct hcfq_data *hd,
					struct request *rq)
{
	struct hcfq_group *hg = hcfq_rq_group(hd, rq);
	u16 ioprio = req_get_ioprio(rq);
	struct hcfq_io_cq *hic = NULL;
	struct hcfq_queue *hq;

	lockdep_assert_held(&hd->lock);

	if (!ioprio_valid(ioprio) ||
	    IOPRIO_PRIO_CLASS(ioprio) == IOPRIO_CLASS_NONE)
		ioprio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, IOPRIO_BE_NORM);

	if (!op_is_sync(rq->cmd_flags) || !rq->elv.icq)
		return hcfq_group_queue(hd, hg, &hg->async_queue, false);
	if (hcfq_bio_proxy(rq->bio))
		return hcfq_group_queue(hd, hg, &hg->proxy_queue, true);

	hic = container_of(rq->elv.icq, struct hcfq_io_cq, icq);
	hq = hic->sync_queue;
	if (hq && hq->group != hg) {
		/* the process moved to another cgroup */
		hic->sync_queue = NULL;
		hcfq_put_queue(hq);
		hq = NULL;
	}
	if (!hq) {
		hq = hcfq_alloc_queue(hd, hg, hic->icq.ioc, ioprio, true);
		if (!hq)
			return NULL;
		hic->sync_queue = hq;
	}
	if (hq->ioprio != ioprio && !hq->entity.on_tree) {
		hq->ioprio = ioprio;
		hq->entity.weight = hcfq_prio_weight(ioprio);
	}
	hcfq_get_queue(hq);
	return hq;
}

/* @hq's slice; @ppm is its share of the disk (hcfq_hweight_ppm()) */
static u64 hcfq_slice(struct hcfq_data *hd, struct hcfq_queue *hq, u32 ppm)
{
	u64 base = hq->sync ? READ_ONCE(hd->slice_sync) :
		READ_ONCE(hd->slice_async);
	u64 slice = hq->sync ? hcfq_scale_slice(base, hq->entity.weight) :
		base;

	if (READ_ONCE(hd->low_latency))
		slice = hcfq_latency_slice(slice, READ_ONCE(hd->target_latency),
					   ppm);
	return max_t(u64, slice, 1);
}

/*
 * Choose the next queue: walk down from the root by least vtime.
 * Returns NULL when nothing is busy.
 */
static struct hcfq_queue *hcfq_select_queue(struct hcfq_data *hd, u64 now)
{
	struct hcfq_group *hg = hd->root;
	struct hcfq_entity *e;

	lockdep_assert_held(&hd->lock);

	for (;;) {
		e = hcfq_first(&hg->children);
		if (!e)
			return NULL;
		if (e->type == HCFQ_ENT_GROUP) {
			hg = hcfq_entity_group(e);
			continue;
		}
		/* the group's own queues */
		e = hcfq_first(&hg->queues);
		if (!e || (hg->idle_queues.nr &&
			   now - hg->last_idle_class_ns > HCFQ_IDLE_STARVE))
			e = hcfq_first(&hg->idle_queues) ?: e;
		return e ? hcfq_entity_queue(e) : NULL;
	}
}

static bool hcfq_group_light(struct hcfq_data *hd, struct hcfq_group *hg);

static void hcfq_set_active(struct hcfq_data *hd, struct hcfq_queue *hq,
			    u64 now)
{
	u32 ppm;

	lockdep_assert_held(&hd->lock);

	ppm = hcfq_hweight_ppm(&hq->entity);

	hcfq_get_queue(hq);
	hd->active = hq;
	WRITE_ONCE(hd->admit_ioc, hq->ioc);
	WRITE_ONCE(hd->admit_group, hq->group);
	WRITE_ONCE(hq->group->light, hcfq_group_light(hd, hq->group));
	hq->slice_start = now;
	hq->slice_end = now + hcfq_slice(hd, hq, ppm);
	hq->slice_dispatched = 0;
	hq->meta_done = false;
	if (hcfq_class_idle(hq))
		hq->group->last_idle_class_ns = now;
	hcfq_log_queue(hd, hq, "slice start %llu us vtime %llu share %u ppm",
		       div_u64(hq->slice_end - now, NSEC_PER_USEC),
		       hq->group->entity.vtime, ppm);
}

static void hcfq_stop_idling(struct hcfq_data *hd)
{
	lockdep_assert_held(&hd->lock);

	/* a dry queue waits without the timer */
	if (hd->idling != HCFQ_IDLE_NONE && hd->idling != HCFQ_IDLE_DRY)
		hrtimer_try_to_cancel(&hd->idle_timer);
	hd->idling = HCFQ_IDLE_NONE;
}

/*
 * hcfq's clock.  blk_time_get_ns() is what the block layer stamps
 * requests with: a task in a plug reads the clock once per plug, not
 * once per request, until it flushes the plug or is switched out.  That
 * time may be older than one another CPU stamped since, so it is kept
 * from going backwards: every time hcfq keeps (slice starts, busy_mark,
 * dry_ns, FIFO times) is then at or before its next reading, and no
 * difference of two of them is negative.  A request that a driver
 * completes within its submitter's plug (null_blk with irqmode=0) is
 * then charged nothing itself; its time goes to the next completion or
 * hold, as with any request that completes at once.
 */
static __always_inline u64 hcfq_now(struct hcfq_data *hd)
{
	u64 now;

	lockdep_assert_held(&hd->lock);

	now = blk_time_get_ns();
	if ((s64)(now - hd->clock) < 0)
		now = hd->clock;
	hd->clock = now;
	return now;
}

/*
 * Device time, in time mode.  While the device is busy, its time goes
 * to the requests that leave the driver, completed or requeued
 * (hcfq_driver_del()): each is charged the time since the previous one
 * left, or since the device went from empty to busy (hcfq_driver_add())
 * if that is later, so the busy time is split among the requests however
 * many are in flight and in whatever order they complete, and a queue
 * whose slice has ended still pays for what it left in the driver.
 * While the device is empty, its time goes to the active queue if that
 * holds it (idles for it, or waits for its next request within its
 * slice): hcfq_charge_hold(), at the next dispatch or the slice end.  So a
 * slice that ends as soon as its queue has nothing queued costs what its
 * requests cost, not the microseconds it lasted.
 */
static void hcfq_charge(struct hcfq_data *hd, struct hcfq_queue *hq,
			u64 charge)
{
	struct hcfq_entity *e;

	lockdep_assert_held(&hd->lock);

	/* an async queue's weight is kept by hcfq_async_reweight() */
	for (e = &hq->entity; e; e = e->parent)
		hcfq_entity_charge(e, charge, hcfq_entity_weight(e));
	WRITE_ONCE(hq->group->stats.time, hq->group->stats.time + charge);
}

/* The device was empty until @now while the active @hq held it. */
static void hcfq_charge_hold(struct hcfq_data *hd, struct hcfq_queue *hq,
			     u64 now)
{
	u64 from = max(hd->busy_mark, hq->slice_start);

	lockdep_assert_held(&hd->lock);

	if (hd->nr_driver)
		return;
	if ((s64)(now - from) > 0)
		hq->slice_charge += now - from;
	hd->busy_mark = now;
}

/*
 * @rq of @hq goes to the driver @now, from either dispatch path: if the
 * device was empty, the active queue pays for the time it held it
 * (unless that was a dry wait, which is nobody's), and the device's busy
 * time starts here (see hcfq_charge()).
 */
static void hcfq_driver_add(struct hcfq_data *hd, struct hcfq_queue *hq,
			    struct request *rq, u64 now)
{
	lockdep_assert_held(&hd->lock);

	if (!hd->nr_driver) {
		if (hd->active && hd->idling != HCFQ_IDLE_DRY &&
		    !hcfq_iops_mode(hd))
			hcfq_charge_hold(hd, hd->active, now);
		hd->busy_mark = now;
	}
	hd->nr_driver++;
	hq->nr_dispatched++;
	rq->elv.priv[1] = HCFQ_RQ_DISPATCHED;
	rq->fifo_time = now;	/* from here on: dispatch time */
}

/*
 * @rq of @hq leaves the driver @now, completed or requeued: it pays the
 * device time since the previous request left, or since the device went
 * from empty to busy if that is later (see hcfq_charge()).
 */
static void hcfq_driver_del(struct hcfq_data *hd, struct hcfq_queue *hq,
			    struct request *rq, u64 now)
{
	lockdep_assert_held(&hd->lock);

	rq->elv.priv[1] = NULL;
	hq->nr_dispatched--;
	hd->nr_driver--;
	if (!hcfq_iops_mode(hd)) {
		u64 used = now - hd->busy_mark;

		if (hd->active == hq)
			hq->slice_charge += used;
		else
			hcfq_charge(hd, hq, used);
	}
	/* in IOPS mode too: a switch to time mode then charges from here */
	hd->busy_mark = now;
}

/* End the active queue's slice and charge it up the hierarchy. */
static void hcfq_expire(struct hcfq_data *hd, u64 now, const char *why)
{
	struct hcfq_queue *hq = hd->active;
	u64 charge;

	lockdep_assert_held(&hd->lock);

	/* the time since it ran dry was nobody's */
	if (hd->idling == HCFQ_IDLE_DRY)
		now = hd->dry_ns;
	hcfq_stop_idling(hd);
	if (hcfq_iops_mode(hd)) {
		charge = (u64)hq->slice_dispatched * HCFQ_IOPS_CHARGE;
	} else {
		hcfq_charge_hold(hd, hq, now);
		charge = hq->slice_charge;
	}
	hq->slice_charge = 0;

	/*
	 * A queue that ran dry leaves the trees first: charged after, the
	 * levels it empties are not sorted in only to be taken out again.
	 */
	if (!hq->nr_queued)
		hcfq_deactivate_queue(hd, hq);
	hcfq_charge(hd, hq, charge);
	hcfq_log_queue(hd, hq, "expire %s used %llu us charged %llu us disp %u vtime %llu",
		       why, div_u64(now - hq->slice_start, NSEC_PER_USEC),
		       div_u64(charge, NSEC_PER_USEC), hq->slice_dispatched,
		       hq->group->entity.vtime);

	hd->active = NULL;
	WRITE_ONCE(hd->admit_ioc, NULL);
	WRITE_ONCE(hd->admit_group, NULL);
	hcfq_put_queue(hq);
}

static bool hcfq_seeky(struct hcfq_queue *hq)
{
	return hweight32(hq->seek_history) > 32 / 8;
}

/* Are other sync queues of @hg, all of @hq's weight, busy beside it? */
static bool hcfq_peers_busy(struct hcfq_group *hg, struct hcfq_queue *hq)
{
	const struct hcfq_sched_data *sd = &hg->queues;
	const struct hcfq_queue *aq = hg->async_queue;
	unsigned int nr = sd->nr, sum = sd->weight_sum;

	/*
	 * The group's writeback is not a peer: its weight comes from the
	 * slices, not from a priority, and may equal a reader's (100, a BE4
	 * reader's, with slice_async equal to slice_sync).  Not idling for
	 * the reader would hand its think times to writeback.
	 */
	if (aq && aq->entity.on_tree && aq->entity.sd == sd) {
		nr--;
		sum -= aq->entity.weight;
	}
	return nr > 1 && sum == nr * hq->entity.weight;
}

/* Should the disk wait for the active queue, which just ran dry? */
static enum hcfq_idle_kind hcfq_idle_kind(struct hcfq_data *hd,
					  struct hcfq_queue *hq)
{
	bool nonrot = blk_queue_nonrot(hd->queue);
	struct hcfq_group *hg = hq->group;
	bool others;

	lockdep_assert_held(&hd->lock);

	if (!hq->sync || hcfq_class_idle(hq) || hg->light)
		return HCFQ_IDLE_NONE;
	/* hq is still busy while active: anyone else? */
	others = hd->nr_busy > 1;
	if (nonrot && !others)
		return HCFQ_IDLE_NONE;

	/*
	 * Queue idling keeps a sequential reader's requests together on a
	 * rotational disk, and keeps a queue's turn against siblings of
	 * other priorities.  Against busy siblings of the same priority on
	 * a non-rotational device it buys nothing, since a queue pays for
	 * the device time of its requests (hcfq_charge()), and costs every
	 * think time: the next sibling goes instead.
	 */
	if (READ_ONCE(hd->slice_idle) && !(nonrot && hcfq_seeky(hq)) &&
	    !(nonrot && hcfq_peers_busy(hg, hq)) &&
	    hq->ttime_mean <= READ_ONCE(hd->slice_idle))
		return HCFQ_IDLE_QUEUE;

	/* last busy queue of its group, and other groups are waiting */
	if (READ_ONCE(hd->group_idle) && hg->queues.nr + hg->idle_queues.nr == 1 &&
	    (!nonrot || hd->nr_busy > 1))
		return HCFQ_IDLE_GROUP;
	return HCFQ_IDLE_NONE;
}

/* enum hcfq_idle_kind's names, for trace messages and debugfs */
static const char *const hcfq_idle_names[] __maybe_unused = {
	[HCFQ_IDLE_NONE]	= "none",
	[HCFQ_IDLE_QUEUE]	= "queue",
	[HCFQ_IDLE_GROUP]	= "group",
	[HCFQ_IDLE_DRY]		= "dry",
};

static void hcfq_arm_idle(struct hcfq_data *hd, enum hcfq_idle_kind kind)
{
	u64 wait = kind == HCFQ_IDLE_QUEUE ? READ_ONCE(hd->slice_idle) :
		READ_ONCE(hd->group_idle);
	struct hcfq_queue *hq = hd->active;

	lockdep_assert_held(&hd->lock);

	hd->idling = kind;
	hrtimer_start(&hd->idle_timer, ns_to_ktime(wait), HRTIMER_MODE_REL);
	hcfq_log_queue(hd, hq, "idle %s %llu us",
		       hcfq_idle_names[kind],
		       div_u64(wait, NSEC_PER_USEC));
}

/*
 * The two counters of a struct hcfq_rwstat that a request counts in: its
 * direction's and its sync-ness's, worked out once per event for every
 * statistic that the event updates: the stat files are updated for
 * every request, so they should cost it little.
 */
struct hcfq_rwidx {
	u8 dir;
	u8 sync;
};

static __always_inline struct hcfq_rwidx hcfq_rwidx(blk_opf_t opf)
{
	return (struct hcfq_rwidx) {
		.dir = op_is_discard(opf) ? BLKG_RWSTAT_DISCARD :
			op_is_write(opf) ? BLKG_RWSTAT_WRITE : BLKG_RWSTAT_READ,
		.sync = op_is_sync(opf) ? BLKG_RWSTAT_SYNC : BLKG_RWSTAT_ASYNC,
	};
}

/* Add @val to @st's counters @i; hd->lock held. */
static __always_inline void hcfq_rwstat_add(struct hcfq_rwstat *st,
					    struct hcfq_rwidx i, u64 val)
{
	WRITE_ONCE(st->cnt[i.dir], st->cnt[i.dir] + val);
	WRITE_ONCE(st->cnt[i.sync], st->cnt[i.sync] + val);
}

static void hcfq_remove_request(struct hcfq_data *hd, struct hcfq_queue *hq,
				struct request *rq)
{
	struct request_queue *q = hd->queue;

	lockdep_assert_held(&hd->lock);

	list_del_init(&rq->queuelist);
	hq->nr_queued--;
	hd->nr_queued--;
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
}

static struct request *hcfq_dispatch_from(struct hcfq_data *hd,
					  struct hcfq_queue *hq, u64 now)
{
	struct request *rq = list_first_entry(&hq->fifo, struct request,
					      queuelist);
	struct hcfq_stats *st = &hq->group->stats;
	struct hcfq_rwidx i = hcfq_rwidx(rq->cmd_flags);

	lockdep_assert_held(&hd->lock);

	hcfq_remove_request(hd, hq, rq);
	hq->slice_dispatched++;
	hcfq_rwstat_add(&st->queued, i, -1);
	hcfq_rwstat_add(&st->bytes, i, blk_rq_bytes(rq));
	hcfq_rwstat_add(&st->ios, i, 1);
	hcfq_rwstat_add(&st->wait_time, i, now - rq->fifo_time);
	WRITE_ONCE(st->sectors, st->sectors + blk_rq_sectors(rq));
	hcfq_driver_add(hd, hq, rq, now);
	rq->rq_flags |= RQF_STARTED;
	return rq;
}

/*
 * Decide about the active queue.  Returns true if the disk stays with it,
 * with *rqp the request to dispatch or NULL to wait; false if the queue
 * was expired and another is to be chosen.
 */
static bool hcfq_serve_active(struct hcfq_data *hd, u64 now,
			      struct request **rqp)
{
	struct hcfq_queue *hq = hd->active;
	enum hcfq_idle_kind kind;

	lockdep_assert_held(&hd->lock);

	*rqp = NULL;
	if (hd->idling)
		return true;
	if (hq->nr_queued) {
		if ((s64)(now - hq->slice_end) >= 0) {
			/* expires busy: keeps its place on the tree */
			hcfq_expire(hd, now, "slice");
			return false;
		}
		/* the IDLE class gets one request while others wait */
		if (hd->nr_busy > 1 && hcfq_class_idle(hq) &&
		    hq->slice_dispatched) {
			hcfq_expire(hd, now, "idle class");
			return false;
		}
		/* past the quantum, the next completion kicks us again */
		if (hd->nr_busy <= 1 ||
		    hq->nr_dispatched < READ_ONCE(hd->quantum))
			*rqp = hcfq_dispatch_from(hd, hq, now);
		return true;
	}
	kind = hcfq_idle_kind(hd, hq);
	if (kind == HCFQ_IDLE_NONE) {
		hcfq_expire(hd, now, "empty");
		return false;
	}
	/*
	 * Wait for the request in flight, then idle for the next one.  This
	 * pays past the end of the slice too (CFQ's wait_busy): a reader
	 * with one request in flight is always empty when its slice ends,
	 * and expiring it empty would take it off the tree, so that another
	 * group would get every other slice whatever the weights.  Waiting
	 * one idle period lets it expire busy and keep its place.
	 */
	if (!hq->nr_dispatched)
		hcfq_arm_idle(hd, kind);
	return true;
}

static struct request *__hcfq_dispatch(struct hcfq_data *hd)
{
	struct hcfq_queue *hq;
	struct request *rq;
	u64 now = hcfq_now(hd);

	if (!list_empty(&hd->dispatch)) {
		rq = list_first_entry(&hd->dispatch, struct request, queuelist);
		list_del_init(&rq->queuelist);
		hq = rq->elv.priv[0];
		if (hq)
			hcfq_driver_add(hd, hq, rq, now);
		rq->rq_flags |= RQF_STARTED;
		return rq;
	}

	if (hd->active && hcfq_serve_active(hd, now, &rq)) {
		/* a completion or the idle timer runs the queue again */
		if (!rq)
			hd->withheld = hd->nr_queued > 0;
		return rq;
	}

	hq = hcfq_select_queue(hd, now);
	if (!hq)
		return NULL;
	hcfq_set_active(hd, hq, now);
	return hcfq_dispatch_from(hd, hq, now);
}

/**
 * hcfq_dispatch_request - the elevator's dispatch_request op
 * @hctx: the hardware context blk-mq is running
 *
 * Return: the next request to send to the driver, or NULL when hcfq has
 * none or is idling for the active queue (the idle timer or the next
 * insert or completion runs the queue again).
 *
 * Context: blk-mq's dispatch, in process context; takes hd->lock.
 */
static struct request *hcfq_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct hcfq_data *hd = hctx->sched_data;
	struct request *rq;

	spin_lock_irq(&hd->lock);
	rq = __hcfq_dispatch(hd);
	spin_unlock_irq(&hd->lock);
	return rq;
}

/**
 * hcfq_has_work - the elevator's has_work op
 * @hctx: the hardware context
 *
 * Return: whether any request is queued in hcfq, even one that
 * hcfq_dispatch_request() would withhold for now.
 *
 * Context: any; reads the counts without hd->lock.
 */
static bool hcfq_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct hcfq_data *hd = hctx->sched_data;

	return READ_ONCE(hd->nr_queued) || !list_empty_careful(&hd->dispatch);
}

static void hcfq_kick(struct hcfq_data *hd)
{
	blk_mq_run_hw_queues(hd->queue, true);
}

static enum hrtimer_restart hcfq_idle_timer_fn(struct hrtimer *timer)
{
	struct hcfq_data *hd = container_of(timer, struct hcfq_data,
					    idle_timer);
	unsigned long flags;

	spin_lock_irqsave(&hd->lock, flags);
	/* not if idling ended meanwhile, or a dry wait (untimed) began */
	if (hd->active && hcfq_idle_timed(hd)) {
		hd->idling = HCFQ_IDLE_NONE;
		hcfq_expire(hd, hcfq_now(hd), "idle");
	}
	spin_unlock_irqrestore(&hd->lock, flags);
	hcfq_kick(hd);
	return HRTIMER_NORESTART;
}

/* Update think time and seekiness of a sync queue at a new request. */
static void hcfq_update_queue_stats(struct hcfq_data *hd,
				    struct hcfq_queue *hq, struct request *rq,
				    u64 now)
{
	sector_t pos = blk_rq_pos(rq);
	sector_t dist;

	if (!hq->sync)
		return;
	if (!hq->nr_queued && !hq->nr_dispatched && hq->last_end_ns) {
		u64 sample = min(now - hq->last_end_ns,
				 2 * READ_ONCE(hd->slice_idle));

		hq->ttime_mean = hq->ttime_samples ?
			div_u64(hq->ttime_mean * 7 + sample, 8) : sample;
		hq->ttime_samples++;
	}
	dist = pos > hq->last_pos ? pos - hq->last_pos : hq->last_pos - pos;
	hq->seek_history = (hq->seek_history << 1) |
		(hq->last_pos && dist > HCFQ_SEEK_THR);
	hq->last_pos = pos + blk_rq_sectors(rq);
}

/*
 * Queue @rq in its queue's FIFO.  REQ_PRIO requests (metadata a task
 * waits on, such as an inode block) go ahead of the queue's other
 * requests, as with CFQ: ext4 submits the inode block it needs after a
 * plug full of inode table readahead, and behind that readahead a cold
 * stat() would wait for the whole batch.
 */
static void hcfq_fifo_add(struct hcfq_queue *hq, struct request *rq)
{
	struct request *pos;

	lockdep_assert_held(&hq->hd->lock);

	if (rq->cmd_flags & REQ_PRIO) {
		list_for_each_entry(pos, &hq->fifo, queuelist) {
			if (!(pos->cmd_flags & REQ_PRIO)) {
				list_add_tail(&rq->queuelist, &pos->queuelist);
				return;
			}
		}
	}
	list_add_tail(&rq->queuelist, &hq->fifo);
}

/* Is @anc a proper ancestor of @hg? */
static bool hcfq_group_above(const struct hcfq_group *anc,
			     const struct hcfq_group *hg)
{
	while ((hg = hg->parent))
		if (hg == anc)
			return true;
	return false;
}

/*
 * Should @hq, which has just been given a request, take the disk from
 * the active queue?  Every preemption rule is here.  Returns the reason,
 * for the trace, or NULL to let the active queue go on.
 */
static const char *hcfq_should_preempt(struct hcfq_data *hd,
				       struct hcfq_queue *hq, blk_opf_t opf,
				       u64 now)
{
	struct hcfq_queue *active = hd->active;

	lockdep_assert_held(&hd->lock);

	if (!active || active == hq)
		return NULL;
	/*
	 * A sync metadata write of an ancestor group, such as jbd2's
	 * journal commit from the root group, which every fsync on the file
	 * system waits for, waits neither for a descendant's idle window
	 * nor behind its writeback: the group that idles may be the one
	 * whose fsync waits for this commit.  Only an ancestor's: a
	 * sibling's own metadata writes (XFS's log, ext4's fast commits,
	 * issued in the fsyncing task's group) wait their turn like its
	 * other I/O; and not into an RT queue's time from a lower class.
	 */
	if (hq->sync && op_is_write(opf) && (opf & REQ_META) &&
	    !hcfq_class_idle(hq) &&
	    hcfq_group_above(hq->group, active->group) &&
	    (!hcfq_class_rt(active) || hcfq_class_rt(hq)) &&
	    (hcfq_idle_timed(hd) || !active->sync))
		return "preempt for the journal";
	/*
	 * Nor does a sync write without REQ_IDLE (an fsync's or sync(2)'s
	 * writeback, an O_SYNC write) of the active queue's group or a
	 * group below it wait out the idle window that follows the active
	 * queue's metadata write: a journal writer writes again only after
	 * the fsyncs it served have written again, so the window would
	 * hold up the very writers it serves.  Reads, O_DIRECT writes
	 * (REQ_IDLE), writeback and groups elsewhere still wait, so a
	 * commit's journal blocks and its commit block stay together
	 * against them.
	 */
	if (hq->sync && op_is_write(opf) && !(opf & REQ_IDLE) &&
	    !hcfq_class_idle(hq) && active->meta_done &&
	    hcfq_idle_timed(hd) &&
	    (hq->group == active->group ||
	     hcfq_group_above(active->group, hq->group)) &&
	    (!hcfq_class_rt(active) || hcfq_class_rt(hq)))
		return "preempt after metadata";
	/*
	 * A reader does not wait behind writeback, in any group, as with
	 * CFQ; writeback keeps an eighth of an async slice per turn and is
	 * charged only for the time it used, so its share stays what its
	 * weight gives.
	 */
	if (hq->sync && !active->sync && !hcfq_class_idle(hq) &&
	    now - active->slice_start >= READ_ONCE(hd->slice_async) / 8)
		return "preempt async";
	/*
	 * Nor behind its own group's writeback when it is due first: less
	 * vtime than the async queue had at its slice's start (its slice
	 * is charged at the end).  CFQ preempted async for any sync
	 * request; a queue that is not due first would only end the slice
	 * for the async queue to be chosen again.
	 */
	if (hq->sync && !active->sync && !hcfq_class_idle(hq) &&
	    active->group == hq->group && hq->entity.sd == active->entity.sd &&
	    (s64)(hq->entity.vtime - active->entity.vtime) < 0)
		return "preempt own async";
	if (active->group == hq->group) {
		/* any request of the group it idles for ends group idling */
		if (hd->idling == HCFQ_IDLE_GROUP)
			return "preempt";
		/* RT preempts the other classes */
		if (hcfq_class_rt(hq) && !hcfq_class_rt(active))
			return "preempt";
		return NULL;
	}
	/* another group's IDLE class goes as soon as RT or BE wants in */
	if (hcfq_class_idle(active) && !hcfq_class_idle(hq))
		return "preempt idle class";
	return NULL;
}

static void hcfq_insert_request(struct hcfq_data *hd, struct request *rq,
				blk_insert_t flags, struct list_head *free)
{
	struct request_queue *q = hd->queue;
	struct hcfq_queue *hq;
	const char *why;
	u64 now;

	lockdep_assert_held(&hd->lock);

	/* only a queued request is hashed: with none, skip the lookup */
	if (hd->nr_queued && blk_mq_sched_try_insert_merge(q, rq, free))
		return;
	/* with an elevator, blk-mq leaves the insert event to it */
	trace_block_rq_insert(rq);

	hq = rq->elv.priv[0];
	if (!hq && (rq->rq_flags & RQF_USE_SCHED)) {
		hq = hcfq_rq_queue(hd, rq);
		rq->elv.priv[0] = hq;
		if (hq)
			WRITE_ONCE(hq->group->nr_rqs, hq->group->nr_rqs + 1);
	}
	rq->elv.priv[1] = NULL;

	if (!hq || (flags & BLK_MQ_INSERT_AT_HEAD)) {
		list_add(&rq->queuelist, &hd->dispatch);
		return;
	}
	now = hcfq_now(hd);

	/* a dry active queue leaves before anyone else joins the trees */
	if (hd->idling == HCFQ_IDLE_DRY && hd->active != hq)
		hcfq_expire(hd, now, "done");

	hcfq_update_queue_stats(hd, hq, rq, now);
	rq->fifo_time = now;	/* insertion time, until dispatch */
	hcfq_fifo_add(hq, rq);
	hq->nr_queued++;
	hd->nr_queued++;
	hcfq_rwstat_add(&hq->group->stats.queued, hcfq_rwidx(rq->cmd_flags),
			1);
	if (rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
	if (!hq->entity.on_tree)
		hcfq_activate_queue(hd, hq, now);

	why = hcfq_should_preempt(hd, hq, rq->cmd_flags, now);
	if (why)
		hcfq_expire(hd, now, why);
	if (hd->active != hq || !hd->idling)
		return;
	if (hd->idling == HCFQ_IDLE_DRY) {
		/*
		 * The slice goes on.  It did not hold the disk meanwhile;
		 * other queues' requests still in the driver pay for that
		 * time when they complete.
		 */
		hq->slice_start += now - hd->dry_ns;
		hq->slice_end += now - hd->dry_ns;
		if (!hd->nr_driver)
			hd->busy_mark = now;
		hd->idling = HCFQ_IDLE_NONE;
	} else {
		hcfq_stop_idling(hd);
	}
}

/**
 * hcfq_insert_requests - the elevator's insert_requests op
 * @hctx: the hardware context
 * @list: requests that hold scheduler tags, taken off the list
 * @flags: BLK_MQ_INSERT_AT_HEAD puts them on the dispatch list
 *
 * Queues each request on its process's sync queue or its group's async
 * queue, merging it with a neighbour where blk-mq allows; may end the
 * active slice (see hcfq_should_preempt()).  Requests merged away are
 * freed after hd->lock is dropped.
 *
 * Context: process context; takes hd->lock.
 */
static void hcfq_insert_requests(struct blk_mq_hw_ctx *hctx,
				 struct list_head *list, blk_insert_t flags)
{
	struct hcfq_data *hd = hctx->sched_data;
	LIST_HEAD(free);

	spin_lock_irq(&hd->lock);
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		hcfq_insert_request(hd, rq, flags, &free);
	}
	spin_unlock_irq(&hd->lock);
	blk_mq_free_requests(&free);
}

/*
 * Admission.  hcfq can only order requests that hold a scheduler tag,
 * and blk-mq hands tags out first come, first served.  Left alone, the
 * groups that are served least hold their requests longest and so end
 * up holding most of the tags, while the process hcfq is serving, or
 * idling for, sleeps in tag allocation where no weight reaches it: the
 * disk idles and the shares flatten.  So, for a request of group G:
 *
 *  - the active queue's process, for requests in the active queue's
 *    group (or, when the active queue is a group's async or proxy
 *    queue, that group's writeback) may use every tag: hcfq is waiting
 *    for it;
 *  - everyone else leaves an eighth of nr_requests (at least one) as a
 *    reserve for it, and may hold about G's share of the rest: the
 *    product of weight / busy weight at each level up from G's queues,
 *    as if G were busy.  A group that holds its share already may only
 *    take a tag from the part of the bitmap that its share spans, so
 *    that it waits while others take the rest.  (BFQ's depth of one tag
 *    for a queue over its limit would make it wait for one given tag,
 *    which may belong to the lowest-weight group's oldest request.)
 *    While more processes wait for a tag than there are tags, a group
 *    whose share is less than one tag (a light group) may only use the
 *    lower half of them, even while its queue is active: the upper half
 *    stays for the groups that are due one or more, which would
 *    otherwise queue for a tag behind every light group's request.
 *    Since a light group's next request waits for a tag, hcfq does not
 *    idle for it.
 *  - whatever the group, async requests may hold at most half of
 *    nr_requests and sync writes three quarters, so that neither
 *    writeback nor an fsync of many pages can take the tags the readers
 *    need.  Several groups' writeback can be queued at once, and
 *    dispatch, not the order of tag allocation, decides between them;
 *    a reader preempts an async slice, so the queued writeback is no
 *    backlog in front of it.
 *
 * The group comes from the bio (blk_mq_alloc_data.bio), not from the
 * submitting task: the flusher submits other groups' writeback.  The
 * counts and weights are read without hd->lock; a stale value only
 * moves a limit by a request.  Computed here rather than in
 * depth_updated(), which blk-mq calls before it stores a new
 * nr_requests.
 */

/* @depth times @weight's share of @sum, where @busy says @weight is in it */
static unsigned int hcfq_share_depth(unsigned int depth, unsigned int weight,
				     unsigned int sum, bool busy)
{
	if (!busy)
		sum += weight;
	if (!sum || weight >= sum)
		return depth;
	return max_t(unsigned int, DIV_ROUND_UP_ULL((u64)depth * weight, sum), 1);
}

/* How many of @depth tags @hg may hold: its share, level by level. */
static unsigned int hcfq_group_depth(struct hcfq_group *hg,
				     unsigned int depth)
{
	struct hcfq_entity *e = &hg->leaf;
	struct hcfq_sched_data *sd = &hg->children;

	for (;;) {
		bool busy = READ_ONCE(e->on_tree);
		unsigned int w = busy ? READ_ONCE(e->weight) :
			hcfq_entity_weight(e);

		depth = hcfq_share_depth(depth, w, READ_ONCE(sd->weight_sum),
					 busy);
		if (!hg->parent)
			return depth;
		e = &hg->entity;
		sd = &hg->parent->children;
		hg = hg->parent;
	}
}

/* Processes asleep in allocation, waiting for one of hcfq's tags */
static unsigned int hcfq_tag_waiters(struct hcfq_data *hd)
{
	struct blk_mq_tags *prev = NULL;
	struct blk_mq_hw_ctx *hctx;
	unsigned int n = 0;
	unsigned long i;

	/* hardware queues on a shared tag set have one bitmap: count it once */
	queue_for_each_hw_ctx(hd->queue, hctx, i) {
		if (hctx->sched_tags && hctx->sched_tags != prev)
			n += atomic_read(&hctx->sched_tags->bitmap_tags.ws_active);
		prev = hctx->sched_tags;
	}
	return n;
}

/* Tags the groups share: nr_requests less the active queue's reserve */
static unsigned int hcfq_shared_tags(unsigned int nr)
{
	unsigned int reserve = max(nr / 8, 1U);

	return nr > reserve ? nr - reserve : 0;
}

/*
 * Is @hg a light group: do more processes wait for a tag than there are
 * tags for the groups to share, and is @hg due less than one of them?
 * Then its next request waits for a tag behind the other light groups',
 * so hcfq neither idles for it nor lets it use the active queue's reserve.
 * Worked out at each of its slice starts (so @hg is busy) into hg->light,
 * which admission reads.
 */
static bool hcfq_group_light(struct hcfq_data *hd, struct hcfq_group *hg)
{
	unsigned int avail = hcfq_shared_tags(READ_ONCE(hd->queue->nr_requests));

	lockdep_assert_held(&hd->lock);

	return avail &&
		(u64)hcfq_hweight_ppm(&hg->leaf) * avail < 1000000 &&
		hcfq_tag_waiters(hd) > avail;
}

/*
 * Is the request (of @bio, for @hg) for the queue being served?  A sync
 * request goes to its process's queue unless it is a proxy's
 * (hcfq_bio_proxy()).  A process's queue is in the group of the process's
 * own I/O, and a proxy's request is for another group, so for the served
 * process's requests the group decides, without the costlier proxy test,
 * which runs only while a group's async or proxy queue is served.  (A
 * proxy's request for a removed group that falls back to the served
 * group may use every tag too: it is for the group being served.)
 */
static bool hcfq_admit_all(struct hcfq_data *hd, struct hcfq_group *hg,
			   bool sync, struct bio *bio)
{
	struct io_context *ioc = current->io_context;
	struct io_context *admit_ioc = READ_ONCE(hd->admit_ioc);

	if (hg != READ_ONCE(hd->admit_group))
		return false;
	if (admit_ioc)
		return sync && ioc == admit_ioc;
	return !sync || hcfq_bio_proxy(bio);
}

/**
 * hcfq_limit_depth - the elevator's limit_depth op: admission
 * @opf: the operation and flags of the request being allocated
 * @data: blk-mq's allocation data; @data->bio is the bio it is for
 *
 * Sets @data->shallow_depth to the request's part of the scheduler tags,
 * as the comment above explains.
 *
 * Context: request allocation, in the submitter's context, before the
 * tag is taken; no locks held or taken.
 */
static void hcfq_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct hcfq_data *hd = data->q->elevator->elevator_data;
	unsigned int nr = data->q->nr_requests, depth = nr;
	unsigned int avail = hcfq_shared_tags(nr);
	struct hcfq_group *hg;
	bool sync = op_is_sync(opf);

	if (!sync)
		depth = max(nr / 2, 1U);
	else if (op_is_write(opf))
		depth = max(nr * 3 / 4, 1U);

	hg = hcfq_blkg_group(hd, data->bio ? data->bio->bi_blkg : NULL);
	if (avail) {
		unsigned int held = READ_ONCE(hg->nr_rqs), share;

		/* a light group: the lower half, even for the active queue */
		if (READ_ONCE(hg->light)) {
			depth = min(depth, max(avail / 2, 1U));
			goto out;
		}
		if (hcfq_admit_all(hd, hg, sync, data->bio))
			goto out;
		depth = min(depth, avail);
		/* a share is at least one tag: no need to work it out for none */
		if (held) {
			share = hcfq_group_depth(hg, avail);
			if (held >= share)
				depth = min(depth, share);
		}
	}
out:
	if (depth < nr)
		data->shallow_depth = depth;
}

/**
 * hcfq_depth_updated - the elevator's depth_updated op
 * @hctx: the hardware context whose scheduler tags changed
 *
 * nr_requests changed, or @hctx was set up.  Tells the tag bitmap that
 * hcfq_limit_depth() may ask for a depth of one.
 *
 * Context: the queue is frozen; may sleep.
 */
static void hcfq_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	sbitmap_queue_min_shallow_depth(&hctx->sched_tags->bitmap_tags, 1);
}

/*
 * @hctx->sched_data points at the scheduler's data, so that the ops blk-mq
 * calls for every request find it with one load.
 */
static int hcfq_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	hctx->sched_data = hctx->queue->elevator->elevator_data;
	hcfq_depth_updated(hctx);
	return 0;
}

/* Leave no pointer to the scheduler's data for the next scheduler. */
static void hcfq_exit_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	hctx->sched_data = NULL;
}

/**
 * hcfq_prepare_request - the elevator's prepare_request op
 * @rq: a request that has just been given a scheduler tag
 *
 * Only sync requests have per-process queues: async ones go to their
 * group's async queue, so they need no io_context (whose lookup takes
 * q->queue_lock), and the flusher gets none allocated.
 *
 * Context: request allocation, in the submitter's context.
 */
static void hcfq_prepare_request(struct request *rq)
{
	rq->elv.icq = op_is_sync(rq->cmd_flags) ?
		ioc_find_get_icq(rq->q) : NULL;
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
}

static void hcfq_completed(struct hcfq_data *hd, struct hcfq_queue *hq,
			   struct request *rq)
{
	u64 now = hcfq_now(hd);

	hcfq_driver_del(hd, hq, rq, now);
	hq->last_end_ns = now;
	hq->meta_done = op_is_write(rq->cmd_flags) &&
		(rq->cmd_flags & REQ_META);
	hcfq_rwstat_add(&hq->group->stats.service_time,
			hcfq_rwidx(rq->cmd_flags), now - rq->fifo_time);

	if (hd->active == hq && !hq->nr_queued && !hq->nr_dispatched &&
	    !hd->idling) {
		enum hcfq_idle_kind kind = hcfq_idle_kind(hd, hq);

		/* past the slice end too: see hcfq_serve_active() */
		if (kind != HCFQ_IDLE_NONE) {
			hcfq_arm_idle(hd, kind);
		} else if (hd->nr_queued) {
			/* nothing to wait for, and others are waiting */
			hcfq_expire(hd, now, "done");
			hd->withheld = true;
		} else {
			/*
			 * Nobody else wants the disk: the queue stays active,
			 * charged only up to now, and the next request
			 * anywhere decides.  If it is the queue's own (a
			 * process that has the disk to itself), its slice
			 * goes on without an expire, reselection and a new
			 * slice per request.  Any other queue's request ends
			 * the slice first (hcfq_insert_request()), so the
			 * trees are as if it had ended here.
			 */
			hd->idling = HCFQ_IDLE_DRY;
			hd->dry_ns = now;
		}
	}
}

/**
 * hcfq_finish_request - the elevator's finish_request op
 * @rq: a request that completed, or is freed without being dispatched
 *
 * Charges the disk time (see hcfq_charge()), decides whether to idle
 * for the queue's next request, and drops the request's queue reference.
 *
 * Context: completion, possibly in hard interrupt context; takes
 * hd->lock with interrupts saved.
 */
static void hcfq_finish_request(struct request *rq)
{
	struct hcfq_queue *hq = rq->elv.priv[0];

	if (hq) {
		struct hcfq_data *hd = hq->hd;
		unsigned long flags;
		bool kick;

		spin_lock_irqsave(&hd->lock, flags);
		if (rq->elv.priv[1] == HCFQ_RQ_DISPATCHED)
			hcfq_completed(hd, hq, rq);
		WRITE_ONCE(hq->group->nr_rqs, hq->group->nr_rqs - 1);
		rq->elv.priv[0] = NULL;
		hcfq_put_queue(hq);
		kick = hd->withheld && !hd->idling;
		if (kick)
			hd->withheld = false;
		spin_unlock_irqrestore(&hd->lock, flags);
		if (kick)
			hcfq_kick(hd);
	}

	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}

/**
 * hcfq_requeue_request - the elevator's requeue_request op
 * @rq: a dispatched request the driver handed back
 *
 * The request is no longer in the driver, and pays for its time there as
 * a completed one does; blk-mq puts it back through
 * hcfq_insert_requests() at the head of the dispatch list.  Unless the
 * driver has prepared it (RQF_DONTPREP, as SCSI's retries): blk-mq then
 * sends it back to the driver without hcfq (blk_mq_requeue_work()), so
 * for hcfq it stays in the driver until it completes.
 *
 * Context: any, including interrupt context; takes hd->lock with
 * interrupts saved.
 */
static void hcfq_requeue_request(struct request *rq)
{
	struct hcfq_queue *hq = rq->elv.priv[0];
	unsigned long flags;

	if (!hq || rq->elv.priv[1] != HCFQ_RQ_DISPATCHED ||
	    (rq->rq_flags & RQF_DONTPREP))
		return;
	spin_lock_irqsave(&hq->hd->lock, flags);
	hcfq_driver_del(hq->hd, hq, rq, hcfq_now(hq->hd));
	spin_unlock_irqrestore(&hq->hd->lock, flags);
}

/**
 * hcfq_bio_merge - the elevator's bio_merge op
 * @q: the request queue
 * @bio: a bio being submitted
 * @nr_segs: its number of segments
 *
 * Return: true if @bio was merged into a queued request (as far as
 * hcfq_allow_merge() permits).
 *
 * Context: submission, in process context; takes hd->lock when a
 * request is queued in hcfq.
 */
static bool hcfq_bio_merge(struct request_queue *q, struct bio *bio,
			   unsigned int nr_segs)
{
	struct hcfq_data *hd = q->elevator->elevator_data;
	struct request *free = NULL;
	bool ret;

	/*
	 * Nothing queued, nothing to merge into: the common case of a disk
	 * that keeps up, which then does not take hd->lock here.  A request
	 * queued meanwhile only misses this merge.
	 */
	if (!READ_ONCE(hd->nr_queued))
		return false;
	spin_lock_irq(&hd->lock);
	ret = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	spin_unlock_irq(&hd->lock);
	if (free)
		blk_mq_free_request(free);
	return ret;
}

/**
 * hcfq_allow_merge - the elevator's allow_merge op
 * @q: the request queue
 * @rq: a request @bio could be merged into
 * @bio: the bio
 *
 * Only within one queue: a sync bio (an fsync write, O_DIRECT) merged
 * into writeback would wait at the async queue's pace, and a bio merged
 * into another process's or group's request would be served in that
 * queue's slice and charged to it.  A group's proxy queue takes only sync
 * bios done for the group by others.  A request without a queue takes any
 * bio.  (blk-mq merges into plugged requests without asking.)
 *
 * Return: whether @bio may join @rq.
 *
 * Context: hd->lock held (from hcfq_bio_merge()).  The fields compared
 * never change after a queue is made, and @rq holds a reference to its
 * queue.
 */
static bool hcfq_allow_merge(struct request_queue *q, struct request *rq,
			     struct bio *bio)
{
	struct hcfq_data *hd = q->elevator->elevator_data;
	struct hcfq_queue *hq = rq->elv.priv[0];

	if (!hq)
		return true;
	if (op_is_sync(bio->bi_opf) != hq->sync)
		return false;
	if (hq->sync && (hq->ioc ? hq->ioc != current->io_context :
				 !hcfq_bio_proxy(bio)))
		return false;
	return hq->group == hcfq_blkg_group(hd, bio->bi_blkg);
}

/**
 * hcfq_request_merged - the elevator's request_merged op
 * @q: the request queue
 * @rq: a queued request that took a bio
 * @type: front or back merge
 *
 * Counts the merge in blkio.io_merged.
 *
 * Context: hd->lock held (from hcfq_bio_merge()).
 */
static void hcfq_request_merged(struct request_queue *q, struct request *rq,
				enum elv_merge type)
{
	struct hcfq_data *hd = q->elevator->elevator_data;
	struct hcfq_queue *hq = rq->elv.priv[0];

	lockdep_assert_held(&hd->lock);

	if (hq)
		hcfq_rwstat_add(&hq->group->stats.merged,
				hcfq_rwidx(rq->cmd_flags), 1);
}

/**
 * hcfq_requests_merged - the elevator's requests_merged op
 * @q: the request queue
 * @rq: the request that grew
 * @next: the request merged into @rq, which leaves the scheduler
 *
 * @rq inherits the earlier of the two FIFO times, and @next's queue is
 * taken off its service tree if it has nothing left.
 *
 * Context: hd->lock held (from a bio or insert merge).
 */
static void hcfq_requests_merged(struct request_queue *q, struct request *rq,
				 struct request *next)
{
	struct hcfq_data *hd = q->elevator->elevator_data;
	struct hcfq_queue *hq = next->elv.priv[0];
	struct hcfq_rwidx i;

	lockdep_assert_held(&hd->lock);

	if (!hq) {
		list_del_init(&next->queuelist);
		return;
	}
	if ((s64)(next->fifo_time - rq->fifo_time) < 0)
		rq->fifo_time = next->fifo_time;
	hcfq_remove_request(hd, hq, next);
	i = hcfq_rwidx(next->cmd_flags);
	hcfq_rwstat_add(&hq->group->stats.queued, i, -1);
	hcfq_rwstat_add(&hq->group->stats.merged, i, 1);
	if (!hq->nr_queued && hd->active != hq && hq->entity.on_tree)
		hcfq_deactivate_queue(hd, hq);
}

/* Drop @hic's sync queue: its process exits, or its group goes away. */
static void hcfq_drop_sync_queue(struct hcfq_data *hd, struct hcfq_io_cq *hic,
				 const char *why)
{
	struct hcfq_queue *hq = hic->sync_queue;

	lockdep_assert_held(&hd->lock);

	/* an idle or dry active queue waits for a request that cannot come */
	if (hd->active == hq && hd->idling != HCFQ_IDLE_NONE)
		hcfq_expire(hd, hcfq_now(hd), why);
	hic->sync_queue = NULL;
	hcfq_put_queue(hq);
}

/**
 * hcfq_exit_icq - the elevator's exit_icq op
 * @icq: a process's io_cq on this queue, being torn down
 *
 * Drops the process's sync queue, if hcfq_group_offline() has not
 * already.
 *
 * Context: under the io_context's lock, and q->queue_lock too unless the
 * process is exiting; takes hd->lock with interrupts saved.
 */
static void hcfq_exit_icq(struct io_cq *icq)
{
	struct hcfq_io_cq *hic = container_of(icq, struct hcfq_io_cq, icq);
	struct hcfq_data *hd = icq->q->elevator->elevator_data;
	unsigned long flags;

	spin_lock_irqsave(&hd->lock, flags);
	if (hic->sync_queue)
		hcfq_drop_sync_queue(hd, hic, "exit");
	spin_unlock_irqrestore(&hd->lock, flags);
}

/**
 * hcfq_group_init - set up a group's scheduling state
 * @hd: the scheduler instance of the group's queue
 * @hg: the group, whose weights hcfq-cgroup.c has just computed
 *
 * Links @hg under its parent (which blk-cgroup initialises first) and
 * marks it online.  @hg is on no service tree yet, so nothing else looks
 * at the fields written here.
 *
 * Context: the blkcg policy's pd_init_fn, under q->queue_lock.
 */
void hcfq_group_init(struct hcfq_data *hd, struct hcfq_group *hg)
{
	struct blkcg_gq *blkg = hcfqg_to_blkg(hg);

	hg->hd = hd;
	hg->parent = blkg->parent ? blkg_to_hcfqg(blkg->parent) : NULL;
	hcfq_sd_init(&hg->children);
	hcfq_sd_init(&hg->queues);
	hcfq_sd_init(&hg->idle_queues);
	RB_CLEAR_NODE(&hg->entity.rb);
	RB_CLEAR_NODE(&hg->leaf.rb);
	/*
	 * A child group competes on its parent's @children, beside the
	 * parent's leaf; both answer to the parent's own entity, which
	 * competes a level up.  The root's entity is on no tree.
	 */
	hg->entity.type = HCFQ_ENT_GROUP;
	hg->entity.parent = hg->parent && hg->parent->parent ?
		&hg->parent->entity : NULL;
	hg->entity.weight = hcfq_group_weight(hg);
	hg->leaf.type = HCFQ_ENT_LEAF;
	hg->leaf.parent = hg->parent ? &hg->entity : NULL;
	hg->leaf.weight = hcfq_group_leaf_weight(hg);
	WRITE_ONCE(hg->online, true);
}

/**
 * hcfq_group_offline - a group's cgroup is going away
 * @hg: the group
 *
 * Also called when the policy is deactivated.  Drops the group's queues
 * that nothing but a reference would keep, since each holds the group's
 * blkg, and with it the cgroup, which would stay dying: the async queue,
 * a dry active queue of the group, and the sync queues of processes that
 * have left the group (a process's next request makes it a queue where
 * it is then).  Requests still queued keep their queues, and so the
 * group, until they complete.
 *
 * Context: the blkcg policy's pd_offline_fn, under q->queue_lock, which
 * keeps q->icq_list still; takes hd->lock.
 */
void hcfq_group_offline(struct hcfq_group *hg)
{
	struct hcfq_data *hd = hg->hd;
	struct hcfq_io_cq *hic;
	struct io_cq *icq;
	unsigned long flags;

	lockdep_assert_held(&hd->queue->queue_lock);

	spin_lock_irqsave(&hd->lock, flags);
	WRITE_ONCE(hg->online, false);
	list_for_each_entry(icq, &hd->queue->icq_list, q_node) {
		hic = container_of(icq, struct hcfq_io_cq, icq);
		if (hic->sync_queue && hic->sync_queue->group == hg)
			hcfq_drop_sync_queue(hd, hic, "offline");
	}
	/* a dry active queue would pin the group until the next request */
	if (hd->idling == HCFQ_IDLE_DRY && hd->active->group == hg)
		hcfq_expire(hd, hcfq_now(hd), "offline");
	if (hg->async_queue) {
		hcfq_put_queue(hg->async_queue);
		hg->async_queue = NULL;
	}
	if (hg->proxy_queue) {
		hcfq_put_queue(hg->proxy_queue);
		hg->proxy_queue = NULL;
	}
	spin_unlock_irqrestore(&hd->lock, flags);
}

/**
 * hcfq_init_sched - the elevator's init_sched op
 * @q: the request queue hcfq is attached to
 * @e: hcfq's elevator type
 *
 * Allocates the scheduler instance, activates the blkcg policy on @q's
 * disk, asks for one dispatcher per queue (QUEUE_FLAG_SQ_SCHED) and
 * disables wbt: hcfq bounds writeback itself.
 *
 * Return: 0, or -ENOMEM or the policy activation's error, with nothing
 * left allocated.
 *
 * Context: the queue is frozen and quiesced; may sleep.
 */
static int hcfq_init_sched(struct request_queue *q, struct elevator_type *e)
{
	struct elevator_queue *eq;
	struct hcfq_data *hd;
	int ret = -ENOMEM;

	eq = elevator_alloc(q, e);
	if (!eq)
		return ret;

	hd = kzalloc_node(sizeof(*hd), GFP_KERNEL, q->node);
	if (!hd)
		goto put_eq;
	eq->elevator_data = hd;
	spin_lock_init(&hd->lock);
	hd->queue = q;
	INIT_LIST_HEAD(&hd->dispatch);
	hrtimer_init(&hd->idle_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hd->idle_timer.function = hcfq_idle_timer_fn;
	hd->slice_sync = HCFQ_SLICE_SYNC;
	hd->slice_async = HCFQ_SLICE_ASYNC;
	hcfq_set_async_weights(hd);
	hd->slice_idle = HCFQ_SLICE_IDLE;
	hd->group_idle = HCFQ_GROUP_IDLE;
	hd->target_latency = HCFQ_TARGET_LATENCY;
	hd->quantum = HCFQ_QUANTUM;
	hd->low_latency = 1;
	hd->dirty_weight = 1;

	q->elevator = eq;
	ret = blkcg_activate_policy(q->disk, &blkcg_policy_hcfq);
	if (ret)
		goto free_hd;
	hd->root = blkg_to_hcfqg(q->root_blkg);

	/* one dispatcher for the whole queue: fairness is per device */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
	/* hcfq bounds writeback itself: see Documentation/block/hcfq-iosched.rst */
	set_bit(ELEVATOR_FLAG_DISABLE_WBT, &eq->flags);
	wbt_disable_default(q->disk);
	return 0;

free_hd:
	q->elevator = NULL;
	kfree(hd);
put_eq:
	kobject_put(&eq->kobj);
	return ret;
}

/**
 * hcfq_exit_sched - the elevator's exit_sched op
 * @e: the elevator queue being torn down
 *
 * Expires the active queue, deactivates the blkcg policy (which offlines
 * every group and so drops the async queues) and re-enables wbt.
 *
 * Context: the queue is frozen and empty; may sleep.
 */
static void hcfq_exit_sched(struct elevator_queue *e)
{
	struct hcfq_data *hd = e->elevator_data;

	hrtimer_cancel(&hd->idle_timer);
	spin_lock_irq(&hd->lock);
	if (hd->active) {
		hcfq_expire(hd, hcfq_now(hd), "exit");
		hd->idling = HCFQ_IDLE_NONE;
	}
	WARN_ON_ONCE(hd->nr_queued || !list_empty(&hd->dispatch));
	spin_unlock_irq(&hd->lock);

	/* offlines every group, which drops the async queues */
	blkcg_deactivate_policy(hd->queue->disk, &blkcg_policy_hcfq);
	hrtimer_cancel(&hd->idle_timer);

	clear_bit(ELEVATOR_FLAG_DISABLE_WBT, &e->flags);
	wbt_enable_default(hd->queue->disk);
	kfree(hd);
}

/*
 * sysfs tunables in /sys/block/<dev>/queue/iosched/, all u64 in struct
 * hcfq_data.  Times are kept in ns and shown in ms, or in us for the _us
 * variants.  Writers use WRITE_ONCE, the scheduler READ_ONCE.
 */
enum hcfq_tunable_id {
	HCFQ_T_slice_sync,
	HCFQ_T_slice_async,
	HCFQ_T_slice_idle,
	HCFQ_T_slice_idle_us,
	HCFQ_T_group_idle,
	HCFQ_T_group_idle_us,
	HCFQ_T_target_latency,
	HCFQ_T_quantum,
	HCFQ_T_low_latency,
	HCFQ_T_dirty_weight,
};

struct hcfq_tunable {
	size_t		offset;		/* in struct hcfq_data */
	u64		unit;		/* ns per unit shown */
	u64		min, max;	/* in units shown */
};

#define HCFQ_TUNABLE(field, u, lo, hi)					\
	{ .offset = offsetof(struct hcfq_data, field), .unit = (u),	\
	  .min = (lo), .max = (hi) }

static const struct hcfq_tunable hcfq_tunables[] = {
	[HCFQ_T_slice_sync]	= HCFQ_TUNABLE(slice_sync, NSEC_PER_MSEC, 1, 10000),
	[HCFQ_T_slice_async]	= HCFQ_TUNABLE(slice_async, NSEC_PER_MSEC, 1, 10000),
	[HCFQ_T_slice_idle]	= HCFQ_TUNABLE(slice_idle, NSEC_PER_MSEC, 0, 1000),
	[HCFQ_T_slice_idle_us]	= HCFQ_TUNABLE(slice_idle, NSEC_PER_USEC, 0, 1000000),
	[HCFQ_T_group_idle]	= HCFQ_TUNABLE(group_idle, NSEC_PER_MSEC, 0, 1000),
	[HCFQ_T_group_idle_us]	= HCFQ_TUNABLE(group_idle, NSEC_PER_USEC, 0, 1000000),
	[HCFQ_T_target_latency]	= HCFQ_TUNABLE(target_latency, NSEC_PER_MSEC, 1, 10000),
	[HCFQ_T_quantum]	= HCFQ_TUNABLE(quantum, 1, 1, 256),
	[HCFQ_T_low_latency]	= HCFQ_TUNABLE(low_latency, 1, 0, 1),
	[HCFQ_T_dirty_weight]	= HCFQ_TUNABLE(dirty_weight, 1, 0, 1),
};

static ssize_t hcfq_tunable_show(struct elevator_queue *e, char *page,
				 enum hcfq_tunable_id id)
{
	const struct hcfq_tunable *t = &hcfq_tunables[id];
	u64 *var = (void *)e->elevator_data + t->offset;

	return sysfs_emit(page, "%llu\n", div64_u64(READ_ONCE(*var), t->unit));
}

static ssize_t hcfq_tunable_store(struct elevator_queue *e, const char *page,
				  size_t count, enum hcfq_tunable_id id)
{
	const struct hcfq_tunable *t = &hcfq_tunables[id];
	u64 *var = (void *)e->elevator_data + t->offset;
	u64 v;
	int ret = kstrtou64(page, 10, &v);

	if (ret)
		return ret;
	if (v < t->min || v > t->max)
		return -ERANGE;
	WRITE_ONCE(*var, v * t->unit);
	if (id == HCFQ_T_slice_sync || id == HCFQ_T_slice_async)
		hcfq_set_async_weights(e->elevator_data);
	return count;
}

#define HCFQ_ATTR(name)							\
static ssize_t hcfq_##name##_show(struct elevator_queue *e, char *page) \
{									\
	return hcfq_tunable_show(e, page, HCFQ_T_##name);		\
}									\
static ssize_t hcfq_##name##_store(struct elevator_queue *e,		\
				   const char *page, size_t count)	\
{									\
	return hcfq_tunable_store(e, page, count, HCFQ_T_##name);	\
}

HCFQ_ATTR(slice_sync);
HCFQ_ATTR(slice_async);
HCFQ_ATTR(slice_idle);
HCFQ_ATTR(slice_idle_us);
HCFQ_ATTR(group_idle);
HCFQ_ATTR(group_idle_us);
HCFQ_ATTR(target_latency);
HCFQ_ATTR(quantum);
HCFQ_ATTR(low_latency);
HCFQ_ATTR(dirty_weight);

#define HCFQ_FS_ENTRY(name) \
	__ATTR(name, 0644, hcfq_##name##_show, hcfq_##name##_store)

static struct elv_fs_entry hcfq_attrs[] = {
	HCFQ_FS_ENTRY(slice_sync),
	HCFQ_FS_ENTRY(slice_async),
	HCFQ_FS_ENTRY(slice_idle),
	HCFQ_FS_ENTRY(slice_idle_us),
	HCFQ_FS_ENTRY(group_idle),
	HCFQ_FS_ENTRY(group_idle_us),
	HCFQ_FS_ENTRY(target_latency),
	HCFQ_FS_ENTRY(quantum),
	HCFQ_FS_ENTRY(low_latency),
	HCFQ_FS_ENTRY(dirty_weight),
	__ATTR_NULL
};

#ifdef CONFIG_BLK_DEBUG_FS
/*
 * debugfs, block/<disk>/sched/: the state machine as it is now, read
 * under hd->lock.  "active" is the queue being served, "idling" what the
 * disk waits for, "busy" the counts that decide whether it waits.
 */
static const char *const hcfq_class_names[] = {
	[IOPRIO_CLASS_NONE]	= "none",
	[IOPRIO_CLASS_RT]	= "rt",
	[IOPRIO_CLASS_BE]	= "be",
	[IOPRIO_CLASS_IDLE]	= "idle",
};

static int hcfq_active_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct hcfq_data *hd = q->elevator->elevator_data;
	struct hcfq_queue *hq;
	unsigned int class;
	u64 now;

	spin_lock_irq(&hd->lock);
	/* after the lock: a slice that starts meanwhile must not be ahead */
	now = ktime_get_ns();
	hq = hd->active;
	if (!hq) {
		seq_puts(m, "none\n");
		goto out;
	}
	class = IOPRIO_PRIO_CLASS(hq->ioprio);
	seq_printf(m, "pid %d %s cgroup %llu class %s/%u queued %u in_driver %u dispatched %u used_us %llu left_us %lld\n",
		   hq->pid, hq->sync ? "sync" : "async",
		   cgroup_id(hcfqg_to_blkg(hq->group)->blkcg->css.cgroup),
		   class < ARRAY_SIZE(hcfq_class_names) &&
		   hcfq_class_names[class] ? hcfq_class_names[class] : "?",
		   (unsigned int)IOPRIO_PRIO_LEVEL(hq->ioprio), hq->nr_queued,
		   hq->nr_dispatched, hq->slice_dispatched,
		   div_u64(now - hq->slice_start, NSEC_PER_USEC),
		   div_s64((s64)(hq->slice_end - now), NSEC_PER_USEC));
out:
	spin_unlock_irq(&hd->lock);
	return 0;
}

static int hcfq_idling_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct hcfq_data *hd = q->elevator->elevator_data;

	spin_lock_irq(&hd->lock);
	seq_printf(m, "%s\n", hd->idling < ARRAY_SIZE(hcfq_idle_names) ?
		   hcfq_idle_names[hd->idling] : "?");
	spin_unlock_irq(&hd->lock);
	return 0;
}

static int hcfq_busy_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct hcfq_data *hd = q->elevator->elevator_data;

	spin_lock_irq(&hd->lock);
	seq_printf(m, "queues %u queued %u in_driver %u dispatch_list %zu withheld %d\n",
		   hd->nr_busy, hd->nr_queued, hd->nr_driver,
		   list_count_nodes(&hd->dispatch), hd->withheld);
	spin_unlock_irq(&hd->lock);
	return 0;
}

static const struct blk_mq_debugfs_attr hcfq_queue_debugfs_attrs[] = {
	{"active", 0400, hcfq_active_show},
	{"idling", 0400, hcfq_idling_show},
	{"busy", 0400, hcfq_busy_show},
	{},
};
#endif

static struct elevator_type hcfq_mq = {
	.ops = {
		.depth_updated		= hcfq_depth_updated,
		.limit_depth		= hcfq_limit_depth,
		.init_hctx		= hcfq_init_hctx,
		.exit_hctx		= hcfq_exit_hctx,
		.insert_requests	= hcfq_insert_requests,
		.dispatch_request	= hcfq_dispatch_request,
		.prepare_request	= hcfq_prepare_request,
		.finish_request		= hcfq_finish_request,
		.requeue_request	= hcfq_requeue_request,
		.allow_merge		= hcfq_allow_merge,
		.bio_merge		= hcfq_bio_merge,
		.request_merged		= hcfq_request_merged,
		.requests_merged	= hcfq_requests_merged,
		.has_work		= hcfq_has_work,
		.exit_icq		= hcfq_exit_icq,
		.init_sched		= hcfq_init_sched,
		.exit_sched		= hcfq_exit_sched,
	},
#ifdef CONFIG_BLK_DEBUG_FS
	.queue_debugfs_attrs = hcfq_queue_debugfs_attrs,
#endif
	.icq_size	= sizeof(struct hcfq_io_cq),
	.icq_align	= __alignof__(struct hcfq_io_cq),
	.elevator_attrs	= hcfq_attrs,
	.elevator_name	= "hcfq",
	.elevator_owner	= THIS_MODULE,
	.min_nr_requests = HCFQ_MIN_NR_REQUESTS,
};
MODULE_ALIAS("hcfq-iosched");

static int __init hcfq_init(void)
{
	int ret;

	hcfq_queue_pool = KMEM_CACHE(hcfq_queue, 0);
	if (!hcfq_queue_pool)
		return -ENOMEM;
	ret = hcfq_cgroup_register();
	if (ret)
		goto free_pool;
	ret = elv_register(&hcfq_mq);
	if (ret)
		goto unregister_pol;
	return 0;

unregister_pol:
	hcfq_cgroup_unregister();
free_pool:
	kmem_cache_destroy(hcfq_queue_pool);
	return ret;
}

static void __exit hcfq_exit(void)
{
	elv_unregister(&hcfq_mq);
	hcfq_cgroup_unregister();
	kmem_cache_destroy(hcfq_queue_pool);
}

module_init(hcfq_init);
module_exit(hcfq_exit);

MODULE_AUTHOR("hcfq developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Hierarchical CFQ-style proportional I/O scheduler");

#if IS_ENABLED(CONFIG_HCFQ_KUNIT_TEST)
#include "hcfq-test.c"
#endif

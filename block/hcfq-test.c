// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for hcfq's pure logic: weights by I/O priority, vtime
 * charging, service-tree ordering and placement, hierarchical shares,
 * slice scaling, FIFO order with REQ_PRIO, the admission share of the
 * scheduler tags, the device time a holding queue pays, hcfq's clock
 * and the preemption rules.  Included from hcfq-iosched.c so that the static
 * helpers can be tested as they are.
 */
#include <kunit/test.h>

static void hcfq_test_prio_weight(struct kunit *test)
{
	int level;

	KUNIT_EXPECT_EQ(test, hcfq_prio_weight(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)), 100U);
	KUNIT_EXPECT_EQ(test, hcfq_prio_weight(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0)), 180U);
	KUNIT_EXPECT_EQ(test, hcfq_prio_weight(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7)), 40U);
	KUNIT_EXPECT_EQ(test, hcfq_prio_weight(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 0)), 1440U);
	for (level = 1; level < IOPRIO_NR_LEVELS; level++) {
		u16 be = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, level);
		u16 be_up = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, level - 1);
		u16 rt = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, level);

		KUNIT_EXPECT_GT(test, hcfq_prio_weight(be_up),
				hcfq_prio_weight(be));
		KUNIT_EXPECT_GT(test, hcfq_prio_weight(rt),
				hcfq_prio_weight(IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0)));
	}
}

static void hcfq_test_vtime_delta(struct kunit *test)
{
	u64 ms = NSEC_PER_MSEC;

	KUNIT_EXPECT_EQ(test, hcfq_vtime_delta(ms, 100),
			2 * hcfq_vtime_delta(ms, 200));
	KUNIT_EXPECT_EQ(test, hcfq_vtime_delta(ms, 100),
			10 * hcfq_vtime_delta(ms, 1000));
	KUNIT_EXPECT_EQ(test, hcfq_vtime_delta(ms, 1),
			(ms << HCFQ_VT_SHIFT));
	/* weight 0 must not divide by zero */
	KUNIT_EXPECT_EQ(test, hcfq_vtime_delta(ms, 0), hcfq_vtime_delta(ms, 1));
	/* a microsecond at the largest weight still moves vtime */
	KUNIT_EXPECT_GT(test, hcfq_vtime_delta(NSEC_PER_USEC, CGROUP_WEIGHT_MAX),
			0ULL);
}

static void hcfq_test_entity_init(struct hcfq_entity *e, unsigned int w,
				  struct hcfq_entity *parent)
{
	memset(e, 0, sizeof(*e));
	RB_CLEAR_NODE(&e->rb);
	e->weight = w;
	e->parent = parent;
}

static void hcfq_test_tree_order(struct kunit *test)
{
	struct hcfq_sched_data sd;
	struct hcfq_entity e[3];

	hcfq_sd_init(&sd);
	hcfq_test_entity_init(&e[0], 100, NULL);
	hcfq_test_entity_init(&e[1], 100, NULL);
	hcfq_test_entity_init(&e[2], 100, NULL);
	e[0].vtime = 30;
	e[1].vtime = 10;
	e[2].vtime = 20;
	/* enough credit that the floor does not move anyone */
	hcfq_entity_enqueue(&sd, &e[0], 100);
	hcfq_entity_enqueue(&sd, &e[1], 100);
	hcfq_entity_enqueue(&sd, &e[2], 100);
	KUNIT_EXPECT_EQ(test, e[1].vtime, 10ULL);
	KUNIT_EXPECT_EQ(test, sd.nr, 3U);
	KUNIT_EXPECT_EQ(test, sd.weight_sum, 300U);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &e[1]);

	/* charging the first moves it behind the others */
	hcfq_entity_charge(&e[1], 1, 100);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &e[2]);
	/* weight changes on charge are reflected in the sum */
	hcfq_entity_charge(&e[2], 0, 300);
	KUNIT_EXPECT_EQ(test, sd.weight_sum, 500U);

	hcfq_entity_dequeue(&e[2]);
	KUNIT_EXPECT_EQ(test, sd.nr, 2U);
	KUNIT_EXPECT_EQ(test, sd.weight_sum, 200U);
	KUNIT_EXPECT_FALSE(test, e[2].on_tree);
}

static void hcfq_test_placement(struct kunit *test)
{
	struct hcfq_sched_data sd;
	struct hcfq_entity busy, back, ahead;

	hcfq_sd_init(&sd);
	hcfq_test_entity_init(&busy, 100, NULL);
	busy.vtime = 100000;
	hcfq_entity_enqueue(&sd, &busy, 0);
	KUNIT_EXPECT_EQ(test, sd.min_vtime, 100000ULL);

	/* an entity that was away long keeps at most @credit of credit */
	hcfq_test_entity_init(&back, 100, NULL);
	back.vtime = 5;
	hcfq_entity_enqueue(&sd, &back, 1000);
	KUNIT_EXPECT_EQ(test, back.vtime, 99000ULL);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &back);

	/* one that is ahead keeps its vtime: no gain from leaving */
	hcfq_test_entity_init(&ahead, 100, NULL);
	ahead.vtime = 200000;
	hcfq_entity_enqueue(&sd, &ahead, 1000);
	KUNIT_EXPECT_EQ(test, ahead.vtime, 200000ULL);

	/* min_vtime never goes backwards */
	hcfq_entity_dequeue(&busy);
	hcfq_entity_dequeue(&back);
	KUNIT_EXPECT_EQ(test, sd.min_vtime, 200000ULL);
}

/*
 * Vtimes wrap.  A charge puts the entity back where its vtime says, which
 * must keep a vtime past 2^63 (it once reset it to 0), and the floor of a
 * tree whose min_vtime passed 2^64 still orders by signed difference.
 */
static void hcfq_test_vtime_wrap(struct kunit *test)
{
	struct hcfq_sched_data sd;
	struct hcfq_entity a, b, c;
	u64 big = (1ULL << 63) + 1000;

	hcfq_sd_init(&sd);
	hcfq_test_entity_init(&a, 100, NULL);
	a.vtime = big;
	sd.min_vtime = big;
	hcfq_entity_enqueue(&sd, &a, 100);
	KUNIT_EXPECT_EQ(test, a.vtime, big);
	hcfq_entity_charge(&a, 1, 100);
	KUNIT_EXPECT_EQ(test, a.vtime, big + hcfq_vtime_delta(1, 100));
	hcfq_entity_dequeue(&a);

	/* around 2^64: b just below it, c just past it (wrapped) */
	hcfq_sd_init(&sd);
	hcfq_test_entity_init(&b, 100, NULL);
	hcfq_test_entity_init(&c, 100, NULL);
	b.vtime = U64_MAX - 10;
	sd.min_vtime = b.vtime;
	hcfq_entity_enqueue(&sd, &b, 100);
	c.vtime = 5;
	hcfq_entity_enqueue(&sd, &c, 100);
	KUNIT_EXPECT_EQ(test, c.vtime, 5ULL);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &b);
	/* one far behind is lifted to min_vtime - credit, across the wrap */
	hcfq_entity_dequeue(&c);
	c.vtime = U64_MAX - 100000;
	hcfq_entity_enqueue(&sd, &c, 100);
	KUNIT_EXPECT_EQ(test, c.vtime, U64_MAX - 110);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &c);
	hcfq_entity_dequeue(&b);
	hcfq_entity_dequeue(&c);
}

/*
 * Charging the first entity re-sorts it in place: min_vtime stays the
 * least vtime, and does not jump to the runner-up's while it is out.
 */
static void hcfq_test_charge_min(struct kunit *test)
{
	struct hcfq_sched_data sd;
	struct hcfq_entity a, b;

	hcfq_sd_init(&sd);
	hcfq_test_entity_init(&a, 100, NULL);
	hcfq_test_entity_init(&b, 100, NULL);
	b.vtime = 1000000;
	hcfq_entity_enqueue(&sd, &a, 0);
	hcfq_entity_enqueue(&sd, &b, 0);
	KUNIT_EXPECT_EQ(test, sd.min_vtime, 0ULL);
	/* still the first: the floor is its vtime */
	hcfq_entity_charge(&a, 1000, 100);
	KUNIT_EXPECT_EQ(test, sd.min_vtime, a.vtime);
	KUNIT_EXPECT_TRUE(test, a.on_tree);
	KUNIT_EXPECT_EQ(test, sd.nr, 2U);
	KUNIT_EXPECT_EQ(test, sd.weight_sum, 200U);
	/* charged past b: b is first, and the floor follows it */
	hcfq_entity_charge(&a, 1000000, 100);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &b);
	KUNIT_EXPECT_EQ(test, sd.min_vtime, b.vtime);
	hcfq_entity_dequeue(&a);
	hcfq_entity_dequeue(&b);
}

/*
 * A queue that gets a request while the device is still completing its
 * earlier ones was not idle: it and the levels it brings back keep up to
 * four slices instead of one; never more, however far the tree went on
 * without it, and across the wrap of vtime.
 */
static void hcfq_test_busy_credit(struct kunit *test)
{
	u16 be4 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4);
	u16 idle = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0);
	struct hcfq_data hd = { .slice_sync = HCFQ_SLICE_SYNC };
	struct hcfq_queue hq = { .sync = true, .ioprio = be4 };
	struct hcfq_sched_data sd;
	struct hcfq_entity other, e;
	u64 now = 10ULL * NSEC_PER_SEC, c, busy;
	int i;

	/* busy: requests in the driver, and one completed within a slice */
	hq.last_end_ns = now - NSEC_PER_MSEC;
	KUNIT_EXPECT_FALSE(test, hcfq_queue_busy(&hd, &hq, now));
	hq.nr_dispatched = 3;
	KUNIT_EXPECT_TRUE(test, hcfq_queue_busy(&hd, &hq, now));
	/* a request stuck in the driver, or none completed yet: idle */
	hq.last_end_ns = now - 2 * HCFQ_SLICE_SYNC;
	KUNIT_EXPECT_FALSE(test, hcfq_queue_busy(&hd, &hq, now));
	hq.last_end_ns = 0;
	KUNIT_EXPECT_FALSE(test, hcfq_queue_busy(&hd, &hq, now));
	hq.last_end_ns = now - NSEC_PER_MSEC;
	/* not writeback, nor the IDLE class */
	hq.sync = false;
	KUNIT_EXPECT_FALSE(test, hcfq_queue_busy(&hd, &hq, now));
	hq.sync = true;
	hq.ioprio = idle;
	KUNIT_EXPECT_FALSE(test, hcfq_queue_busy(&hd, &hq, now));

	hcfq_sd_init(&sd);
	hcfq_test_entity_init(&other, 100, NULL);
	hcfq_test_entity_init(&e, 600, NULL);
	c = hcfq_credit(&hd, &e, false);
	busy = hcfq_credit(&hd, &e, true);
	KUNIT_EXPECT_EQ(test, busy, c << HCFQ_BUSY_CREDIT_SHIFT);

	/* the tree went on three of e's slices without it */
	hcfq_entity_enqueue(&sd, &other, 0);
	hcfq_entity_charge(&other, HCFQ_SLICE_SYNC / 2, 100);
	KUNIT_EXPECT_GT(test, sd.min_vtime, 3 * c);
	KUNIT_EXPECT_LT(test, sd.min_vtime, 4 * c);
	/* back busy, e keeps its vtime */
	hcfq_entity_enqueue(&sd, &e, busy);
	KUNIT_EXPECT_EQ(test, e.vtime, 0ULL);
	KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &e);
	hcfq_entity_dequeue(&e);
	/* back idle, one slice */
	hcfq_entity_enqueue(&sd, &e, c);
	KUNIT_EXPECT_EQ(test, e.vtime, sd.min_vtime - c);
	hcfq_entity_dequeue(&e);
	hcfq_entity_dequeue(&other);

	/* far behind, again and again, across 2^64: four slices each time */
	hcfq_sd_init(&sd);
	other.vtime = U64_MAX - 50 * c;
	sd.min_vtime = other.vtime;
	e.vtime = other.vtime - 100 * c;
	hcfq_entity_enqueue(&sd, &other, 0);
	for (i = 0; i < 100; i++) {
		hcfq_entity_charge(&other, 2 * HCFQ_SLICE_SYNC, 100);
		hcfq_entity_enqueue(&sd, &e, busy);
		KUNIT_EXPECT_EQ(test, sd.min_vtime - e.vtime, busy);
		KUNIT_EXPECT_PTR_EQ(test, hcfq_first(&sd), &e);
		hcfq_entity_charge(&e, NSEC_PER_MSEC, 600);
		hcfq_entity_dequeue(&e);
	}
	KUNIT_EXPECT_LT(test, other.vtime, U64_MAX / 2);
	hcfq_entity_dequeue(&other);
}

/* Serve @n slices of 1 ms on a one-level tree and count each entity's. */
static void hcfq_test_flat_shares(struct kunit *test)
{
	static const unsigned int w[] = { 100, 300, 600 };
	struct hcfq_sched_data sd;
	struct hcfq_entity e[3];
	unsigned int served[3] = { };
	int i, n = 10000;

	hcfq_sd_init(&sd);
	for (i = 0; i < 3; i++) {
		hcfq_test_entity_init(&e[i], w[i], NULL);
		hcfq_entity_enqueue(&sd, &e[i], 0);
	}
	while (n--) {
		struct hcfq_entity *first = hcfq_first(&sd);

		served[first - e]++;
		hcfq_entity_charge(first, NSEC_PER_MSEC, first->weight);
	}
	/* each within 0.1 % of its weight share */
	KUNIT_EXPECT_LE(test, abs((int)served[0] - 1000), 10);
	KUNIT_EXPECT_LE(test, abs((int)served[1] - 3000), 10);
	KUNIT_EXPECT_LE(test, abs((int)served[2] - 6000), 10);
}

/*
 * A(200){A1(100), A2(300)} and B(100): leaf shares 1/6, 1/2 and 1/3,
 * both from hcfq_hweight_ppm() and from serving the tree.
 */
static void hcfq_test_hierarchy(struct kunit *test)
{
	struct hcfq_sched_data top, a_children;
	struct hcfq_entity a, b, a1, a2;
	struct hcfq_entity *leaves[] = { &a1, &a2, &b };
	unsigned int served[3] = { };
	int i, n = 12000;

	hcfq_sd_init(&top);
	hcfq_sd_init(&a_children);
	hcfq_test_entity_init(&a, 200, NULL);
	hcfq_test_entity_init(&b, 100, NULL);
	hcfq_test_entity_init(&a1, 100, &a);
	hcfq_test_entity_init(&a2, 300, &a);
	hcfq_entity_enqueue(&top, &a, 0);
	hcfq_entity_enqueue(&top, &b, 0);
	hcfq_entity_enqueue(&a_children, &a1, 0);
	hcfq_entity_enqueue(&a_children, &a2, 0);

	KUNIT_EXPECT_EQ(test, hcfq_hweight_ppm(&a1), 166666U);
	KUNIT_EXPECT_EQ(test, hcfq_hweight_ppm(&a2), 500000U);
	KUNIT_EXPECT_EQ(test, hcfq_hweight_ppm(&b), 333333U);

	while (n--) {
		struct hcfq_entity *e = hcfq_first(&top);

		if (e == &a)
			e = hcfq_first(&a_children);
		for (i = 0; i < 3; i++)
			if (leaves[i] == e)
				served[i]++;
		for (; e; e = e->parent)
			hcfq_entity_charge(e, NSEC_PER_MSEC, e->weight);
	}
	KUNIT_EXPECT_LE(test, abs((int)served[0] - 2000), 12);
	KUNIT_EXPECT_LE(test, abs((int)served[1] - 6000), 12);
	KUNIT_EXPECT_LE(test, abs((int)served[2] - 4000), 12);

	/* an idle sibling's share goes to the others */
	hcfq_entity_dequeue(&b);
	KUNIT_EXPECT_EQ(test, hcfq_hweight_ppm(&a2), 750000U);
	KUNIT_EXPECT_EQ(test, hcfq_hweight_ppm(&b), 0U);
}

static void hcfq_test_async_weight(struct kunit *test)
{
	u64 sync = HCFQ_SLICE_SYNC, async = HCFQ_SLICE_ASYNC;

	/* 40 ms of 100: 40, and 16 beside the group's sync queues */
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(async, sync, false), 40U);
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(async, sync, true), 16U);
	/* equal slices weigh as BE4 either way */
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(sync, sync, true), 100U);
	/* never 0, never more than the cap, even at the tunables' ends */
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(NSEC_PER_MSEC,
						10000 * NSEC_PER_MSEC, true),
			1U);
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(10000 * NSEC_PER_MSEC,
						NSEC_PER_MSEC, true),
			(unsigned int)HCFQ_MAX_ASYNC_WEIGHT);
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(async, 0, false),
			(unsigned int)HCFQ_MAX_ASYNC_WEIGHT);
	KUNIT_EXPECT_EQ(test, hcfq_async_weight(10000 * NSEC_PER_MSEC, 0,
						true),
			(unsigned int)HCFQ_MAX_ASYNC_WEIGHT);
}

/* Is anyone beside a group's async queue on the group's tree? */
static void hcfq_test_async_beside_sync(struct kunit *test)
{
	struct hcfq_queue aq = {}, rq = {};
	struct hcfq_group *hg;

	hg = kunit_kzalloc(test, sizeof(*hg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hg);
	hcfq_sd_init(&hg->queues);
	aq.group = hg;
	hcfq_test_entity_init(&aq.entity, 40, NULL);
	hcfq_test_entity_init(&rq.entity, 180, NULL);

	/* alone, on the tree or off it: no */
	KUNIT_EXPECT_FALSE(test, hcfq_async_beside_sync(&aq));
	hcfq_entity_add(&hg->queues, &aq.entity);
	KUNIT_EXPECT_FALSE(test, hcfq_async_beside_sync(&aq));
	/* with a reader on the tree: yes, while on it and once taken off */
	hcfq_entity_add(&hg->queues, &rq.entity);
	KUNIT_EXPECT_TRUE(test, hcfq_async_beside_sync(&aq));
	hcfq_entity_dequeue(&aq.entity);
	KUNIT_EXPECT_TRUE(test, hcfq_async_beside_sync(&aq));
	/* the reader gone too: no */
	hcfq_entity_dequeue(&rq.entity);
	KUNIT_EXPECT_FALSE(test, hcfq_async_beside_sync(&aq));
}

/* Writeback's weight follows its group's readers as they come and go. */
static void hcfq_test_async_reweight(struct kunit *test)
{
	struct hcfq_queue aq = {}, rq = {};
	struct hcfq_data *hd;
	struct hcfq_group *hg;

	hd = kunit_kzalloc(test, sizeof(*hd), GFP_KERNEL);
	hg = kunit_kzalloc(test, sizeof(*hg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hd);
	KUNIT_ASSERT_NOT_NULL(test, hg);
	spin_lock_init(&hd->lock);
	hd->async_weight[0] = 40;
	hd->async_weight[1] = 16;
	hcfq_sd_init(&hg->queues);
	hg->async_queue = &aq;
	aq.group = hg;
	hcfq_test_entity_init(&aq.entity, 40, NULL);
	hcfq_test_entity_init(&rq.entity, 180, NULL);
	aq.entity.vtime = 5000;

	spin_lock_irq(&hd->lock);
	hcfq_entity_add(&hg->queues, &aq.entity);
	/* a reader joins: 16 at once, in place, and in the tree's sum */
	hcfq_entity_add(&hg->queues, &rq.entity);
	hcfq_async_reweight(hd, hg);
	KUNIT_EXPECT_EQ(test, aq.entity.weight, 16U);
	KUNIT_EXPECT_EQ(test, hg->queues.weight_sum, 196U);
	KUNIT_EXPECT_EQ(test, aq.entity.vtime, 5000ULL);
	/* it leaves: 40 again */
	hcfq_entity_dequeue(&rq.entity);
	hcfq_async_reweight(hd, hg);
	KUNIT_EXPECT_EQ(test, aq.entity.weight, 40U);
	KUNIT_EXPECT_EQ(test, hg->queues.weight_sum, 40U);
	/* off the tree: the weight only, the emptied tree's floor stays */
	hcfq_entity_dequeue(&aq.entity);
	hg->queues.min_vtime = 1000;
	hcfq_entity_add(&hg->queues, &rq.entity);
	hcfq_async_reweight(hd, hg);
	KUNIT_EXPECT_EQ(test, aq.entity.weight, 16U);
	hcfq_entity_dequeue(&rq.entity);
	hcfq_async_reweight(hd, hg);
	KUNIT_EXPECT_EQ(test, aq.entity.weight, 40U);
	KUNIT_EXPECT_EQ(test, hg->queues.weight_sum, 0U);
	KUNIT_EXPECT_EQ(test, hg->queues.min_vtime, 1000ULL);
	spin_unlock_irq(&hd->lock);
}

/* A group's writeback is not a reader's peer, whatever its weight. */
static void hcfq_test_peers_busy(struct kunit *test)
{
	struct hcfq_queue aq = {}, r1 = {}, r2 = {}, r3 = {};
	struct hcfq_group *hg;

	hg = kunit_kzalloc(test, sizeof(*hg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hg);
	hcfq_sd_init(&hg->queues);
	hg->async_queue = &aq;
	hcfq_test_entity_init(&aq.entity, 100, NULL);
	hcfq_test_entity_init(&r1.entity, 100, NULL);
	hcfq_test_entity_init(&r2.entity, 100, NULL);
	hcfq_test_entity_init(&r3.entity, 40, NULL);

	/* a reader and writeback of the reader's weight: no peer */
	hcfq_entity_add(&hg->queues, &r1.entity);
	hcfq_entity_add(&hg->queues, &aq.entity);
	KUNIT_EXPECT_FALSE(test, hcfq_peers_busy(hg, &r1));
	/* a second reader of the same weight: a peer, beside writeback too */
	hcfq_entity_add(&hg->queues, &r2.entity);
	KUNIT_EXPECT_TRUE(test, hcfq_peers_busy(hg, &r1));
	hcfq_entity_dequeue(&aq.entity);
	KUNIT_EXPECT_TRUE(test, hcfq_peers_busy(hg, &r1));
	/* writeback of another weight changes nothing either */
	aq.entity.weight = 16;
	hcfq_entity_add(&hg->queues, &aq.entity);
	KUNIT_EXPECT_TRUE(test, hcfq_peers_busy(hg, &r1));
	/* a reader of another priority: not all peers are equal */
	hcfq_entity_add(&hg->queues, &r3.entity);
	KUNIT_EXPECT_FALSE(test, hcfq_peers_busy(hg, &r1));
}

static void hcfq_test_slices(struct kunit *test)
{
	u64 base = HCFQ_SLICE_SYNC;

	KUNIT_EXPECT_EQ(test, hcfq_scale_slice(base, 100), base);
	KUNIT_EXPECT_EQ(test, hcfq_scale_slice(base, 180), 180 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, hcfq_scale_slice(base, 40), 40 * NSEC_PER_MSEC);

	/* alone, or off the trees: the full slice */
	KUNIT_EXPECT_EQ(test, hcfq_latency_slice(base, HCFQ_TARGET_LATENCY,
						 1000000), base);
	KUNIT_EXPECT_EQ(test, hcfq_latency_slice(base, HCFQ_TARGET_LATENCY,
						 0), base);
	/* a tenth of the disk gets a tenth of a 300 ms round: 30 ms */
	KUNIT_EXPECT_EQ(test, hcfq_latency_slice(base, HCFQ_TARGET_LATENCY,
						 100000), 30 * NSEC_PER_MSEC);
	/* never below a tenth of the slice (one of 1000 equal groups) */
	KUNIT_EXPECT_EQ(test, hcfq_latency_slice(base, HCFQ_TARGET_LATENCY,
						 1000), base / 10);
	/* never above the slice */
	KUNIT_EXPECT_EQ(test, hcfq_latency_slice(base, HCFQ_TARGET_LATENCY,
						 500000), base);

	/* the tags the groups share: all but the reserve (an eighth) */
	KUNIT_EXPECT_EQ(test, hcfq_shared_tags(128), 112U);
	KUNIT_EXPECT_EQ(test, hcfq_shared_tags(4), 3U);
	KUNIT_EXPECT_EQ(test, hcfq_shared_tags(1), 0U);
}

/* REQ_PRIO requests go ahead of the others, each kind in arrival order */
static void hcfq_test_fifo_prio(struct kunit *test)
{
	static const blk_opf_t flags[] = {
		REQ_OP_READ, REQ_OP_READ, REQ_OP_READ | REQ_META | REQ_PRIO,
		REQ_OP_READ, REQ_OP_READ | REQ_PRIO,
	};
	/* expected FIFO: the two REQ_PRIO requests, then the rest */
	static const int order[] = { 2, 4, 0, 1, 3 };
	struct request *rqs, *rq;
	struct hcfq_data hd = { };
	struct hcfq_queue hq = { .hd = &hd };
	int i;

	rqs = kunit_kcalloc(test, ARRAY_SIZE(flags), sizeof(*rqs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rqs);
	spin_lock_init(&hd.lock);
	INIT_LIST_HEAD(&hq.fifo);
	spin_lock_irq(&hd.lock);
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		rqs[i].cmd_flags = flags[i];
		hcfq_fifo_add(&hq, &rqs[i]);
	}
	spin_unlock_irq(&hd.lock);

	i = 0;
	list_for_each_entry(rq, &hq.fifo, queuelist) {
		KUNIT_ASSERT_LT(test, i, (int)ARRAY_SIZE(order));
		KUNIT_EXPECT_PTR_EQ(test, rq, &rqs[order[i]]);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, (int)ARRAY_SIZE(order));
}

/* A group's share of the scheduler tags, at one level of the hierarchy */
static void hcfq_test_share_depth(struct kunit *test)
{
	/* busy: the weight is in the sum already */
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(112, 600, 1000, true), 68U);
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(112, 100, 1000, true), 12U);
	/* not busy: as if it joined the busy ones */
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(112, 600, 400, false), 68U);
	/* alone, or nothing else busy: every tag */
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(112, 100, 100, true), 112U);
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(112, 100, 0, false), 112U);
	/* a tiny share still gets one tag, and rounding never gives none */
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(3, 1, 10000, true), 1U);
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(1, 1, 2, true), 1U);
	/* no overflow at the largest depth and weights */
	KUNIT_EXPECT_EQ(test, hcfq_share_depth(2048, 10000, 20000, true), 1024U);
}

/* Device time the active queue pays while the device is empty */
static void hcfq_test_charge_hold(struct kunit *test)
{
	struct hcfq_data hd = {};
	struct hcfq_queue hq = {};

	spin_lock_init(&hd.lock);
	spin_lock_irq(&hd.lock);
	/* held empty since its slice began, not since an older mark */
	hq.slice_start = 1000;
	hd.busy_mark = 500;
	hcfq_charge_hold(&hd, &hq, 3000);
	KUNIT_EXPECT_EQ(test, hq.slice_charge, 2000ULL);
	KUNIT_EXPECT_EQ(test, hd.busy_mark, 3000ULL);
	/* held again from the last completion on */
	hd.busy_mark = 4000;
	hcfq_charge_hold(&hd, &hq, 4500);
	KUNIT_EXPECT_EQ(test, hq.slice_charge, 2500ULL);
	/* a busy device is paid for by its completions, not here */
	hd.nr_driver = 1;
	hcfq_charge_hold(&hd, &hq, 6000);
	KUNIT_EXPECT_EQ(test, hq.slice_charge, 2500ULL);
	KUNIT_EXPECT_EQ(test, hd.busy_mark, 4500ULL);
	/* a slice start after now (shifted over a dry wait) charges nothing */
	hd.nr_driver = 0;
	hq.slice_start = 7000;
	hcfq_charge_hold(&hd, &hq, 6500);
	KUNIT_EXPECT_EQ(test, hq.slice_charge, 2500ULL);
	spin_unlock_irq(&hd.lock);
}

/* hcfq's clock never goes back, not even to a plug's cached time */
static void hcfq_test_now(struct kunit *test)
{
	struct hcfq_data hd = {};
	struct blk_plug plug;
	u64 t, ahead;

	spin_lock_init(&hd.lock);
	blk_start_plug(&plug);
	spin_lock_irq(&hd.lock);
	t = hcfq_now(&hd);
	KUNIT_EXPECT_GE(test, hcfq_now(&hd), t);
	/* a time far ahead, as if another CPU had stamped it */
	ahead = t + 1000 * NSEC_PER_SEC;
	hd.clock = ahead;
	KUNIT_EXPECT_EQ(test, hcfq_now(&hd), ahead);
	KUNIT_EXPECT_EQ(test, hd.clock, ahead);
	spin_unlock_irq(&hd.lock);
	blk_finish_plug(&plug);

	/* outside a plug too */
	spin_lock_irq(&hd.lock);
	KUNIT_EXPECT_EQ(test, hcfq_now(&hd), ahead);
	hd.clock = t;
	KUNIT_EXPECT_GE(test, hcfq_now(&hd), t);
	spin_unlock_irq(&hd.lock);
}

/* the reason hcfq_should_preempt() gives for a request @opf, "-" for none */
static const char *hcfq_test_why_opf(struct hcfq_data *hd,
				     struct hcfq_queue *hq, blk_opf_t opf,
				     u64 now)
{
	return hcfq_should_preempt(hd, hq, opf, now) ?: "-";
}

/* the same for a read */
static const char *hcfq_test_why(struct hcfq_data *hd, struct hcfq_queue *hq,
				 u64 now)
{
	return hcfq_test_why_opf(hd, hq, REQ_OP_READ, now);
}

/*
 * The exceptions that both group-crossing rules share, for a request
 * @opf of @hq that the rule would otherwise let preempt @act for @why:
 * not when @below (the lower of the two groups) is not under @above,
 * not for the IDLE class, and not from BE into an RT queue's time,
 * while RT into RT preempts.  Leaves both queues BE4 and @below under
 * @above.
 */
static void hcfq_test_exceptions(struct kunit *test, struct hcfq_data *hd,
				 struct hcfq_queue *act, struct hcfq_queue *hq,
				 struct hcfq_group *below,
				 struct hcfq_group *above, blk_opf_t opf,
				 u64 now, const char *why)
{
	u16 be4 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4);
	u16 rt4 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 4);

	below->parent = NULL;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(hd, hq, opf, now), "-");
	below->parent = above;
	hq->ioprio = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0);
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(hd, hq, opf, now), "-");
	hq->ioprio = be4;
	act->ioprio = rt4;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(hd, hq, opf, now), "-");
	hq->ioprio = rt4;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(hd, hq, opf, now), why);
	act->ioprio = be4;
	hq->ioprio = be4;
}

static void hcfq_test_should_preempt(struct kunit *test)
{
	u16 be4 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4);
	u16 rt4 = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 4);
	u16 idle = IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0);
	struct hcfq_group *ga, *gb;
	struct hcfq_queue act = {}, hq = {};
	struct hcfq_data hd = {};
	u64 now = 100 * NSEC_PER_MSEC;
	blk_opf_t jw, fw;

	/* the groups are only compared; off the stack, they are large */
	ga = kunit_kzalloc(test, sizeof(*ga), GFP_KERNEL);
	gb = kunit_kzalloc(test, sizeof(*gb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ga);
	KUNIT_ASSERT_NOT_NULL(test, gb);
	spin_lock_init(&hd.lock);
	spin_lock_irq(&hd.lock);
	hd.slice_async = 40 * NSEC_PER_MSEC;
	act.group = ga;
	act.ioprio = be4;
	act.sync = true;
	act.slice_start = now - NSEC_PER_MSEC;
	hq.group = ga;
	hq.ioprio = be4;
	hq.sync = true;

	/* nobody active, or the active queue itself: nothing to preempt */
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hd.active = &act;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &act, now), "-");
	/* a BE sibling waits its turn; group idling ends at its request */
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hd.idling = HCFQ_IDLE_QUEUE;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hd.idling = HCFQ_IDLE_GROUP;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "preempt");
	hd.idling = HCFQ_IDLE_NONE;
	/* RT preempts BE in its group, not RT, and not in another group */
	hq.ioprio = rt4;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "preempt");
	act.ioprio = rt4;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	act.ioprio = be4;
	hq.group = gb;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hq.ioprio = be4;

	/* a reader preempts writeback, anywhere, after an eighth of a slice */
	act.sync = false;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	act.slice_start = now - 5 * NSEC_PER_MSEC;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now),
			   "preempt async");
	hq.group = ga;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now),
			   "preempt async");
	/*
	 * in its own group at once, when it is due first (its vtime is
	 * below the writeback's), not otherwise, and not in another group
	 */
	act.slice_start = now - NSEC_PER_MSEC;
	hq.entity.sd = &ga->queues;
	act.entity.sd = &ga->queues;
	hq.entity.vtime = 10;
	act.entity.vtime = 20;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now),
			   "preempt own async");
	hq.entity.vtime = 30;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	/* vtimes compare across a wrap */
	hq.entity.vtime = U64_MAX - 5;
	act.entity.vtime = 4;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now),
			   "preempt own async");
	/* only writeback is preempted so */
	act.sync = true;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	act.sync = false;
	hq.group = gb;
	hq.entity.sd = &gb->queues;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hq.group = ga;
	hq.entity.sd = &ga->queues;
	act.slice_start = now - 5 * NSEC_PER_MSEC;
	/* but an IDLE-class reader does not, nor async I/O */
	hq.ioprio = idle;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hq.ioprio = be4;
	hq.sync = false;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	hq.sync = true;
	act.sync = true;

	/* another group's IDLE class yields to RT or BE, not to IDLE */
	act.ioprio = idle;
	hq.group = gb;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now),
			   "preempt idle class");
	hq.ioprio = idle;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	act.ioprio = be4;
	hq.ioprio = be4;

	/*
	 * a sync metadata write (jbd2's commit) of an ancestor group (gb
	 * above ga here) ends an idle window and preempts writeback at
	 * once; not a plain sync write, not a metadata read, not an
	 * IDLE-class one, not a sibling's, not a BE one into an RT queue's
	 * time, not in the active queue's own group, and not a sync queue
	 * that is still serving
	 */
	ga->parent = gb;
	jw = REQ_OP_WRITE | REQ_SYNC | REQ_META;
	act.slice_start = now - NSEC_PER_MSEC;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, jw, now), "-");
	hd.idling = HCFQ_IDLE_QUEUE;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, jw, now),
			   "preempt for the journal");
	hd.idling = HCFQ_IDLE_GROUP;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, jw, now),
			   "preempt for the journal");
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq,
						   REQ_OP_WRITE | REQ_SYNC,
						   now), "-");
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq,
						   REQ_OP_READ | REQ_META,
						   now), "-");
	hcfq_test_exceptions(test, &hd, &act, &hq, ga, gb, jw, now,
			     "preempt for the journal");
	hq.group = ga;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, jw, now),
			   "preempt");
	hq.group = gb;
	hd.idling = HCFQ_IDLE_NONE;
	act.sync = false;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, jw, now),
			   "preempt for the journal");
	/* its own group's writeback: by the rules above (not due first) */
	hq.group = ga;
	hq.entity.vtime = act.entity.vtime + 10;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, jw, now), "-");
	ga->parent = NULL;

	/*
	 * after a metadata write (any journal write), the active queue's
	 * idle window ends at a sync write without REQ_IDLE (an fsync's
	 * writeback) of its own group or one below (ga below gb here); not
	 * while it still serves, not for a read, an O_DIRECT write
	 * (REQ_IDLE) or async writeback, not for a sibling group, not for
	 * the IDLE class, not from BE into an RT queue's window, and not
	 * after a plain write
	 */
	fw = REQ_OP_WRITE | REQ_SYNC;
	ga->parent = gb;
	act.group = gb;
	act.sync = true;
	act.meta_done = true;
	hq.group = ga;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw, now), "-");
	hd.idling = HCFQ_IDLE_QUEUE;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw, now),
			   "preempt after metadata");
	hd.idling = HCFQ_IDLE_GROUP;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw, now),
			   "preempt after metadata");
	hq.group = gb;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw, now),
			   "preempt after metadata");
	hd.idling = HCFQ_IDLE_QUEUE;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw, now),
			   "preempt after metadata");
	hq.group = ga;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why(&hd, &hq, now), "-");
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw | REQ_IDLE,
						   now), "-");
	hq.sync = false;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, REQ_OP_WRITE,
						   now), "-");
	hq.sync = true;
	hcfq_test_exceptions(test, &hd, &act, &hq, ga, gb, fw, now,
			     "preempt after metadata");
	act.meta_done = false;
	KUNIT_EXPECT_STREQ(test, hcfq_test_why_opf(&hd, &hq, fw, now), "-");
	ga->parent = NULL;
	act.group = ga;
	hd.idling = HCFQ_IDLE_NONE;
	spin_unlock_irq(&hd.lock);
}

static struct kunit_case hcfq_test_cases[] = {
	KUNIT_CASE(hcfq_test_prio_weight),
	KUNIT_CASE(hcfq_test_vtime_delta),
	KUNIT_CASE(hcfq_test_tree_order),
	KUNIT_CASE(hcfq_test_placement),
	KUNIT_CASE(hcfq_test_vtime_wrap),
	KUNIT_CASE(hcfq_test_charge_min),
	KUNIT_CASE(hcfq_test_busy_credit),
	KUNIT_CASE(hcfq_test_flat_shares),
	KUNIT_CASE(hcfq_test_hierarchy),
	KUNIT_CASE(hcfq_test_async_weight),
	KUNIT_CASE(hcfq_test_async_beside_sync),
	KUNIT_CASE(hcfq_test_peers_busy),
	KUNIT_CASE(hcfq_test_async_reweight),
	KUNIT_CASE(hcfq_test_slices),
	KUNIT_CASE(hcfq_test_fifo_prio),
	KUNIT_CASE(hcfq_test_share_depth),
	KUNIT_CASE(hcfq_test_charge_hold),
	KUNIT_CASE(hcfq_test_now),
	KUNIT_CASE(hcfq_test_should_preempt),
	{}
};

static struct kunit_suite hcfq_test_suite = {
	.name = "hcfq",
	.test_cases = hcfq_test_cases,
};

kunit_test_suite(hcfq_test_suite);

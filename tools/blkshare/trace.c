// SPDX-License-Identifier: GPL-2.0
/*
 * blkshare: blktrace parser and share-of-dispatch model.
 *
 * Input
 * -----
 * blktrace writes one file per CPU, each a plain sequence of
 * struct blk_io_trace (48 bytes, see include/uapi/linux/blktrace_api.h)
 * followed by pdu_len bytes of payload.  With the blk_cgroup trace option
 * set, __blk_add_trace() and trace_note() (kernel/trace/blktrace.c) set
 * __BLK_TA_CGROUP in 'action' and put the u64 cgroup id first in the pdu,
 * in native byte order; the rest of the pdu follows it.  Messages
 * (BLK_TN_MESSAGE, blk_add_trace_msg()/blk_add_cgroup_trace_msg()) carry
 * the text without a NUL; with CONFIG_BLK_CGROUP they always carry an id,
 * 1 (the hierarchy root) when the option is off or no css was given.
 * Files are in the tracing host's byte order; we detect a byte-swapped
 * magic per file and swap every field (the cgroup id too).
 *
 * Model
 * -----
 * Events from all files are merged by 'time' (ties: dispatches first,
 * then file and position order, which keeps each CPU's own order).  Only
 * three actions matter, matched by (device, sector):
 *
 *   D (issue)     a request enters the device.  Several requests may be in
 *                 flight on one key; they are matched first-in first-out.
 *   C (complete)  completes the oldest D in flight on its key.  If C's bytes
 *                 are fewer than the request has left (a partial
 *                 completion, blk_update_request()), the request stays in
 *                 flight, re-keyed at sector + bytes/512, as the kernel does.
 *                 A C with nothing in flight on its key is counted and
 *                 ignored (trace started mid-request, or dropped events).
 *   R (requeue)   the request leaves the device without completing; its
 *                 next D starts a new dispatch.  An R with nothing in flight
 *                 is counted and ignored.
 *
 * Charges, to the cgroup id on the request's D event (or, if that D had no
 * id, the id on the C or R event that ended it; events with no id at all
 * go to a "no cgroup" bucket):
 *
 *   bytes     the request's bytes (as on its D), charged when it completes,
 *             to the interval in which it was (last) dispatched.  Partial
 *             completions charge what they completed; the total is the D
 *             size.  Requests still in flight at the end are not charged.
 *   requests  1 per request, at its final completion, like bytes.
 *   time      device time: every stretch of time between two events on a
 *             device is split equally among the requests in flight on that
 *             device (dt/n each), so at queue depth 1 a request gets D->C.
 *             Time is charged for requeued requests (D->R) and for requests
 *             still in flight at the end (up to the last event), and it is
 *             split at interval boundaries.
 *
 * Implementation: per device we keep F(t) = integral of 1/n(t) dt over
 * busy time, and F at every interval boundary.  A request in flight from a
 * to b is owed F(b) - F(a), which we can compute when it ends -- the first
 * moment its cgroup is surely known.
 *
 * Intervals are [t0 + k*I, t0 + (k+1)*I) with t0 the first event of any
 * kind in the trace.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v >> 8) | (v << 8));
}

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) |
	       (v << 24);
}

static uint64_t bswap64(uint64_t v)
{
	return ((uint64_t)bswap32((uint32_t)v) << 32) | bswap32((uint32_t)(v >> 32));
}

static uint16_t rd16(const uint8_t *p, int sw)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return sw ? bswap16(v) : v;
}

static uint32_t rd32(const uint8_t *p, int sw)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return sw ? bswap32(v) : v;
}

static uint64_t rd64(const uint8_t *p, int sw)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return sw ? bswap64(v) : v;
}

static int fail(struct bs_error *err, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->offset = off;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Make room for element n of arr (capacity cap), or run 'onfail'.
 * A macro so that it works on any element type without void ** tricks.
 */
#define GROW(arr, cap, n, onfail)					\
	do {								\
		if ((n) >= (cap)) {					\
			size_t nc_ = (cap) ? (cap) * 2 : 64;		\
			void *q_;					\
									\
			if (nc_ <= (n) || nc_ > SIZE_MAX / sizeof(*(arr))) \
				onfail;					\
			q_ = realloc((arr), nc_ * sizeof(*(arr)));	\
			if (!q_)					\
				onfail;					\
			(arr) = q_;					\
			(cap) = nc_;					\
		}							\
	} while (0)

void bs_trace_init(struct bs_trace *t)
{
	memset(t, 0, sizeof(*t));
	t->tmin = UINT64_MAX;
}

void bs_trace_free(struct bs_trace *t)
{
	free(t->ev);
	free(t->msgbuf);
	bs_trace_init(t);
}

/* Byte offsets within struct blk_io_trace. */
enum {
	OFF_MAGIC = 0, OFF_SEQUENCE = 4, OFF_TIME = 8, OFF_SECTOR = 16,
	OFF_BYTES = 24, OFF_ACTION = 28, OFF_PID = 32, OFF_DEVICE = 36,
	OFF_CPU = 40, OFF_ERROR = 44, OFF_PDU_LEN = 46,
};

int bs_parse_buf(struct bs_trace *t, const uint8_t *buf, size_t len,
		 struct bs_error *err)
{
	uint32_t file = t->nfiles++;
	uint32_t index = 0;
	size_t off = 0;
	int sw = -1;

	while (off < len) {
		const uint8_t *p = buf + off, *pdu;
		size_t left = len - off, plen;
		uint32_t magic, action, act;
		struct bs_event e;
		int esw;

		if (left < BS_HDR_SIZE)
			return fail(err, off, "truncated event: %zu of %u header bytes",
				    left, BS_HDR_SIZE);
		magic = rd32(p + OFF_MAGIC, 0);
		if ((magic & 0xffffff00u) == BS_IO_TRACE_MAGIC)
			esw = 0;
		else if ((bswap32(magic) & 0xffffff00u) == BS_IO_TRACE_MAGIC)
			esw = 1;
		else
			return fail(err, off, "bad magic 0x%08x (not a blktrace file?)",
				    magic);
		if (sw < 0) {
			sw = esw;
			t->nswapped += (uint32_t)sw;
		} else if (esw != sw) {
			return fail(err, off, "byte order changes within the file");
		}
		magic = rd32(p + OFF_MAGIC, sw);
		if ((magic & 0xffu) != BS_IO_TRACE_VERSION)
			return fail(err, off, "unsupported trace version %u (want %u)",
				    magic & 0xffu, BS_IO_TRACE_VERSION);
		plen = rd16(p + OFF_PDU_LEN, sw);
		if (plen > BS_MAX_PDU)
			return fail(err, off, "absurd pdu_len %zu (max %u)",
				    plen, BS_MAX_PDU);
		if (plen > left - BS_HDR_SIZE)
			return fail(err, off, "truncated payload: pdu_len %zu, %zu bytes left",
				    plen, left - BS_HDR_SIZE);
		if (index == UINT32_MAX)
			return fail(err, off, "too many events in one file");

		memset(&e, 0, sizeof(e));
		e.time = rd64(p + OFF_TIME, sw);
		e.sector = rd64(p + OFF_SECTOR, sw);
		e.bytes = rd32(p + OFF_BYTES, sw);
		action = rd32(p + OFF_ACTION, sw);
		e.pid = rd32(p + OFF_PID, sw);
		e.device = rd32(p + OFF_DEVICE, sw);
		e.cpu = rd32(p + OFF_CPU, sw);
		e.file = file;
		e.index = index;
		pdu = p + BS_HDR_SIZE;

		if (action & BS_TA_CGROUP) {
			if (plen < sizeof(uint64_t))
				return fail(err, off, "cgroup flag set but pdu_len %zu < 8",
					    plen);
			e.cgid = rd64(pdu, sw);
			pdu += sizeof(uint64_t);
			plen -= sizeof(uint64_t);
		}

		t->nraw++;
		if (e.time < t->tmin)
			t->tmin = e.time;
		if (e.time > t->tmax)
			t->tmax = e.time;

		act = action & 0xffffu & ~BS_TA_CGROUP;
		e.act = (uint16_t)act;
		e.tc = (uint16_t)(action >> BS_TC_SHIFT);
		if (action & (BS_TC_NOTIFY << BS_TC_SHIFT)) {
			const uint8_t *nul;

			if (act == BS_TN_MESSAGE) {
				e.kind = BS_EV_MESSAGE;
			} else if (!t->keep_all) {
				goto next;
			} else {
				e.kind = BS_EV_OTHER;
				/* a process note's name is kept as text */
				if (act != BS_TN_PROCESS)
					goto keep;
			}
			/* Not NUL-terminated by the kernel; stop at one anyway. */
			nul = memchr(pdu, 0, plen);
			if (nul)
				plen = (size_t)(nul - pdu);
			if (t->msglen + plen < t->msglen)
				return fail(err, off, "out of memory");
			while (t->msglen + plen > t->msgcap) {
				size_t ncap = t->msgcap ? t->msgcap * 2 : 4096;
				char *q = realloc(t->msgbuf, ncap);

				if (!q)
					return fail(err, off, "out of memory");
				t->msgbuf = q;
				t->msgcap = ncap;
			}
			if (plen)
				memcpy(t->msgbuf + t->msglen, pdu, plen);
			e.msg = (uint32_t)t->msglen;
			e.msg_len = (uint16_t)plen;
			if (t->msglen + plen > UINT32_MAX)
				return fail(err, off, "too much message text");
			t->msglen += plen;
		} else if (act == BS_TA_ISSUE || act == BS_TA_COMPLETE ||
			   act == BS_TA_REQUEUE) {
			e.kind = act == BS_TA_ISSUE ? BS_EV_ISSUE :
				 act == BS_TA_COMPLETE ? BS_EV_COMPLETE :
				 BS_EV_REQUEUE;
			e.pc = !!(action & (BS_TC_PC << BS_TC_SHIFT));
		} else if (t->keep_all) {
			e.kind = BS_EV_OTHER;
			e.pc = !!(action & (BS_TC_PC << BS_TC_SHIFT));
		} else {
			goto next;
		}
keep:
		GROW(t->ev, t->cap, t->nev,
		     return fail(err, off, "out of memory"));
		t->ev[t->nev++] = e;
next:
		off += BS_HDR_SIZE + (size_t)rd16(p + OFF_PDU_LEN, sw);
		index++;
	}
	return 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct bs_event *x = a, *y = b;
	int xi = x->kind != BS_EV_ISSUE, yi = y->kind != BS_EV_ISSUE;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/*
	 * Equal timestamps: dispatch first.  With FIFO matching this is
	 * always safe and avoids turning a cross-CPU tie into an orphan C.
	 */
	if (xi != yi)
		return xi - yi;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return 0;
}

void bs_trace_sort(struct bs_trace *t)
{
	if (t->nev > 1)
		qsort(t->ev, t->nev, sizeof(*t->ev), ev_cmp);
}

/* ---- analysis ---- */

/* A request in flight. */
struct req {
	uint64_t sector;	/* current key (moves on partial completion) */
	uint64_t tstart;	/* time of its (latest) D */
	double fstart;		/* its device's F at tstart */
	uint64_t cgid;		/* id from the D, 0 if none */
	uint32_t remain;	/* bytes not completed yet */
	uint32_t dev;		/* index into the device table */
	int32_t next;		/* next in bucket chain, or in the free list */
	uint8_t pc;		/* passthrough: never re-keyed */
};

/* Per-device clock. */
struct devst {
	uint32_t dev;		/* dev_t */
	uint32_t inflight;	/* requests in flight now */
	uint64_t last;		/* time F was last brought up to */
	double f;		/* integral of 1/inflight dt over busy time (ns) */
	double *fb;		/* fb[k]: F at the start of interval k */
};

struct state {
	const struct bs_opts *o;
	struct bs_result *r;
	uint64_t t0;
	uint64_t ival;		/* effective interval length, >= 1 */
	uint32_t nk;		/* number of intervals */

	struct devst *dev;
	size_t ndev, devcap;
	uint32_t lastdev;	/* lookup cache */

	struct req *req;
	size_t nreq, reqcap;
	int32_t freelist;
	int32_t *head, *tail;	/* bucket chains, insertion ordered */
	size_t nbucket;		/* power of two */
	size_t live;

	int64_t *cgmap;		/* open addressing: cg index or -1 */
	size_t cgmapsz;		/* power of two */
	size_t cgcap, cellcap;
};

static uint32_t kof(const struct state *s, uint64_t t)
{
	uint64_t k = (t - s->t0) / s->ival;

	return k >= s->nk ? s->nk - 1 : (uint32_t)k;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static long cg_get(struct state *s, uint64_t cgid)
{
	struct bs_result *r = s->r;
	size_t i, mask;

	if (r->ncg * 2 >= s->cgmapsz) {
		size_t nsz = s->cgmapsz ? s->cgmapsz * 2 : 64;
		int64_t *nm = malloc(nsz * sizeof(*nm));

		if (!nm)
			return -1;
		for (i = 0; i < nsz; i++)
			nm[i] = -1;
		for (i = 0; i < r->ncg; i++) {
			size_t h = mix64(r->cg[i].cgid) & (nsz - 1);

			while (nm[h] >= 0)
				h = (h + 1) & (nsz - 1);
			nm[h] = (int64_t)i;
		}
		free(s->cgmap);
		s->cgmap = nm;
		s->cgmapsz = nsz;
	}
	mask = s->cgmapsz - 1;
	for (i = mix64(cgid) & mask; s->cgmap[i] >= 0; i = (i + 1) & mask)
		if (r->cg[s->cgmap[i]].cgid == cgid)
			return (long)s->cgmap[i];
	GROW(r->cg, s->cgcap, r->ncg, return -1);
	memset(&r->cg[r->ncg], 0, sizeof(r->cg[0]));
	r->cg[r->ncg].cgid = cgid;
	r->cg[r->ncg].weight = -1;
	r->cg[r->ncg].expect = -1;
	s->cgmap[i] = (int64_t)r->ncg;
	return (long)r->ncg++;
}

static long dev_get(struct state *s, uint32_t dev)
{
	struct devst *d;
	size_t i;

	if (s->lastdev < s->ndev && s->dev[s->lastdev].dev == dev)
		return s->lastdev;
	for (i = 0; i < s->ndev; i++)
		if (s->dev[i].dev == dev)
			return s->lastdev = (uint32_t)i;
	GROW(s->dev, s->devcap, s->ndev, return -1);
	d = &s->dev[s->ndev];
	memset(d, 0, sizeof(*d));
	d->dev = dev;
	d->last = s->t0;
	d->fb = calloc((size_t)s->nk + 1, sizeof(*d->fb));
	if (!d->fb)
		return -1;
	if (!s->ndev)
		s->r->dev0 = dev;
	s->r->ndev++;
	return s->lastdev = (uint32_t)s->ndev++;
}

/* Bring device d's F up to time t (t >= d->last), recording boundaries. */
static void dev_advance(struct state *s, struct devst *d, uint64_t t)
{
	uint32_t k = kof(s, d->last), kt = kof(s, t);

	for (k++; k <= kt; k++) {
		uint64_t b = s->t0 + (uint64_t)k * s->ival;

		if (d->inflight)
			d->f += (double)(b - d->last) / d->inflight;
		d->fb[k] = d->f;
		d->last = b;
	}
	if (d->inflight)
		d->f += (double)(t - d->last) / d->inflight;
	d->last = t;
}

static int cell_add(struct state *s, uint32_t k, long cg, uint64_t bytes,
		    uint64_t reqs, double time_ns)
{
	struct bs_result *r = s->r;
	struct bs_cell *c;

	if (!bytes && !reqs && time_ns == 0)
		return 0;
	GROW(r->cells, s->cellcap, r->ncells, return -1);
	c = &r->cells[r->ncells++];
	c->interval = k;
	c->cg = (uint32_t)cg;
	c->s.bytes = bytes;
	c->s.reqs = reqs;
	c->s.time_ns = time_ns;
	return 0;
}

/* Charge request q's in-flight time up to its device's clock to cg. */
static int charge_time(struct state *s, const struct req *q, long cg)
{
	const struct devst *d = &s->dev[q->dev];
	uint32_t ks = kof(s, q->tstart), ke = kof(s, d->last), k;

	if (ks == ke)
		return cell_add(s, ks, cg, 0, 0, d->f - q->fstart);
	if (cell_add(s, ks, cg, 0, 0, d->fb[ks + 1] - q->fstart))
		return -1;
	for (k = ks + 1; k < ke; k++)
		if (cell_add(s, k, cg, 0, 0, d->fb[k + 1] - d->fb[k]))
			return -1;
	return cell_add(s, ke, cg, 0, 0, d->f - d->fb[ke]);
}

static size_t bucket(const struct state *s, uint32_t dev, uint64_t sector)
{
	return mix64(sector ^ ((uint64_t)dev << 40) ^ dev) & (s->nbucket - 1);
}

static void chain_append(struct state *s, int32_t i)
{
	size_t b = bucket(s, s->req[i].dev, s->req[i].sector);

	s->req[i].next = -1;
	if (s->tail[b] >= 0)
		s->req[s->tail[b]].next = i;
	else
		s->head[b] = i;
	s->tail[b] = i;
}

static int rehash(struct state *s)
{
	size_t nb = s->nbucket ? s->nbucket * 2 : 16, ob = s->nbucket, b;
	int32_t *oh = s->head, *nh, *nt, i, nx;

	if (nb > SIZE_MAX / sizeof(*nh))
		return -1;
	nh = malloc(nb * sizeof(*nh));
	nt = malloc(nb * sizeof(*nt));
	if (!nh || !nt) {
		free(nh);
		free(nt);
		return -1;
	}
	for (b = 0; b < nb; b++)
		nh[b] = nt[b] = -1;
	free(s->tail);
	s->head = nh;
	s->tail = nt;
	s->nbucket = nb;
	/* Re-append in chain order: keeps FIFO order within each key. */
	for (b = 0; b < ob; b++)
		for (i = oh[b]; i >= 0; i = nx) {
			nx = s->req[i].next;
			chain_append(s, i);
		}
	free(oh);
	return 0;
}

/* Oldest request in flight on (dev, sector); unlinks it.  -1 if none. */
static int32_t chain_take(struct state *s, uint32_t dev, uint64_t sector)
{
	size_t b = bucket(s, dev, sector);
	int32_t i, prev = -1;

	for (i = s->head[b]; i >= 0; prev = i, i = s->req[i].next) {
		if (s->req[i].dev != dev || s->req[i].sector != sector)
			continue;
		if (prev >= 0)
			s->req[prev].next = s->req[i].next;
		else
			s->head[b] = s->req[i].next;
		if (s->tail[b] == i)
			s->tail[b] = prev;
		return i;
	}
	return -1;
}

static int chain_has(const struct state *s, uint32_t dev, uint64_t sector)
{
	int32_t i;

	for (i = s->head[bucket(s, dev, sector)]; i >= 0; i = s->req[i].next)
		if (s->req[i].dev == dev && s->req[i].sector == sector)
			return 1;
	return 0;
}

static void req_free(struct state *s, int32_t i)
{
	s->req[i].next = s->freelist;
	s->freelist = i;
	s->live--;
	s->dev[s->req[i].dev].inflight--;
}

static int on_issue(struct state *s, const struct bs_event *e, uint32_t di)
{
	struct req *q;
	int32_t i;

	s->r->issues++;
	if (s->live + 1 > s->nbucket && rehash(s))
		return -1;
	if (chain_has(s, di, e->sector))
		s->r->same_key++;
	if (s->freelist >= 0) {
		i = s->freelist;
		s->freelist = s->req[i].next;
	} else {
		if (s->nreq >= INT32_MAX)
			return -1;
		GROW(s->req, s->reqcap, s->nreq, return -1);
		i = (int32_t)s->nreq++;
	}
	q = &s->req[i];
	q->sector = e->sector;
	q->tstart = e->time;
	q->fstart = s->dev[di].f;
	q->cgid = e->cgid;
	q->remain = e->bytes;
	q->dev = di;
	q->pc = e->pc;
	chain_append(s, i);
	s->live++;
	s->dev[di].inflight++;
	return 0;
}

static int on_end(struct state *s, const struct bs_event *e, uint32_t di)
{
	struct req *q;
	int32_t i = chain_take(s, di, e->sector);
	long cg;

	if (i < 0) {
		if (e->kind == BS_EV_COMPLETE)
			s->r->orphan_completions++;
		else
			s->r->orphan_requeues++;
		return 0;
	}
	q = &s->req[i];
	cg = cg_get(s, q->cgid ? q->cgid : e->cgid);
	if (cg < 0)
		return -1;
	if (e->kind == BS_EV_REQUEUE) {
		s->r->requeues++;
		if (charge_time(s, q, cg))
			return -1;
		req_free(s, i);
		return 0;
	}
	s->r->completions++;
	if (!q->pc && e->bytes && e->bytes < q->remain) {
		/* Partial completion: charge what completed, re-key the rest. */
		s->r->partial++;
		if (cell_add(s, kof(s, q->tstart), cg, e->bytes, 0, 0))
			return -1;
		q->remain -= e->bytes;
		q->sector += e->bytes >> 9;
		chain_append(s, i);
		return 0;
	}
	if (charge_time(s, q, cg) ||
	    cell_add(s, kof(s, q->tstart), cg, q->remain, 1, 0))
		return -1;
	req_free(s, i);
	return 0;
}

static int cell_cmp(const void *a, const void *b)
{
	const struct bs_cell *x = a, *y = b;

	if (x->interval != y->interval)
		return x->interval < y->interval ? -1 : 1;
	if (x->cg != y->cg)
		return x->cg < y->cg ? -1 : 1;
	return 0;
}

static int finish(struct state *s)
{
	struct bs_result *r = s->r;
	size_t i, n = 0, b;
	int32_t j;

	/* Requests still in flight: device time up to the end of the trace. */
	for (i = 0; i < s->ndev; i++)
		dev_advance(s, &s->dev[i], r->t1);
	for (b = 0; b < s->nbucket; b++)
		for (j = s->head[b]; j >= 0; j = s->req[j].next) {
			long cg = cg_get(s, s->req[j].cgid);

			r->inflight_end++;
			if (cg < 0 || charge_time(s, &s->req[j], cg))
				return -1;
		}

	if (r->ncells > 1)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cell_cmp);
	for (i = 0; i < r->ncells; i++) {
		struct bs_cell *c = &r->cells[i];

		if (n && r->cells[n - 1].interval == c->interval &&
		    r->cells[n - 1].cg == c->cg) {
			r->cells[n - 1].s.bytes += c->s.bytes;
			r->cells[n - 1].s.reqs += c->s.reqs;
			r->cells[n - 1].s.time_ns += c->s.time_ns;
		} else {
			r->cells[n++] = *c;
		}
	}
	r->ncells = n;
	for (i = 0; i < n; i++) {
		struct bs_cg *g = &r->cg[r->cells[i].cg];

		g->io = 1;
		g->total.bytes += r->cells[i].s.bytes;
		g->total.reqs += r->cells[i].s.reqs;
		g->total.time_ns += r->cells[i].s.time_ns;
		r->busy_ns += r->cells[i].s.time_ns;
	}
	return 0;
}

int bs_analyze(const struct bs_trace *t, const struct bs_opts *o,
	       struct bs_result *r, struct bs_error *err)
{
	struct state s;
	size_t i, msgcap = 0;
	uint64_t span, nk;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	if (!t->nraw)
		return fail(err, 0, "empty trace: no events");
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.r = r;
	s.freelist = -1;
	s.t0 = r->t0 = t->tmin;
	r->t1 = t->tmax;
	span = t->tmax - t->tmin;
	if (o->interval_ns) {
		s.ival = o->interval_ns;
		nk = span / s.ival + 1;
	} else {
		s.ival = span == UINT64_MAX ? span : span + 1;
		nk = 1;
	}
	if (nk > (o->max_intervals ? o->max_intervals : 1000000u))
		return fail(err, 0,
			    "trace spans %.3f s: %llu intervals of %.6f s, more than the limit of %u",
			    (double)span / 1e9, (unsigned long long)nk, (double)s.ival / 1e9,
			    o->max_intervals ? o->max_intervals : 1000000u);
	s.nk = (uint32_t)nk;
	r->interval_ns = s.ival;
	r->nintervals = s.nk;
	if (rehash(&s))
		goto oom;

	for (i = 0; i < t->nev; i++) {
		const struct bs_event *e = &t->ev[i];
		long di;

		if (o->dev_filter && e->device != o->dev)
			continue;
		if (e->kind == BS_EV_OTHER) {
			/* only listed (--events): known by name, not charged */
			if (e->cgid && cg_get(&s, e->cgid) < 0)
				goto oom;
			continue;
		}
		if (e->kind == BS_EV_MESSAGE) {
			if (cg_get(&s, e->cgid) < 0)
				goto oom;
			GROW(r->msgs, msgcap, r->messages, goto oom);
			r->msgs[r->messages++] = i;
			continue;
		}
		di = dev_get(&s, e->device);
		if (di < 0)
			goto oom;
		dev_advance(&s, &s.dev[di], e->time);
		if (e->kind == BS_EV_ISSUE) {
			if (on_issue(&s, e, (uint32_t)di))
				goto oom;
		} else if (on_end(&s, e, (uint32_t)di)) {
			goto oom;
		}
	}
	if (finish(&s))
		goto oom;
	ret = 0;
	goto out;
oom:
	fail(err, 0, "out of memory");
	bs_result_free(r);
out:
	for (i = 0; i < s.ndev; i++)
		free(s.dev[i].fb);
	free(s.dev);
	free(s.req);
	free(s.head);
	free(s.tail);
	free(s.cgmap);
	return ret;
}

void bs_result_free(struct bs_result *r)
{
	size_t i;

	for (i = 0; i < r->ncg; i++)
		free(r->cg[i].name);
	free(r->cg);
	free(r->cells);
	free(r->msgs);
	memset(r, 0, sizeof(*r));
}

long bs_result_find(const struct bs_result *r, uint64_t cgid)
{
	size_t i;

	for (i = 0; i < r->ncg; i++)
		if (r->cg[i].cgid == cgid)
			return (long)i;
	return -1;
}

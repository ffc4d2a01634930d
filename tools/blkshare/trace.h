/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkshare: blktrace parser and share-of-dispatch model.
 *
 * See the comment at the top of trace.c for what is charged how.
 */
#ifndef BLKSHARE_TRACE_H
#define BLKSHARE_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* On-disk format, from include/uapi/linux/blktrace_api.h (Linux 6.12). */
#define BS_IO_TRACE_MAGIC	0x65617400u
#define BS_IO_TRACE_VERSION	0x07u
#define BS_HDR_SIZE		48u	/* sizeof(struct blk_io_trace) */

#define BS_TC_SHIFT		16
#define BS_TC_NOTIFY		(1u << 10)
#define BS_TC_PC		(1u << 9)
#define BS_TA_REQUEUE		6u	/* __BLK_TA_REQUEUE */
#define BS_TA_ISSUE		7u	/* __BLK_TA_ISSUE, "D" */
#define BS_TA_COMPLETE		8u	/* __BLK_TA_COMPLETE, "C" */
#define BS_TA_CGROUP		(1u << 8)	/* __BLK_TA_CGROUP == __BLK_TN_CGROUP */
#define BS_TN_PROCESS		0u
#define BS_TN_TIMESTAMP		1u
#define BS_TN_MESSAGE		2u

/*
 * Largest pdu_len we accept.  The kernel writes at most 8 (cgroup id) +
 * BLK_TN_MAX_MSG (128) for messages, 16 for process notes, 8 + 16 for
 * remaps; anything far beyond that is a corrupt file, not a payload.
 */
#define BS_MAX_PDU		4096u

/* Kernel dev_t as stored in blk_io_trace.device (MINORBITS == 20). */
#define BS_MAJOR(d)		((unsigned)((d) >> 20))
#define BS_MINOR(d)		((unsigned)((d) & 0xfffffu))

/* Kinds of events we keep; everything else only moves the trace clock. */
enum bs_kind {
	BS_EV_ISSUE,		/* __BLK_TA_ISSUE: request handed to driver */
	BS_EV_COMPLETE,		/* __BLK_TA_COMPLETE: (partial) completion */
	BS_EV_REQUEUE,		/* __BLK_TA_REQUEUE: request taken back */
	BS_EV_MESSAGE,		/* BLK_TN_MESSAGE: blk_add_trace_msg() text */
	BS_EV_OTHER,		/* any other event; kept with keep_all only */
};

/* One decoded event, in host byte order. */
struct bs_event {
	uint64_t time;		/* ns, ktime_get() at trace time */
	uint64_t sector;	/* 512-byte sector the request starts at */
	uint64_t cgid;		/* cgroup id (== kernfs ino); 0 if none */
	uint32_t bytes;		/* D: request size; C: bytes completed now */
	uint32_t device;	/* kernel dev_t, see BS_MAJOR/BS_MINOR */
	uint32_t file;		/* index of the input file it came from */
	uint32_t index;		/* ordinal within that file (stable merge) */
	uint32_t pid;		/* task that emitted it */
	uint32_t cpu;		/* cpu it was emitted on */
	uint32_t msg;		/* MESSAGE: offset of text in bs_trace.msgbuf */
	uint16_t msg_len;	/* MESSAGE: text length (no NUL) */
	uint8_t kind;		/* enum bs_kind */
	uint8_t pc;		/* passthrough request (sector is always 0) */
	uint16_t act;		/* action & 0xffff without BS_TA_CGROUP */
	uint16_t tc;		/* category bits: action >> BS_TC_SHIFT */
};

/* All kept events of a trace, possibly from several per-CPU files. */
struct bs_trace {
	struct bs_event *ev;	/* kept events; sorted by bs_trace_sort() */
	size_t nev, cap;
	char *msgbuf;		/* message texts, back to back */
	size_t msglen, msgcap;
	uint64_t nraw;		/* events parsed, including ignored kinds */
	uint64_t tmin, tmax;	/* time range over all parsed events */
	uint32_t nfiles;	/* files parsed so far */
	uint32_t nswapped;	/* of which were byte-swapped */
	int keep_all;		/* set before parsing: keep every event as
				 * BS_EV_OTHER too (a process note's name
				 * goes to msgbuf, like a message's text) */
};

/* Where and why parsing failed. */
struct bs_error {
	uint64_t offset;	/* byte offset of the offending event */
	char msg[160];
};

void bs_trace_init(struct bs_trace *t);
void bs_trace_free(struct bs_trace *t);
/*
 * Parse one per-CPU file image.  Returns 0, or -1 with *err filled in
 * (the trace keeps what was parsed before the error).
 */
int bs_parse_buf(struct bs_trace *t, const uint8_t *buf, size_t len,
		 struct bs_error *err);
/* Merge all files into time order (stable; issues first on ties). */
void bs_trace_sort(struct bs_trace *t);

/* Analysis knobs. */
struct bs_opts {
	uint64_t interval_ns;	/* interval length; 0: one interval */
	uint32_t max_intervals;	/* refuse traces that need more */
	int dev_filter;		/* only look at device 'dev' */
	uint32_t dev;
};

/* What one cgroup got, in one interval or overall. */
struct bs_stat {
	uint64_t bytes;		/* completed bytes of requests dispatched here */
	uint64_t reqs;		/* requests completed (counted once each) */
	double time_ns;		/* device time, in-flight time split by depth */
};

/* A cgroup seen in the trace (in I/O or in a message). */
struct bs_cg {
	uint64_t cgid;		/* 0: events that carried no cgroup id */
	int io;			/* charged anything (appears in the tables) */
	struct bs_stat total;	/* over the whole trace */
	/* Filled in by the caller before reporting: */
	char *name;		/* path below the cgroup root, or NULL */
	double weight;		/* < 0: unknown */
	double expect;		/* expected share 0..1; < 0: unknown */
};

/* One (interval, cgroup) cell; cells are sorted by interval, then cg. */
struct bs_cell {
	uint32_t interval;
	uint32_t cg;		/* index into bs_result.cg */
	struct bs_stat s;
};

struct bs_result {
	struct bs_cg *cg;
	size_t ncg;
	struct bs_cell *cells;
	size_t ncells;
	uint64_t t0, t1;	/* trace start/end (ns) */
	uint64_t interval_ns;	/* effective interval length */
	uint32_t nintervals;
	double busy_ns;		/* sum of all charged device time */
	uint64_t issues;	/* D events seen */
	uint64_t completions;	/* C events matched to a D */
	uint64_t partial;	/* of which were partial completions */
	uint64_t orphan_completions; /* C without a D in flight (ignored) */
	uint64_t requeues;	/* R events matched to a D */
	uint64_t orphan_requeues; /* R without a D in flight (ignored) */
	uint64_t same_key;	/* D while another D on that key was in flight */
	uint64_t inflight_end;	/* still in flight when the trace ended */
	uint64_t messages;	/* message events (after the device filter) */
	size_t *msgs;		/* their indices into bs_trace.ev, in order */
	uint32_t ndev;		/* devices seen */
	uint32_t dev0;		/* first device seen */
};

/* Run the model over a sorted trace.  Returns 0 or -1 with *err set. */
int bs_analyze(const struct bs_trace *t, const struct bs_opts *o,
	       struct bs_result *r, struct bs_error *err);
void bs_result_free(struct bs_result *r);
/* Index of cgid in r->cg, or -1. */
long bs_result_find(const struct bs_result *r, uint64_t cgid);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer (or AFL++ -fsanitize=fuzzer) target for blkshare: parse,
 * merge, analyze and render everything from one memory buffer.
 *
 * Input: one control byte, then trace bytes.
 *   bits 0-1  number of per-CPU files - 1; the trace bytes are cut into
 *             that many pieces, on 56-byte boundaries (D/C with a cgroup)
 *   bits 2-4  interval: 0 = none, else 16^n ns
 *   bit  5    device filter on 252:0
 *   bit  6    weights from the cgroup id (some unknown), else none
 *   bit  7    TSV instead of text
 * Besides crashes and sanitizer reports it traps on broken invariants:
 * negative or non-finite time, shares beyond 100 %, lost requests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "trace.h"

static FILE *devnull;

static void check_result(const struct bs_result *r)
{
	double busy = 0;
	size_t i;

	for (i = 0; i < r->ncells; i++) {
		const struct bs_cell *c = &r->cells[i];

		if (!(c->s.time_ns >= 0) || !isfinite(c->s.time_ns) ||
		    c->interval >= r->nintervals || c->cg >= r->ncg ||
		    !r->cg[c->cg].io)
			__builtin_trap();
		if (i && (r->cells[i - 1].interval > c->interval ||
			  (r->cells[i - 1].interval == c->interval &&
			   r->cells[i - 1].cg >= c->cg)))
			__builtin_trap();
		busy += c->s.time_ns;
	}
	if (fabs(busy - r->busy_ns) > 1e-6 * (busy + 1))
		__builtin_trap();
	for (i = 0; i < r->ncg; i++)
		if (r->cg[i].total.time_ns > r->busy_ns * (1 + 1e-9) + 1e-6)
			__builtin_trap();
	/* Every dispatch ends exactly once: requeue, completion, or the end. */
	if (r->requeues + r->inflight_end + r->completions - r->partial !=
	    r->issues)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bs_report_opts ro = { 0 };
	struct bs_opts o = { .max_intervals = 64 };
	struct bs_trace t;
	struct bs_result r;
	struct bs_error err;
	size_t nfiles, chunk, off = 0, i;
	uint8_t ctl;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull || size < 1)
		return 0;
	ctl = data[0];
	data++;
	size--;
	nfiles = 1 + (ctl & 3u);
	chunk = size / nfiles / 56 * 56;
	if ((ctl >> 2) & 7u)
		o.interval_ns = 1ull << (4 * ((ctl >> 2) & 7u));
	if (ctl & 0x20) {
		o.dev_filter = 1;
		o.dev = 252u << 20;
	}
	ro.tsv = !!(ctl & 0x80);
	ro.intervals = 1;
	ro.msgs = 1;

	bs_trace_init(&t);
	t.keep_all = !!(ctl & 0x40);
	for (i = 0; i < nfiles; i++) {
		size_t len = i + 1 == nfiles ? size - off : chunk;

		if (bs_parse_buf(&t, data + off, len, &err))
			goto out;
		off += len;
	}
	bs_trace_sort(&t);
	for (i = 1; i < t.nev; i++)
		if (t.ev[i - 1].time > t.ev[i].time)
			__builtin_trap();
	if (bs_analyze(&t, &o, &r, &err))
		goto out;
	check_result(&r);
	for (i = 0; i < r.ncg; i++)
		if (ctl & 0x40)
			r.cg[i].weight = r.cg[i].cgid % 5 ? (double)(r.cg[i].cgid % 1000) : -1;
	bs_expect_from_weights(&r);
	bs_report(devnull, &t, &r, &ro);
	if (t.keep_all)
		bs_events(devnull, &t, &r, &o, &ro);
	ro.svg_bytes = !!(ctl & 0x40);
	bs_svg(devnull, &r, &ro);
	bs_result_free(&r);
out:
	bs_trace_free(&t);
	return 0;
}

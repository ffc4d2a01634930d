/* SPDX-License-Identifier: GPL-2.0 */
/* blkshare: tables, message listing and SVG plot from a bs_result. */
#ifndef BLKSHARE_REPORT_H
#define BLKSHARE_REPORT_H

#include <stdio.h>

#include "trace.h"

struct bs_report_opts {
	int tsv;		/* tab-separated output instead of tables */
	int intervals;		/* print per-interval tables too */
	int msgs;		/* list message events */
	int svg_bytes;		/* plot bytes instead of device time */
};

/* Display name: the path if known, "/" for id 1, "(none)", or "id:N". */
const char *bs_cg_name(const struct bs_cg *g, char *buf, size_t len);
/* expect = weight / sum of weights of the cgroups that did I/O. */
void bs_expect_from_weights(struct bs_result *r);
/* Tables (and messages) to f. */
void bs_report(FILE *f, const struct bs_trace *t, const struct bs_result *r,
	       const struct bs_report_opts *o);
/*
 * One line per event, in time order, like blkparse, with the cgroup's
 * name (t parsed with keep_all; r from bs_analyze() and named by the
 * caller).  Process notes only name the pids of later events; timestamp
 * notes are left out.  Returns 0, or -1 when out of memory.
 */
int bs_events(FILE *f, const struct bs_trace *t, const struct bs_result *r,
	      const struct bs_opts *ao, const struct bs_report_opts *o);
/* Stacked-area SVG of per-interval shares to f. */
void bs_svg(FILE *f, const struct bs_result *r, const struct bs_report_opts *o);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * blkshare: output.  Text tables, TSV, the message listing and a
 * hand-written SVG stacked-area plot.  Nothing here changes the numbers;
 * see trace.c for the model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char *bs_cg_name(const struct bs_cg *g, char *buf, size_t len)
{
	if (g->name)
		return g->name;
	if (g->cgid == 0)
		return "(none)";
	if (g->cgid == 1)
		return "/";	/* kernfs root id; also the kernel's "no css" */
	snprintf(buf, len, "id:%llu", (unsigned long long)g->cgid);
	return buf;
}

void bs_expect_from_weights(struct bs_result *r)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < r->ncg; i++)
		if (r->cg[i].io && r->cg[i].weight >= 0)
			sum += r->cg[i].weight;
	for (i = 0; i < r->ncg; i++)
		r->cg[i].expect = r->cg[i].io && r->cg[i].weight >= 0 && sum > 0 ?
				  r->cg[i].weight / sum : -1;
}

/* Row order: cgroups that did I/O, by name.  Returns count; *out malloc'd. */
static const struct bs_result *sort_r;

static int name_cmp(const void *a, const void *b)
{
	const struct bs_cg *x = &sort_r->cg[*(const size_t *)a];
	const struct bs_cg *y = &sort_r->cg[*(const size_t *)b];
	char bx[32], by[32];
	int c = strcmp(bs_cg_name(x, bx, sizeof(bx)), bs_cg_name(y, by, sizeof(by)));

	if (c)
		return c;
	return x->cgid < y->cgid ? -1 : x->cgid > y->cgid;
}

static size_t row_order(const struct bs_result *r, size_t **out)
{
	size_t i, n = 0, *v = malloc((r->ncg ? r->ncg : 1) * sizeof(*v));

	*out = v;
	if (!v)
		return 0;
	for (i = 0; i < r->ncg; i++)
		if (r->cg[i].io)
			v[n++] = i;
	sort_r = r;
	if (n > 1)
		qsort(v, n, sizeof(*v), name_cmp);
	return n;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Print s as a TSV/text field: control chars, tab and backslash escaped. */
static void put_escaped(FILE *f, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\')
			fputs("\\\\", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void put_pct(FILE *f, int tsv, double num, double den)
{
	if (den > 0)
		fprintf(f, tsv ? "\t%.4f" : " %8.2f", 100.0 * num / den);
	else
		fprintf(f, tsv ? "\tNA" : " %8s", "-");
}

static void put_num(FILE *f, int tsv, double v, const char *fmt_tsv,
		    const char *fmt_txt, int width)
{
	if (v >= 0)
		fprintf(f, tsv ? fmt_tsv : fmt_txt, v);
	else if (tsv)
		fputs("\tNA", f);
	else
		fprintf(f, " %*s", width, "-");
}

/*
 * One table: rows for the cgroups with cells in [c, c + n) (all the same
 * interval), or the totals when c == NULL.
 */
static void table(FILE *f, const struct bs_result *r, const size_t *ord,
		  size_t nord, const struct bs_cell *c, size_t n,
		  const struct bs_report_opts *o, long k)
{
	const struct bs_stat **st = calloc(r->ncg ? r->ncg : 1, sizeof(*st));
	uint64_t tbytes = 0;
	double ttime = 0, start, end;
	size_t i;

	if (!st)
		return;
	if (c) {
		for (i = 0; i < n; i++)
			st[c[i].cg] = &c[i].s;
		start = secs((uint64_t)k * r->interval_ns);
		end = secs((uint64_t)(k + 1) * r->interval_ns);
		if (end > secs(r->t1 - r->t0))
			end = secs(r->t1 - r->t0);
	} else {
		for (i = 0; i < r->ncg; i++)
			st[i] = &r->cg[i].total;
		start = 0;
		end = secs(r->t1 - r->t0);
	}
	for (i = 0; i < r->ncg; i++)
		if (st[i]) {
			tbytes += st[i]->bytes;
			ttime += st[i]->time_ns;
		}

	if (!o->tsv) {
		/* Enough decimals to tell interval bounds apart. */
		int prec = r->interval_ns % 1000000u == 0 ? 3 :
			   r->interval_ns % 1000u == 0 ? 6 : 9;

		if (c)
			fprintf(f, "\ninterval %ld [%.*f-%.*f s] busy %.6f s\n",
				k, prec, start, prec, end, ttime / 1e9);
		else
			fprintf(f, "\ntotal [%.3f-%.3f s] busy %.6f s\n",
				start, end, ttime / 1e9);
		fprintf(f, "%-24s %7s %8s %8s %8s %14s %9s %12s\n", "cgroup",
			"weight", "expect%", "bytes%", "time%", "bytes", "reqs",
			"time(s)");
	}
	for (i = 0; i < nord; i++) {
		const struct bs_cg *g = &r->cg[ord[i]];
		const struct bs_stat *s = st[ord[i]];
		char buf[32];
		const char *name = bs_cg_name(g, buf, sizeof(buf));

		if (!s || (c == NULL && !g->io))
			continue;
		if (o->tsv) {
			if (c)
				fprintf(f, "interval\t%ld\t%.9f\t%.9f\t", k, start, end);
			else
				fprintf(f, "total\tNA\t%.9f\t%.9f\t", start, end);
			put_escaped(f, name, strlen(name));
			fprintf(f, "\t%llu", (unsigned long long)g->cgid);
		} else {
			fprintf(f, "%-24s", name);
		}
		put_num(f, o->tsv, g->weight, "\t%g", " %7g", 7);
		put_num(f, o->tsv, g->expect >= 0 ? 100 * g->expect : -1,
			"\t%.4f", " %8.2f", 8);
		put_pct(f, o->tsv, (double)s->bytes, (double)tbytes);
		put_pct(f, o->tsv, s->time_ns, ttime);
		fprintf(f, o->tsv ? "\t%llu\t%llu\t%.9f\n" : " %14llu %9llu %12.6f\n",
			(unsigned long long)s->bytes, (unsigned long long)s->reqs,
			s->time_ns / 1e9);
	}
	free(st);
}

/* Display name of the cgroup an event carries (buf: room for "id:N"). */
static const char *event_cg_name(const struct bs_result *r,
				 const struct bs_event *e, char *buf, size_t len)
{
	long gi = bs_result_find(r, e->cgid);
	struct bs_cg none = { .cgid = e->cgid };

	return bs_cg_name(gi >= 0 ? &r->cg[gi] : &none, buf, len);
}

static void messages(FILE *f, const struct bs_trace *t,
		     const struct bs_result *r, const struct bs_report_opts *o)
{
	size_t i;

	if (o->tsv)
		fputs("#msg\ttime_s\tcgroup\tcgid\tdevice\tcpu\tpid\ttext\n", f);
	else
		fprintf(f, "\nmessages: %llu\n", (unsigned long long)r->messages);
	for (i = 0; i < r->messages; i++) {
		const struct bs_event *e = &t->ev[r->msgs[i]];
		char buf[32];
		const char *name = event_cg_name(r, e, buf, sizeof(buf));

		if (o->tsv) {
			fprintf(f, "msg\t%.9f\t", secs(e->time - r->t0));
			put_escaped(f, name, strlen(name));
			fprintf(f, "\t%llu\t%u:%u\t%u\t%u\t",
				(unsigned long long)e->cgid, BS_MAJOR(e->device),
				BS_MINOR(e->device), e->cpu, e->pid);
		} else {
			fprintf(f, "%14.9f %-20s %3u,%-3u cpu%-3u %7u  ",
				secs(e->time - r->t0), name, BS_MAJOR(e->device),
				BS_MINOR(e->device), e->cpu, e->pid);
		}
		if (e->msg_len)		/* msgbuf is NULL if all texts are empty */
			put_escaped(f, t->msgbuf + e->msg, e->msg_len);
		fputc('\n', f);
	}
}

/* ---- event listing (--events) ---- */

/* blkparse's action letters, by __BLK_TA_* value */
static const char *const act_names[] = {
	[1] = "Q", [2] = "M", [3] = "F", [4] = "G", [5] = "S", [6] = "R",
	[7] = "D", [8] = "C", [9] = "P", [10] = "U", [11] = "UT", [12] = "I",
	[13] = "X", [14] = "B", [15] = "A", [16] = "AB", [17] = "DD",
};

#define TCB(bit)	(1u << (bit))

/* blkparse's RWBS column from the category bits (and bytes: R or N) */
static void rwbs(char *out, const struct bs_event *e)
{
	int i = 0;

	if (e->tc & TCB(2))			/* BLK_TC_FLUSH */
		out[i++] = 'F';
	if (e->tc & TCB(13))			/* BLK_TC_DISCARD */
		out[i++] = 'D';
	else if (e->tc & TCB(1))		/* BLK_TC_WRITE */
		out[i++] = 'W';
	else if (e->bytes)
		out[i++] = 'R';
	else
		out[i++] = 'N';
	if (e->tc & TCB(15))			/* BLK_TC_FUA */
		out[i++] = 'F';
	if (e->tc & TCB(11))			/* BLK_TC_AHEAD */
		out[i++] = 'A';
	if (e->tc & TCB(3))			/* BLK_TC_SYNC */
		out[i++] = 'S';
	if (e->tc & TCB(12))			/* BLK_TC_META */
		out[i++] = 'M';
	out[i] = 0;
}

/* pid -> index of its latest process note in t->ev; open addressing */
struct comms {
	uint32_t *pid;
	size_t *ev;
	size_t n, cap;		/* cap: 0 or a power of two */
};

static size_t comm_slot(const struct comms *c, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (c->cap - 1);

	while (c->ev[i] != SIZE_MAX && c->pid[i] != pid)
		i = (i + 1) & (c->cap - 1);
	return i;
}

static int comm_set(struct comms *c, uint32_t pid, size_t ev)
{
	size_t i;

	if ((c->n + 1) * 2 > c->cap) {
		struct comms nc = { .cap = c->cap ? c->cap * 2 : 64 };

		nc.pid = malloc(nc.cap * sizeof(*nc.pid));
		nc.ev = malloc(nc.cap * sizeof(*nc.ev));
		if (!nc.pid || !nc.ev) {
			free(nc.pid);
			free(nc.ev);
			return -1;
		}
		for (i = 0; i < nc.cap; i++)
			nc.ev[i] = SIZE_MAX;
		for (i = 0; i < c->cap; i++) {
			if (c->ev[i] != SIZE_MAX) {
				size_t j = comm_slot(&nc, c->pid[i]);

				nc.pid[j] = c->pid[i];
				nc.ev[j] = c->ev[i];
			}
		}
		nc.n = c->n;
		free(c->pid);
		free(c->ev);
		*c = nc;
	}
	i = comm_slot(c, pid);
	if (c->ev[i] == SIZE_MAX)
		c->n++;
	c->pid[i] = pid;
	c->ev[i] = ev;
	return 0;
}

static const struct bs_event *comm_get(const struct comms *c,
				       const struct bs_trace *t, uint32_t pid)
{
	size_t i;

	if (!c->cap)
		return NULL;
	i = comm_slot(c, pid);
	return c->ev[i] == SIZE_MAX ? NULL : &t->ev[c->ev[i]];
}

int bs_events(FILE *f, const struct bs_trace *t, const struct bs_result *r,
	      const struct bs_opts *ao, const struct bs_report_opts *o)
{
	struct comms c = { 0 };
	size_t i;

	if (o->tsv)
		fputs("#event\ttime_s\tcgroup\tcgid\tdevice\tcpu\tpid\taction"
		      "\trwbs\tsector\tbytes\tcomm_or_text\n", f);
	for (i = 0; i < t->nev; i++) {
		const struct bs_event *e = &t->ev[i], *cm = NULL;
		int note = e->tc & BS_TC_NOTIFY;
		char buf[32], ab[8], rw[8];
		const char *name, *text;
		size_t tlen;

		if (ao->dev_filter && e->device != ao->dev)
			continue;
		if (note && e->act == BS_TN_PROCESS) {
			if (comm_set(&c, e->pid, i))
				goto oom;
			continue;
		}
		if (note && e->kind != BS_EV_MESSAGE)
			continue;	/* timestamps */
		name = event_cg_name(r, e, buf, sizeof(buf));
		if (note)
			snprintf(ab, sizeof(ab), "m");
		else if (e->act < sizeof(act_names) / sizeof(act_names[0]) &&
			 act_names[e->act])
			snprintf(ab, sizeof(ab), "%s", act_names[e->act]);
		else
			snprintf(ab, sizeof(ab), "?%u", (unsigned)e->act);
		if (note)
			snprintf(rw, sizeof(rw), "N");
		else
			rwbs(rw, e);
		if (note) {
			text = e->msg_len ? t->msgbuf + e->msg : "";
			tlen = e->msg_len;
		} else {
			cm = comm_get(&c, t, e->pid);
			text = cm && cm->msg_len ? t->msgbuf + cm->msg : "";
			tlen = cm ? cm->msg_len : 0;
		}
		if (o->tsv) {
			fprintf(f, "ev\t%.9f\t", secs(e->time - r->t0));
			put_escaped(f, name, strlen(name));
			fprintf(f, "\t%llu\t%u:%u\t%u\t%u\t%s\t%s\t",
				(unsigned long long)e->cgid, BS_MAJOR(e->device),
				BS_MINOR(e->device), e->cpu, e->pid, ab, rw);
			if (note)
				fputs("NA\tNA\t", f);
			else
				fprintf(f, "%llu\t%u\t",
					(unsigned long long)e->sector, e->bytes);
			put_escaped(f, text, tlen);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%3u,%-3u %3u %14.9f %7u %-20s %-2s %-3s ",
			BS_MAJOR(e->device), BS_MINOR(e->device), e->cpu,
			secs(e->time - r->t0), e->pid, name, ab, rw);
		if (note) {
			put_escaped(f, text, tlen);
		} else {
			const char *sep = " ";

			/* plugs and unplugs (P, U, UT) name no range */
			if (e->act >= 9 && e->act <= 11)
				sep = "";
			else if (e->pc)
				fprintf(f, "%u bytes", e->bytes);
			else
				fprintf(f, "%llu + %u", (unsigned long long)e->sector,
					e->bytes >> 9);
			if (tlen) {
				fprintf(f, "%s[", sep);
				put_escaped(f, text, tlen);
				fputc(']', f);
			}
		}
		fputc('\n', f);
	}
	free(c.pid);
	free(c.ev);
	return 0;
oom:
	free(c.pid);
	free(c.ev);
	return -1;
}

void bs_report(FILE *f, const struct bs_trace *t, const struct bs_result *r,
	       const struct bs_report_opts *o)
{
	size_t *ord, nord = row_order(r, &ord), i, j;

	if (!ord)
		return;
	if (o->tsv) {
		fprintf(f, "# files %u events %llu issues %llu completions %llu"
			" partial %llu orphan_completions %llu requeues %llu"
			" orphan_requeues %llu same_key %llu inflight_end %llu"
			" messages %llu devices %u span_s %.9f busy_s %.9f\n",
			t->nfiles, (unsigned long long)t->nraw,
			(unsigned long long)r->issues,
			(unsigned long long)r->completions,
			(unsigned long long)r->partial,
			(unsigned long long)r->orphan_completions,
			(unsigned long long)r->requeues,
			(unsigned long long)r->orphan_requeues,
			(unsigned long long)r->same_key,
			(unsigned long long)r->inflight_end,
			(unsigned long long)r->messages, r->ndev,
			secs(r->t1 - r->t0), r->busy_ns / 1e9);
	} else {
		fprintf(f, "blkshare: %u file(s)%s, %llu events, %u device(s)",
			t->nfiles, t->nswapped ? " (byte-swapped)" : "",
			(unsigned long long)t->nraw, r->ndev);
		if (r->ndev == 1)
			fprintf(f, " (%u,%u)", BS_MAJOR(r->dev0), BS_MINOR(r->dev0));
		fprintf(f, ", %.6f s, device busy %.6f s\n",
			secs(r->t1 - r->t0), r->busy_ns / 1e9);
		fprintf(f, "requests: %llu dispatched, %llu completions (%llu partial),"
			" %llu requeued, %llu in flight at end\n",
			(unsigned long long)r->issues,
			(unsigned long long)r->completions,
			(unsigned long long)r->partial,
			(unsigned long long)r->requeues,
			(unsigned long long)r->inflight_end);
		fprintf(f, "ignored: %llu completions and %llu requeues without a dispatch;"
			" %llu dispatches on a busy (device, sector)\n",
			(unsigned long long)r->orphan_completions,
			(unsigned long long)r->orphan_requeues,
			(unsigned long long)r->same_key);
	}
	if (o->msgs)
		messages(f, t, r, o);
	if (o->tsv)
		fputs("#kind\tinterval\tstart_s\tend_s\tcgroup\tcgid\tweight"
		      "\texpect_pct\tbytes_pct\ttime_pct\tbytes\trequests\ttime_s\n", f);
	if (o->intervals && r->nintervals > 1) {
		for (i = 0; i < r->ncells; i = j) {
			for (j = i; j < r->ncells &&
			     r->cells[j].interval == r->cells[i].interval; j++)
				;
			table(f, r, ord, nord, &r->cells[i], j - i, o,
			      (long)r->cells[i].interval);
		}
	}
	table(f, r, ord, nord, NULL, 0, o, -1);
	free(ord);
}

/* ---- SVG ---- */

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

static void color(char *buf, size_t len, size_t i)
{
	size_t np = sizeof(palette) / sizeof(palette[0]);

	if (i < np)
		snprintf(buf, len, "%s", palette[i]);
	else
		snprintf(buf, len, "hsl(%u,55%%,55%%)", (unsigned)((i * 137) % 360));
}

static void put_xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, f);
			else
				fputc('?', f);
		}
	}
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about n ticks. */
static double tick_step(double span, int n)
{
	double raw = span / n, p = 1;

	if (!(raw > 0))
		return 1;
	while (p * 10 <= raw)
		p *= 10;
	while (p > raw)
		p /= 10;
	if (p * 5 <= raw)
		return p * 5;
	if (p * 2 <= raw)
		return p * 2;
	return p;
}

struct rank_cell {
	size_t rank;
	uint32_t interval;
	double v;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct rank_cell *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->interval < y->interval ? -1 : x->interval > y->interval;
}

void bs_svg(FILE *f, const struct bs_result *r, const struct bs_report_opts *o)
{
	const double W = 960, H = 540, L = 80, R = 260, T = 50, B = 60;
	const double pw = W - L - R, ph = H - T - B;
	size_t *ord, nord = row_order(r, &ord), i, j, k, nk = r->nintervals;
	double *tot = NULL, *lo = NULL, *hi = NULL, xmax, step, x, cum;
	size_t *rank = NULL, *byrank = NULL, nstack = 0;
	uint64_t tbytes = 0;
	struct rank_cell *rc = NULL;
	const char *metric = o->svg_bytes ? "dispatched bytes" : "device time";

	if (!ord)
		return;
	tot = calloc(nk, sizeof(*tot));
	lo = calloc(nk, sizeof(*lo));
	hi = calloc(nk, sizeof(*hi));
	rank = malloc((r->ncg ? r->ncg : 1) * sizeof(*rank));
	byrank = malloc((r->ncg ? r->ncg : 1) * sizeof(*byrank));
	rc = malloc((r->ncells ? r->ncells : 1) * sizeof(*rc));
	if (!tot || !lo || !hi || !rank || !byrank || !rc)
		goto out;

	/* Stack order: cgroups with an expectation first, then by name. */
	for (i = 0; i < r->ncg; i++)
		rank[i] = SIZE_MAX;
	for (j = 0; j < 2; j++)
		for (i = 0; i < nord; i++)
			if ((r->cg[ord[i]].expect >= 0) == !j) {
				byrank[nstack] = ord[i];
				rank[ord[i]] = nstack++;
			}
	for (i = 0; i < r->ncg; i++)
		tbytes += r->cg[i].total.bytes;
	for (i = 0; i < r->ncells; i++) {
		const struct bs_cell *c = &r->cells[i];
		double v = o->svg_bytes ? (double)c->s.bytes : c->s.time_ns;

		tot[c->interval] += v;
		rc[i].rank = rank[c->cg];
		rc[i].interval = c->interval;
		rc[i].v = v;
	}
	if (r->ncells > 1)
		qsort(rc, r->ncells, sizeof(*rc), rank_cmp);

	xmax = secs((uint64_t)nk * r->interval_ns);
	if (xmax > secs(r->t1 - r->t0) && r->t1 > r->t0)
		xmax = secs(r->t1 - r->t0);
	if (!(xmax > 0))
		xmax = 1e-9;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\""
		" viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	fprintf(f, "<text x=\"%g\" y=\"24\" font-size=\"15\">blkshare: share of %s"
		" per %g s interval</text>\n", L, metric, secs(r->interval_ns));

	/* Areas. */
	for (i = 0, j = 0; i < nstack; i++) {
		char col[32];

		for (k = 0; k < nk; k++)
			hi[k] = lo[k];
		for (; j < r->ncells && rc[j].rank == i; j++)
			if (tot[rc[j].interval] > 0)
				hi[rc[j].interval] += 100.0 * rc[j].v / tot[rc[j].interval];
		color(col, sizeof(col), i);
		fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.85\" stroke=\"none\" d=\"",
			col);
		for (k = 0; k < nk; k++) {
			double x0 = secs((uint64_t)k * r->interval_ns) / xmax;
			double x1 = secs((uint64_t)(k + 1) * r->interval_ns) / xmax;

			if (x1 > 1)
				x1 = 1;
			fprintf(f, "%s%.2f %.2f L%.2f %.2f ", k ? "L" : "M",
				L + pw * x0, T + ph * (1 - hi[k] / 100),
				L + pw * x1, T + ph * (1 - hi[k] / 100));
		}
		for (k = nk; k-- > 0;) {
			double x0 = secs((uint64_t)k * r->interval_ns) / xmax;
			double x1 = secs((uint64_t)(k + 1) * r->interval_ns) / xmax;

			if (x1 > 1)
				x1 = 1;
			fprintf(f, "L%.2f %.2f L%.2f %.2f ",
				L + pw * x1, T + ph * (1 - lo[k] / 100),
				L + pw * x0, T + ph * (1 - lo[k] / 100));
		}
		fputs("Z\"/>\n", f);
		for (k = 0; k < nk; k++)
			lo[k] = hi[k];
	}

	/* Expected shares: where each band's top would be, dashed. */
	cum = 0;
	for (i = 0; i < nstack; i++) {
		size_t g = byrank[i];
		char col[32];
		double y;

		if (r->cg[g].expect < 0)
			break;
		cum += 100 * r->cg[g].expect;
		if (cum >= 100 - 1e-9)	/* the top of the frame says it */
			break;
		y = T + ph * (1 - cum / 100);
		color(col, sizeof(col), i);
		fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke=\"%s\""
			" stroke-width=\"2\" stroke-dasharray=\"8,5\"/>\n",
			L, y, L + pw, y, col);
		fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke=\"black\""
			" stroke-width=\"0.6\" stroke-dasharray=\"8,5\"/>\n",
			L, y, L + pw, y);
	}

	/* Axes, ticks, labels. */
	fprintf(f, "<g stroke=\"black\" stroke-width=\"1\">\n"
		"<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/>\n"
		"<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\"/>\n</g>\n",
		L, T + ph, L + pw, T + ph, L, T, L, T + ph);
	for (i = 0; i <= 5; i++) {
		double y = T + ph * (1 - (double)i / 5.0);

		fprintf(f, "<line x1=\"%g\" y1=\"%.2f\" x2=\"%g\" y2=\"%.2f\" stroke=\"black\"/>"
			"<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\">%u</text>\n",
			L - 5, y, L, y, L - 8, y + 4, (unsigned)(i * 20));
	}
	step = tick_step(xmax, 8);
	for (x = 0, i = 0; x <= xmax * (1 + 1e-9) && i < 100; i++, x = (double)i * step) {
		double px = L + pw * x / xmax;

		fprintf(f, "<line x1=\"%.2f\" y1=\"%g\" x2=\"%.2f\" y2=\"%g\" stroke=\"black\"/>"
			"<text x=\"%.2f\" y=\"%g\" text-anchor=\"middle\">%g</text>\n",
			px, T + ph, px, T + ph + 5, px, T + ph + 20, x);
	}
	fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">time (s)</text>\n",
		L + pw / 2, H - 15);
	fprintf(f, "<text transform=\"translate(%g %g) rotate(-90)\" text-anchor=\"middle\">"
		"share of %s (%%)</text>\n", L - 45, T + ph / 2, metric);

	/* Legend. */
	for (i = 0; i < nstack && i < 30; i++) {
		size_t g = byrank[i];
		double y = T + 10 + 36 * (double)(nstack - 1 - i), share;
		char col[32], buf[32];
		const struct bs_stat *s;

		if (nstack > 30)	/* too many: list top-down without gaps */
			y = T + 10 + 36 * (double)i;
		s = &r->cg[g].total;
		share = o->svg_bytes ?
			(tbytes ? 100.0 * (double)s->bytes / (double)tbytes : 0) :
			(r->busy_ns > 0 ? 100.0 * s->time_ns / r->busy_ns : 0);
		color(col, sizeof(col), i);
		fprintf(f, "<rect x=\"%g\" y=\"%.2f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n",
			L + pw + 15, y, col);
		fprintf(f, "<text x=\"%g\" y=\"%.2f\">", L + pw + 35, y + 11);
		put_xml(f, bs_cg_name(&r->cg[g], buf, sizeof(buf)));
		fputs("</text>\n", f);
		fprintf(f, "<text x=\"%g\" y=\"%.2f\" font-size=\"10\">got %.1f%%",
			L + pw + 35, y + 25, share);
		if (r->cg[g].expect >= 0)
			fprintf(f, ", expected %.1f%% (dashed)", 100 * r->cg[g].expect);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
out:
	free(tot);
	free(lo);
	free(hi);
	free(rank);
	free(byrank);
	free(rc);
	free(ord);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * blkshare - per-cgroup share of dispatch, from blktrace's binary output.
 *
 * Reads the per-CPU files blktrace writes (NAME.blktrace.N), merges them
 * in time order, follows every request from dispatch (D) to completion
 * (C) and charges its bytes and its device time to the cgroup id the
 * kernel recorded (blk_cgroup trace option).  The charging model is
 * described at the top of trace.c; in short:
 *
 *   bytes%  share of the bytes of completed requests, counted in the
 *           interval of their dispatch, charged to the D's cgroup (C's
 *           if D had none);
 *   time%   share of device time, where every moment a device has n
 *           requests in flight is split equally among them (QD1: D->C).
 *
 * This file does the command line, finds the input files, maps cgroup ids
 * to paths and weights by walking a cgroup mount (a cgroup's id is its
 * directory's inode number), and computes expected shares:
 *
 *   expected share = weight / sum of the weights of the cgroups that did
 *                    I/O in the trace.
 *
 * That is the right expectation for siblings under one parent that are all
 * backlogged; for nested cgroups, or cgroups that idle, it is not, and
 * --expect lets you state it.
 *
 * Exit status: 0 ok, 2 on any error (bad usage, unreadable or malformed
 * input, with the file and byte offset named on stderr).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "trace.h"

static const char *const default_weight_files[] = {
	"blkio.weight", "io.hcfq.weight", "blkio.hcfq.weight", "io.bfq.weight",
	"blkio.bfq.weight", "io.weight", NULL,
};

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("blkshare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = xmalloc(la + lb + 2);

	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

static void usage(FILE *f)
{
	fputs(
"usage: blkshare [options] INPUT...\n"
"  INPUT is a blktrace file, a directory holding *.blktrace.N files, a\n"
"  name NAME for NAME.blktrace.N (as in blktrace -o NAME), or - for stdin.\n"
"options:\n"
"  --interval SEC        interval length (default 1)\n"
"  --no-intervals        only print the totals\n"
"  --format text|tsv     output format (default text)\n"
"  --cgroup-root DIR     map cgroup ids to paths and weights under DIR\n"
"                        (e.g. /sys/fs/cgroup or /sys/fs/cgroup/blkio)\n"
"  --weight-file NAME    read weights from NAME only (default: first of\n"
"                        blkio.weight io.hcfq.weight blkio.hcfq.weight\n"
"                        io.bfq.weight blkio.bfq.weight io.weight)\n"
"  --default-weight N    weight of cgroups with no weight file\n"
"  --expect NAME=S,...   expected shares; S with %: absolute percent,\n"
"                        plain numbers: relative weights (normalised)\n"
"  --dev MAJ:MIN         only this device\n"
"  --msgs                list message events (blk_add_trace_msg)\n"
"  --events              one line per event, like blkparse, with the\n"
"                        cgroup's path, instead of the tables\n"
"  --svg FILE            stacked-area plot of per-interval shares\n"
"  --svg-metric time|bytes  what the plot shows (default time)\n"
"  --max-intervals N     refuse traces needing more intervals (1000000)\n"
"  -h, --help\n", f);
}

/* ---- input files ---- */

struct input {
	char *path;
	unsigned long cpu;	/* N of NAME.blktrace.N, for ordering */
};

static struct input *inputs;
static size_t ninputs, inputcap;

static void add_input(const char *path, unsigned long cpu)
{
	if (ninputs == inputcap) {
		inputcap = inputcap ? inputcap * 2 : 16;
		inputs = realloc(inputs, inputcap * sizeof(*inputs));
		if (!inputs)
			die("out of memory");
	}
	inputs[ninputs].path = xstrdup(path);
	inputs[ninputs].cpu = cpu;
	ninputs++;
}

/* Does name look like PREFIX.blktrace.N (PREFIX == NULL: any prefix)? */
static int trace_name(const char *name, const char *prefix, unsigned long *cpu)
{
	const char *p;
	char *end;

	if (prefix) {
		size_t n = strlen(prefix);

		if (strncmp(name, prefix, n) || strncmp(name + n, ".blktrace.", 10))
			return 0;
		p = name + n + 10;
	} else {
		p = strstr(name, ".blktrace.");
		if (!p || p == name)
			return 0;
		while (strstr(p + 1, ".blktrace."))
			p = strstr(p + 1, ".blktrace.");
		p += 10;
	}
	if (*p < '0' || *p > '9')
		return 0;
	errno = 0;
	*cpu = strtoul(p, &end, 10);
	return !*end && !errno;
}

static int input_cmp(const void *a, const void *b)
{
	const struct input *x = a, *y = b;
	const char *dx = strstr(x->path, ".blktrace.");
	const char *dy = strstr(y->path, ".blktrace.");

	/* Same prefix: order by cpu number, not by string. */
	if (dx && dy && dx - x->path == dy - y->path &&
	    !strncmp(x->path, y->path, (size_t)(dx - x->path)))
		return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
	return strcmp(x->path, y->path);
}

/* Add the *.blktrace.N files in dir whose prefix is prefix (NULL: any). */
static size_t scan_dir(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n0 = ninputs;
	unsigned long cpu;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (trace_name(de->d_name, prefix, &cpu)) {
			char *p = strcmp(dir, ".") ? join(dir, de->d_name) :
				  xstrdup(de->d_name);

			add_input(p, cpu);
			free(p);
		}
	}
	closedir(d);
	if (ninputs - n0 > 1)
		qsort(inputs + n0, ninputs - n0, sizeof(*inputs), input_cmp);
	return ninputs - n0;
}

static void find_inputs(const char *arg)
{
	struct stat st;

	if (!strcmp(arg, "-")) {
		add_input(arg, 0);
		return;
	}
	if (!stat(arg, &st)) {
		if (S_ISDIR(st.st_mode)) {
			if (!scan_dir(arg, NULL))
				die("%s: no *.blktrace.N files in this directory", arg);
		} else {
			add_input(arg, 0);
		}
		return;
	}
	if (errno == ENOENT || errno == ENOTDIR) {
		char *dup = xstrdup(arg), *slash = strrchr(dup, '/');
		const char *dir = ".", *base = dup;
		size_t n;

		if (slash) {
			*slash = 0;
			dir = slash == dup ? "/" : dup;
			base = slash + 1;
		}
		n = *base ? scan_dir(dir, base) : 0;
		free(dup);
		if (n)
			return;
		die("%s: no such file, and no %s.blktrace.N files", arg, arg);
	}
	die("%s: %s", arg, strerror(errno));
}

/* Read a whole file; dies naming it on error. */
static uint8_t *slurp(const char *path, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf;
	struct stat st;

	if (fd < 0)
		die("%s: cannot open: %s", path, strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap > SIZE_MAX / 2)
				die("%s: file too large", path);
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("%s: out of memory", path);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("%s: read error at offset %zu: %s", path, n, strerror(errno));
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	if (fd)
		close(fd);
	*len = n;
	return buf;
}

/* ---- cgroup ids to names and weights ---- */

struct walk {
	struct bs_result *r;
	const char *weight_file;	/* NULL: default list */
	int have_dev;			/* dev is the only device of interest */
	uint32_t dev;
	int any_high;			/* some cgid doesn't fit in 32 bits */
};

/* Parse a weight file: "N", or "default N" plus "MAJ:MIN N" lines. */
static int parse_weight(const char *text, const struct walk *w, double *out)
{
	const char *line = text;
	int have_def = 0, have_dev = 0;
	double def = 0, devw = 0;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[128], word[64];
		unsigned maj, min;
		double v;

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = 0;
			if (sscanf(buf, "default %lf", &v) == 1 ||
			    (sscanf(buf, "%lf", &v) == 1 && !strchr(buf, ':'))) {
				if (!have_def)
					def = v;
				have_def = 1;
			} else if (sscanf(buf, "%u:%u %63s", &maj, &min, word) == 3 &&
				   w->have_dev && maj == BS_MAJOR(w->dev) &&
				   min == BS_MINOR(w->dev) &&
				   sscanf(word, "%lf", &v) == 1) {
				devw = v;
				have_dev = 1;
			}
		}
		line += len + (nl ? 1 : 0);
	}
	if (have_dev)
		*out = devw;
	else if (have_def)
		*out = def;
	return have_dev || have_def;
}

static double read_weight(const char *dir, const struct walk *w)
{
	const char *one[2] = { w->weight_file, NULL };
	const char *const *names = w->weight_file ? one : default_weight_files;
	size_t i;

	for (i = 0; names[i]; i++) {
		char *p = join(dir, names[i]), buf[4096];
		int fd = open(p, O_RDONLY);
		ssize_t n;
		double v;

		free(p);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (parse_weight(buf, w, &v) && v >= 0)
			return v;
	}
	return -1;
}

static void visit(struct walk *w, const char *dir, const char *rel, ino_t ino)
{
	struct bs_result *r = w->r;
	long i = bs_result_find(r, (uint64_t)ino);
	size_t j;

	if (i < 0 && w->any_high)	/* 32-bit ino_t: ino is the low half */
		for (j = 0; j < r->ncg; j++)
			if (r->cg[j].cgid > UINT32_MAX &&
			    (uint32_t)r->cg[j].cgid == (uint64_t)ino)
				i = (long)j;
	if (i < 0 || r->cg[i].name || r->cg[i].cgid == 0)
		return;
	r->cg[i].name = *rel ? join("", rel) : xstrdup("/");
	r->cg[i].weight = read_weight(dir, w);
}

static void walk_dir(struct walk *w, const char *dir, const char *rel,
		     int depth)
{
	DIR *d;
	struct dirent *de;

	if (depth > 64)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		char *p, *q;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		p = join(dir, de->d_name);
		if (lstat(p, &st) || !S_ISDIR(st.st_mode)) {
			free(p);
			continue;
		}
		q = *rel ? join(rel, de->d_name) : xstrdup(de->d_name);
		visit(w, p, q, st.st_ino);
		walk_dir(w, p, q, depth + 1);
		free(p);
		free(q);
	}
	closedir(d);
}

static void map_cgroups(struct walk *w, const char *root)
{
	struct stat st;
	size_t i;

	errno = 0;
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		die("%s: not a cgroup directory: %s", root,
		    errno ? strerror(errno) : "not a directory");
	for (i = 0; i < w->r->ncg; i++)
		if (w->r->cg[i].cgid > UINT32_MAX)
			w->any_high = 1;
	visit(w, root, "", st.st_ino);
	walk_dir(w, root, "", 0);
}

/* --expect NAME=S,...: S% absolute, plain S relative. */
static void apply_expect(struct bs_result *r, const char *spec)
{
	char *dup = xstrdup(spec), *tok, *save = NULL;
	double sum = 0;
	int pct = -1;
	size_t i;

	for (i = 0; i < r->ncg; i++)
		r->cg[i].expect = -1;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strrchr(tok, '='), *end;
		int found = 0, ispct;
		double v;

		if (!eq || eq == tok)
			die("--expect: '%s' is not NAME=SHARE", tok);
		*eq = 0;
		v = strtod(eq + 1, &end);
		ispct = *end == '%';
		if (end == eq + 1 || (*end && strcmp(end, "%")) || !(v >= 0))
			die("--expect: bad share '%s' for %s", eq + 1, tok);
		if (pct >= 0 && pct != ispct)
			die("--expect: mix of percent and relative shares");
		pct = ispct;
		for (i = 0; i < r->ncg; i++) {
			struct bs_cg *g = &r->cg[i];
			char buf[32], idbuf[32];
			const char *name = bs_cg_name(g, buf, sizeof(buf));

			snprintf(idbuf, sizeof(idbuf), "%llu", (unsigned long long)g->cgid);
			if (!strcmp(name, tok) || (name[0] == '/' && !strcmp(name + 1, tok)) ||
			    (!strncmp(tok, "id:", 3) && !strcmp(tok + 3, idbuf)) ||
			    !strcmp(tok, idbuf)) {
				g->expect = ispct ? v / 100 : v;
				found = 1;
			}
		}
		if (!ispct)
			sum += v;
		if (!found)
			fprintf(stderr, "blkshare: warning: --expect: no cgroup '%s' in the trace\n",
				tok);
	}
	if (pct == 0)
		for (i = 0; i < r->ncg; i++)
			if (r->cg[i].expect >= 0)
				r->cg[i].expect = sum > 0 ? r->cg[i].expect / sum : -1;
	free(dup);
}

static double parse_num(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= 0) || v > 1e15)
		die("%s: bad number '%s'", opt, s);
	return v;
}

enum {
	OPT_INTERVAL = 256, OPT_NO_INTERVALS, OPT_FORMAT, OPT_CGROUP_ROOT,
	OPT_WEIGHT_FILE, OPT_DEFAULT_WEIGHT, OPT_EXPECT, OPT_DEV, OPT_MSGS,
	OPT_SVG, OPT_SVG_METRIC, OPT_MAX_INTERVALS, OPT_EVENTS,
};

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "no-intervals", no_argument, NULL, OPT_NO_INTERVALS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "cgroup-root", required_argument, NULL, OPT_CGROUP_ROOT },
		{ "weight-file", required_argument, NULL, OPT_WEIGHT_FILE },
		{ "default-weight", required_argument, NULL, OPT_DEFAULT_WEIGHT },
		{ "expect", required_argument, NULL, OPT_EXPECT },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "msgs", no_argument, NULL, OPT_MSGS },
		{ "events", no_argument, NULL, OPT_EVENTS },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "svg-metric", required_argument, NULL, OPT_SVG_METRIC },
		{ "max-intervals", required_argument, NULL, OPT_MAX_INTERVALS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bs_report_opts ro = { .intervals = 1 };
	struct bs_opts o = { .interval_ns = 1000000000ull, .max_intervals = 1000000 };
	const char *cgroot = NULL, *expect = NULL, *svg = NULL;
	struct walk w = { 0 };
	double defweight = -1, v;
	struct bs_trace t;
	struct bs_result r;
	struct bs_error err;
	size_t i, total = 0;
	int c, events = 0;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case OPT_INTERVAL:
			v = parse_num("--interval", optarg);
			if (v * 1e9 < 1 || v > 1e9)
				die("--interval: between 1 ns and 1e9 s");
			o.interval_ns = (uint64_t)(v * 1e9 + 0.5);
			break;
		case OPT_NO_INTERVALS:
			ro.intervals = 0;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "tsv"))
				ro.tsv = 1;
			else if (strcmp(optarg, "text"))
				die("--format: text or tsv, not '%s'", optarg);
			break;
		case OPT_CGROUP_ROOT:
			cgroot = optarg;
			break;
		case OPT_WEIGHT_FILE:
			if (!*optarg || strchr(optarg, '/'))
				die("--weight-file: a file name, not '%s'", optarg);
			w.weight_file = optarg;
			break;
		case OPT_DEFAULT_WEIGHT:
			defweight = parse_num("--default-weight", optarg);
			break;
		case OPT_EXPECT:
			expect = optarg;
			break;
		case OPT_DEV: {
			unsigned maj, min;
			char tail;

			if (sscanf(optarg, "%u:%u%c", &maj, &min, &tail) != 2 &&
			    sscanf(optarg, "%u,%u%c", &maj, &min, &tail) != 2)
				die("--dev: MAJ:MIN, not '%s'", optarg);
			if (maj > 0xfff || min > 0xfffff)
				die("--dev: '%s' out of range", optarg);
			o.dev_filter = 1;
			o.dev = (uint32_t)maj << 20 | min;
			break;
		}
		case OPT_MSGS:
			ro.msgs = 1;
			break;
		case OPT_EVENTS:
			events = 1;
			break;
		case OPT_SVG:
			svg = optarg;
			break;
		case OPT_SVG_METRIC:
			if (!strcmp(optarg, "bytes"))
				ro.svg_bytes = 1;
			else if (strcmp(optarg, "time"))
				die("--svg-metric: time or bytes, not '%s'", optarg);
			break;
		case OPT_MAX_INTERVALS:
			v = parse_num("--max-intervals", optarg);
			if (v < 1 || v > UINT32_MAX - 1)
				die("--max-intervals: out of range");
			o.max_intervals = (uint32_t)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (!ro.intervals && !svg)
		o.interval_ns = 0;

	for (; optind < argc; optind++)
		find_inputs(argv[optind]);

	bs_trace_init(&t);
	t.keep_all = events;
	for (i = 0; i < ninputs; i++) {
		size_t len;
		uint8_t *buf = slurp(inputs[i].path, &len);

		total += len;
		if (bs_parse_buf(&t, buf, len, &err))
			die("%s: offset %llu: %s", inputs[i].path,
			    (unsigned long long)err.offset, err.msg);
		free(buf);
	}
	if (!t.nraw)
		die("%s: empty input (%zu bytes, no events)",
		    ninputs == 1 ? inputs[0].path : "all inputs", total);
	bs_trace_sort(&t);
	if (bs_analyze(&t, &o, &r, &err))
		die("%s%s", err.msg,
		    strstr(err.msg, "intervals") ? "; use a larger --interval" : "");

	w.r = &r;
	if (o.dev_filter) {
		w.have_dev = 1;
		w.dev = o.dev;
	} else if (r.ndev == 1) {
		w.have_dev = 1;
		w.dev = r.dev0;
	}
	if (cgroot)
		map_cgroups(&w, cgroot);
	if (defweight >= 0)
		for (i = 0; i < r.ncg; i++)
			if (r.cg[i].cgid && r.cg[i].weight < 0)
				r.cg[i].weight = defweight;
	bs_expect_from_weights(&r);
	if (expect)
		apply_expect(&r, expect);

	if (!events)
		bs_report(stdout, &t, &r, &ro);
	else if (bs_events(stdout, &t, &r, &o, &ro))
		die("out of memory");
	if (svg) {
		FILE *f = fopen(svg, "w");

		if (!f)
			die("%s: cannot write: %s", svg, strerror(errno));
		bs_svg(f, &r, &ro);
		if (fclose(f))
			die("%s: write error: %s", svg, strerror(errno));
	}
	if (fflush(stdout) || ferror(stdout))
		die("write error on stdout: %s", strerror(errno));

	bs_result_free(&r);
	bs_trace_free(&t);
	for (i = 0; i < ninputs; i++)
		free(inputs[i].path);
	free(inputs);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * decode-elem.c - ete-decode's side of OpenCSD: the generic elements
 * printed or stored as they come, the library's error log, and the
 * decode of every job (segment by segment, between the gap records) on
 * worker threads whose outputs are printed in job order.
 */
#include "ete-decode.h"

struct job *jobs;
size_t njobs;
size_t print_next;	/* the job whose output goes out next */
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- OpenCSD callbacks ---- */

static void add_ctx(struct decode *d, bool valid, uint32_t id)
{
	size_t i;

	for (i = 0; valid && i < d->nctx; i++)
		if (d->ctx[i] == id)
			return;
	if (valid && d->nctx < ARRAY_SIZE(d->ctx))
		d->ctx[d->nctx++] = id;
}

/* " sym+0xoff" (text) or ,"sym":"sym+0xoff" (JSON) when @a has a symbol */
static void put_sym(struct decode *d, uint64_t a)
{
	const struct sym *s = find_sym(d, a);
	struct out *o = d->out;

	if (!s)
		return;
	if (cfg.json) {
		json_key(o, "sym");
		out_json_str(o, s->name, strlen(s->name));
		o->len--;	/* the name's closing quote */
		out_str(o, "+");
		out_hex(o, a - s->addr);
		out_chr(o, '"');
	} else {
		out_chr(o, ' ');
		out_str(o, s->name);
		out_chr(o, '+');
		out_hex(o, a - s->addr);
	}
}

/* ,"ctxid":N,"pid":P,"comm":"C" of the context a JSON line is in */
static void json_task(struct decode *d)
{
	struct out *o = d->out;

	if (!d->ctx_valid)
		return;
	json_key(o, "ctxid");
	out_dec(o, d->ctx_id);
	if (d->task) {
		json_key(o, "pid");
		out_fmt(o, "%ld", d->task->tgid);
		json_key(o, "comm");
		out_json_str(o, d->task->comm, strlen(d->task->comm));
	}
}

/* R/Q: a range, or what a Q element leaves unknown */
static void put_range(struct decode *d, uint64_t idx, const ocsd_generic_trace_elem *e,
		      bool q)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, q ? "nopath" : "range");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "start");
		out_chr(o, '"');
		out_hex(o, e->st_addr);
		out_chr(o, '"');
		json_key(o, q ? "next" : "end");
		out_chr(o, '"');
		out_hex(o, e->en_addr);
		out_chr(o, '"');
		json_key(o, "n");
		out_dec(o, e->num_instr_range);
		put_sym(d, e->st_addr);
		json_task(d);
		json_end(d);
		return;
	}
	out_chr(o, q ? 'Q' : 'R');
	out_chr(o, ' ');
	out_dec(o, idx);
	out_chr(o, ' ');
	out_hex(o, e->st_addr);
	out_chr(o, ' ');
	out_hex(o, e->en_addr);
	out_chr(o, ' ');
	out_dec(o, e->num_instr_range);
	put_sym(d, e->st_addr);
	out_chr(o, '\n');
	out_line_end(d);
}

/* C: the context ID changed (or is the segment's first) */
static void put_context(struct decode *d, uint64_t idx)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "context");
		json_key(o, "idx");
		out_dec(o, idx);
		json_task(d);
		json_end(d);
		return;
	}
	if (d->task)
		out_fmt(o, "C %llu %ld %s\n", ULL(idx), d->task->tgid, d->task->comm);
	else
		out_fmt(o, "C %llu %u\n", ULL(idx), d->ctx_id);
	out_line_end(d);
}

static void put_timestamp(struct decode *d, uint64_t idx, uint64_t ts)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "timestamp");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "ts");
		out_dec(o, ts);
		if (cfg.cntfrq)
			out_fmt(o, ",\"s\":%.9f", (double)ts / cfg.cntfrq);
		json_end(d);
		return;
	}
	out_fmt(o, "T %llu %llu", ULL(idx), ULL(ts));
	if (cfg.cntfrq)
		out_fmt(o, " %.9f", (double)ts / cfg.cntfrq);
	out_chr(o, '\n');
	out_line_end(d);
}

/* The exception types of ETE's Exception packets (ETE, "Exception type") */
static const char *exception_name(uint32_t n)
{
	static const char *const names[] = {
		[0x0] = "reset", [0x1] = "debug-halt", [0x2] = "call",
		[0x3] = "trap", [0x4] = "serror", [0x6] = "inst-debug",
		[0x7] = "data-debug", [0xa] = "alignment",
		[0xb] = "inst-fault", [0xc] = "data-fault", [0xe] = "irq",
		[0xf] = "fiq",
	};

	return n < ARRAY_SIZE(names) && names[n] ? names[n] : "other";
}

static void put_exception(struct decode *d, uint64_t idx, const ocsd_generic_trace_elem *e)
{
	struct out *o = d->out;
	bool ret = e->elem_type == OCSD_GEN_TRC_ELEM_EXCEPTION_RET;

	if (cfg.json) {
		json_start(d, ret ? "exception_return" : "exception");
		json_key(o, "idx");
		out_dec(o, idx);
		if (!ret) {
			json_key(o, "number");
			out_dec(o, e->exception_number);
			json_key(o, "name");
			out_fmt(o, "\"%s\"", exception_name(e->exception_number));
			if (e->excep_ret_addr) {
				json_key(o, "ret");
				out_chr(o, '"');
				out_hex(o, e->en_addr);
				out_chr(o, '"');
			}
		}
		json_end(d);
		return;
	}
	if (ret) {
		out_fmt(o, "X %llu return\n", ULL(idx));
	} else {
		out_fmt(o, "X %llu exception %u %s", ULL(idx), e->exception_number,
			exception_name(e->exception_number));
		if (e->excep_ret_addr) {
			out_str(o, " ret ");
			out_hex(o, e->en_addr);
		}
		out_chr(o, '\n');
	}
	out_line_end(d);
}

/* O: trace on (with why), lost sync, end of the trace */
static void put_onoff(struct decode *d, uint64_t idx, const char *what, const char *why)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "trace");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "state");
		out_fmt(o, "\"%s\"", what);
		json_key(o, "reason");
		out_fmt(o, "\"%s\"", why);
		json_end(d);
		return;
	}
	out_fmt(o, "O %llu %s %s\n", ULL(idx), what, why);
	out_line_end(d);
}

static const char *trace_on_reason(trace_on_reason_t r)
{
	switch (r) {
	case TRACE_ON_NORMAL:
		return "normal";
	case TRACE_ON_OVERFLOW:
		return "overflow";
	case TRACE_ON_EX_DEBUG:
		return "debug";
	}
	return "other";
}

static const char *unsync_reason(unsync_info_t r)
{
	switch (r) {
	case UNSYNC_INIT_DECODER:
		return "init";
	case UNSYNC_RESET_DECODER:
		return "reset";
	case UNSYNC_OVERFLOW:
		return "overflow";
	case UNSYNC_DISCARD:
		return "discard";
	case UNSYNC_BAD_PACKET:
		return "bad-packet";
	case UNSYNC_EOT:
		return "end-of-trace";
	default:
		return "unknown";
	}
}

/* E: an error line, or ("E"-less) its JSON */
static void put_error(struct decode *d, uint64_t idx, bool has_idx, const char *msg,
		      size_t len)
{
	struct out *o = d->out;

	while (len && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
		len--;
	if (cfg.json) {
		json_start(d, "error");
		if (has_idx) {
			json_key(o, "idx");
			out_dec(o, idx);
		}
		json_key(o, "msg");
		out_json_str(o, msg, len);
		json_end(d);
		return;
	}
	out_str(o, "E ");
	if (has_idx) {
		out_dec(o, idx);
		out_chr(o, ' ');
	}
	out_mem(o, msg, len);
	out_chr(o, '\n');
	out_line_end(d);
}

static void put_nacc(struct decode *d, uint64_t idx, uint64_t addr)
{
	struct out *o = d->out;

	if (cfg.json) {
		json_start(d, "nacc");
		json_key(o, "idx");
		out_dec(o, idx);
		json_key(o, "addr");
		out_chr(o, '"');
		out_hex(o, addr);
		out_chr(o, '"');
		json_end(d);
		return;
	}
	out_fmt(o, "E %llu no memory image at 0x%llx\n", ULL(idx), ULL(addr));
	out_line_end(d);
}

ocsd_datapath_resp_t elem_cb(const void *ctx,
			     const ocsd_trc_index_t index,
			     const uint8_t chan,
			     const ocsd_generic_trace_elem *e)
{
	struct decode *d = (struct decode *)ctx;
	bool print = cfg.mode == MODE_PRINT;
	ocsd_trc_index_t idx = index;
	struct range *r;

	(void)chan;
	/*
	 * OpenCSD 1.3.3 reads a Q element whose address came in a separate
	 * packet after freeing it (processQElement()): its index is junk.
	 * Elements come in stream order, so the last good index stands in.
	 */
	if (idx < d->seg_start || idx >= d->seg_end)
		idx = d->last_idx;
	d->last_idx = idx;
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		d->nranges++;
		if (cfg.mode == MODE_AFDO) {
			if (e->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE)
				afdo_range(d, e);
			else
				afdo_break(d);
			break;
		}
		if (print) {
			put_range(d, idx, e,
				  e->elem_type == OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH);
			break;
		}
		if (cfg.mode != MODE_STORE)
			break;
		r = vec_push(&d->ranges);
		r->idx = idx;
		r->start = e->st_addr;
		r->end = e->en_addr;
		r->n = e->num_instr_range;
		r->q = e->elem_type == OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH;
		break;
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
		add_ctx(d, e->context.ctxt_id_valid, e->context.context_id);
		add_ctx(d, e->context.vmid_valid, e->context.vmid);
		if (!e->context.ctxt_id_valid ||
		    (d->ctx_valid && d->ctx_id == e->context.context_id))
			break;
		d->ctx_valid = true;
		d->ctx_id = e->context.context_id;
		d->task = find_task(d->ctx_id);
		if (print)
			put_context(d, idx);
		break;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		afdo_break(d);
		d->nacc++;
		if (!d->quiet)
			put_nacc(d, idx, e->st_addr);
		break;
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		if (print)
			put_timestamp(d, idx, e->timestamp);
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		afdo_break(d);
		if (print)
			put_exception(d, idx, e);
		break;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		afdo_break(d);
		if (print)
			put_onoff(d, idx, "on", trace_on_reason(e->trace_on_reason));
		break;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		afdo_break(d);
		if (print)
			put_onoff(d, idx, "unsynced", unsync_reason(e->unsync_eot_info));
		break;
	case OCSD_GEN_TRC_ELEM_EO_TRACE:
		afdo_break(d);
		if (print)
			put_onoff(d, idx, "off", unsync_reason(e->unsync_eot_info));
		break;
	default:
		break;
	}
	return OCSD_RESP_CONT;
}

/*
 * A-Sync packets: eleven 0x00 then 0x80.  No other packet holds eleven
 * zero bytes in a row, which is what makes the pattern a synchronization
 * point a decoder finds by scanning (OpenCSD's packet processor does so
 * when unsynchronized); the C API of 1.3.3 has no packet monitor for ETE.
 */
void find_asyncs(const uint8_t *trace, size_t len, struct decode *d)
{
	size_t i, zeros = 0;

	for (i = 0; i < len; i++) {
		if (trace[i] == 0x80 && zeros >= 11)
			*(uint64_t *)vec_push(&d->asyncs) = i - 11;
		zeros = trace[i] ? 0 : zeros + 1;
	}
}

/*
 * OpenCSD's error logger is one for the whole library: it calls back with
 * the context of the last tree that set it, so the decode a message is of
 * is the calling thread's.  The logger also keeps the last error in an
 * object of its own, unlocked: a thread that logs takes errlog_lock in
 * the callback (called before that update) and keeps it until its
 * ocsd_dt_process_data() call returns, so no two threads log at once.
 */
static __thread struct decode *cur_decode;
static __thread bool holds_errlog;
static pthread_mutex_t errlog_lock = PTHREAD_MUTEX_INITIALIZER;

void log_cb(const void *ctx, const char *msg, const int len)
{
	struct decode *d = cur_decode;

	(void)ctx;
	if (!holds_errlog) {
		pthread_mutex_lock(&errlog_lock);
		holds_errlog = true;
	}
	if (!d)
		return;
	d->errors++;
	if (!d->quiet)
		put_error(d, 0, false, msg, len);
}

void errlog_release(void)
{
	if (holds_errlog) {
		holds_errlog = false;
		pthread_mutex_unlock(&errlog_lock);
	}
}

static ocsd_datapath_resp_t process(dcd_tree_handle_t tree, ocsd_datapath_op_t op,
				    uint64_t index, uint32_t len, const uint8_t *data,
				    uint32_t *used)
{
	ocsd_datapath_resp_t r;

	r = ocsd_dt_process_data(tree, op, index, len, data, used);
	errlog_release();
	return r;
}

/* G: a driver gap marker, where a segment starts */
static void put_gap(struct decode *d, const struct gap *g)
{
	struct out *o = d->out;
	long long lost = 0;
	char reason[64] = "";

	if (cfg.json) {
		if (sscanf(g->what, "%lld %63s", &lost, reason) < 1)
			lost = 0;
		json_start(d, "gap");
		json_key(o, "offset");
		out_dec(o, g->off);
		json_key(o, "lost");
		out_fmt(o, "%lld", lost);
		json_key(o, "reason");
		out_json_str(o, reason, strlen(reason));
		json_end(d);
		return;
	}
	out_fmt(o, "G %llu %s\n", ULL(g->off), g->what);
	out_line_end(d);
}

/* Decode @j's trace, segment by segment, with the tree set up for it */
static void decode_job(struct job *j)
{
	static const char fatal[] = "fatal decode error, segment skipped";
	struct decode *d = &j->d;
	size_t seg, start = 0;

	if (j->skip)
		return;
	if (cfg.mode == MODE_PRINT && !cfg.json && etecap_source(j->src))
		out_fmt(d->out, "# cpu %d: %zu bytes, %zu gaps\n", j->cpu, j->len,
			j->ngaps);
	else if (cfg.mode == MODE_PRINT && !cfg.json)
		out_fmt(d->out, "# cpu %d: source %s, buffer %s, %s 0x%x: %zu bytes, %zu gaps\n",
			j->cpu, j->src->dev->name, j->src->buf->name,
			"trace ID", j->trace_id, j->len, j->ngaps);
	cur_decode = d;
	for (seg = 0; seg <= j->ngaps; seg++) {
		size_t end = seg < j->ngaps ? j->gaps[seg].off : j->len;

		if (seg && cfg.mode == MODE_PRINT)
			put_gap(d, &j->gaps[seg - 1]);
		if (end > j->len)
			end = j->len;
		if (end <= start)
			continue;
		process(j->tree, OCSD_OP_RESET, start, 0, NULL, NULL);
		d->seg_start = start;
		d->seg_end = end;
		d->last_idx = start;
		d->ctx_valid = false;
		d->task = NULL;
		afdo_break(d);
		while (start < end) {
			uint32_t n = 0;
			ocsd_datapath_resp_t r;

			/* the library takes 32-bit lengths: a GiB at a time */
			r = process(j->tree, OCSD_OP_DATA, start,
				    end - start < SZ_1G ? end - start : SZ_1G,
				    j->trace + start, &n);
			if (OCSD_DATA_RESP_IS_FATAL(r)) {
				d->errors++;
				put_error(d, start, true, fatal, strlen(fatal));
				break;
			}
			start += n;
		}
		process(j->tree, OCSD_OP_EOT, 0, 0, NULL, NULL);
		start = end;
	}
	cur_decode = NULL;
	if (cfg.mode != MODE_PRINT)
		return;
	if (cfg.json) {
		json_start(d, "summary");
		json_key(d->out, "bytes");
		out_dec(d->out, j->len);
		json_key(d->out, "ranges");
		out_dec(d->out, d->nranges);
		json_key(d->out, "segments");
		out_dec(d->out, j->ngaps + 1);
		json_key(d->out, "errors");
		out_dec(d->out, d->errors + d->nacc);
		json_end(d);
	} else {
		out_fmt(d->out, "# %lu ranges, %zu segments, %lu errors\n",
			d->nranges, j->ngaps + 1, d->errors + d->nacc);
	}
}

/* @j is decoded: print it, and what waited for it, when their turn comes */
static void job_done(struct job *j)
{
	pthread_mutex_lock(&print_lock);
	j->done = true;
	while (print_next < njobs && jobs[print_next].done) {
		out_print(&jobs[print_next].out);
		__atomic_store_n(&print_next, print_next + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&print_lock);
}

static size_t next_job;

static void *worker(void *arg)
{
	size_t i;

	(void)arg;
	while ((i = __atomic_fetch_add(&next_job, 1, __ATOMIC_RELAXED)) < njobs) {
		decode_job(&jobs[i]);
		job_done(&jobs[i]);
	}
	return NULL;
}

/* Decode every job on @nthreads threads (the calling one among them) */
void run_jobs(unsigned int nthreads)
{
	pthread_t *t = xrealloc(NULL, nthreads * sizeof(*t));
	unsigned int i, n = 0;

	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&t[n], NULL, worker, NULL)) {
			fprintf(stderr, "ete-decode: cannot start a thread, %u run\n", i);
			break;
		}
		n++;
	}
	worker(NULL);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the CPUs drained in parallel.  The traced CPUs are cut into
 * contiguous groups, one per thread: the calling thread takes the first,
 * a worker each of the others.  etecap_pool_run() returns when every
 * group is done, so nothing else of etecap ever runs beside a drain and
 * a worker touches only its own CPUs' state (struct etecap_cpu, their
 * files and buffers).  Workers block every signal: the handlers, the
 * ptrace stops and waitpid() stay the main thread's.
 *
 * As many groups as the host has CPUs online, at most ETECAP_POOL_MAX
 * and at most one per traced CPU; one group (a single CPU, a one-CPU
 * host, or no thread could be made) is the calling thread alone.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etecap.h"

#define ETECAP_POOL_MAX		64

static struct {
	pthread_mutex_t lock;
	pthread_cond_t go;	/* a new run, or the end */
	pthread_cond_t done;	/* the last worker finished its group */
	pthread_t tid[ETECAP_POOL_MAX];
	int groups;		/* the calling thread's and the workers' */
	unsigned long run;	/* runs started */
	int pending;		/* workers still in this run */
	bool quit;
	struct etecap *e;
	etecap_pool_fn fn;
	void *arg;
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.go = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
	.groups = 1,
};

/* Group @g's CPUs: [first, end) of e->cpu[] */
static void run_group(int g)
{
	int n = pool.e->o.ncpus, i;
	int first = (int)((long long)n * g / pool.groups);
	int end = (int)((long long)n * (g + 1) / pool.groups);

	for (i = first; i < end; i++)
		pool.fn(pool.e, i, pool.arg);
}

static void *worker(void *p)
{
	int g = (int)(long)p;
	unsigned long seen = 0;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!pool.quit && pool.run == seen)
			pthread_cond_wait(&pool.go, &pool.lock);
		if (pool.quit)
			break;
		seen = pool.run;
		pthread_mutex_unlock(&pool.lock);
		run_group(g);
		pthread_mutex_lock(&pool.lock);
		if (!--pool.pending)
			pthread_cond_signal(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/**
 * etecap_pool_start() - make the drain threads for @e's CPUs
 * @e: the capture; e->o.ncpus CPUs
 *
 * Never fails: with fewer threads than asked (none at worst) the groups
 * are fewer, the calling thread draining what no worker takes.
 *
 * Return: the number of groups.
 */
int etecap_pool_start(struct etecap *e)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int want = e->o.ncpus, g;
	sigset_t all, old;

	if (online > 0 && online < want)
		want = online;
	if (want > ETECAP_POOL_MAX)
		want = ETECAP_POOL_MAX;
	pool.e = e;
	pool.quit = false;
	pool.groups = 1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (g = 1; g < want; g++) {
		if (pthread_create(&pool.tid[g], NULL, worker, (void *)(long)g))
			break;
		pool.groups = g + 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pool.groups;
}

/**
 * etecap_pool_run() - call @fn for every CPU of the capture, in parallel
 * @e: the capture etecap_pool_start() was given (or, without threads,
 *	any)
 * @fn: called as fn(e, i, @arg) for each index i of e->cpu[], once
 * @arg: passed on
 *
 * Returns when every call has returned.
 */
void etecap_pool_run(struct etecap *e, etecap_pool_fn fn, void *arg)
{
	pthread_mutex_lock(&pool.lock);
	pool.e = e;
	pool.fn = fn;
	pool.arg = arg;
	pool.pending = pool.groups - 1;
	pool.run++;
	pthread_cond_broadcast(&pool.go);
	pthread_mutex_unlock(&pool.lock);
	run_group(0);
	pthread_mutex_lock(&pool.lock);
	while (pool.pending)
		pthread_cond_wait(&pool.done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
}

/**
 * etecap_pool_stop() - end the drain threads (none may be running a group)
 */
void etecap_pool_stop(void)
{
	int g;

	pthread_mutex_lock(&pool.lock);
	pool.quit = true;
	pthread_cond_broadcast(&pool.go);
	pthread_mutex_unlock(&pool.lock);
	for (g = 1; g < pool.groups; g++)
		pthread_join(pool.tid[g], NULL);
	pool.groups = 1;
}

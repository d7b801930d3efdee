/* acct-report.c: times gacct --report's aggregator (daemon/controller/
 * acct-report.c) on 1,000,000 finished jobs and their 1,000,000 runs of
 * 1,000 users on 1,000 nodes: the controller's share of a report, without
 * SQLite's reading of the rows. Prints CPU time and the load average. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "daemon/controller/acct-report.h"

#define BENCH_JOBS	1000000

int
main(int argc, char **argv)
{
	struct acct_report		*r;
	struct acct_report_job		 j = { 0 };
	struct acct_report_run		 run = { 0 };
	const struct acct_report_user	*u;
	static char			 user[1000][16], alloc[8000][24];
	double				 load[3] = { 0, 0, 0 };
	clock_t				 t0, t1;
	long				 n = argc > 1 ? atol(argv[1]) : BENCH_JOBS;
	long				 i;

	srand(1);
	for (i = 0; i < 8000; i++) {
		snprintf(user[i % 1000], sizeof user[0], "user%03ld", i % 1000);
		snprintf(alloc[i], sizeof alloc[0], "n%03ld:0x%x", i % 1000,
		    1 << (i / 1000));
	}
	r = acct_report_create(0, 86400 * 30);
	t0 = clock();
	for (i = 0; i < n; i++) {
		j.user = run.user = user[i % 1000];
		j.state = acct_report_state((int)(i % ACCT_NSTATES));
		j.gpus = 1 + (uint32_t)(i % 8);
		j.submit_time = i % (86400 * 30);
		j.end_time = j.submit_time + rand() % 36000;
		j.queue_delay = rand() % 600000;
		j.last_queue = (int)(i % 3);
		acct_report_job(r, &j);
		run.start_time = j.submit_time;
		run.end_time = j.end_time;
		run.gpus = 1;
		run.alloc = alloc[(i * 7) % 8000];
		acct_report_run(r, &run);
	}
	acct_report_finish(r);
	t1 = clock();
	(void)getloadavg(load, 3);
	printf("acct-report: %ld jobs + %ld runs, %zu users: %.3f s CPU "
	    "(load average %.2f %.2f %.2f)\n", n, n, acct_report_users(r, &u),
	    (double)(t1 - t0) / CLOCKS_PER_SEC, load[0], load[1], load[2]);
	acct_report_free(r);
	return (0);
}

/* job-row-test.c: the dates gq and gacct print. job-row.c keeps the local
 * hour it last printed for each field, to spare a million dates a
 * localtime and a strftime each; every date must still read exactly as
 * strftime(localtime()) writes it, across zone changes of an hour or of
 * half an hour (Lord Howe goes back from 02:00 to 01:30), in zones half an
 * hour or 45 minutes off UTC, and with the fields' dates interleaved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client/job-row.h"
#include "tests/unit/tap.h"

static const struct table_col *
col(const char *name)
{
	size_t	i;

	for (i = 0; i < job_row_ncols; i++) {
		if (strcmp(job_row_cols[i].name, name) == 0)
			return (&job_row_cols[i]);
	}
	return (NULL);
}

/* Dates around 2026's zone changes in zone tz, walked forwards and then
 * backwards in random steps (backwards, a date comes after a later one
 * that may have left its hour behind), the fields taking turns at random,
 * each compared with strftime. Returns the number that differ. */
static int
zone(const char *tz)
{
	static const char *const fields[] = { "submit_time", "start_time",
	    "end_time" };
	/* 2026-04-05 and 2026-10-04 (southern changes), 2026-03-08,
	 * 2026-03-29 and 2026-10-25, 2026-11-01 (northern), a day each. */
	static const time_t days[] = { 1775260800, 1791072000, 1772928000,
	    1774742400, 1792886400, 1793491200 };
	struct job_row	 row;
	struct jscan_val obj;
	struct tm	 tm;
	char		 json[128], buf[64], want[64];
	const char	*got;
	time_t		 t, step;
	int		 i, bad = 0, f;

	setenv("TZ", tz, 1);
	tzset();
	for (i = 0; i < 12; i++) {
		t = days[i / 2] + (i % 2 == 0 ? 0 : 2 * 86400);
		while (t >= days[i / 2] && t <= days[i / 2] + 2 * 86400) {
			f = (int)(tap_rand() % 3);
			snprintf(json, sizeof json, "{\"%s\":%lld}",
			    fields[f], (long long)t);
			if (jscan_open(json, strlen(json), &obj) == -1 ||
			    job_row_scan(&obj, &row) == -1)
				return (-1);
			got = col(fields[f])->get(&row, NULL, buf, sizeof buf);
			localtime_r(&t, &tm);
			strftime(want, sizeof want, "%Y-%m-%dT%H:%M:%S", &tm);
			if (strcmp(got, want) != 0 && bad++ < 3)
				fprintf(stderr, "# %s %lld: got %s, want %s\n",
				    tz, (long long)t, got, want);
			step = 1 + (time_t)(tap_rand() % 240);
			t += i % 2 == 0 ? step : -step;
		}
	}
	return (bad);
}

int
main(void)
{
	static const char *const tzs[] = { "UTC", "Europe/Berlin",
	    "America/New_York", "Australia/Lord_Howe", "Australia/Sydney",
	    "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns" };
	size_t	i;
	pid_t	pid;
	int	status;

	ok(col("submit_time") != NULL && col("end_time") != NULL,
	    "the date columns exist");
	/* A process per zone: the hours kept belong to one zone. */
	for (i = 0; i < sizeof tzs / sizeof tzs[0]; i++) {
		fflush(stdout);
		if ((pid = fork()) == 0)
			_exit(zone(tzs[i]) == 0 ? 0 : 1);
		status = -1;
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "dates in %s read as strftime writes them", tzs[i]);
	}
	return (tap_done());
}

/* fuzz-conf.c: both daemons' configuration loaders (conf_load for gbatchd,
 * node_conf_load for gnoded, through daemon/common/conf-file.c) on any
 * gbatch.conf. The input is a real file (a memfd, read through its
 * /proc path) so the loaders run exactly as at start-up. Each must accept
 * or refuse with a message naming the file; what gbatchd accepts must
 * print (gctl show config) and apply over the defaults (a reload); what
 * gnoded accepts must name at least one controller. Leaks show up under
 * ASan: a refused file must free what it had read. */
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/controller/conf.h"
#include "daemon/node/node-conf.h"
#include "tests/fuzz/fuzz.h"

/* libconfig 1.5's scanner leaks what it read of a string when a string
 * stands where a setting's name should ("\"b\";" and "\"\"" in
 * corpus/conf/libconfig-*-leak.conf): its bug, on a file the daemons
 * refuse to start with. LeakSanitizer (under libFuzzer and in the
 * sanitizer build's replay) passes over allocations made by the scanner
 * itself, and no others: a setting the parser made and we did not free
 * is still reported. */
const char	*__lsan_default_suppressions(void);
const char	*__lsan_default_options(void);

const char *
__lsan_default_suppressions(void)
{
	return ("leak:strbuf_append\nleak:libconfig_yylex\n");
}

/* A leak passed over is not a report: without this LeakSanitizer writes
 * its table of suppressions used to the report file, and tools/check
 * fails a run that leaves any report. */
const char *
__lsan_default_options(void)
{
	return ("print_suppressions=0");
}

static int	fuzz_conf_fd = -1;
static char	fuzz_conf_path[64];

/* Writes data as the whole content of the memfd. */
static void
fuzz_conf_write(const uint8_t *data, size_t size)
{
	if (fuzz_conf_fd == -1) {
		if ((fuzz_conf_fd = memfd_create("gbatch.conf", 0)) == -1)
			abort();
		snprintf(fuzz_conf_path, sizeof fuzz_conf_path,
		    "/proc/self/fd/%d", fuzz_conf_fd);
	}
	if (ftruncate(fuzz_conf_fd, 0) == -1 ||
	    (size > 0 && pwrite(fuzz_conf_fd, data, size, 0) != (ssize_t)size))
		abort();
}

/* A refusal names the file first, as the daemons print it. */
static void
fuzz_conf_refused(const char *err)
{
	size_t	len = strlen(fuzz_conf_path);

	if (strncmp(err, fuzz_conf_path, len) != 0 || err[len] != ':')
		abort();
}

/* After a reload every setting is the file's, except those reported as
 * waiting for a restart. */
static void
fuzz_conf_applied(const struct conf *applied, const struct conf *file,
    const json_t *restart)
{
	json_t		*now, *want, *g, *v, *name;
	const char	*group, *key;
	char		 full[128];
	size_t		 i;
	int		 listed;

	now = conf_reload_json(applied);
	want = conf_reload_json(file);
	json_object_foreach(want, group, g) {
		json_object_foreach(g, key, v) {
			if (json_equal(json_object_get(json_object_get(now,
			    group), key), v))
				continue;
			snprintf(full, sizeof full, "%s.%s", group, key);
			listed = 0;
			json_array_foreach(restart, i, name) {
				if (strcmp(json_string_value(name), full) == 0)
					listed = 1;
			}
			if (!listed)
				abort();
		}
	}
	json_decref(now);
	json_decref(want);
}

static void
fuzz_conf_controller(void)
{
	struct conf	 c, d;
	json_t		*shown, *changed, *restart;
	char		 err[2048];
	int		 r;

	conf_defaults(&c);
	err[0] = '\0';
	r = conf_load(&c, fuzz_conf_path, true, err, sizeof err);
	if (r == -1)
		fuzz_conf_refused(err);
	else if (r != 0)
		abort();
	else {
		if ((shown = conf_reload_json(&c)) == NULL)
			abort();
		json_decref(shown);
		conf_defaults(&d);
		changed = json_array();
		restart = json_array();
		conf_reload_apply(&d, &c, changed, restart);
		fuzz_conf_applied(&d, &c, restart);
		json_decref(changed);
		json_decref(restart);
		conf_clear(&d);
	}
	conf_clear(&c);
}

static void
fuzz_conf_node(void)
{
	struct node_conf	conf;
	char			err[2048];
	int			r;

	node_conf_defaults(&conf);
	err[0] = '\0';
	r = node_conf_load(&conf, fuzz_conf_path, true, err, sizeof err);
	if (r == -1)
		fuzz_conf_refused(err);
	else if (r != 0 || conf.controllers.n < 1)
		abort();
	else if (conf.name != NULL && !node_conf_label_ok(conf.name))
		abort();
	node_conf_clear(&conf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* @include reads another file, any the input names (/dev/zero
	 * too); gbatch.conf is root's own and the manual has no includes,
	 * so what an include would read is not this loader's input. */
	if (memmem(data, size, "@include", 8) != NULL)
		return (0);
	fuzz_conf_write(data, size);
	fuzz_conf_controller();
	fuzz_conf_node();
	return (0);
}

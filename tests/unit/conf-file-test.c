/* conf-file-test.c: the shared reader of gbatch.conf (daemon/common/
 * conf-file.c), on config texts written to temporary files, with tables of
 * its own so every type and message is covered whatever the daemons use. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/log.h"
#include "daemon/common/conf-file.h"
#include "tests/unit/tap.h"

struct t_settings {
	char			*path;
	int			 seconds;
	unsigned		 count;
	double			 factor;
	bool			 flag;
	enum log_level		 level;
	struct conf_file_list	 users;
	struct conf_file_list	 addrs;
	int			 colour;	/* index in t_colours */
	bool			 checked;
};

static const char *const t_colours[] = { "red", "green", NULL };

static int
t_colour(void *settings, const config_setting_t *s, char *why, size_t len)
{
	return (conf_file_choice(s, t_colours,
	    &((struct t_settings *)settings)->colour, why, len));
}

/* A string check: no 'x' in it. */
static int
t_no_x(const char *v, char *why, size_t len)
{
	if (strchr(v, 'x') == NULL)
		return (0);
	snprintf(why, len, "expected no x, got \"%s\"", v);
	return (-1);
}

/* The group's own rule: a count above 5 needs the flag. */
static int
t_check(void *settings, const config_setting_t *g, char *err, size_t len)
{
	struct t_settings	*t = settings;

	t->checked = true;
	if (t->count > 5 && !t->flag) {
		snprintf(err, len, "line %d: node.count above 5 needs "
		    "node.flag", config_setting_source_line(
		    config_setting_get_member(g, "count")));
		return (-1);
	}
	return (0);
}

static const struct conf_file_key t_keys[] = {
	{ .name = "path", .type = CONF_FILE_STRING,
	  .off = offsetof(struct t_settings, path), .what = "a path",
	  .valid = t_no_x },
	{ .name = "seconds", .type = CONF_FILE_INT,
	  .off = offsetof(struct t_settings, seconds), .min = 1, .max = 10,
	  .what = "seconds" },
	{ .name = "count", .type = CONF_FILE_UINT,
	  .off = offsetof(struct t_settings, count), .min = 0, .max = 64 },
	{ .name = "factor", .type = CONF_FILE_NUMBER,
	  .off = offsetof(struct t_settings, factor), .min = 0, .max = 100,
	  .what = "a factor" },
	{ .name = "flag", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct t_settings, flag) },
	{ .name = "level", .type = CONF_FILE_LOG_LEVEL,
	  .off = offsetof(struct t_settings, level) },
	{ .name = "users", .type = CONF_FILE_LIST,
	  .off = offsetof(struct t_settings, users), .what = "user names",
	  .example = "[ \"alice\" ]" },
	{ .name = "addrs", .type = CONF_FILE_STRINGS,
	  .off = offsetof(struct t_settings, addrs), .min = 1,
	  .what = "an address", .valid = t_no_x },
	{ .name = "colour", .type = CONF_FILE_CUSTOM, .read = t_colour },
};

/* The test reads one group of the three gbatch.conf has, as gnoded does. */
static const struct conf_file_group t_groups[] = {
	{ "node", t_keys, sizeof t_keys / sizeof t_keys[0], t_check, NULL },
};

static char	t_dir[] = "/tmp/conf-file-test.XXXXXX";
static char	t_file[64];

static void
t_defaults(struct t_settings *t)
{
	memset(t, 0, sizeof *t);
	t->path = strdup("/default");
	t->seconds = 5;
	t->level = LOG_LEVEL_INFO;
	conf_file_list_add(&t->addrs, "default:1");
}

static void
t_clear(struct t_settings *t)
{
	free(t->path);
	conf_file_list_clear(&t->users);
	conf_file_list_clear(&t->addrs);
}

static void
t_write(const char *text)
{
	FILE	*f;

	if ((f = fopen(t_file, "w")) == NULL) {
		perror(t_file);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* Reads text; returns conf_file_read's value, the error in err. */
static int
t_read(const char *text, struct t_settings *t, char *err, size_t len)
{
	t_write(text);
	t_defaults(t);
	err[0] = '\0';
	return (conf_file_read(t_file, true, t_groups, 1, t, err, len));
}

/* text is refused with an error that ends in want (after "FILE: "). */
static void
t_refuse(const char *text, const char *want, const char *what)
{
	struct t_settings	 t;
	char			 err[1024], full[1200];
	int			 rc;

	rc = t_read(text, &t, err, sizeof err);
	snprintf(full, sizeof full, "%s: %s", t_file, want);
	if (!ok(rc == -1 && strcmp(err, full) == 0, "%s", what))
		printf("#   rc %d\n#   got  \"%s\"\n#   want \"%s\"\n", rc, err,
		    full);
	t_clear(&t);
}

static void
test_values(void)
{
	struct t_settings	 t;
	char			 err[1024];

	ok(t_read("# every type\n"
	    "node = {\n"
	    "  path = \"/srv/a\";\n"
	    "  seconds = 10;\n"
	    "  count = 0;\n"
	    "  factor = 2.5;\n"
	    "  flag = true;\n"
	    "  level = \"debug\";\n"
	    "  users = [ \"alice\", \"bob\" ];\n"
	    "  addrs = [ \"h1:1\", \"h2:2\" ];\n"
	    "  colour = \"green\";\n"
	    "};\n", &t, err, sizeof err) == 0, "a file using every type reads");
	is_str(t.path, "/srv/a", "a string");
	is_int(t.seconds, 10, "a whole number at the top of its range");
	is_int(t.count, 0, "an unsigned at the bottom of its range");
	ok(t.factor == 2.5, "a number that is not whole");
	ok(t.flag, "a bool");
	is_int(t.level, LOG_LEVEL_DEBUG, "a log level");
	ok(t.users.n == 2 && strcmp(t.users.v[1], "bob") == 0, "a list");
	ok(t.addrs.n == 2 && strcmp(t.addrs.v[0], "h1:1") == 0,
	    "a list where one string may stand");
	is_int(t.colour, 1, "a custom key");
	ok(t.checked, "the group's check ran");
	t_clear(&t);

	ok(t_read("node = { addrs = \"only:1\"; factor = 3; };\n", &t, err,
	    sizeof err) == 0, "one string where a list may stand");
	ok(t.addrs.n == 1 && strcmp(t.addrs.v[0], "only:1") == 0,
	    "it replaces the default list");
	ok(t.factor == 3, "a whole number is a number");
	is_str(t.path, "/default", "a key left out keeps its default");
	is_int(t.seconds, 5, "so does a number");
	t_clear(&t);

	ok(t_read("controller = { anything = 1; };\n"
	    "scheduler = { goes = \"here\"; };\n", &t, err, sizeof err) == 0,
	    "the other daemon's groups are not read in depth");
	ok(!t.checked, "a group not written is not checked");
	t_clear(&t);
}

static void
test_unknown(void)
{
	t_refuse("node = {\n  path = \"/a\";\n  gpuz = 4;\n};\n",
	    "line 3: node.gpuz: unknown key; expected path, seconds, count, "
	    "factor, flag, level, users, addrs or colour",
	    "an unknown key names its line and the keys of the table");
	t_refuse("node = { };\nnodes = { gpus = 4; };\n",
	    "line 2: nodes: unknown top-level setting; expected the group "
	    "controller, node, scheduler, tls, partitions or qos",
	    "an unknown group is refused");
	t_refuse("\n\ngpus = 4;\n",
	    "line 3: gpus: unknown top-level setting; expected the group "
	    "controller, node, scheduler, tls, partitions or qos",
	    "a key outside any group is refused");
	t_refuse("scheduler = 4;\n",
	    "line 1: scheduler: expected a group, as scheduler = { ... };",
	    "a group name that is not a group is refused, even another's");
	t_refuse("node = { sub = { path = \"/a\"; }; };\n",
	    "line 1: node.sub: unknown key; expected path, seconds, count, "
	    "factor, flag, level, users, addrs or colour",
	    "a group inside a group is an unknown key");
}

static void
test_types(void)
{
	t_refuse("node = { path = 5; };\n",
	    "line 1: node.path: expected a path (a non-empty string), got 5",
	    "a number for a string names the type");
	t_refuse("node = { path = \"\"; };\n",
	    "line 1: node.path: expected a path (a non-empty string), got \"\"",
	    "an empty string is refused");
	t_refuse("node = { path = \"/v\xbd\" \"ar\"; };\n",
	    "line 1: node.path: expected a path (UTF-8 text), got \"/v?ar\"",
	    "a string that is not UTF-8 is refused (JSON shows settings)");
	t_refuse("node = { users = [ \"al\xc3\", \"bob\" ]; };\n",
	    "line 1: node.users: element 1: expected UTF-8 text, got \"al?\"",
	    "a list's string that is not UTF-8 is refused");
	t_refuse("node = { path = \"/x\"; };\n",
	    "line 1: node.path: expected no x, got \"/x\"",
	    "a string's own check speaks for it");
	t_refuse("node = {\n  seconds = \"5\";\n};\n",
	    "line 2: node.seconds: expected seconds, a whole number from 1 to "
	    "10, got \"5\"", "a string for a number names the type");
	t_refuse("node = { seconds = 11; };\n",
	    "line 1: node.seconds: expected seconds, a whole number from 1 to "
	    "10, got 11", "a number above the range");
	t_refuse("node = { seconds = 1.5; };\n",
	    "line 1: node.seconds: expected seconds, a whole number from 1 to "
	    "10, got 1.5", "a fraction for a whole number");
	t_refuse("node = { count = -1; };\n",
	    "line 1: node.count: expected a whole number from 0 to 64, got -1",
	    "an unsigned below its range");
	t_refuse("node = { count = 5000000000L; };\n",
	    "line 1: node.count: expected a whole number from 0 to 64, got "
	    "5000000000", "a 64-bit number");
	t_refuse("node = { factor = true; };\n",
	    "line 1: node.factor: expected a factor, a number from 0 to 100, "
	    "got true", "a bool for a number");
	t_refuse("node = { flag = \"yes\"; };\n",
	    "line 1: node.flag: expected true or false, got \"yes\"",
	    "a string for a bool");
	t_refuse("node = { flag = 1; };\n",
	    "line 1: node.flag: expected true or false, got 1",
	    "a number for a bool");
	t_refuse("node = { level = \"verbose\"; };\n",
	    "line 1: node.level: expected \"error\", \"warn\", \"info\" or "
	    "\"debug\", got \"verbose\"", "a log level names the levels");
	t_refuse("node = { level = 3; };\n",
	    "line 1: node.level: expected \"error\", \"warn\", \"info\" or "
	    "\"debug\", got 3", "a number for a log level");
	t_refuse("node = { users = \"alice\"; };\n",
	    "line 1: node.users: expected a list of user names, as "
	    "[ \"alice\" ], got \"alice\"", "a string for a list");
	t_refuse("node = { users = { a = 1; }; };\n",
	    "line 1: node.users: expected a list of user names, as "
	    "[ \"alice\" ], got a group", "a group for a list");
	t_refuse("node = {\n  users = ( \"alice\",\n    2 );\n};\n",
	    "line 2: node.users: element 2: expected a non-empty string, "
	    "got 2", "a list's bad element is counted from 1");
	t_refuse("node = { addrs = [ ]; };\n",
	    "line 1: node.addrs: expected an address or a list of them, got "
	    "an empty list", "a list below its fewest");
	t_refuse("node = { addrs = ( \"a:1\", \"x:1\" ); };\n",
	    "line 1: node.addrs: element 2: expected no x, got \"x:1\"",
	    "a list's elements go through the key's check");
	t_refuse("node = { colour = \"blue\"; };\n",
	    "line 1: node.colour: expected \"red\" or \"green\", got \"blue\"",
	    "a custom key gets its line and name added");
	t_refuse("node = {\n  count = 6;\n};\n",
	    "line 2: node.count above 5 needs node.flag",
	    "the group's check speaks for itself");
}

static void
test_quote(void)
{
	char	text[512], want[512], long_v[200];

	t_refuse("node = { colour = \"r\\x1b[2Jd\"; };\n",
	    "line 1: node.colour: expected \"red\" or \"green\", got "
	    "\"r?[2Jd\"", "a control character is not echoed");
	memset(long_v, 'a', 100);
	long_v[100] = '\0';
	snprintf(text, sizeof text, "node = { colour = \"%s\"; };\n", long_v);
	long_v[64] = '\0';
	snprintf(want, sizeof want, "line 1: node.colour: expected \"red\" "
	    "or \"green\", got \"%s...\"", long_v);
	t_refuse(text, want, "a long value is cut");
}

static void
test_file(void)
{
	struct t_settings	 t;
	char			 err[1024], want[1200], missing[128];
	int			 rc;

	snprintf(missing, sizeof missing, "%s/none.conf", t_dir);
	t_defaults(&t);
	ok(conf_file_read(missing, false, t_groups, 1, &t, err,
	    sizeof err) == 1, "a missing default file returns 1");
	is_str(t.path, "/default", "and leaves the settings alone");
	t_clear(&t);

	t_defaults(&t);
	rc = conf_file_read(missing, true, t_groups, 1, &t, err, sizeof err);
	snprintf(want, sizeof want, "%s: No such file or directory", missing);
	ok(rc == -1 && strcmp(err, want) == 0, "a missing named file is an "
	    "error naming it");
	t_clear(&t);

	t_defaults(&t);
	rc = conf_file_read("", true, t_groups, 1, &t, err, sizeof err);
	ok(rc == -1 && strcmp(err, "expected the name of a configuration "
	    "file, got \"\"") == 0, "an empty file name (-f \"\") is "
	    "refused as such");
	t_clear(&t);

	rc = t_read("node = {\n  path = ;\n};\n", &t, err, sizeof err);
	snprintf(want, sizeof want, "%s:2: ", t_file);
	ok(rc == -1 && strncmp(err, want, strlen(want)) == 0,
	    "a syntax error names the file and the line");
	t_clear(&t);
}

static void
test_path(void)
{
	bool	must = false;

	setenv("GBATCH_CONF", "/env/g.conf", 1);
	is_str(conf_file_path("/flag.conf", &must), "/flag.conf",
	    "-f wins over the environment");
	ok(must, "a file named by -f must exist");
	must = false;
	is_str(conf_file_path(NULL, &must), "/env/g.conf",
	    "then $GBATCH_CONF");
	ok(must, "a file named by $GBATCH_CONF must exist");
	setenv("GBATCH_CONF", "", 1);
	is_str(conf_file_path(NULL, &must), CONF_FILE_DEFAULT,
	    "an empty $GBATCH_CONF means the default");
	ok(!must, "the default file may be missing");
	unsetenv("GBATCH_CONF");
	must = true;
	is_str(conf_file_path(NULL, &must), CONF_FILE_DEFAULT,
	    "no -f, no $GBATCH_CONF: the default");
	ok(!must, "which may be missing");
}

static void
test_print(void)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f;

	f = open_memstream(&buf, &len);
	conf_file_print_ok(f, "/etc/g.conf", true);
	conf_file_print_ok(f, "/etc/g.conf", false);
	fclose(f);
	is_str(buf, "/etc/g.conf: OK\n"
	    "no config file at /etc/g.conf; the defaults are valid\n",
	    "--check-config's line, with a file and without");
	free(buf);
}

int
main(void)
{
	if (mkdtemp(t_dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(t_file, sizeof t_file, "%s/gbatch.conf", t_dir);
	test_values();
	test_unknown();
	test_types();
	test_quote();
	test_file();
	test_path();
	test_print();
	unlink(t_file);
	rmdir(t_dir);
	return (tap_done());
}

/* model-test.c: client/model.c against a fake controller on a real Unix
 * socket, a child process that answers HELLO and then a few requests: the
 * model keeps its connection, reports a controller that went away and
 * keeps the last figures, and opens the connection again by itself once
 * the controller is back; its job filter applies to the rows. */
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "client/model.h"
#include "common/proto.h"
#include "tests/unit/tap.h"

static char	dir[] = "/tmp/gbmt.XXXXXX";
static char	path[64];

static int
t_read(int fd, void *buf, size_t len)
{
	ssize_t	n;
	size_t	got = 0;

	while (got < len) {
		if ((n = read(fd, (char *)buf + got, len - got)) <= 0)
			return (-1);
		got += (size_t)n;
	}
	return (0);
}

static void
t_send(int fd, json_t *msg)
{
	char		*text = json_dumps(msg, JSON_COMPACT);
	uint32_t	 n = htonl((uint32_t)strlen(text));

	if (write(fd, &n, 4) != 4 || write(fd, text, strlen(text)) !=
	    (ssize_t)strlen(text))
		_exit(3);
	free(text);
	json_decref(msg);
}

/* The fake controller: answers HELLO and then requests requests on one
 * connection, node lists naming generation gen, then exits. */
/* The first node's name, or "". */
static const char *
t_node0(const struct model *m)
{
	return (m->nodes.n > 0 ? m->nodes.rows[0].name : "");
}

/* model_nodes_scan on text: its strings decoded, absent and null members
 * read as documented, GPUs in their nodes; a reply of another shape
 * refused. */
static void
t_scan(void)
{
	struct model_nodes	 n;
	const char		*text =
	    "{\"re\":300,\"ok\":true,\"nodes\":["
	    "{\"name\":\"n\\u00e9\\\"1\",\"state\":\"mixed\",\"switch\":\"s1\","
	    "\"partitions\":\"gpu,long\","
	    "\"gpus_total\":2,\"gpus_alloc\":1,\"last_seen\":1700000000,"
	    "\"gpus\":[{\"index\":0,\"name\":\"A100\",\"job\":42,\"util\":37,"
	    "\"mem_used_mb\":1024,\"low_since\":5,\"memory_mb\":81920},"
	    "{\"index\":1,\"job\":null,\"util\":null}]},"
	    "{\"name\":\"n2\",\"gpus\":[{\"index\":3}],\"extra\":{\"a\":[1]}},"
	    "{\"name\":\"n3\",\"gpus\":[[0,7,55,100,0],[1,null,null,null,0]]}]}";
	char			*body = strdup(text);

	is_int(model_nodes_scan(body, strlen(body), &n), 0, "scan: a reply");
	is_int((int)n.n, 3, "scan: three nodes");
	is_int((int)n.ngpus, 5, "scan: five GPUs in all");
	is_str(n.rows[0].name, "n\xc3\xa9\"1", "scan: a name decoded");
	is_str(n.rows[0].sw, "s1", "scan: the switch");
	is_str(n.rows[0].partitions, "gpu,long", "scan: the partitions");
	is_str(n.rows[1].partitions, "", "scan: no partitions: ''");
	ok(n.rows[0].gpus_total == 2 && n.rows[0].gpus_alloc == 1 &&
	    n.rows[0].last_seen == 1700000000, "scan: the counts");
	ok(n.rows[0].ngpus == 2 && n.rows[0].gpus[0].job == 42 &&
	    n.rows[0].gpus[0].util == 37 && n.rows[0].gpus[0].mem_used_mb ==
	    1024 && n.rows[0].gpus[0].low_since == 5 &&
	    n.rows[0].gpus[0].memory_mb == 81920, "scan: a GPU's figures");
	is_str(n.rows[0].gpus[0].name, "A100", "scan: a GPU's name");
	ok(n.rows[0].gpus[1].job == 0 && n.rows[0].gpus[1].util == -1 &&
	    n.rows[0].gpus[1].mem_used_mb == -1, "scan: null is free, "
	    "not known");
	ok(n.rows[1].ngpus == 1 && n.rows[1].gpus == n.rows[0].gpus + 2 &&
	    n.rows[1].gpus[0].index == 3, "scan: each node its own GPUs");
	ok(strcmp(n.rows[1].state, "") == 0 && n.rows[1].gpus_total == 0,
	    "scan: absent members are empty");
	ok(n.rows[2].ngpus == 2 && n.rows[2].gpus[0].job == 7 &&
	    n.rows[2].gpus[0].util == 55 && n.rows[2].gpus[0].mem_used_mb ==
	    100 && n.rows[2].gpus[1].index == 1 && n.rows[2].gpus[1].job ==
	    0 && n.rows[2].gpus[1].util == -1 && n.rows[2].gpus[1].mem_used_mb
	    == -1 && strcmp(n.rows[2].gpus[0].name, "") == 0,
	    "scan: brief GPUs, [index, job, util, mem_used_mb, low_since]");
	model_nodes_free(&n);

	body = strdup("{\"re\":300,\"ok\":true,\"nodes\":{}}");
	is_int(model_nodes_scan(body, strlen(body), &n), -1, "scan: nodes "
	    "not an array is refused");
	body = strdup("{\"nodes\":[{\"name\":\"n1\",\"gpus\":[1]}]}");
	is_int(model_nodes_scan(body, strlen(body), &n), -1, "scan: a GPU "
	    "not an object is refused");
	body = strdup("{\"nodes\":[{\"name\":\"n1\",\"gpus\":[[0,1,2]]}]}");
	is_int(model_nodes_scan(body, strlen(body), &n), -1, "scan: a brief "
	    "GPU of three values is refused");
	body = strdup("{\"nodes\":[{\"name\":\"n1\"");
	is_int(model_nodes_scan(body, strlen(body), &n), -1, "scan: a cut "
	    "reply is refused");
}

static pid_t
t_server(int lfd, int gen, int requests)
{
	pid_t		 pid;
	uint32_t	 n;
	char		 name[16], *body;
	json_t		*msg;
	int		 fd, i, type;

	if ((pid = fork()) != 0)
		return (pid);
	if ((fd = accept(lfd, NULL, NULL)) == -1)
		_exit(2);
	for (i = 0; i <= requests; i++) {
		if (t_read(fd, &n, 4) == -1)
			_exit(0);
		body = malloc(ntohl(n) + 1);
		if (t_read(fd, body, ntohl(n)) == -1)
			_exit(2);
		body[ntohl(n)] = '\0';
		msg = json_loads(body, 0, NULL);
		free(body);
		type = (int)json_integer_value(json_object_get(msg, "type"));
		json_decref(msg);
		snprintf(name, sizeof name, "n%d", gen);
		if (type == MSG_HELLO)
			t_send(fd, json_pack("{s:i,s:b,s:s,s:i,s:b,s:s}", "re",
			    MSG_HELLO, "ok", 1, "user", "u", "uid", 0,
			    "operator", 1, "server", "fake"));
		else if (type == MSG_NODE_LIST)
			t_send(fd, json_pack("{s:i,s:b,s:[{s:s,s:i}]}", "re",
			    MSG_NODE_LIST, "ok", 1, "nodes", "name", name,
			    "gpus_total", 8));
		else
			t_send(fd, json_pack("{s:i,s:b,s:[{s:i,s:s,s:s,s:s},"
			    "{s:i,s:s,s:s,s:s}],s:[]}", "re", MSG_JOB_LIST,
			    "ok", 1, "jobs", "id", 1, "user", "a", "state",
			    "RUNNING", "name", "resnet", "id", 2, "user", "b",
			    "state", "PENDING", "name", "bert-large",
			    "missing"));
	}
	close(fd);
	_exit(0);
}

static int
t_listen(void)
{
	struct sockaddr_un	sun;
	int			fd;

	unlink(path);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof sun) == -1 ||
	    listen(fd, 4) == -1) {
		perror("listen");
		exit(1);
	}
	return (fd);
}

static void
t_reap(pid_t pid)
{
	int	st;

	waitpid(pid, &st, 0);
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0, "the fake exits 0");
}

int
main(void)
{
	struct model	 m;
	pid_t		 pid;
	int		 lfd;

	if (mkdtemp(dir) == NULL)
		return (1);
	snprintf(path, sizeof path, "%s/s", dir);
	setenv("GBATCH_SOCKET", path, 1);
	t_scan();
	model_init(&m, 5);

	/* Two refreshes on one connection. */
	lfd = t_listen();
	pid = t_server(lfd, 1, 2);
	is_int(model_refresh_nodes(&m, false), 0, "refresh");
	is_str(t_node0(&m), "n1", "the nodes");
	ok(m.refreshed != 0, "the time of the refresh");
	job_filter_set_name(&m.filter, "bert");
	is_int(model_refresh_jobs(&m, NULL), 0, "jobs on the same connection");
	is_int((int)m.jobs.n, 1, "the filter kept one job of two");
	t_reap(pid);

	/* The controller goes away: the kept connection is found dead, a
	 * new one refused; the last figures stay. */
	close(lfd);
	unlink(path);
	is_int(model_refresh_nodes(&m, false), EXIT_UNREACHABLE, "controller gone");
	ok(strstr(m.err, path) != NULL, "the message names the socket: %s",
	    m.err);
	ok(m.c == NULL, "no connection kept");
	is_str(t_node0(&m), "n1", "the last nodes are kept");
	is_int((int)m.jobs.n, 1, "and the last jobs");

	/* It comes back: the next refresh connects by itself. */
	lfd = t_listen();
	pid = t_server(lfd, 2, 1);
	is_int(model_refresh_nodes(&m, false), 0, "back");
	is_str(t_node0(&m), "n2", "the new nodes");
	t_reap(pid);

	/* Restarted between two refreshes: the dead connection is opened
	 * again within the same refresh. */
	close(lfd);
	lfd = t_listen();
	pid = t_server(lfd, 3, 1);
	is_int(model_refresh_nodes(&m, false), 0, "a restart between refreshes "
	    "costs no failed refresh");
	is_str(t_node0(&m), "n3", "the restarted controller's nodes");
	t_reap(pid);

	model_free(&m);
	close(lfd);
	unlink(path);
	rmdir(dir);
	return (tap_done());
}

/* raft-wire-test.c: C-raft's messages as bytes (raft-wire.c). Every message
 * type and a configuration come back field for field, and are then freed
 * as C-raft frees them, so a sanitizer build sees any leak or double free;
 * every cut of a valid encoding, and every value out of range, is refused
 * with a reason and nothing allocated.
 *
 * With --seeds DIR it writes its valid encodings there instead, as the
 * fuzz target's seed corpus (tests/fuzz/corpus/raft-wire). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/raft-wire.h"
#include "tests/unit/tap.h"

#define T_FROM		7

/* The sender's address, as the connection knows it: decode must point at
 * it, not copy it. */
static const char	t_address[] = "ctl-b.example:7020";

static const char *t_seed_dir;

/* Writes buf as the seed name under --seeds' folder. */
static void
t_seed(const char *name, const uint8_t *buf, size_t len)
{
	char	 path[1024];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", t_seed_dir, name);
	if ((f = fopen(path, "wb")) == NULL || fwrite(buf, 1, len, f) != len ||
	    fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void
t_put64(uint8_t *p, unsigned long long v)
{
	int	i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static bool
t_is_zero(const struct raft_message *m)
{
	static const struct raft_message	zero;

	return (memcmp(m, &zero, sizeof zero) == 0);
}

/* Decode must refuse buf with a reason holding want and leave m zeroed. */
static void
t_refuse(const uint8_t *buf, size_t len, const char *want, const char *what)
{
	struct raft_message	m;
	char			err[256];

	err[0] = '\0';
	memset(&m, 0xa5, sizeof m);
	if (!ok(raft_wire_decode(buf, len, T_FROM, t_address, &m, err,
	    sizeof err) == -1 && strstr(err, want) != NULL && t_is_zero(&m),
	    "refused: %s", what))
		printf("#   err \"%s\", want \"%s\"\n", err, want);
}

/* Every cut of a valid encoding short of its end is refused, and one byte
 * more is too. Returns nothing; counts as one check. */
static void
t_cuts(const uint8_t *buf, size_t len, const char *what)
{
	struct raft_message	 m;
	uint8_t			*longer;
	char			 err[256];
	size_t			 cut, bad = 0;

	for (cut = 0; cut < len; cut++) {
		err[0] = '\0';
		if (raft_wire_decode(buf, cut, T_FROM, t_address, &m, err,
		    sizeof err) != -1 || err[0] == '\0' || !t_is_zero(&m))
			bad++;
	}
	longer = malloc(len + 1);
	memcpy(longer, buf, len);
	longer[len] = 0;
	if (raft_wire_decode(longer, len + 1, T_FROM, t_address, &m, err,
	    sizeof err) != -1 || strstr(err, "1 bytes after") == NULL)
		bad++;
	free(longer);
	is_int(bad, 0, "%s: each of %zu cuts and a byte more refused", what,
	    len);
}

/* Encodes in, decodes it into out (checking the sender), checks every cut,
 * and writes the seed. Returns the encoding (caller frees) and its len. */
static uint8_t *
t_round(const struct raft_message *in, struct raft_message *out,
    const char *what, size_t *len)
{
	uint8_t	*buf;
	char	 err[256];

	buf = raft_wire_encode(in, len);
	if (!ok(buf != NULL, "%s: encodes", what))
		exit(1);
	if (t_seed_dir != NULL)
		t_seed(what, buf, *len);
	is_int(buf[0], RAFT_WIRE_VERSION, "%s: version first", what);
	is_int(buf[1], in->type, "%s: type second", what);
	err[0] = '\0';
	if (!ok(raft_wire_decode(buf, *len, T_FROM, t_address, out, err,
	    sizeof err) == 0, "%s: decodes", what)) {
		printf("#   %s\n", err);
		exit(1);
	}
	ok(out->type == in->type && out->server_id == T_FROM &&
	    out->server_address == t_address, "%s: type, and the sender from "
	    "the connection (the address not copied)", what);
	t_cuts(buf, *len, what);
	return (buf);
}

static void
test_small(void)
{
	struct raft_message	 in, out;
	uint8_t			*buf;
	size_t			 len;
	char			 name[64];
	int			 i;

	memset(&in, 0, sizeof in);
	in.type = RAFT_IO_REQUEST_VOTE;
	in.server_id = 3;
	in.server_address = "not sent";
	for (i = 0; i < 4; i++) {
		in.request_vote = (struct raft_request_vote){ 1ULL << 40 | 9,
		    2, 0xfffffffffffffffeULL, 77, i & 1, i >> 1 & 1 };
		snprintf(name, sizeof name, "request-vote-%d", i);
		buf = t_round(&in, &out, name, &len);
		is_int(len, 2 + 4 * 8 + 2, "%s: length", name);
		ok(out.request_vote.term == (1ULL << 40 | 9) &&
		    out.request_vote.candidate_id == 2 &&
		    out.request_vote.last_log_index == 0xfffffffffffffffeULL &&
		    out.request_vote.last_log_term == 77 &&
		    out.request_vote.disrupt_leader == (i & 1) &&
		    out.request_vote.pre_vote == (i >> 1 & 1), "%s: every "
		    "field, disrupt_leader %d pre_vote %d", name, i & 1,
		    i >> 1 & 1);
		raft_wire_free(&out);
		free(buf);
	}

	in.type = RAFT_IO_REQUEST_VOTE_RESULT;
	for (i = 0; i < 3; i++) {
		in.request_vote_result = (struct raft_request_vote_result){
		    12345, i != 1, (raft_tribool)i };
		snprintf(name, sizeof name, "request-vote-result-%d", i);
		buf = t_round(&in, &out, name, &len);
		ok(out.request_vote_result.term == 12345 &&
		    out.request_vote_result.vote_granted == (i != 1) &&
		    out.request_vote_result.pre_vote == (raft_tribool)i,
		    "%s: term, vote_granted, pre_vote %d", name, i);
		raft_wire_free(&out);
		free(buf);
	}

	in.type = RAFT_IO_APPEND_ENTRIES_RESULT;
	in.append_entries_result = (struct raft_append_entries_result){ 8,
	    0x0102030405060708ULL, 99 };
	buf = t_round(&in, &out, "append-entries-result", &len);
	ok(out.append_entries_result.term == 8 &&
	    out.append_entries_result.rejected == 0x0102030405060708ULL &&
	    out.append_entries_result.last_log_index == 99,
	    "append-entries-result: term, rejected, last_log_index");
	is_int(buf[10], 0x08, "little-endian: the low byte first");
	raft_wire_free(&out);
	free(buf);

	in.type = RAFT_IO_TIMEOUT_NOW;
	in.timeout_now = (struct raft_timeout_now){ 4, 1000, 3 };
	buf = t_round(&in, &out, "timeout-now", &len);
	ok(out.timeout_now.term == 4 && out.timeout_now.last_log_index ==
	    1000 && out.timeout_now.last_log_term == 3,
	    "timeout-now: term, last_log_index, last_log_term");
	raft_wire_free(&out);
	free(buf);
}

/* Six entries, two of each type, one of them empty. */
static const char *const t_data[] = { "set x 1", "", "barrier-8", "conf",
    "a longer command with more bytes in it", "z" };

static void
test_append_entries(void)
{
	struct raft_message	 in, out;
	struct raft_entry	 e[6], *got;
	uint8_t			*buf;
	size_t			 len;
	unsigned		 i, good = 0;
	void			*batch;

	for (i = 0; i < 6; i++) {
		e[i].term = 100 + i;
		e[i].type = RAFT_COMMAND + i % 3;
		e[i].buf.base = (void *)(uintptr_t)t_data[i];
		e[i].buf.len = strlen(t_data[i]);
		e[i].batch = NULL;
	}
	memset(&in, 0, sizeof in);
	in.type = RAFT_IO_APPEND_ENTRIES;
	in.append_entries = (struct raft_append_entries){ 9, 41, 8, 40, e, 6 };
	buf = t_round(&in, &out, "append-entries", &len);
	ok(out.append_entries.term == 9 &&
	    out.append_entries.prev_log_index == 41 &&
	    out.append_entries.prev_log_term == 8 &&
	    out.append_entries.leader_commit == 40 &&
	    out.append_entries.n_entries == 6, "append-entries: term, "
	    "prev_log_index, prev_log_term, leader_commit, n_entries");
	got = out.append_entries.entries;
	batch = got[0].batch;
	for (i = 0; i < 6; i++) {
		if (got[i].term == e[i].term && got[i].type == e[i].type &&
		    got[i].buf.len == e[i].buf.len && memcmp(got[i].buf.base,
		    e[i].buf.base, e[i].buf.len) == 0 && got[i].batch == batch)
			good++;
	}
	is_int(good, 6, "append-entries: each entry's term, type and data, "
	    "all in one batch");
	ok(batch != NULL && (char *)got[5].buf.base - (char *)batch ==
	    (long)(len - 2 - 5 * 8 - 6 * 17 - 1), "append-entries: the data "
	    "packed in the batch, in order");
	/* As C-raft's reply path frees them (recv_append_entries.c). */
	raft_free(got[0].batch);
	raft_free(got);

	/* As its other paths do (entryBatchesDestroy): each distinct batch. */
	if (raft_wire_decode(buf, len, T_FROM, t_address, &out, (char[64]){ 0 },
	    64) == 0) {
		got = out.append_entries.entries;
		batch = NULL;
		for (i = 0; i < out.append_entries.n_entries; i++)
			if (got[i].batch != batch)
				raft_free(batch = got[i].batch);
		raft_free(got);
	}
	free(buf);

	/* A heartbeat: no entries is a NULL array, as C-raft asserts. */
	in.append_entries = (struct raft_append_entries){ 9, 47, 9, 47, NULL,
	    0 };
	buf = t_round(&in, &out, "append-entries-heartbeat", &len);
	ok(out.append_entries.entries == NULL &&
	    out.append_entries.n_entries == 0 &&
	    out.append_entries.prev_log_index == 47, "heartbeat: no entries, "
	    "a NULL array");
	raft_wire_free(&out);
	free(buf);

	/* Entries whose data is all empty still have a batch. */
	e[0].buf.len = 0;
	e[0].type = RAFT_BARRIER;
	in.append_entries = (struct raft_append_entries){ 2, 0, 0, 0, e, 1 };
	buf = t_round(&in, &out, "append-entries-empty-data", &len);
	ok(out.append_entries.n_entries == 1 &&
	    out.append_entries.entries[0].batch != NULL &&
	    out.append_entries.entries[0].buf.len == 0, "empty data: a "
	    "batch all the same");
	raft_wire_free(&out);
	free(buf);
}

/* Three servers, one of each role. */
static void
t_conf3(struct raft_configuration *c)
{
	raft_configuration_init(c);
	if (raft_configuration_add(c, 1, "ctl-a.example:7020", RAFT_VOTER) ||
	    raft_configuration_add(c, 2, t_address, RAFT_STANDBY) ||
	    raft_configuration_add(c, 0xffffffffffULL, "10.0.0.3:7020",
	    RAFT_SPARE))
		abort();
}

static bool
t_conf_equal(const struct raft_configuration *a,
    const struct raft_configuration *b)
{
	unsigned	i;

	if (a->n != b->n)
		return (false);
	for (i = 0; i < a->n; i++)
		if (a->servers[i].id != b->servers[i].id ||
		    a->servers[i].role != b->servers[i].role ||
		    strcmp(a->servers[i].address, b->servers[i].address) != 0)
			return (false);
	return (true);
}

static void
test_install_snapshot(void)
{
	struct raft_message	 in, out;
	struct raft_install_snapshot *is = &out.install_snapshot;
	static char		 data[] = "snapshot\0bytes\xff";
	uint8_t			*buf;
	size_t			 len;

	memset(&in, 0, sizeof in);
	in.type = RAFT_IO_INSTALL_SNAPSHOT;
	in.install_snapshot.term = 6;
	in.install_snapshot.last_index = 5000;
	in.install_snapshot.last_term = 5;
	in.install_snapshot.conf_index = 4200;
	t_conf3(&in.install_snapshot.conf);
	in.install_snapshot.data.base = data;
	in.install_snapshot.data.len = sizeof data;
	buf = t_round(&in, &out, "install-snapshot", &len);
	ok(is->term == 6 && is->last_index == 5000 && is->last_term == 5 &&
	    is->conf_index == 4200, "install-snapshot: term, last_index, "
	    "last_term, conf_index");
	ok(t_conf_equal(&is->conf, &in.install_snapshot.conf),
	    "install-snapshot: conf's ids, roles and addresses");
	ok(is->data.len == sizeof data && memcmp(is->data.base, data,
	    sizeof data) == 0, "install-snapshot: data");
	/* As C-raft frees them (recv_install_snapshot.c, recv.c). */
	raft_configuration_close(&is->conf);
	raft_free(is->data.base);
	free(buf);

	in.install_snapshot.data.len = 0;
	buf = t_round(&in, &out, "install-snapshot-no-data", &len);
	ok(is->data.len == 0 && is->data.base != NULL, "no data: still a "
	    "buffer for the state machine's restore");
	raft_wire_free(&out);
	free(buf);
	raft_configuration_close(&in.install_snapshot.conf);
}

/* The bytes of an install_snapshot with one server of the given address
 * length, id and role; then the server's field offsets. */
#define T_ID	(34 + 8)
#define T_ROLE	(T_ID + 8)
#define T_ALEN	(T_ROLE + 1)
#define T_ADDR	(T_ALEN + 8)
static size_t
t_snapshot1(uint8_t *b, size_t alen)
{
	memset(b, 0, T_ADDR + alen + 8);
	b[0] = RAFT_WIRE_VERSION;
	b[1] = RAFT_IO_INSTALL_SNAPSHOT;
	t_put64(b + 34, 1);
	t_put64(b + T_ID, 1);
	b[T_ROLE] = RAFT_VOTER;
	t_put64(b + T_ALEN, alen);
	memset(b + T_ADDR, 'a', alen);
	return (T_ADDR + alen + 8);
}

static void
test_refusals(void)
{
	struct raft_message	 m;
	struct raft_entry	 e;
	struct raft_configuration c;
	uint8_t			 b[600];
	size_t			 n, len;
	char			 addr[300];
	unsigned		 i;

	b[0] = 2;
	b[1] = RAFT_IO_TIMEOUT_NOW;
	t_refuse(b, 26, "version 2, expected 1", "another version");
	b[0] = RAFT_WIRE_VERSION;
	t_refuse(b, 1, "type: truncated", "no type");
	for (i = 0; i < 3; i++) {
		b[1] = (uint8_t[]){ 0, 7, 255 }[i];
		snprintf(addr, sizeof addr, "message type %u", b[1]);
		t_refuse(b, 26, "unknown message type", addr);
	}

	/* request_vote's bools, request_vote_result's tribool. */
	memset(b, 0, sizeof b);
	b[0] = RAFT_WIRE_VERSION;
	b[1] = RAFT_IO_REQUEST_VOTE;
	b[34] = 2;
	t_refuse(b, 36, "disrupt_leader: 2, expected 0 or 1", "a bool of 2");
	b[1] = RAFT_IO_REQUEST_VOTE_RESULT;
	b[10] = 0;
	b[11] = 3;
	t_refuse(b, 12, "pre_vote: 3", "a tribool of 3");

	/* append_entries: counts, lengths and types. */
	memset(b, 0, sizeof b);
	b[0] = RAFT_WIRE_VERSION;
	b[1] = RAFT_IO_APPEND_ENTRIES;
	t_put64(b + 34, 0xffffffffffffffffULL);
	t_refuse(b, 42 + 17 * 3, "cannot fit in the 51 bytes left",
	    "an entry count over the bytes present");
	t_put64(b + 34, 4);
	t_refuse(b, 42 + 17 * 3, "4 entries cannot fit", "one entry short");
	t_put64(b + 34, 1);
	b[50] = 4;
	t_refuse(b, 42 + 17, "append_entries: entry 0: type 4, expected",
	    "entry type 4");
	b[50] = 0;
	t_refuse(b, 42 + 17, "type 0", "entry type 0");
	b[50] = RAFT_COMMAND;
	t_put64(b + 51, 1ULL << 62);
	t_refuse(b, 42 + 17 + 10, "entry 0: data: truncated", "entry data "
	    "longer than the bytes left");

	/* A configuration's servers, in install_snapshot. */
	n = t_snapshot1(b, 5);
	memset(&m, 0, sizeof m);
	ok(raft_wire_decode(b, n, T_FROM, t_address, &m, (char[64]){ 0 },
	    64) == 0, "a hand-made install_snapshot decodes");
	raft_wire_free(&m);
	t_put64(b + 34, RAFT_WIRE_MAX_SERVERS + 1);
	t_refuse(b, n, "conf: 65 servers, at most 64", "65 servers");
	t_snapshot1(b, 5);
	t_put64(b + T_ID, 0);
	t_refuse(b, n, "server 0: id 0", "server id 0");
	t_snapshot1(b, 5);
	b[T_ROLE] = 3;
	t_refuse(b, n, "role 3", "role 3");
	t_snapshot1(b, 5);
	b[T_ADDR + 2] = '\0';
	t_refuse(b, n, "address: holds a NUL", "an address with a NUL");
	n = t_snapshot1(b, 0);
	t_refuse(b, n, "address: empty", "an empty address");
	n = t_snapshot1(b, RAFT_WIRE_MAX_ADDRESS + 1);
	t_refuse(b, n, "address: 256 bytes, at most 255", "a 256-byte address");
	n = t_snapshot1(b, RAFT_WIRE_MAX_ADDRESS);
	ok(raft_wire_decode(b, n, T_FROM, t_address, &m, (char[64]){ 0 },
	    64) == 0 && strlen(m.install_snapshot.conf.servers[0].address) ==
	    RAFT_WIRE_MAX_ADDRESS, "a 255-byte address decodes");
	raft_wire_free(&m);
	n = t_snapshot1(b, 5);
	t_put64(b + T_ADDR + 5, 9);
	t_refuse(b, n, "data: truncated (9 bytes, 0 left)", "snapshot data "
	    "longer than the bytes left");

	/* Two servers (22 bytes each): the same id, then the same
	 * address. */
	t_snapshot1(b, 5);
	t_put64(b + 34, 2);
	memmove(b + T_ID + 22, b + T_ID, 22);
	t_put64(b + T_ID + 44, 0);
	t_refuse(b, T_ID + 52, "server 1: id 1 appears twice", "a duplicate "
	    "id");
	t_put64(b + T_ID + 22, 2);
	t_refuse(b, T_ID + 52, "server 1: address \"aaaaa\" appears twice",
	    "a duplicate address");

	/* What encode refuses: it would not decode. */
	memset(&m, 0, sizeof m);
	m.type = 7;
	ok(raft_wire_encode(&m, &len) == NULL, "encode: type 7 refused");
	m.type = RAFT_IO_APPEND_ENTRIES;
	e = (struct raft_entry){ 1, 4, { NULL, 0 }, NULL };
	m.append_entries.entries = &e;
	m.append_entries.n_entries = 1;
	ok(raft_wire_encode(&m, &len) == NULL, "encode: entry type 4 refused");
	raft_configuration_init(&c);
	memset(addr, 'a', sizeof addr);
	addr[RAFT_WIRE_MAX_ADDRESS + 1] = '\0';
	if (raft_configuration_add(&c, 1, addr, RAFT_VOTER) != 0)
		abort();
	ok(raft_wire_conf_encode(&c, &len) == NULL, "encode: a 256-byte "
	    "address refused");
	raft_configuration_close(&c);
	raft_configuration_init(&c);
	for (i = 1; i <= RAFT_WIRE_MAX_SERVERS + 1; i++) {
		snprintf(addr, sizeof addr, "s%u:1", i);
		if (raft_configuration_add(&c, i, addr, RAFT_VOTER) != 0)
			abort();
	}
	ok(raft_wire_conf_encode(&c, &len) == NULL, "encode: 65 servers "
	    "refused");
	raft_configuration_close(&c);
}

static void
test_conf(void)
{
	struct raft_configuration	 in, out;
	uint8_t				*buf;
	size_t				 len, cut, bad = 0;
	char				 err[256];

	t_conf3(&in);
	buf = raft_wire_conf_encode(&in, &len);
	ok(buf != NULL && buf[0] == RAFT_WIRE_VERSION, "conf: encodes, "
	    "version first");
	if (t_seed_dir != NULL)
		t_seed("conf", buf, len);
	err[0] = '\0';
	ok(raft_wire_conf_decode(buf, len, &out, err, sizeof err) == 0 &&
	    t_conf_equal(&in, &out), "conf: the same servers back");
	raft_configuration_close(&out);
	for (cut = 0; cut < len; cut++) {
		err[0] = '\0';
		out.n = 99;
		if (raft_wire_conf_decode(buf, cut, &out, err, sizeof err) !=
		    -1 || err[0] == '\0' || out.n != 0 || out.servers != NULL)
			bad++;
	}
	is_int(bad, 0, "conf: each of %zu cuts refused, left empty", len);
	buf[0] = 0;
	ok(raft_wire_conf_decode(buf, len, &out, err, sizeof err) == -1 &&
	    strcmp(err, "version 0, expected 1") == 0, "conf: version 0 "
	    "refused");
	buf[0] = RAFT_WIRE_VERSION;
	ok(raft_wire_conf_decode(buf, len - 1, &out, err, sizeof err) == -1 &&
	    strstr(err, "server 2: address: truncated") != NULL,
	    "conf: a cut names the server and field (%s)", err);
	free(buf);
	raft_configuration_close(&in);

	raft_configuration_init(&in);
	buf = raft_wire_conf_encode(&in, &len);
	ok(buf != NULL && len == 9 && raft_wire_conf_decode(buf, len, &out,
	    err, sizeof err) == 0 && out.n == 0, "conf: no servers round "
	    "trips");
	free(buf);
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--seeds") == 0)
		t_seed_dir = argv[2];
	test_small();
	test_append_entries();
	test_install_snapshot();
	test_refusals();
	test_conf();
	return (tap_done());
}

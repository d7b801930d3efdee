/* fuzz-raft-wire.c: C-raft's messages and configurations as bytes
 * (daemon/controller/raft-wire.c) on any input, as a replica reads them from
 * a peer and from disk. The same bytes are decoded as a message and as a
 * configuration. The format has one encoding for each value, so what is
 * accepted must encode back to the very same bytes; a refusal must say why
 * and leave nothing behind (ASan's leak check holds the decoder to it).
 * The seeds are the unit test's encodings:
 *     tests/unit/raft-wire.t --seeds tests/fuzz/corpus/raft-wire */
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/raft-wire.h"
#include "tests/fuzz/fuzz.h"

static const char	fuzz_raft_wire_address[] = "peer:7020";

/* Encoded again, a decoded value must be the input itself. */
static void
fuzz_raft_wire_same(uint8_t *again, size_t alen, const uint8_t *data,
    size_t size)
{
	if (again == NULL || alen != size || memcmp(again, data, size) != 0)
		abort();
	free(again);
}

static void
fuzz_raft_wire_message(const uint8_t *data, size_t size)
{
	static const struct raft_message	 zero;
	struct raft_message			 m;
	struct raft_append_entries		*ae = &m.append_entries;
	uint8_t					*again;
	size_t					 alen, i;
	char					 err[256];

	err[0] = '\0';
	if (raft_wire_decode(data, size, 3, fuzz_raft_wire_address, &m, err,
	    sizeof err) == -1) {
		if (err[0] == '\0' || memcmp(&m, &zero, sizeof m) != 0)
			abort();
		return;
	}
	if (m.server_id != 3 || m.server_address != fuzz_raft_wire_address)
		abort();
	/* What C-raft's free paths take for granted (recv.c, entry.c). */
	if (m.type == RAFT_IO_APPEND_ENTRIES) {
		if ((ae->n_entries == 0) != (ae->entries == NULL))
			abort();
		for (i = 0; i < ae->n_entries; i++)
			if (ae->entries[i].batch == NULL ||
			    ae->entries[i].batch != ae->entries[0].batch)
				abort();
	}
	again = raft_wire_encode(&m, &alen);
	fuzz_raft_wire_same(again, alen, data, size);
	raft_wire_free(&m);
}

static void
fuzz_raft_wire_conf(const uint8_t *data, size_t size)
{
	struct raft_configuration	 c;
	uint8_t				*again;
	size_t				 alen;
	char				 err[256];

	err[0] = '\0';
	if (raft_wire_conf_decode(data, size, &c, err, sizeof err) == -1) {
		if (err[0] == '\0' || c.n != 0 || c.servers != NULL)
			abort();
		return;
	}
	again = raft_wire_conf_encode(&c, &alen);
	fuzz_raft_wire_same(again, alen, data, size);
	raft_configuration_close(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_raft_wire_message(data, size);
	fuzz_raft_wire_conf(data, size);
	return (0);
}

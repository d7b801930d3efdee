/* node-cgroup-dev.c: on cgroup v2 the kernel asks a BPF program whether a
 * process of the cgroup may use a device (there is no devices.deny file).
 * This one is written out instruction by instruction rather than compiled
 * from C, so gnoded needs neither clang nor libbpf: it denies the listed
 * character devices and allows everything else, leaving whatever the
 * cgroups above allow or deny in force (BPF_F_ALLOW_MULTI: every program
 * on the path must allow). */
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <linux/bpf.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "daemon/node/node-cgroup-int.h"

/* The registers the program uses: r1 holds the context on entry, r0 the
 * verdict on exit (1 allows, 0 denies). */
#define DEV_R0	0
#define DEV_R1	1
#define DEV_TYPE	2
#define DEV_MAJOR	3
#define DEV_MINOR	4

/* Instructions per denied device: two compares, the verdict, exit. */
#define DEV_PER	4

static struct bpf_insn
node_cgroup_dev_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
    int32_t imm)
{
	struct bpf_insn	i;

	memset(&i, 0, sizeof i);
	i.code = code;
	i.dst_reg = dst & 0xf;
	i.src_reg = src & 0xf;
	i.off = off;
	i.imm = imm;
	return (i);
}

/* dst = *(u32 *)(r1 + off): a field of struct bpf_cgroup_dev_ctx. */
static struct bpf_insn
node_cgroup_dev_load(uint8_t dst, size_t off)
{
	return (node_cgroup_dev_insn(BPF_LDX | BPF_MEM | BPF_W, dst, DEV_R1,
	    (int16_t)off, 0));
}

/* if (dst != imm) skip the next off instructions. */
static struct bpf_insn
node_cgroup_dev_jne(uint8_t dst, int32_t imm, int16_t off)
{
	return (node_cgroup_dev_insn(BPF_JMP | BPF_JNE | BPF_K, dst, 0, off,
	    imm));
}

static struct bpf_insn
node_cgroup_dev_ret(int32_t verdict)
{
	return (node_cgroup_dev_insn(BPF_ALU64 | BPF_MOV | BPF_K, DEV_R0, 0, 0,
	    verdict));
}

static struct bpf_insn
node_cgroup_dev_exit(void)
{
	return (node_cgroup_dev_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}

/* The program: the device's type (the low 16 bits of access_type; the
 * access, read, write or mknod, is in the high ones and does not matter:
 * all three are denied), then one block per denied device, then allow.
 * Returns a new array of *n instructions the caller frees. */
static struct bpf_insn *
node_cgroup_dev_program(const dev_t *deny, size_t ndeny, size_t *n)
{
	struct bpf_insn	*p;
	size_t		 i, k = 0;

	p = xcalloc(5 + ndeny * DEV_PER + 2, sizeof *p);
	p[k++] = node_cgroup_dev_load(DEV_TYPE,
	    offsetof(struct bpf_cgroup_dev_ctx, access_type));
	p[k++] = node_cgroup_dev_insn(BPF_ALU64 | BPF_AND | BPF_K, DEV_TYPE,
	    0, 0, 0xffff);
	p[k++] = node_cgroup_dev_load(DEV_MAJOR,
	    offsetof(struct bpf_cgroup_dev_ctx, major));
	p[k++] = node_cgroup_dev_load(DEV_MINOR,
	    offsetof(struct bpf_cgroup_dev_ctx, minor));
	/* Block devices, and everything once no entry matched: allow. */
	p[k++] = node_cgroup_dev_jne(DEV_TYPE, BPF_DEVCG_DEV_CHAR,
	    (int16_t)(ndeny * DEV_PER));
	for (i = 0; i < ndeny; i++) {
		/* A major has 12 bits and a minor 20: both fit the
		 * positive range of the 32-bit immediate. */
		p[k++] = node_cgroup_dev_jne(DEV_MAJOR,
		    (int32_t)major(deny[i]), 3);
		p[k++] = node_cgroup_dev_jne(DEV_MINOR,
		    (int32_t)minor(deny[i]), 2);
		p[k++] = node_cgroup_dev_ret(0);
		p[k++] = node_cgroup_dev_exit();
	}
	p[k++] = node_cgroup_dev_ret(1);
	p[k++] = node_cgroup_dev_exit();
	*n = k;
	return (p);
}

static int
node_cgroup_dev_bpf(int cmd, union bpf_attr *attr)
{
	return ((int)syscall(SYS_bpf, cmd, attr, sizeof *attr));
}

/* Loads the program. Returns its descriptor, or -1 with err set (the
 * verifier's complaint included: it says which instruction it refused). */
static int
node_cgroup_dev_load_prog(const char *dir, const struct bpf_insn *p,
    size_t n, char *err, size_t errlen)
{
	union bpf_attr	 attr;
	char		 log[1024];
	int		 fd, saved;

	memset(&attr, 0, sizeof attr);
	attr.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	attr.insns = (uint64_t)(uintptr_t)p;
	attr.insn_cnt = (uint32_t)n;
	/* Only checked by helpers restricted to GPL programs; this one
	 * calls no helper at all. */
	attr.license = (uint64_t)(uintptr_t)"GPL";
	snprintf(attr.prog_name, sizeof attr.prog_name, "gbatch_dev");
	if ((fd = node_cgroup_dev_bpf(BPF_PROG_LOAD, &attr)) != -1)
		return (fd);
	saved = errno;
	/* Again, for the verifier's log: asking for it the first time
	 * would cost every job the log's formatting. */
	log[0] = '\0';
	attr.log_level = 1;
	attr.log_buf = (uint64_t)(uintptr_t)log;
	attr.log_size = sizeof log;
	if ((fd = node_cgroup_dev_bpf(BPF_PROG_LOAD, &attr)) != -1)
		return (fd);
	log[sizeof log - 1] = '\0';
	snprintf(err, errlen, "%s: cannot load the device program (%zu "
	    "instructions) with bpf(2): %s%s%.300s", dir, n, strerror(saved),
	    log[0] != '\0' ? "; the verifier says: " : "", log);
	errno = saved;
	return (-1);
}

int
node_cgroup_dev_attach(const char *dir, const dev_t *deny, size_t n,
    char *err, size_t errlen)
{
	union bpf_attr	 attr;
	struct bpf_insn	*p;
	size_t		 ninsn;
	int		 prog = -1, cg = -1, rc = -1;

	p = node_cgroup_dev_program(deny, n, &ninsn);
	if ((prog = node_cgroup_dev_load_prog(dir, p, ninsn, err,
	    errlen)) == -1)
		goto out;
	if ((cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: cannot open: %s", dir,
		    strerror(errno));
		goto out;
	}
	memset(&attr, 0, sizeof attr);
	attr.target_fd = (uint32_t)cg;
	attr.attach_bpf_fd = (uint32_t)prog;
	attr.attach_type = BPF_CGROUP_DEVICE;
	/* Whatever an administrator or systemd attached above still
	 * applies, and a parent that allows only ALLOW_MULTI children
	 * accepts this one. */
	attr.attach_flags = BPF_F_ALLOW_MULTI;
	if (node_cgroup_dev_bpf(BPF_PROG_ATTACH, &attr) == -1) {
		snprintf(err, errlen, "%s: cannot attach the device program "
		    "with bpf(2): %s", dir, strerror(errno));
		goto out;
	}
	/* The attachment holds the program until the cgroup is removed;
	 * our descriptors are not needed for it. */
	rc = 0;
out:
	if (cg != -1)
		close(cg);
	if (prog != -1)
		close(prog);
	free(p);
	return (rc);
}

/* node-gpu-nvml.c: real GPUs through NVML, loaded with dlopen() so neither
 * the build nor the tests need NVIDIA's libraries. The few NVML types used
 * are declared here from the documented ABI. */
#include <dlfcn.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-cpus.h"
#include "daemon/node/node-gpu.h"

typedef int			 nvmlReturn_t;	/* NVML_SUCCESS is 0 */
typedef struct nvmlDevice_st	*nvmlDevice_t;
typedef struct {
	unsigned long long	total;		/* bytes */
	unsigned long long	free;
	unsigned long long	used;
} nvmlMemory_t;
typedef struct {
	unsigned int	gpu;		/* % of the last period a kernel ran */
	unsigned int	memory;
} nvmlUtilization_t;

#define NODE_NVML_SUCCESS	0
#define NODE_NVML_NAME_LEN	96
#define NODE_NVML_UUID_LEN	96
#define NODE_NVML_MAX_GPUS	64

struct node_gpu_nvml {
	void		*lib;
	nvmlReturn_t	(*init)(void);
	nvmlReturn_t	(*shutdown)(void);
	nvmlReturn_t	(*count)(unsigned int *);
	nvmlReturn_t	(*handle)(unsigned int, nvmlDevice_t *);
	nvmlReturn_t	(*name)(nvmlDevice_t, char *, unsigned int);
	nvmlReturn_t	(*uuid)(nvmlDevice_t, char *, unsigned int);
	nvmlReturn_t	(*memory)(nvmlDevice_t, nvmlMemory_t *);
	const char	*(*error)(nvmlReturn_t);
	/* Sampling only: absent from very old drivers. */
	nvmlReturn_t	(*util)(nvmlDevice_t, nvmlUtilization_t *);
	/* The device file's minor number, for confinement; optional. */
	nvmlReturn_t	(*minor)(nvmlDevice_t, unsigned int *);
	/* The CPUs near the GPU, as a bit mask in unsigned longs; optional. */
	nvmlReturn_t	(*affinity)(nvmlDevice_t, unsigned int,
			    unsigned long *);
	char		 errbuf[32];	/* node_gpu_nvml_strerror's */
};

/* NVML's words for rc, or its number: borrowed until the next call. */
static const char *
node_gpu_nvml_strerror(struct node_gpu_nvml *nv, nvmlReturn_t rc)
{
	if (nv->error != NULL)
		return (nv->error(rc));
	snprintf(nv->errbuf, sizeof nv->errbuf, "NVML error %d", rc);
	return (nv->errbuf);
}

static int
node_gpu_nvml_load(struct node_gpu_nvml *nv, char *err, size_t errlen)
{
	static const struct {
		const char	*sym;
		size_t		 off;
	} syms[] = {
		{ "nvmlInit_v2", offsetof(struct node_gpu_nvml, init) },
		{ "nvmlShutdown", offsetof(struct node_gpu_nvml, shutdown) },
		{ "nvmlDeviceGetCount_v2",
		    offsetof(struct node_gpu_nvml, count) },
		{ "nvmlDeviceGetHandleByIndex_v2",
		    offsetof(struct node_gpu_nvml, handle) },
		{ "nvmlDeviceGetName", offsetof(struct node_gpu_nvml, name) },
		{ "nvmlDeviceGetUUID", offsetof(struct node_gpu_nvml, uuid) },
		{ "nvmlDeviceGetMemoryInfo",
		    offsetof(struct node_gpu_nvml, memory) },
	};
	const char	*why;
	void		*fn;
	size_t		 i;

	memset(nv, 0, sizeof *nv);
	if ((nv->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) ==
	    NULL) {
		why = dlerror();
		/* dlerror() names the library already. */
		snprintf(err, errlen, "%s", why != NULL ? why :
		    "cannot load libnvidia-ml.so.1");
		return (-1);
	}
	for (i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		if ((fn = dlsym(nv->lib, syms[i].sym)) == NULL) {
			snprintf(err, errlen, "libnvidia-ml.so.1 has no %s",
			    syms[i].sym);
			dlclose(nv->lib);
			return (-1);
		}
		/* POSIX guarantees data and function pointers convert. */
		memcpy((char *)nv + syms[i].off, &fn, sizeof fn);
	}
	fn = dlsym(nv->lib, "nvmlErrorString");
	memcpy(&nv->error, &fn, sizeof fn);
	fn = dlsym(nv->lib, "nvmlDeviceGetUtilizationRates");
	memcpy(&nv->util, &fn, sizeof fn);
	fn = dlsym(nv->lib, "nvmlDeviceGetMinorNumber");
	memcpy(&nv->minor, &fn, sizeof fn);
	fn = dlsym(nv->lib, "nvmlDeviceGetCpuAffinity");
	memcpy(&nv->affinity, &fn, sizeof fn);
	return (0);
}

/* The CPUs near dev, as a list into buf ("" when NVML cannot say). */
static void
node_gpu_nvml_cpus(struct node_gpu_nvml *nv, nvmlDevice_t dev, char *buf,
    size_t len)
{
	unsigned long	mask[CPU_SETSIZE / (8 * sizeof(unsigned long))];
	cpu_set_t	set;
	size_t		i, b;

	buf[0] = '\0';
	memset(mask, 0, sizeof mask);
	if (nv->affinity == NULL || nv->affinity(dev,
	    (unsigned int)(sizeof mask / sizeof mask[0]), mask) !=
	    NODE_NVML_SUCCESS)
		return;
	CPU_ZERO(&set);
	for (i = 0; i < sizeof mask / sizeof mask[0]; i++) {
		for (b = 0; b < 8 * sizeof(unsigned long); b++) {
			if (mask[i] & (1UL << b))
				CPU_SET(i * 8 * sizeof(unsigned long) + b,
				    &set);
		}
	}
	if (node_cpus_format(&set, buf, len) == -1)
		buf[0] = '\0';
}

static int
node_gpu_nvml_discover(const struct node_conf *conf, struct node_gpu **out,
    size_t *n, char *err, size_t errlen)
{
	struct node_gpu_nvml	 nv;
	struct node_gpu		*v = NULL;
	nvmlDevice_t		 dev;
	nvmlMemory_t		 mem;
	nvmlReturn_t		 rc;
	unsigned int		 count, i;

	if (node_gpu_nvml_load(&nv, err, errlen) == -1)
		return (-1);
	if ((rc = nv.init()) != NODE_NVML_SUCCESS) {
		snprintf(err, errlen, "nvmlInit: %s",
		    node_gpu_nvml_strerror(&nv, rc));
		dlclose(nv.lib);
		return (-1);
	}
	if ((rc = nv.count(&count)) != NODE_NVML_SUCCESS) {
		snprintf(err, errlen, "nvmlDeviceGetCount: %s",
		    node_gpu_nvml_strerror(&nv, rc));
		goto fail;
	}
	/* The controller tracks a node's GPUs as a 64-bit mask. */
	if (count > NODE_NVML_MAX_GPUS)
		count = NODE_NVML_MAX_GPUS;
	v = xcalloc(count == 0 ? 1 : count, sizeof *v);
	for (i = 0; i < count; i++) {
		v[i].index = i;
		if ((rc = nv.handle(i, &dev)) != NODE_NVML_SUCCESS) {
			snprintf(err, errlen, "GPU %u: nvmlDeviceGetHandle"
			    "ByIndex: %s", i, node_gpu_nvml_strerror(&nv, rc));
			goto fail;
		}
		if (nv.name(dev, v[i].name, NODE_NVML_NAME_LEN) !=
		    NODE_NVML_SUCCESS)
			snprintf(v[i].name, sizeof v[i].name, "unknown");
		if (nv.uuid(dev, v[i].uuid, NODE_NVML_UUID_LEN) !=
		    NODE_NVML_SUCCESS)
			snprintf(v[i].uuid, sizeof v[i].uuid, "GPU-%s-%u",
			    conf->name, i);
		if (nv.memory(dev, &mem) == NODE_NVML_SUCCESS)
			v[i].memory_mb = mem.total / (1024 * 1024);
		if (nv.minor == NULL || nv.minor(dev, &v[i].minor) !=
		    NODE_NVML_SUCCESS)
			v[i].minor = i;
		node_gpu_nvml_cpus(&nv, dev, v[i].cpus, sizeof v[i].cpus);
	}
	nv.shutdown();
	dlclose(nv.lib);
	*out = v;
	*n = count;
	return (0);
fail:
	free(v);
	nv.shutdown();
	dlclose(nv.lib);
	return (-1);
}

/* NVML as sampling keeps it: loaded and initialised at the first sample
 * and kept by the GPU list until it is freed (a heartbeat every few
 * seconds should not load a library each time). */
struct node_gpu_nvml_live {
	struct node_gpu_nvml	nv;
	bool			ok;	/* loaded and initialised */
};

static void
node_gpu_nvml_sample(const struct node_conf *conf, void **live,
    struct node_gpu_use *use, size_t n)
{
	struct node_gpu_nvml_live	*l = *live;
	struct node_gpu_nvml		*nv;
	nvmlDevice_t			 dev;
	nvmlMemory_t			 mem;
	nvmlUtilization_t		 u;
	char				 err[256];
	size_t				 i;

	if (l == NULL) {
		*live = l = xcalloc(1, sizeof *l);
		if (node_gpu_nvml_load(&l->nv, err, sizeof err) == -1)
			log_warn("node %s: GPU use unknown: %s", conf->name,
			    err);
		else if (l->nv.init() != NODE_NVML_SUCCESS)
			dlclose(l->nv.lib);
		else
			l->ok = true;
	}
	if (!l->ok)
		return;
	nv = &l->nv;
	for (i = 0; i < n; i++) {
		if (nv->handle((unsigned int)i, &dev) != NODE_NVML_SUCCESS)
			continue;
		if (nv->util != NULL && nv->util(dev, &u) == NODE_NVML_SUCCESS)
			use[i].util = (int)u.gpu;
		if (nv->memory(dev, &mem) == NODE_NVML_SUCCESS)
			use[i].mem_used_mb = (int64_t)(mem.used /
			    (1024 * 1024));
	}
}

static void
node_gpu_nvml_release(void *live)
{
	struct node_gpu_nvml_live	*l = live;

	if (l->ok) {
		l->nv.shutdown();
		dlclose(l->nv.lib);
	}
	free(l);
}

const struct node_gpu_ops node_gpu_nvml_ops = {
	.name = "nvml",
	.source = "nvml",
	.discover = node_gpu_nvml_discover,
	.sample = node_gpu_nvml_sample,
	.release = node_gpu_nvml_release,
};

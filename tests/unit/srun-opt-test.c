/* srun-opt-test.c: srun's own options read before jobspec's
 * (client/srun-opt.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "client/srun-opt.h"
#include "tests/unit/tap.h"

/* jobspec's shape, as far as these tests need: -G and -n take values,
 * --pty does not. */
static const struct option t_longopts[] = {
	{ "gpus", required_argument, NULL, 'G' },
	{ "ntasks", required_argument, NULL, 'n' },
	{ "nodes", required_argument, NULL, 'N' },
	{ "ntasks-per-node", required_argument, NULL, 3 },
	{ "export", required_argument, NULL, 4 },
	{ "output", required_argument, NULL, 'o' },
	{ "error", required_argument, NULL, 'e' },
	{ "gpus-per-task", required_argument, NULL, 5 },
	{ "pty", no_argument, NULL, 1 },
	{ "jobid", required_argument, NULL, 2 },
	{ NULL, 0, NULL, 0 }
};
static const char t_shortopts[] = ":G:n:N:o:e:";

/* Splits buf on spaces into argv (room for 32, NULL-ended); returns the
 * count. */
static int
t_split(char *buf, char **argv)
{
	int	argc = 0;

	for (argv[argc] = strtok(buf, " "); argv[argc] != NULL && argc < 30;
	    argv[++argc] = strtok(NULL, " "))
		;
	return (argc);
}

/* in (words split on spaces) becomes want, with ntasks and nodes noted. */
static void
t_take(const char *in, bool step, const char *want, unsigned ntasks,
    unsigned nodes)
{
	char		 buf[512], *argv[32], got[512] = "", err[256] = "";
	struct srun_opt	 o;
	int		 argc = 0, i;

	snprintf(buf, sizeof buf, "srun %s", in);
	argc = t_split(buf, argv);
	if (srun_opt_take(&argc, argv, t_longopts, t_shortopts, step, &o,
	    err, sizeof err) != 0) {
		ok(0, "\"%s\" is taken (%s)", in, err);
		return;
	}
	for (i = 1; i < argc; i++) {
		strncat(got, i > 1 ? " " : "", sizeof got - strlen(got) - 1);
		strncat(got, argv[i], sizeof got - strlen(got) - 1);
	}
	ok(strcmp(got, want) == 0 && o.ntasks == ntasks && o.nodes == nodes &&
	    argv[argc] == NULL, "\"%s\"%s leaves \"%s\", -n %u, -N %u (got "
	    "\"%s\", %u, %u)", in, step ? " in a step" : "", want, ntasks,
	    nodes, got, o.ntasks, o.nodes);
}

static void
t_bad(const char *in, const char *part)
{
	char		 buf[512], *argv[32], err[256] = "";
	struct srun_opt	 o;
	int		 argc = 0, r;

	snprintf(buf, sizeof buf, "srun %s", in);
	argc = t_split(buf, argv);
	r = srun_opt_take(&argc, argv, t_longopts, t_shortopts, false, &o, err,
	    sizeof err);
	ok(r == -1 && strstr(err, part) != NULL, "\"%s\" is refused: %s", in,
	    err);
}

/* --label, --kill-on-bad-exit, --unbuffered and a step's
 * --ntasks-per-node, noted. */
static void
t_flags(void)
{
	char		 buf[] = "srun -l -K -u --ntasks-per-node=3 cmd";
	char		*argv[32];
	struct srun_opt	 o;
	char		 err[256];
	int		 argc = 0;

	argc = t_split(buf, argv);
	ok(srun_opt_take(&argc, argv, t_longopts, t_shortopts, true, &o, err,
	    sizeof err) == 0 && o.label && o.kill_on_bad_exit &&
	    o.unbuffered && o.tasks_per_node == 3 && argc == 2,
	    "-l -K -u --ntasks-per-node=3: noted");
	strcpy(buf, "srun --kill-on-bad-exit=0 cmd");
	argc = t_split(buf, argv);
	ok(srun_opt_take(&argc, argv, t_longopts, t_shortopts, true, &o, err,
	    sizeof err) == 0 && !o.kill_on_bad_exit && !o.label &&
	    !o.unbuffered,
	    "--kill-on-bad-exit=0: off");
}

/* A step's -o, -e and --gpus-per-task=1, noted; other counts refused. */
static void
t_files(void)
{
	char		 buf[] = "srun -o out-%t.txt --error e.txt "
			    "--gpus-per-task=1 cmd";
	char		 bad[] = "srun --gpus-per-task=2 cmd";
	char		*argv[32];
	struct srun_opt	 o;
	char		 err[256];
	int		 argc = 0;

	argc = t_split(buf, argv);
	ok(srun_opt_take(&argc, argv, t_longopts, t_shortopts, true, &o, err,
	    sizeof err) == 0 && argc == 2 && o.output != NULL &&
	    strcmp(o.output, "out-%t.txt") == 0 && o.error != NULL &&
	    strcmp(o.error, "e.txt") == 0 && o.gpu_per_task,
	    "a step's -o, --error and --gpus-per-task=1: noted, taken out");
	argc = t_split(bad, argv);
	ok(srun_opt_take(&argc, argv, t_longopts, t_shortopts, true, &o, err,
	    sizeof err) == -1 && strstr(err, "--gpus-per-task=2: a step's "
	    "task gets one GPU") != NULL, "--gpus-per-task=2 is refused: %s",
	    err);
}

int
main(void)
{
	/* srun's own are taken out; jobspec's stay with their values; the
	 * command and its options are the command's. */
	t_take("--cpu-bind=q hostname", false, "hostname", 0, 0);
	t_take("--cpu-bind q -G 1 python3 -u train.py", false,
	    "-G 1 python3 -u train.py", 0, 0);
	t_take("--mpi=none --overlap --exact --whole -u -K cmd --label", false,
	    "cmd --label", 0, 0);
	t_take("--kill-on-bad-exit=1 --mpi none cmd", false, "cmd", 0, 0);
	t_take("-n 4 -N2 --pty bash", false, "-n 4 -N2 --pty bash", 4, 2);
	t_take("--ntasks=3 -G 2 cmd -n 9", false, "--ntasks=3 -G 2 cmd -n 9",
	    3, 0);
	/* In a step -n and -N are the step's alone. */
	t_take("-n1 --cpu-bind=q cmd", true, "cmd", 1, 0);
	t_take("--ntasks 1 --jobid 7 cmd", true, "--jobid 7 cmd", 1, 0);
	t_take("-- cmd --cpu-bind=q", false, "-- cmd --cpu-bind=q", 0, 0);

	/* A step's --ntasks-per-node and --export=ALL are taken out. */
	t_take("--ntasks-per-node=2 --export=ALL cmd", true, "cmd", 0, 0);
	t_take("--ntasks-per-node 2 --export ALL cmd", true, "cmd", 0, 0);
	t_flags();
	t_files();
	t_bad("--mpi=pmi2 cmd", "--mpi=pmi2: gbatch starts no PMI server");
	t_bad("--multi-prog conf", "branch on SLURM_PROCID");
	t_bad("-n 0 cmd", "--ntasks: expected a whole number from 1 to 1024");
	t_bad("-N x cmd", "--nodes: expected a whole number");
	t_bad("--cpu-bind", "--cpu-bind: expected a value");
	return (tap_done());
}

/* jobspec-parse.c: gsub's command line and the #GSUB and #SBATCH lines of
 * a script, through one option table (jobspec-opt.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/jobspec-int.h"
#include "common/cmd.h"
#include "common/xmalloc.h"

/* Applies sbatch's option o: as the gsub option it maps to, or refused
 * with the gbatch way. */
static int
jobspec_parse_slurm(struct jobspec *js, const struct slurm_opt *o,
    const char *arg, enum jobspec_src src, char *err, size_t errlen)
{
	char	n[SLURM_OPT_TYPE_MAX + 32], type[SLURM_OPT_TYPE_MAX + 1];
	char	detail[256];
	long	gpus;

	switch (o->what) {
	case SLURM_DO_GPUS:
		/* --gres=shard:N: shards of one GPU (gsub --gpu-share). */
		if (strcmp(o->name, "gres") == 0 && (gpus = slurm_opt_shards(
		    arg, detail, sizeof detail)) != 0) {
			if (gpus == -1) {
				snprintf(err, errlen, "--%s: %s", o->name,
				    detail);
				return (-1);
			}
			snprintf(n, sizeof n, "%ld", gpus);
			return (jobspec_opt_set(js, jobspec_opt_code(
			    "gpu-share"), n, src, err, errlen));
		}
		if ((gpus = slurm_opt_gpus(arg, strcmp(o->name, "gres") == 0,
		    type, sizeof type, detail, sizeof detail)) == -1) {
			snprintf(err, errlen, "--%s: %s", o->name, detail);
			return (-1);
		}
		snprintf(n, sizeof n, "%s%s%ld", type, *type != '\0' ? ":" :
		    "", gpus);
		return (jobspec_opt_set(js, jobspec_opt_code("gpus"), n, src,
		    err, errlen));
	case SLURM_DO_SPREAD:
		return (jobspec_opt_set(js, jobspec_opt_code("spread"), NULL,
		    src, err, errlen));
	case SLURM_DO_QUIET:
		js->quiet = true;
		return (0);
	case SLURM_DO_ACCEPT:
		return (0);
	case SLURM_DO_SAME:
	case SLURM_DO_HELP:
	case SLURM_DO_REFUSE:
		break;
	}
	snprintf(err, errlen, "--%s: %s", o->name, o->says);
	return (-1);
}

int
jobspec_parse_args(struct jobspec *js, int argc, char **argv,
    enum jobspec_action *action, char *err, size_t errlen)
{
	const struct option	*all;
	const struct slurm_opt	*o;
	const char		*shortopts;
	int			 c, i;

	*action = JOBSPEC_SUBMIT;
	all = jobspec_opt_getopt(&shortopts);
	optind = 0;	/* GNU: start afresh, whatever ran before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, all, NULL)) != -1) {
		if ((o = jobspec_opt_slurm_row(c)) != NULL) {
			if (o->what == SLURM_DO_HELP) {
				*action = JOBSPEC_HELP;
				return (0);
			}
			if (jobspec_parse_slurm(js, o, optarg,
			    JOBSPEC_SRC_CMDLINE, err, errlen) == -1)
				return (-1);
			continue;
		}
		switch (c) {
		case 'h':
			*action = JOBSPEC_HELP;
			return (0);
		case 'V':
			*action = JOBSPEC_VERSION;
			return (0);
		case CMD_OPT_TIMEOUT:
			if (cmd_timeout(optarg, &js->timeout, err,
			    errlen) == -1)
				return (-1);
			js->timeout_set = true;
			break;
		case '?':
		case ':':
			cmd_option_error(c, argv, shortopts, all, err, errlen);
			return (-1);
		default:
			if (jobspec_opt_set(js, c, optarg, JOBSPEC_SRC_CMDLINE,
			    err, errlen) == -1)
				return (-1);
			break;
		}
	}
	if (!js->timeout_set && cmd_timeout(NULL, &js->timeout, err,
	    errlen) == -1)
		return (-1);
	if (JOBSPEC_SET(js, JOBSPEC_F_WRAP) && optind < argc) {
		snprintf(err, errlen, "--wrap and a script (\"%s\") exclude "
		    "each other; give one", argv[optind]);
		return (-1);
	}
	/* No script: standard input, decided when it is read. */
	if (JOBSPEC_SET(js, JOBSPEC_F_WRAP) || optind == argc)
		return (0);
	if (!js->command)
		js->script_path = xstrdup(argv[optind++]);
	js->argc = argc - optind;
	js->argv = xcalloc((size_t)js->argc + 1, sizeof *js->argv);
	for (i = 0; i < js->argc; i++) {
		if (!jobspec_is_text(argv[optind + i])) {
			snprintf(err, errlen, "%s argument %d is not text",
			    js->command ? "command" : "script", i + 1);
			return (-1);
		}
		js->argv[i] = xstrdup(argv[optind + i]);
	}
	return (0);
}

/* Splits a directive line into words as a shell would for simple cases:
 * blanks separate, '...' and "..." quote, a backslash escapes, and an
 * unquoted # starts a comment. Words are written into buf (in place).
 * Returns the number of words, or -1 with err set. */
static int
jobspec_parse_words(char *buf, char **words, int max, char *err, size_t errlen)
{
	char	*r = buf, *w = buf, quote;
	int	 n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (*r == '\0' || *r == '#')
			return (n);
		if (n == max) {
			snprintf(err, errlen, "more than %d words on one line",
			    max);
			return (-1);
		}
		words[n++] = w;
		quote = '\0';
		for (; *r != '\0'; r++) {
			if (quote == '\0' && (*r == ' ' || *r == '\t'))
				break;
			if (quote == '\0' && (*r == '\'' || *r == '"')) {
				quote = *r;
				continue;
			}
			if (quote != '\0' && *r == quote) {
				quote = '\0';
				continue;
			}
			if (*r == '\\' && quote != '\'' && r[1] != '\0')
				r++;
			*w++ = *r;
		}
		if (quote != '\0') {
			snprintf(err, errlen, "unterminated %c quote", quote);
			return (-1);
		}
		if (*r != '\0')
			r++;
		*w++ = '\0';
	}
}

/* Applies one directive line (the text after its tag, "#GSUB" or
 * "#SBATCH"), from src. */
static int
jobspec_parse_line(struct jobspec *js, const char *tag, enum jobspec_src src,
    char *line, char *err, size_t errlen)
{
	const struct option	*o, *all;
	const struct slurm_opt	*so;
	const char		*shortopts;
	char			*words[JOBSPEC_MAX_WORDS + 2];
	char			 werr[256];
	int			 n, c;

	words[0] = (char *)tag;
	if ((n = jobspec_parse_words(line, words + 1, JOBSPEC_MAX_WORDS, werr,
	    sizeof werr)) == -1) {
		snprintf(err, errlen, "%s: %s", tag, werr);
		return (-1);
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: no option given", tag);
		return (-1);
	}
	words[n + 1] = NULL;
	all = jobspec_opt_getopt(&shortopts);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(n + 1, words, shortopts, all, NULL)) != -1) {
		if ((so = jobspec_opt_slurm_row(c)) != NULL) {
			if (so->what == SLURM_DO_HELP) {
				snprintf(err, errlen, "%s --usage: not allowed "
				    "in a script", tag);
				return (-1);
			}
			if (jobspec_parse_slurm(js, so, optarg, src, werr,
			    sizeof werr) == -1) {
				snprintf(err, errlen, "%s %s", tag, werr);
				return (-1);
			}
			continue;
		}
		if (c == 'h' || c == 'V' || c == CMD_OPT_TIMEOUT ||
		    jobspec_opt_cmdline(c)) {
			/* Named from the table: words[optind - 1] would be
			 * the option's value when it has one. */
			for (o = all; o->name != NULL && o->val != c; o++)
				/* nothing */;
			snprintf(err, errlen, "%s --%s: not allowed in a "
			    "script", tag, o->name);
			return (-1);
		}
		switch (c) {
		case '?':
		case ':':
			cmd_option_error(c, words, shortopts, all, werr,
			    sizeof werr);
			snprintf(err, errlen, "%s: %s", tag, werr);
			return (-1);
		default:
			if (jobspec_opt_set(js, c, optarg, src, werr,
			    sizeof werr) == -1) {
				snprintf(err, errlen, "%s %s", tag, werr);
				return (-1);
			}
			break;
		}
	}
	if (optind <= n) {
		snprintf(err, errlen, "%s: unexpected \"%s\"; a %s line "
		    "holds options only", tag, words[optind], tag);
		return (-1);
	}
	return (0);
}

/* The directive tag the line of len bytes at p starts with ("#GSUB" or
 * "#SBATCH", followed by a blank or nothing), or NULL. */
static const char *
jobspec_parse_tag(const char *p, size_t len)
{
	static const char *const tags[] = { "#GSUB", "#SBATCH" };
	size_t			 i, n;

	for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		n = strlen(tags[i]);
		if (len >= n && strncmp(p, tags[i], n) == 0 &&
		    (len == n || p[n] == ' ' || p[n] == '\t'))
			return (tags[i]);
	}
	return (NULL);
}

int
jobspec_parse_directives(struct jobspec *js, const char *text,
    const char *name, char *err, size_t errlen)
{
	const char	*p = text, *nl, *next, *tag;
	char		*line, derr[512];
	size_t		 len, tlen;
	int		 lineno = 0, r;

	/* The next line's start is fixed before the line is trimmed (its
	 * \r, its indent): stepping on by the trimmed length would land
	 * back on a last line's \r and never leave it. */
	for (; *p != '\0'; p = next) {
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		next = nl != NULL ? nl + 1 : p + len;
		lineno++;
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (lineno == 1 && len >= 2 && p[0] == '#' && p[1] == '!')
			continue;
		if ((tag = jobspec_parse_tag(p, len)) != NULL) {
			tlen = strlen(tag);
			if (len == tlen) {
				snprintf(err, errlen, "%s:%d: %s: no option "
				    "given", name, lineno, tag);
				return (-1);
			}
			line = xstrndup(p + tlen, len - tlen);
			r = jobspec_parse_line(js, tag, tag[1] == 'G' ?
			    JOBSPEC_SRC_DIRECTIVE : JOBSPEC_SRC_SBATCH, line,
			    derr, sizeof derr);
			free(line);
			if (r == -1) {
				snprintf(err, errlen, "%s:%d: %s", name, lineno,
				    derr);
				return (-1);
			}
			continue;
		}
		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		/* sbatch's rule: the directives end at the first line that
		 * is neither blank nor a comment. */
		if (len > 0 && *p != '#')
			break;
	}
	return (0);
}

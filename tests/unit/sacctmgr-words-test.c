/* sacctmgr-words-test.c: sacctmgr's words as Slurm spells them
 * (client/sacctmgr-words.c): commands and entities and their
 * abbreviations, Slurm's others refused as unsupported, names, where and
 * set, each keyword converted to ASSOC's member (GrpTRES's gres/gpu,
 * GrpTRESMins's minutes to GPU-hours (to the GPU-second), MaxWall's
 * times, -1 for no limit),
 * and what gbatch cannot hold refused with why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/assoc-words.h"
#include "client/sacctmgr-keys.h"
#include "client/sacctmgr-words.h"
#include "tests/unit/tap.h"

/* Splits in on spaces into argv (kept in buf). Returns argc. */
static int
t_words(const char *in, char *buf, size_t len, char **argv, int max)
{
	int	argc = 0;

	snprintf(buf, len, "%s", in);
	for (argv[argc] = strtok(buf, " "); argv[argc] != NULL &&
	    argc < max - 1; argv[++argc] = strtok(NULL, " "))
		;
	return (argc);
}

/* in is read; what it asks, as "verb entity names accounts users set
 * [def] [format] [flags]", is want. */
static void
t_read(const char *in, const char *want)
{
	static const char *const verbs[] = { "add", "modify", "delete",
	    "show" }, *const ents[] = { "account", "user", "assoc" };
	struct sacctmgr_words	 w;
	char			 buf[512], got[1024], *argv[32], err[512] = "";
	char			*n, *a, *u, *set;
	int			 argc = t_words(in, buf, sizeof buf, argv, 32);

	if (sacctmgr_words_parse(argc, argv, &w, err, sizeof err) != 0) {
		ok(0, "\"%s\" is read (%s)", in, err);
		return;
	}
	n = json_dumps(w.names, JSON_COMPACT);
	a = json_dumps(w.accounts, JSON_COMPACT);
	u = json_dumps(w.users, JSON_COMPACT);
	set = json_dumps(w.set, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(got, sizeof got, "%s %s %s %s %s %s%s%s%s%s%s%s",
	    verbs[w.verb], ents[w.entity], n, a, u, set,
	    w.def_account != NULL ? " def=" : "", w.def_account != NULL ?
	    w.def_account : "", w.format != NULL ? " format=" : "",
	    w.format != NULL ? w.format : "", w.withassoc ? " withassoc" : "",
	    w.tree ? " tree" : "");
	is_str(got, want, "\"%s\"", in);
	free(n);
	free(a);
	free(u);
	free(set);
	sacctmgr_words_free(&w);
}

/* in is refused with r, err holding part. */
static void
t_bad(const char *in, int r, const char *part)
{
	struct sacctmgr_words	 w;
	char			 buf[512], *argv[32], err[512] = "";
	int			 argc = t_words(in, buf, sizeof buf, argv, 32);
	int			 got = sacctmgr_words_parse(argc, argv, &w, err,
				    sizeof err);

	ok(got == r && strstr(err, part) != NULL && w.names == NULL,
	    "\"%s\" is refused (%d) with \"%s\" (%d: %s)", in, r, part, got,
	    err);
}

int
main(void)
{
	const int	U = SACCTMGR_WORDS_USAGE, N = SACCTMGR_WORDS_UNSUPPORTED;

	/* add account: names however given, each keyword converted. */
	t_read("add account phys Parent=science Description=Physics "
	    "Fairshare=2 GrpJobs=4 GrpTRES=gres/gpu=8 MaxWall=2:00:00 "
	    "GrpSubmitJobs=20 GrpTRESMins=gres/gpu=30000",
	    "add account [\"phys\"] [] [] {\"description\":\"Physics\","
	    "\"gpu_hours\":500,\"max_gpus\":8,\"max_jobs\":4,\"max_pending\":"
	    "20,\"max_time\":7200,\"parent\":\"science\",\"shares\":2}");
	t_read("CREATE ACCT name=a,b parent=ROOT",
	    "add account [\"a\",\"b\"] [] [] {\"parent\":\"\"}");
	t_read("add a x,y,x shares=3",
	    "add account [\"x\",\"y\"] [] [] {\"shares\":3}");
	t_read("add account x set maxw=30 grpj=-1 grptres=gres/gpu=-1",
	    "add account [\"x\"] [] [] {\"max_gpus\":0,\"max_jobs\":0,"
	    "\"max_time\":1800}");
	t_read("add account x MaxWall=UNLIMITED GrpTRES=GRES/GPU=2",
	    "add account [\"x\"] [] [] {\"max_gpus\":2,\"max_time\":0}");
	t_read("add account x MaxWall=1-00:00:00 GrpTRESMins=gres/gpu=60",
	    "add account [\"x\"] [] [] {\"gpu_hours\":1,\"max_time\":86400}");

	/* add user: accounts, a default, a user's keywords. */
	t_read("add user alice Account=phys,chem DefaultAccount=chem "
	    "MaxJobs=2 MaxSubmitJobs=5 GrpTRES=gres/gpu=4 MaxWall=60 "
	    "Fairshare=parent",
	    "add user [\"alice\"] [\"phys\",\"chem\"] [] {\"max_gpus\":4,"
	    "\"max_jobs\":2,\"max_pending\":5,\"max_time\":3600} def=chem");
	t_read("add user alice DefaultAccount=phys",
	    "add user [\"alice\"] [\"phys\"] [] {} def=phys");
	t_read("add user names=alice,bob accounts=phys GrpJobs=3",
	    "add user [\"alice\",\"bob\"] [\"phys\"] [] {\"max_jobs\":3}");

	/* modify: where before set, names however given. */
	t_read("modify account phys set GrpJobs=8",
	    "modify account [\"phys\"] [] [] {\"max_jobs\":8}");
	t_read("modify account where name=phys set Parent=root "
	    "Description=x",
	    "modify account [\"phys\"] [] [] {\"description\":\"x\","
	    "\"parent\":\"\"}");
	t_read("update user alice where account=phys set MaxJobs=1",
	    "modify user [\"alice\"] [\"phys\"] [] {\"max_jobs\":1}");
	t_read("m u where name=alice set defaultaccount=chem",
	    "modify user [\"alice\"] [] [] {} def=chem");

	/* delete. */
	t_read("delete account phys,chem",
	    "delete account [\"phys\",\"chem\"] [] [] {}");
	t_read("remove user alice where account=phys",
	    "delete user [\"alice\"] [\"phys\"] [] {}");

	/* show. */
	t_read("show account", "show account [] [] [] {}");
	t_read("list accounts phys withassoc format=account,user",
	    "show account [\"phys\"] [] [] {} format=account,user withassoc");
	t_read("show users alice", "show user [\"alice\"] [] [] {}");
	t_read("show assoc where account=phys user=alice,bob tree",
	    "show assoc [] [\"phys\"] [\"alice\",\"bob\"] {} tree");
	t_read("list associations format=Account,User,Share",
	    "show assoc [] [] [] {} format=Account,User,Share");

	/* Commands and entities: Slurm's others are unsupported (exit 1),
	 * words that are none are usage errors. */
	t_bad("", U, "expected a command: add, modify, delete or show");
	t_bad("frobnicate", U, "\"frobnicate\": expected a command: add (or "
	    "create), modify (or update), delete (or remove), show (or list)");
	t_bad("archive dump", N, "archive: not supported; gbatch's sacctmgr "
	    "adds, modifies and deletes accounts and users, and shows "
	    "accounts, users and associations");
	t_bad("add qos high", N, "add qos: not supported; gbatch's sacctmgr");
	t_bad("show qos", N, "and shows accounts, users and associations "
	    "(gbatch's QOS are gbatch.conf's qos group: gctl show config)");
	t_bad("show cluster", N, "show cluster: not supported");
	t_bad("add coordinator names=alice account=phys", N, "add "
	    "coordinator: not supported");
	t_bad("modify qos normal set priority=1", N, "not supported");
	t_bad("show tres", N, "not supported");
	t_bad("add", U, "add: expected what: account or user");
	t_bad("show", U, "show: expected what: account or user, or "
	    "association");
	t_bad("add assoc x", U, "add: \"assoc\": expected account or user");
	t_bad("show a", U, "expected account or user, or association");

	/* Names a command needs. */
	t_bad("add account", U, "add account: expected the account's name "
	    "(NAME, or Name=NAME)");
	t_bad("add account Parent=science", U, "expected the account's name");
	t_bad("modify account set GrpJobs=2", U, "modify account: expected "
	    "the account's name (NAME, or where Name=NAME)");
	t_bad("delete user", U, "delete user: expected the user's name");
	t_bad("add user alice", U, "add user: expected Account=NAME (or "
	    "DefaultAccount=NAME)");
	t_bad("add account root", U, "root is the top of the tree");
	t_bad("add account x,Root", U, "root is the top of the tree");
	t_bad("modify account phys", U, "modify account: nothing to set; "
	    "expected set KEY=VALUE");
	t_bad("modify user alice set Fairshare=parent", U, "nothing to set");
	t_bad("add account a,,b", U, "empty item");

	/* Keywords: unknown ones named with those accepted there. */
	t_bad("add account x QOS=normal", U, "QOS: unknown keyword; expected "
	    "Names, Description, Fairshare, GrpJobs, GrpSubmitJobs, GrpTRES, "
	    "GrpTRESMins, MaxWall, Parent");
	t_bad("add user x account=a Colour=blue", U, "Colour: unknown "
	    "keyword; expected Names, Accounts, DefaultAccount, Fairshare, "
	    "GrpJobs, GrpSubmitJobs, GrpTRES, MaxJobs, MaxSubmitJobs, "
	    "MaxWall");
	t_bad("modify account phys set name=chem", U, "name: unknown keyword "
	    "after set; expected Description");
	t_bad("modify account where parent=x set GrpJobs=1", U, "parent: "
	    "unknown keyword before set; expected Names");
	t_bad("modify account phys GrpJobs=1", U, "GrpJobs: unknown keyword "
	    "before set; expected Names");
	t_bad("modify account phys set chem", U, "\"chem\": expected "
	    "KEY=VALUE, KEY one of Description");
	t_bad("delete account phys set GrpJobs=1", U, "set: expected once, "
	    "in modify");
	t_bad("show assoc phys", U, "\"phys\": expected KEY=VALUE, KEY one "
	    "of Accounts, Users, Format, Tree");
	t_bad("show account withassoc=1", U, "withassoc: unknown keyword");
	t_bad("show account format=a format=b", U, "format: expected a list "
	    "of fields, once");
	t_bad("modify account phys set GrpJobs=1 where name=chem", U,
	    "where: expected before set");
	t_bad("add account x =3", U, "\"=3\": expected KEY=VALUE");

	/* Keywords an account or a user has not, saying why. */
	t_bad("add account x MaxJobs=4", U, "MaxJobs: on an account Slurm's "
	    "MaxJobs limits each of its users, which gbatch sets on each "
	    "user (modify user NAME set MaxJobs=N); an account's own limit "
	    "is GrpJobs");
	t_bad("add account x MaxSubmitJobs=4", U, "GrpSubmitJobs");
	t_bad("add user x account=a GrpTRESMins=gres/gpu=60", U, "GrpTRESMins:"
	    " gbatch keeps a GPU-hour budget on accounts alone");
	t_bad("modify user x set Parent=y", U, "Parent: a user's association "
	    "has no parent");
	t_bad("modify user x set Fairshare=3", U, "Fairshare: a user's "
	    "association has no share of its own in gbatch");
	t_bad("add account x Fairshare=parent", U, "a gbatch account has "
	    "shares of its own");

	/* Values: ranges, Slurm's 0 (nothing runs), -1, each once. */
	t_bad("add account x GrpJobs=0", U, "GrpJobs: 0 lets no job run in "
	    "Slurm, a limit gbatch cannot hold; expected 1 to 1000000000, or "
	    "-1 for no limit");
	t_bad("add account x GrpJobs=many", U, "GrpJobs: expected a whole "
	    "number from 1 to 1000000000, or -1 for no limit, got \"many\"");
	t_bad("add account x GrpJobs=1000000001", U, "got \"1000000001\"");
	t_bad("add account x GrpJobs=-2", U, "got \"-2\"");
	t_bad("add account x MaxWall=0", U, "MaxWall: 0 lets no job run");
	t_bad("add account x MaxWall=00:00:00", U, "0 lets no job run");
	t_bad("add account x MaxWall=forever", U, "MaxWall: ");
	t_bad("add account x MaxWall=400-00:00:00", U, "MaxWall: ");
	t_bad("add account x Fairshare=0", U, "Fairshare: expected a whole "
	    "number from 1 to 1000000000");
	t_bad("add account x Parent=", U, "Parent: expected an account's "
	    "name, or root for the top");
	t_bad("add user x account=a DefaultAccount=a DefaultAccount=b", U,
	    "DefaultAccount: expected one account's name, once");
	t_bad("add user x account=a GrpJobs=1 MaxJobs=2", U, "MaxJobs: the "
	    "user's max_jobs is given twice; expected it once");
	t_bad("add account x Fairshare=1 Shares=2", U, "Shares: the "
	    "account's shares is given twice");

	/* TRES: gres/gpu alone, untyped, once. */
	t_bad("add account x GrpTRES=cpu=4", U, "GrpTRES: cpu: gbatch limits "
	    "GPUs alone; expected gres/gpu=N");
	t_bad("add account x GrpTRES=cpu=4,gres/gpu=2", U, "cpu: gbatch "
	    "limits GPUs alone");
	t_bad("add account x GrpTRES=gres/gpu:a100=2", U, "gres/gpu:a100: "
	    "gbatch limits GPUs of every type together");
	t_bad("add account x GrpTRES=gres/gpu=1,gres/gpu=2", U, "gres/gpu "
	    "given twice");
	t_bad("add account x GrpTRES=8", U, "GrpTRES: \"8\": expected "
	    "gres/gpu=N");
	t_bad("add account x GrpTRES=gres/gpu=0", U, "0 lets no job run");

	/* GrpTRESMins: minutes to GPU-hours, exactly: a fraction of an hour
	 * goes as one, which gbatchd keeps to the GPU-second. */
	t_read("add account x GrpTRESMins=gres/gpu=6000",
	    "add account [\"x\"] [] [] {\"gpu_hours\":100}");
	t_read("add account x GrpTRESMins=gres/gpu=90",
	    "add account [\"x\"] [] [] {\"gpu_hours\":1.5}");
	t_read("add account x GrpTRESMins=gres/gpu=1",
	    "add account [\"x\"] [] [] {\"gpu_hours\":0.016666666666666666}");
	t_read("add account x GrpTRESMins=gres/gpu=-1",
	    "add account [\"x\"] [] [] {\"gpu_hours\":0}");
	t_bad("add account x GrpTRESMins=gres/gpu=1.5", U, "GrpTRESMins: "
	    "expected a whole number from 1 to 60000000000, or -1 for no "
	    "limit, got \"1.5\"");
	t_bad("add account x GrpTRESMins=gres/gpu=60000000060", U,
	    "expected a whole number from 1 to 60000000000");
	t_bad("add account x GrpTRESMins=gres/gpu=0", U, "0 lets no job run");

	/* The keywords a member is reported by. */
	is_str(sacctmgr_keys_key("max_gpus", ASSOC_WORDS_ACCOUNT), "GrpTRES",
	    "an account's max_gpus is GrpTRES");
	is_str(sacctmgr_keys_key("max_jobs", ASSOC_WORDS_ACCOUNT), "GrpJobs",
	    "an account's max_jobs is GrpJobs");
	is_str(sacctmgr_keys_key("max_jobs", ASSOC_WORDS_USER), "MaxJobs",
	    "a user's is MaxJobs");
	is_str(sacctmgr_keys_key("max_pending", ASSOC_WORDS_USER),
	    "MaxSubmitJobs", "a user's max_pending is MaxSubmitJobs");
	is_str(sacctmgr_keys_key("gpu_hours", ASSOC_WORDS_ACCOUNT),
	    "GrpTRESMins", "gpu_hours is GrpTRESMins");
	is_str(sacctmgr_keys_key("max_time", ASSOC_WORDS_USER), "MaxWall",
	    "max_time is MaxWall");
	ok(sacctmgr_keys_key("gpu_hours", ASSOC_WORDS_USER) == NULL,
	    "a user has no gpu_hours");
	ok(sacctmgr_keys_is("withassoc", "WithAssoc", 5) &&
	    !sacctmgr_keys_is("with", "WithAssoc", 5) &&
	    !sacctmgr_keys_is("withassocs", "WithAssoc", 5),
	    "an abbreviation is a prefix of at least the minimum, no longer "
	    "than the word");
	return (tap_done());
}

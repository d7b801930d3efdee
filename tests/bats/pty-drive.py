#!/usr/bin/env python3
# pty-drive.py: runs a command on a pseudo-terminal, as a user at a terminal
# would, and acts on it step by step; for the tests of grun --pty.
#
#   pty-drive.py [--size ROWSxCOLS] STEP... -- COMMAND [ARGS...]
#
# Steps, in order:
#   expect:REGEX     wait until the output so far matches (20 s at most)
#   send:TEXT        type TEXT (Python escapes: \r, \x03 for Ctrl-C)
#   size:ROWSxCOLS   resize the terminal (its programs get SIGWINCH)
# Then it waits for the command to end (30 s at most), prints everything it
# wrote to the terminal and exits with its status (128 + N for signal N).
# A step that times out prints the output so far and exits 124.
import fcntl, os, pty, re, select, struct, sys, termios, time

def size(fd, spec):
    rows, cols = (int(x) for x in spec.split("x"))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

args = sys.argv[1:]
init = "24x80"
if args[:1] == ["--size"]:
    init, args = args[1], args[2:]
cut = args.index("--")
steps, cmd = args[:cut], args[cut + 1:]

pid, fd = pty.fork()
if pid == 0:
    # The size is the terminal's before the command starts and reads it.
    size(0, init)
    os.execvp(cmd[0], cmd)
out = b""

def pump(deadline):
    global out
    r, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
    if not r:
        return True
    try:
        data = os.read(fd, 65536)
    except OSError:
        return False
    if not data:
        return False
    out += data
    return True

def fail(why):
    sys.stdout.write(out.decode("utf-8", "replace"))
    sys.stdout.write("\npty-drive: %s\n" % why)
    os.kill(pid, 9)
    sys.exit(124)

for step in steps:
    kind, _, arg = step.partition(":")
    if kind == "expect":
        deadline = time.time() + 20
        while not re.search(arg.encode(), out):
            if time.time() >= deadline or not pump(deadline):
                fail("never saw %r" % arg)
    elif kind == "send":
        os.write(fd, arg.encode().decode("unicode_escape").encode("latin-1"))
    elif kind == "size":
        size(fd, arg)
    else:
        fail("unknown step %r" % step)

deadline = time.time() + 30
while time.time() < deadline and pump(deadline):
    pass
wpid = 0
while wpid == 0 and time.time() < deadline + 5:
    wpid, status = os.waitpid(pid, os.WNOHANG)
    if wpid == 0:
        time.sleep(0.02)
if wpid == 0:
    fail("the command did not end")
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))

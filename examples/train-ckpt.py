#!/usr/bin/env python3
"""A training loop that survives preemption, the way gbatch expects.

When the scheduler preempts the job, its processes get the checkpoint
signal (gsub --ckpt-signal, SIGUSR1 by default) and have the grace period
(gsub --ckpt-grace) to save their state before SIGTERM. The job is then
requeued with the same id; when it runs again GBATCH_RESTART_COUNT says how
many times it restarted and GBATCH_CKPT_DIR is the same directory as
before, so it resumes where it stopped.

This loop "trains" for --steps steps of --step-time seconds each (a real
job would run a framework's step), keeps a running value as its model
state, saves it every --every steps and when the signal comes, and prints
one line per step so the output shows what ran in which run:

    gsub -G 4 -o train-%j.out examples/train-ckpt.py --steps 1000

Its output file is appended to across restarts, not truncated.
"""
import argparse
import json
import os
import signal
import sys
import time

stop = False


def on_signal(signum, frame):
    # Finish the step under way, then checkpoint and exit: saving in the
    # middle of a step would save a state no step ever had.
    global stop
    stop = True


def save(path, step, value):
    # Write then rename, so a kill during the write never leaves a torn
    # checkpoint behind: the old one stays until the new one is whole.
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"step": step, "value": value}, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--step-time", type=float, default=0.1)
    ap.add_argument("--every", type=int, default=10,
                    help="checkpoint every N steps as well")
    args = ap.parse_args()

    ckpt_dir = os.environ.get("GBATCH_CKPT_DIR", ".")
    restarts = int(os.environ.get("GBATCH_RESTART_COUNT", "0"))
    path = os.path.join(ckpt_dir, "state.json")
    signal.signal(signal.SIGUSR1, on_signal)

    step, value = 0, 0
    if os.path.exists(path):
        with open(path) as f:
            state = json.load(f)
        step, value = state["step"], state["value"]
    print(f"run {restarts}: starting at step {step}", flush=True)

    while step < args.steps:
        time.sleep(args.step_time)
        value += step
        step += 1
        print(f"run {restarts}: step {step}", flush=True)
        if step % args.every == 0 or stop:
            save(path, step, value)
        if stop:
            print(f"run {restarts}: checkpointed at step {step}; exiting",
                  flush=True)
            return 0

    # The sum of 0 .. steps-1, whatever the runs in between.
    print(f"done: value {value}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

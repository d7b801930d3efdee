#!/usr/bin/python3
"""An elastic training job: it runs on whatever GPU count gbatch gives it.

Submit it with a range and one process per GPU:

    gsub -G 1-4 --ntasks-per-node gpu --ckpt-signal USR1 \\
        -o elastic-%j-%t.out examples/elastic-train.py --steps 2000

Each run, every process joins torch.distributed through env:// (RANK,
WORLD_SIZE, MASTER_ADDR and MASTER_PORT come from gnoded) and trains a
small linear model on synthetic data with the gloo backend on CPU tensors
(a real job would put its model on the GPU of LOCAL_RANK and use nccl), its
gradients averaged over the ranks each step. So that the global batch
stays the same whatever the world size, each rank takes --batch / WORLD_SIZE
samples a step.

When the scheduler resizes the job (or preempts it), every process gets the
checkpoint signal; the ranks agree at the next step boundary (the stop flag
is all-reduced with the gradients), rank 0 saves the step, the model and the
samples seen to GBATCH_CKPT_DIR, and all exit 0. The next run, on its new
world size, starts from that checkpoint: the step count goes on.

Rank 0 tells the scheduler how it trains, a line each --report steps on the
file GBATCH_PROGRESS names (docs/protocol.md): the mean step time, the part
spent all-reducing, the local batch size, the samples so far and, on more
than one rank, the gradient statistics (the squared norm of the mean
gradient, and the variance of one sample's gradient estimated from the
ranks' own gradients, as Pollux's agent does).

Only the standard library and torch: no other package.
"""
import argparse
import json
import os
import signal
import sys
import time

import torch
import torch.distributed as dist

stop = False


def on_signal(signum, frame):
    global stop
    stop = True


def save(path, state):
    # Write then rename: a kill mid-write leaves the old checkpoint whole.
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def report(path, line):
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=256,
                    help="the global batch, split over the ranks")
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--report", type=int, default=10,
                    help="a progress line every N steps")
    ap.add_argument("--sample-time", type=float, default=0.0,
                    help="seconds a sample's compute takes besides the "
                         "tiny model's, slept: a larger model, whose "
                         "steps shorten as the ranks split the batch")
    args = ap.parse_args()

    signal.signal(signal.SIGUSR1, on_signal)
    dist.init_process_group(backend="gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    run = int(os.environ.get("GBATCH_RESTART_COUNT", "0"))
    ckpt = os.path.join(os.environ.get("GBATCH_CKPT_DIR", "."), "elastic.pt")
    progress = os.environ.get("GBATCH_PROGRESS") if rank == 0 else None
    local = max(1, args.batch // world)

    torch.manual_seed(0)
    truth = torch.randn(args.dim, 1)
    model = torch.nn.Linear(args.dim, 1, bias=False)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step, samples = 0, 0
    if os.path.exists(ckpt):
        state = torch.load(ckpt)
        model.load_state_dict(state["model"])
        step, samples = state["step"], state["samples"]
    gen = torch.Generator().manual_seed(1000 * run + rank)
    if rank == 0:
        print(f"run {run}: world {world}, local batch {local}, starting "
              f"at step {step}", flush=True)

    t_step = t_sync = 0.0
    n = 0
    while step < args.steps:
        t0 = time.monotonic()
        x = torch.randn(local, args.dim, generator=gen)
        y = x @ truth
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        if args.sample_time > 0:
            time.sleep(args.sample_time * local)
        grad = model.weight.grad.detach().flatten()
        own = grad.clone()
        # One all-reduce a step: the gradients, and whether any rank was
        # told to stop, so that all stop at the same step.
        t1 = time.monotonic()
        flat = torch.cat([grad, torch.tensor([1.0 if stop else 0.0])])
        dist.all_reduce(flat)
        t_sync += time.monotonic() - t1
        mean = flat[:-1] / world
        model.weight.grad.copy_(mean.view_as(model.weight))
        opt.step()
        step += 1
        samples += local * world
        t_step += time.monotonic() - t0
        n += 1
        if n == args.report or flat[-1] > 0:
            line = (f"step_time={t_step / n:.6f} sync_time={t_sync / n:.6f} "
                    f"local_bsz={local} samples={samples}")
            if world > 1:
                # The variance of one sample's gradient, from how the
                # ranks' means of `local` samples spread about theirs.
                dev = torch.tensor([float(((own - mean) ** 2).sum())])
                dist.all_reduce(dev)
                var = float(dev) / (world - 1) * local
                sqr = max(0.0, float((mean ** 2).sum()) -
                          var / (local * world))
                line += f" grad_sqr={sqr:.6e} grad_var={var:.6e}"
            report(progress, line)
            t_step = t_sync = 0.0
            n = 0
        if flat[-1] > 0:
            if rank == 0:
                save(ckpt, {"model": model.state_dict(), "step": step,
                            "samples": samples})
                print(f"run {run}: checkpointed at step {step}; exiting",
                      flush=True)
            dist.barrier()
            dist.destroy_process_group()
            return 0

    if rank == 0:
        err = float(((model.weight.detach().flatten() -
                      truth.flatten()) ** 2).sum())
        print(f"done: {step} steps, {samples} samples, error {err:.3g}",
              flush=True)
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Programs of known behaviour for `cuprobe trace`, in PyTorch (tests/gpu/trace.sh):
    python3 trace_cases.py gemm       bf16 matmuls queued back to back: busy >= 95 %
    python3 trace_cases.py launch     tiny element-wise ops on a 1-element tensor: launch-bound
    python3 trace_cases.py pageable   copies from an unpinned CPU tensor: pageable-copy-bound
    python3 trace_cases.py sync       loss.item() every step of a small model: sync-bound
    python3 trace_cases.py train [--profile] [--steps N]
                                      a training-style loop (MLP, AdamW), its wall time printed as
                                      "train wall_s S" (for the overhead measurement); --profile runs
                                      it under torch.profiler and prints "profiler busy_pct P"
Each prints "MODE done" last."""
import sys
import time

import torch


def gemm():
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    torch.cuda.synchronize()
    for _ in range(300):
        c = a @ b
    torch.cuda.synchronize()
    return c


def launch():
    x = torch.zeros(1, device="cuda")
    for _ in range(4000):
        x = x + 1
    torch.cuda.synchronize()


def pageable():
    h = torch.ones(64 << 20)                    # 256 MiB, not pinned
    d = torch.empty_like(h, device="cuda")
    for _ in range(20):
        d.copy_(h)
        d.mul_(1.0001)
        h.copy_(d)
    torch.cuda.synchronize()


def sync():
    model = torch.nn.Linear(1024, 1024).cuda()
    x = torch.randn(256, 1024, device="cuda")
    total = 0.0
    for _ in range(500):
        loss = model(x).square().mean()
        total += loss.item()                    # a sync every step
        time.sleep(0.0002)                      # the host's bookkeeping after it (logging)
    return total


def train(steps, profile):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 4096),
                                torch.nn.GELU(), torch.nn.Linear(4096, 1024)).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(2048, 4096, device="cuda")
    y = torch.randn(2048, 1024, device="cuda")

    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()

    for _ in range(20):                          # warm-up, outside the timing
        step()
    torch.cuda.synchronize()
    # the timed loop is marked with cudaProfilerStart/Stop, so `cuprobe trace` analyses the same
    # window torch.profiler records
    torch.cuda.profiler.start()
    if profile:
        from torch.profiler import ProfilerActivity, profile as prof
        with prof(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
            t0 = time.perf_counter()
            for _ in range(steps):
                step()
            torch.cuda.synchronize()
            wall = time.perf_counter() - t0
        # busy % from the profiler's own device events: the union of kernel and memcpy intervals
        iv = sorted((e.time_range.start, e.time_range.end) for e in p.events()
                    if e.device_type == torch.autograd.DeviceType.CUDA)
        busy, cur_s, cur_e = 0, None, None
        for s, e in iv:
            if cur_e is None or s > cur_e:
                if cur_e is not None:
                    busy += cur_e - cur_s
                cur_s, cur_e = s, e
            else:
                cur_e = max(cur_e, e)
        if cur_e is not None:
            busy += cur_e - cur_s
        span = (iv[-1][1] - iv[0][0]) if iv else 0
        print("profiler busy_pct %.2f" % (100.0 * busy / span if span else 0.0))
    else:
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
        wall = time.perf_counter() - t0
    torch.cuda.profiler.stop()
    print("train wall_s %.4f" % wall)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "train":
        steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 200
        train(steps, "--profile" in sys.argv)
    elif mode in ("gemm", "launch", "pageable", "sync"):
        globals()[mode]()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(mode, "done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

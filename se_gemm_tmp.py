import torch, torch.nn.functional as F
torch.manual_seed(0)
d = "cuda"
for n, ci, co in ((32, 672, 168), (32, 168, 672), (8, 960, 240), (256, 64, 16)):
    x = torch.randn(n, ci, 1, 1, device=d); w = torch.randn(co, ci, 1, 1, device=d); b = torch.randn(co, device=d)
    forms = {"conv2d+bias": lambda: F.conv2d(x, w, b), "conv2d": lambda: F.conv2d(x, w),
             "linear+bias": lambda: F.linear(x.flatten(1), w.flatten(1), b), "linear": lambda: F.linear(x.flatten(1), w.flatten(1))}
    row = []
    for name, f in forms.items():
        for _ in range(20): f()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(50): f()
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        ts = []
        for _ in range(10):
            s.record(); g.replay(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e) / 50 * 1000)
        ts.sort(); row.append(f"{name} {ts[5]:.2f}us")
    print(n, ci, co, " | ".join(row))

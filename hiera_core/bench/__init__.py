"""`hiera bench`: HIERA over a KernelBench-format suite, with the paper's measures.

    suite.py       which tasks: KernelBench-layout folders (`levelN/*.py`) or lists of files
    runner.py      the suite: the tasks on this host (one per GPU at a time) or on Ray, each record saved as it goes
    task_run.py    the bench's settings, and one task: `optimize`, then the timing op, into one record
    ray_runner.py  --ray: one Ray task per bench task, records brought back and saved as a local run saves them
    worker_ops.py  the timing op (in a worker): eager and each torch.compile mode, one method; the proposal paired
    record.py      the per-task record
    measures.py    validity, fast_p, geometric mean and median, per level and overall
    environment.py GPU, clocks, driver, versions, model and endpoint (never a key)
    results.py     results.json (atomic, after every task) and results.csv
    report.py      report.html with matplotlib plots embedded, readable offline
    console.py     the rich progress bar and tables

The orchestrating process never imports torch (as in the rest of hiera_core); matplotlib is
imported only to draw the report.
"""

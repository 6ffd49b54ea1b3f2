"""The process boundary: the only entry points that run user code (the worker, the candidate runner) and how the orchestrator starts them."""

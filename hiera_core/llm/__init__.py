"""Talking to a model through any OpenAI-compatible chat-completions endpoint.

- `config`: which model, endpoint and budgets a run uses (CLI > env > pyproject.toml > editor).
- `client`: chat completions with retries, and one-line errors for what cannot be retried.
- `answers`: reading answers (the planner's JSON, the one module of a candidate).
- `record`: every exchange of a run and the paper's measures (and cost), in the run's store folder.
- `cache`: answers by prompt hash in the store, replayed instead of asked again.
- `resume`: what `hiera optimize --resume RUN` takes from the run it continues.

The planning and refinement that use these live in `hiera_core.plan.planner` (LLMPlanner) and
`hiera_core.loop.refine` (planning in `refine_planning`); the prompts in `hiera_core.prompts`, expert knowledge in
`hiera_core.knowledge`. Only `client` imports `openai`, and only when a client is built.
"""

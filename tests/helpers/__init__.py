"""What the tests share: task files and the CLI run in a workspace (engine), the strategies'
candidates built in this process (spaces), the LLM tests' scripted server and fakes (chat_server,
llm), bench records and reports (bench), --check runs (check), the CUDA analysis (cuda_analysis),
the custom-CUDA tasks (cuda_tasks) and edits sent to the language server (lsp). On sys.path through
pytest's `pythonpath` (pyproject.toml), so `from helpers.engine import hiera` works from any test folder."""

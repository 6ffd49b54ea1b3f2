"""HIERA's language server (pygls glue over hiera_core) and its headless `--check` mode.

Rule of the house: this package never imports torch in its own process; GPU and model work runs
in child processes of the `hiera` CLI.
"""

__version__ = "0.1.0"

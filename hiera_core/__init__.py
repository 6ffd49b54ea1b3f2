"""HIERA engine: task -> contract spec -> plan -> candidates -> verify -> profile -> proposal.

Importing this package is cheap: torch is only imported by the modules that run user code
(`hiera_core.worker.ops` and what it calls), never by the CLI's orchestrating process.
"""

__version__ = "0.1.0"

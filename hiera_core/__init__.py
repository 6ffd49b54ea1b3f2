"""HIERA engine: task -> contract spec -> plan -> candidates -> verify -> profile -> proposal.

Importing this package is cheap: torch is only imported by the modules that run user code
(`hiera_core.worker.ops` and what it calls), never by the CLI's orchestrating process.
"""

import os

__version__ = "0.1.0"
# The folder holding this package: what a worker or a reproducer script puts on its sys.path.
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

"""Loaded by a test's language server (PYTHONPATH): parses of large documents wait until the file
named by HIERA_TEST_PARSE_GATE exists, and a large file's analysis in the server's child process
until the file named by HIERA_TEST_ANALYSIS_GATE does, so a test can hold either in progress for as
long as it needs instead of racing work that happens to be quick."""

import os
import time

_GATE = os.environ.get("HIERA_TEST_PARSE_GATE")
_LARGE = 100_000  # bytes: the test's large file, never its small ones

if _GATE:
    import hiera_lsp.documents

    _parse = hiera_lsp.documents.parse

    def _gated_parse(language, data, old):
        deadline = time.monotonic() + 120
        while len(data) > _LARGE and not os.path.exists(_GATE) and time.monotonic() < deadline:
            time.sleep(0.01)
        return _parse(language, data, old)

    hiera_lsp.documents.parse = _gated_parse

_ANALYSIS_GATE = os.environ.get("HIERA_TEST_ANALYSIS_GATE")

if _ANALYSIS_GATE:  # also loaded by the analysis child (spawned with the server's environment)
    import hiera_lsp.diagnostics

    _analyze = hiera_lsp.diagnostics.analyze_in_child

    def _gated_analysis(path, data, config):
        deadline = time.monotonic() + 120
        while not os.path.exists(_ANALYSIS_GATE) and time.monotonic() < deadline:
            time.sleep(0.01)
        return _analyze(path, data, config)

    hiera_lsp.diagnostics.analyze_in_child = _gated_analysis
